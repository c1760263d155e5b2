"""Where a ModelTrainer job's own objects go, what they hold, and their upload (the session's S3 methods).

SDK v3 uploads the code folder and its driver folder as two channels under
``s3://<default bucket>/<input_s3_key_prefix or base job name>/<job name>/input/<channel>``; so do we
(the driver files are this package's: ``train._driver``). The locations are facts of the request,
rendered with it; the upload happens between the runner's own upload and the create call.
"""
import os

from sagemaker_hetero._request import s3_uris
from sagemaker_hetero.core.training.configs import SourceCode
from sagemaker_hetero.exceptions import ConfigError, Problem
from sagemaker_hetero.train import _driver
from sagemaker_hetero.train.distributed import DistributedConfig

__all__ = ["CONTAINER_ENTRYPOINT", "CONTAINER_ARGUMENTS", "Locations", "source_problems", "distributed_problems",
           "driver_files", "upload"]

CONTAINER_ENTRYPOINT = list(_driver.CONTAINER_ENTRYPOINT)
CONTAINER_ARGUMENTS = list(_driver.CONTAINER_ARGUMENTS)


class Locations(object):
    """The S3 URIs SDK v3 derives from the default bucket, the base job name and the job name."""

    def __init__(self, facts, base, job_name, key_prefix=None, local_root=None):
        root = "s3://%s" % facts.bucket()
        if facts.default_bucket_prefix:
            root += "/" + facts.default_bucket_prefix.strip("/")
        self.root, self.base, self.job_name = root, base, job_name
        self.input_prefix = "%s/%s/input" % (key_prefix or base, job_name)
        #: a local run's: its channels are folders of this machine (the driver's under ``local_root``)
        self.local = bool(facts.local)
        self.local_root = os.path.abspath(local_root or os.getcwd())
        self.drivers_folder = None  # a local run's: the driver files, written once (:func:`local_drivers`)

    def output(self):
        """``OutputDataConfig.S3OutputPath``'s default: ``s3://<bucket>/<base job name>``."""
        return "%s/%s" % (self.root, self.base)

    def under(self, name):
        """``s3://<bucket>/<base>/<job>/<name>`` (the checkpoints' default)."""
        return "%s/%s/%s/%s" % (self.root, self.base, self.job_name, name)

    def uri(self, channel, local_path=None):
        """Where a channel SDK v3 uploads goes: ``s3://<bucket>/<prefix>/<job>/input/<channel>``; in a local
        run the folder ``local_path`` itself, or (the driver's) ``<local root>/<job>/input/<channel>``."""
        if self.local:
            folder = local_path if local_path else os.path.join(self.local_root, self.job_name, "input", channel)
            if channel == "sm_drivers" and self.drivers_folder is not None:
                folder = self.drivers_folder
            return "file://" + os.path.abspath(folder)
        return "%s/%s/%s" % (self.root, self.input_prefix, channel)


def _within(exists, folder, name, path, what):
    if name and not exists("file", os.path.join(folder, str(name))):
        return [Problem(path, "must be a file within source_dir %r (%s)" % (folder, what), name)]
    return []


def source_problems(source_code, distributed, exists):
    """SDK v3's rules on ``source_code`` (a local ``source_dir`` must exist, with the entry script and
    requirements in it) and the driver's (an entry script or a command; Torchrun and MPI need a script)."""
    if source_code is None:
        return [Problem("distributed", "needs source_code with an entry_script", distributed)] if distributed else []
    if not isinstance(source_code, SourceCode):
        return [Problem("source_code", "must be a SourceCode(source_dir=..., entry_script=...)", source_code)]
    found = []
    folder = source_code.source_dir
    if (source_code.entry_script or source_code.requirements) and not folder:
        found.append(Problem("source_code.source_dir", "must be given with entry_script or requirements", folder))
    elif folder and not str(folder).startswith("s3://"):
        if not exists("dir", str(folder)) and not (str(folder).endswith(".tar.gz") and exists("file", str(folder))):
            found.append(Problem("source_code.source_dir", "must be a local folder, an S3 URI or a .tar.gz file",
                                 folder))
        elif exists("dir", str(folder)):
            found.extend(_within(exists, str(folder), source_code.entry_script, "source_code.entry_script",
                                 "the script the job runs"))
            found.extend(_within(exists, str(folder), source_code.requirements, "source_code.requirements",
                                 "installed first"))
    try:
        _driver.files(source_code.model_dump(), _distributed_config(distributed))
    except ConfigError as exc:
        found.extend(exc.problems)
    return found


def _distributed_config(distributed):
    return distributed._driver_config() if isinstance(distributed, DistributedConfig) else None


def distributed_problems(distributed, compute):
    """``distributed``: a Torchrun or MPI; its ``instance_group_names`` one of ``compute``'s groups."""
    if distributed is None:
        return []
    if not isinstance(distributed, DistributedConfig):
        return [Problem("distributed", "must be Torchrun(...) or MPI(...)", distributed)]
    names = getattr(distributed, "instance_group_names", None)
    if names is None:
        return []
    groups = [getattr(g, "instance_group_name", None) for g in (getattr(compute, "instance_groups", None) or [])]
    if not groups:
        return [Problem("distributed.instance_group_names", "names an instance group, but compute has no "
                        "instance_groups (a homogeneous job runs the launcher on every host)", names)]
    if isinstance(names, (list, tuple)) and len(names) == 1 and names[0] not in groups:
        return [Problem("distributed.instance_group_names", "must name one of compute.instance_groups (%s)"
                        % ", ".join(map(str, groups)), names)]
    return []


def driver_files(source_code, distributed):
    """The ``sm_drivers`` channel's files (name -> bytes); none without source code."""
    if source_code is None:
        return {}
    return _driver.files(source_code.model_dump(), _distributed_config(distributed))


def local_drivers(files, local_root=None):
    """The folder holding ``files`` (name -> bytes) for a local run, named by their SHA-256 and written once
    (under ``local_root``, else the temporary folder): the driver channel of every local run of that code."""
    import hashlib
    import tempfile

    digest = hashlib.sha256()
    for name, body in sorted(files.items()):
        digest.update(name.encode("utf-8") + b"\0" + body + b"\0")
    base = os.path.join(os.path.abspath(local_root) if local_root else tempfile.gettempdir(),
                        "sagemaker-hetero-drivers")
    folder = os.path.join(base, digest.hexdigest())
    if not os.path.isdir(folder):
        partial = tempfile.mkdtemp(prefix=".partial-", dir=_made_folder(base))
        for name, body in files.items():
            with open(os.path.join(partial, name), "wb") as handle:
                handle.write(body)
        try:
            os.rename(partial, folder)
        except OSError:  # written meanwhile by another run: the same content
            import shutil

            shutil.rmtree(partial, ignore_errors=True)
    return folder


def _made_folder(path):
    os.makedirs(path, exist_ok=True)
    return path


def _channel_uris(request):
    out = {}
    for channel in request.get("InputDataConfig") or []:
        source = (channel.get("DataSource") or {}).get("S3DataSource") or {}
        if "S3Uri" in source:
            out[channel["ChannelName"]] = source["S3Uri"]
    return out


def _ignored(patterns):
    import fnmatch

    def ignore(folder, names):
        return set(n for n in names if any(fnmatch.fnmatch(n, p) for p in patterns or ()))

    return ignore


def upload(session, made, uploads, drivers, ignore_patterns=None):
    """Put the local folders of ``uploads`` (channel -> path) and the driver files where ``made``'s request
    says their channels are (a local session's channels are on this machine already: nothing to do)."""
    uris = _channel_uris(made.request)
    if session.local_mode:  # the channels are this machine's folders, the driver's written when planned
        return
    import shutil
    import tempfile

    for channel, path in sorted(uploads.items()):
        bucket, key = s3_uris.parse_s3_uri(uris[channel])
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, channel)
            if os.path.isdir(path):
                shutil.copytree(path, copy, ignore=_ignored(ignore_patterns))
            else:
                os.makedirs(copy)
                shutil.copy(path, copy)
            session.upload_data(copy, bucket=bucket, key_prefix=key)
    if drivers:
        bucket, key = s3_uris.parse_s3_uri(uris["sm_drivers"])
        for name, body in sorted(drivers.items()):
            session.upload_string_as_file_body(body.decode("utf-8"), bucket, "%s/%s" % (key, name))
