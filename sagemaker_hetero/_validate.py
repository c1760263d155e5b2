"""Every rule the SageMaker service would enforce on a training job, checked before any AWS call.

``problems(settings)`` walks a :class:`JobSettings` and returns every :class:`Problem` found; the
caller raises one :class:`ConfigError` with all of them. Paths name the user's own arguments
(``instance_groups[1].instance_count``, ``inputs['train'].instance_groups[0]``) so each problem
points at the line to change.
"""
import numbers
import re

from sagemaker_hetero import _defaults as D
from sagemaker_hetero import _hyperparameters, _images, _instance_types
from sagemaker_hetero._settings import NOT_GIVEN, group_name
from sagemaker_hetero.exceptions import Problem

__all__ = ["problems", "is_s3_uri", "did_you_mean"]

_S3_URI = re.compile(D.S3_URI_PATTERN)
_CHANNEL_NAME = re.compile(D.CHANNEL_NAME_PATTERN)
_JOB_NAME = re.compile(D.JOB_NAME_PATTERN)
_BASE_NAME = re.compile(r"[a-zA-Z0-9](-*[a-zA-Z0-9])*")  # cut to fit the 63 characters of a job name
_ENV_KEY = re.compile(D.ENVIRONMENT_KEY_PATTERN)
_ROLE_ARN = re.compile(D.ROLE_ARN_PATTERN)
_ROLE_NAME = re.compile(D.ROLE_NAME_PATTERN)
_KNOWN_STRATEGIES = (
    "mpi",
    "smdistributed",
    "torch_distributed",
    "pytorchddp",
    "parameter_server",
    "multi_worker_mirrored_strategy",
    "pytorchxla",
    "instance_groups",
)
_UNGROUPABLE = ("parameter_server", "multi_worker_mirrored_strategy")


def is_s3_uri(value):
    return isinstance(value, str) and value.startswith("s3://") and len(value) > 5 and value[5] != "/"


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def did_you_mean(word, choices, cutoff=0.6):
    """``"; did you mean 'x'?"`` naming the choice closest to ``word``, or ``""`` if none is close."""
    import difflib

    close = difflib.get_close_matches(str(word), sorted(choices), n=1, cutoff=cutoff)
    return "; did you mean %r?" % close[0] if close else ""


class _Collector(object):
    def __init__(self):
        self.items = []

    def add(self, path, message, value=Problem._MISSING):
        self.items.append(Problem(path, message, value))


def problems(settings, target="aws", path_exists=None, region=None):
    """Every problem with ``settings``; ``target`` is ``"aws"`` or ``"local"``.

    ``path_exists(kind, path)`` (``kind`` ``"file"`` or ``"dir"``) checks local code paths; the
    caller passes it in so this module stays free of I/O. With ``region``, the training image
    must exist there.
    """
    out = _Collector()
    groups = _check_cluster(settings, out)
    _check_role(settings, out)
    _check_image(settings, groups, out, region)
    _check_code(settings, out, path_exists)
    _check_channels(settings, groups, target, out)
    _check_distribution(settings, groups, out)
    _check_job(settings, target, out)
    _check_hyperparameters(settings, out)
    _check_environment(settings, out)
    _check_tags(settings, out)
    return out.items


# -- cluster -----------------------------------------------------------------------------------


def _check_instance_type(path, value, out):
    if not isinstance(value, str) or not value:
        out.add(path, "must be a SageMaker training instance type such as 'ml.m5.xlarge'", value)
        return False
    if not _instance_types.is_training_type(value):
        close = _instance_types.close_types(value)
        hint = "; did you mean %s?" % " or ".join(repr(c) for c in close) if close else ""
        out.add(path, "is not a SageMaker training instance type%s" % hint, value)
        return False
    return True


def _check_count(path, value, out):
    if not _is_int(value) or value < 1:
        out.add(path, "must be an integer >= 1", value)


def _check_cluster(settings, out):
    """Check the cluster; returns ``{name: (type, count)}`` of the well-formed groups."""
    from sagemaker_hetero.instance_group import InstanceGroup

    groups = {}
    has_type = settings.instance_type is not None
    has_count = settings.instance_count is not None
    if settings.instance_groups is not None:
        for path, given, value in (
            ("instance_type", has_type, settings.instance_type),
            ("instance_count", has_count, settings.instance_count),
        ):
            if given:
                out.add(path, "cannot be given together with instance_groups; describe every instance in the groups", value)
        gs = settings.instance_groups
        if not isinstance(gs, (list, tuple)):
            out.add("instance_groups", "must be a list of InstanceGroup", gs)
            return groups
        if not gs:
            out.add("instance_groups", "must hold at least one InstanceGroup", gs)
        if len(gs) > D.MAX_INSTANCE_GROUPS:
            out.add("instance_groups", "at most %d instance groups per job" % D.MAX_INSTANCE_GROUPS, len(gs))
        seen = set()
        for i, g in enumerate(gs):
            path = "instance_groups[%d]" % i
            if not isinstance(g, InstanceGroup):
                out.add(path, "must be an InstanceGroup(name, instance_type, instance_count)", g)
                continue
            name = g.instance_group_name
            name_ok = False
            if not isinstance(name, str):
                out.add(path + ".instance_group_name", "must be a string", name)
            elif not name:
                out.add(path + ".instance_group_name", "must not be empty", name)
            elif len(name) > D.MAX_GROUP_NAME:
                out.add(path + ".instance_group_name", "must be at most %d characters" % D.MAX_GROUP_NAME, name)
            elif name in seen:
                out.add(path + ".instance_group_name", "is used by another instance group; names must be unique", name)
            else:
                name_ok = True
            if isinstance(name, str):
                seen.add(name)
            _check_instance_type(path + ".instance_type", g.instance_type, out)
            _check_count(path + ".instance_count", g.instance_count, out)
            if name_ok:
                groups[name] = (g.instance_type, g.instance_count)
    else:
        if not has_type and not has_count:
            out.add("instance_groups", "give instance_groups, or instance_type and instance_count")
        elif not has_type:
            out.add("instance_type", "is required with instance_count", None)
        elif not has_count:
            out.add("instance_count", "is required with instance_type", None)
        if has_type:
            _check_instance_type("instance_type", settings.instance_type, out)
        if has_count:
            _check_count("instance_count", settings.instance_count, out)
    return groups


def _check_role(settings, out):
    role = settings.role
    if role is None:
        out.add("role", "is required: an IAM role ARN or role name that SageMaker can assume", None)
    elif not isinstance(role, str) or not (_ROLE_ARN.fullmatch(role) or _ROLE_NAME.fullmatch(role)):
        out.add(
            "role",
            "must be an IAM role ARN (arn:aws:iam::<12-digit account>:role/<name>) or a plain role name",
            role,
        )


# -- image and code ----------------------------------------------------------------------------


def _check_image(settings, groups, out, region=None):
    fw = settings.framework
    if settings.image_uri is not None:
        if not isinstance(settings.image_uri, str) or not settings.image_uri:
            out.add("image_uri", "must be an image URI", settings.image_uri)
    elif fw is None:
        out.add("image_uri", "is required for the generic Estimator", None)
    version = settings.framework_version
    if fw is None:
        return
    label = {"pytorch": "PyTorch", "tensorflow": "TensorFlow"}[fw]
    if version is None:
        if settings.image_uri is None:
            out.add("framework_version", "is required to choose the %s training image" % label, None)
        return
    if settings.is_hetero:
        minimum = D.HETERO_MIN_VERSION[fw]
        vt = _images.version_tuple(version)
        if vt and vt[: len(minimum)] < minimum:
            out.add(
                "framework_version",
                "heterogeneous clusters need %s %s or later" % (label, ".".join(map(str, minimum))),
                version,
            )
    if settings.image_uri is not None:
        return
    try:
        available = _images.py_versions(fw, version)
    except _images.ImageLookupError as e:
        out.add("framework_version", str(e), version)
        return
    if settings.py_version is None:
        out.add("py_version", "is required (%s %s images: %s)" % (label, version, ", ".join(available)), None)
    elif settings.py_version not in available:
        out.add(
            "py_version",
            "no %s %s training image for this Python (available: %s)" % (label, version, ", ".join(available)),
            settings.py_version,
        )
    elif region is not None:
        types = [t for t, _ in groups.values()] if settings.is_hetero else [settings.instance_type]
        try:
            _images.image_uri(fw, version, settings.py_version, _images.processor_for(types), region)
        except _images.ImageLookupError as e:
            out.add("region", str(e), region)


def _check_code(settings, out, path_exists):
    entry, source = settings.entry_point, settings.source_dir
    if settings.framework is not None and entry is None:
        out.add("entry_point", "is required: the script every host runs", None)
    if settings.framework is None and entry is None and source is not None:
        out.add("entry_point", "is required when source_dir is given", None)
    if entry is not None and (not isinstance(entry, str) or not entry):
        out.add("entry_point", "must be a file path", entry)
        entry = None
    if source is not None and (not isinstance(source, str) or not source):
        out.add("source_dir", "must be a directory path or an S3 URI of a .tar.gz", source)
        source = None
    if source is not None and source.startswith("s3://") and not source.endswith(".tar.gz"):
        out.add("source_dir", "an S3 source_dir must be a .tar.gz archive", source)
    if entry is not None and entry.startswith("s3://"):
        out.add("entry_point", "must be a local file (put S3 code in source_dir as a .tar.gz)", entry)
        entry = None
    deps = settings.dependencies
    if deps is not None and not isinstance(deps, (list, tuple)):
        out.add("dependencies", "must be a list of local paths", deps)
        deps = None
    if path_exists is None:
        return
    if source is not None and not source.startswith("s3://"):
        if not path_exists("dir", source):
            out.add("source_dir", "is not a directory", source)
        elif entry is not None and not path_exists("file", _join(source, entry)):
            out.add("entry_point", "is not a file inside source_dir %r" % source, entry)
    elif entry is not None and source is None and not path_exists("file", entry):
        out.add("entry_point", "is not a file", entry)
    for i, dep in enumerate(deps or ()):
        if not isinstance(dep, str) or not path_exists("any", dep):
            out.add("dependencies[%d]" % i, "is not a file or directory", dep)


def _join(a, b):
    return a.rstrip("/") + "/" + b


# -- channels ----------------------------------------------------------------------------------


def _check_uri(path, value, target, out, what="an S3 URI (s3://bucket/prefix)", allow_local=False):
    if allow_local and target == "local" and isinstance(value, str) and not value.startswith("s3://"):
        return
    if not isinstance(value, str) or not value:
        out.add(path, "must be %s" % what, value)
    elif len(value) > D.MAX_S3_URI:
        out.add(path, "must be at most %d characters" % D.MAX_S3_URI, value)
    elif not is_s3_uri(value):
        if value.startswith("s3://"):
            out.add(path, "names no bucket; expected %s" % what, value)
        else:
            out.add(path, "must be %s" % what, value)


def _check_enum(path, value, allowed, out):
    if value is not None and value not in allowed:
        out.add(path, "must be one of %s" % ", ".join(allowed), value)


def _check_channels(settings, groups, target, out):
    from sagemaker_hetero.inputs import ShuffleConfig, TrainingInput

    if settings.inputs_problem:
        out.add("inputs", settings.inputs_problem, settings.channels)
        return
    channels = list(settings.channels)
    count = len(channels) + (settings.model_uri is not None)
    count += bool(settings.enable_network_isolation and settings.has_code)  # the code channel
    if count > D.MAX_CHANNELS:
        out.add("inputs", "at most %d channels per job (model and code channels included)" % D.MAX_CHANNELS, count)
    assigned, unassigned = [], []
    seen = set()
    for name, value in channels:
        path = "inputs[%r]" % (name,)
        if not isinstance(name, str) or not _CHANNEL_NAME.fullmatch(name) or len(name) > D.MAX_CHANNEL_NAME:
            out.add(
                path,
                "channel names are 1-%d characters of letters, digits, '.', '-' and '_'" % D.MAX_CHANNEL_NAME,
                name,
            )
        elif name in seen:
            out.add(path, "channel names must be unique", name)
        seen.add(name)
        if name == settings.model_channel_name and settings.model_uri is not None:
            out.add(path, "is also the model channel (model_channel_name); rename one", name)
        if name == D.CODE_CHANNEL and settings.enable_network_isolation and settings.has_code:
            out.add(path, "is the code channel of a network-isolated job; rename it", name)
        if isinstance(value, str):
            _check_uri(path, value, target, out, allow_local=True)
            unassigned.append(name)
            continue
        if not isinstance(value, TrainingInput):
            out.add(path, "must be an S3 URI or a TrainingInput", value)
            continue
        _check_uri(path + ".s3_data", value.s3_data, target, out, allow_local=True)
        _check_enum(path + ".s3_data_type", value.s3_data_type, D.S3_DATA_TYPES, out)
        _check_enum(path + ".distribution", value.distribution, D.S3_DISTRIBUTIONS, out)
        _check_enum(path + ".input_mode", value.input_mode, D.INPUT_MODES, out)
        _check_enum(path + ".compression", value.compression, D.COMPRESSIONS, out)
        _check_enum(path + ".record_wrapping", value.record_wrapping, D.RECORD_WRAPPERS, out)
        if value.content_type is not None and not isinstance(value.content_type, str):
            out.add(path + ".content_type", "must be a string", value.content_type)
        if value.target_attribute_name is not None:
            out.add(
                path + ".target_attribute_name",
                "is for AutoML jobs; a training job channel has no target attribute",
                value.target_attribute_name,
            )
        if value.attribute_names is not None:
            names = value.attribute_names
            if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) and n for n in names):
                out.add(path + ".attribute_names", "must be a list of attribute names", names)
            elif len(names) > D.MAX_ATTRIBUTE_NAMES:
                out.add(path + ".attribute_names", "at most %d names" % D.MAX_ATTRIBUTE_NAMES, len(names))
        sc = value.shuffle_config
        if sc is not None and not (isinstance(sc, ShuffleConfig) and _is_int(sc.seed)):
            out.add(path + ".shuffle_config", "must be ShuffleConfig(seed) with an integer seed", sc)
        refs = value.instance_groups
        if refs is None:
            unassigned.append(name)
            continue
        assigned.append(name)
        _check_group_refs(path + ".instance_groups", refs, settings, groups, out)
    if assigned and unassigned:
        out.add(
            "inputs",
            "if any channel names instance groups, every channel must: %s name groups, %s do not"
            % (", ".join(map(repr, assigned)), ", ".join(map(repr, unassigned))),
        )


def _check_group_refs(path, refs, settings, groups, out):
    from sagemaker_hetero.instance_group import InstanceGroup

    if not isinstance(refs, (list, tuple)):
        out.add(path, "must be a list of instance group names", refs)
        return
    if not refs:
        out.add(path, "must name at least one instance group (or leave instance_groups out)", refs)
        return
    if not settings.is_hetero:
        out.add(path, "names instance groups, but the estimator has no instance_groups", refs)
        return
    if len(refs) > D.MAX_GROUPS_PER_CHANNEL:
        out.add(path, "at most %d instance groups per channel" % D.MAX_GROUPS_PER_CHANNEL, len(refs))
    names = []
    for i, ref in enumerate(refs):
        name = group_name(ref)
        if not isinstance(name, str):
            out.add("%s[%d]" % (path, i), "must be an instance group name or InstanceGroup", ref)
            continue
        if name in names:
            out.add("%s[%d]" % (path, i), "names the same instance group twice", name)
        names.append(name)
        if name not in groups:
            out.add("%s[%d]" % (path, i), "is not an instance group of this job (groups: %s)" % _names(groups), name)
        elif isinstance(ref, InstanceGroup) and (ref.instance_type, ref.instance_count) != groups[name]:
            out.add(
                "%s[%d]" % (path, i),
                "has the name of a group of this job but another type or count (%s x %s)"
                % (groups[name][1], groups[name][0]),
                ref,
            )


def _names(groups):
    return ", ".join(map(repr, groups)) or "none"


# -- distribution ------------------------------------------------------------------------------


def _enabled(dist, key):
    value = dist.get(key)
    return isinstance(value, dict) and value.get("enabled", False) is True


def _check_distribution(settings, groups, out):
    dist = settings.distribution
    if dist is None:
        return
    if settings.framework is None:
        out.add("distribution", "is for the PyTorch and TensorFlow estimators", dist)
        return
    if not isinstance(dist, dict):
        out.add("distribution", "must be a dict such as {'mpi': {'enabled': True}}", dist)
        return
    for key in dist:
        if key not in _KNOWN_STRATEGIES:
            hint = did_you_mean(key, _KNOWN_STRATEGIES)
            out.add("distribution.%s" % key, "is not a distribution strategy%s" % hint, key)
        elif key != "instance_groups" and not isinstance(dist[key], dict):
            out.add("distribution.%s" % key, "must be a dict such as {'enabled': True}", dist[key])
    strategies = [k for k in dist if k != "instance_groups" and _enabled(dist, k)]
    malformed = any(k != "instance_groups" and not isinstance(v, dict) for k, v in dist.items())
    smdist = dist.get("smdistributed") if isinstance(dist.get("smdistributed"), dict) else {}
    smddp = _enabled(smdist, "dataparallel") or _enabled(dist, "pytorchddp")
    smmp = _enabled(smdist, "modelparallel")
    if isinstance(dist.get("smdistributed"), dict):
        for key in smdist:
            if key not in ("dataparallel", "modelparallel"):
                out.add("distribution.smdistributed.%s" % key, "must be dataparallel or modelparallel", key)
        if smddp or smmp:
            strategies.append("smdistributed")
        strategies = [s for s in strategies if s != "smdistributed" or smddp or smmp]
    if settings.framework == "tensorflow":
        for key in ("torch_distributed", "pytorchddp", "pytorchxla"):
            if key in dist:
                out.add("distribution.%s" % key, "is a PyTorch strategy; TensorFlow supports mpi, smdistributed, "
                        "parameter_server and multi_worker_mirrored_strategy", key)
    elif settings.framework == "pytorch":
        for key in ("parameter_server", "multi_worker_mirrored_strategy"):
            if key in dist:
                out.add("distribution.%s" % key, "is a TensorFlow strategy", key)
    if _enabled(dist, "mpi") and smddp:
        out.add(
            "distribution",
            "mpi and smdistributed dataparallel exclude each other; enable one",
            sorted(k for k in dist if k != "instance_groups"),
        )
    if smddp and smmp:
        out.add("distribution.smdistributed", "dataparallel and modelparallel exclude each other", smdist)
    if smmp and not _enabled(dist, "mpi"):
        out.add("distribution.mpi", "smdistributed modelparallel runs under MPI: enable mpi too", dist.get("mpi"))
    mpi = dist.get("mpi") if isinstance(dist.get("mpi"), dict) else {}
    pph = mpi.get("processes_per_host")
    if pph is not None and (not _is_int(pph) or pph < 1):
        out.add("distribution.mpi.processes_per_host", "must be an integer >= 1", pph)
    opts = mpi.get("custom_mpi_options")
    if opts is not None and not isinstance(opts, str):
        out.add("distribution.mpi.custom_mpi_options", "must be a string", opts)

    group = _distribution_group(settings, dist, groups, strategies or malformed, out)
    if smddp:
        itype = groups[group][0] if group in groups else settings.instance_type
        where = "distribution.instance_groups" if settings.is_hetero else "instance_type"
        if isinstance(itype, str):
            if not _images.GPU_FAMILY.match(itype):
                out.add(where, "smdistributed dataparallel needs GPU instances; %s has none" % itype, itype)
            elif not _smddp_type(itype):
                out.add(
                    where,
                    "smdistributed dataparallel supports %s and p5 or newer p types" % ", ".join(D.SMDDP_INSTANCE_TYPES),
                    itype,
                )


def _smddp_type(itype):
    if itype in D.SMDDP_INSTANCE_TYPES:
        return True
    m = re.match(r"ml\.p(\d+)", itype)
    return bool(m) and int(m.group(1)) >= 5


def _distribution_group(settings, dist, groups, strategies, out):
    """Check which group the distribution is tied to; return its name (or None)."""
    refs = dist.get("instance_groups", NOT_GIVEN)
    if not settings.is_hetero:
        if refs is not NOT_GIVEN:
            out.add("distribution.instance_groups", "names instance groups, but the estimator has no instance_groups", refs)
        return None
    for key in _UNGROUPABLE:
        if key in dist:
            out.add(
                "distribution.%s" % key,
                "cannot be tied to one instance group; heterogeneous clusters support mpi, smdistributed and "
                "torch_distributed",
                key,
            )
    if refs is NOT_GIVEN or refs is None:
        if len(settings.instance_groups) > 1:
            out.add(
                "distribution.instance_groups",
                "must name the one instance group that runs the distributed training (groups: %s)" % _names(groups),
                None,
            )
            return None
        only = settings.instance_groups[0] if settings.instance_groups else None
        name = group_name(only) if only is not None else None
        if not strategies:
            out.add("distribution", "enables no strategy", dist)
        return name
    if not isinstance(refs, (list, tuple)):
        out.add("distribution.instance_groups", "must be a list naming one instance group", refs)
        return None
    if len(refs) != 1:
        out.add("distribution.instance_groups", "must name exactly one instance group", [group_name(r) for r in refs])
        return None
    before = len(out.items)
    _check_group_refs("distribution.instance_groups", refs, settings, groups, out)
    if not strategies:
        out.add(
            "distribution",
            "names instance group %r but enables no strategy (mpi, smdistributed or torch_distributed)"
            % (group_name(refs[0]),),
            dist,
        )
    return group_name(refs[0]) if len(out.items) == before else None


# -- job settings ------------------------------------------------------------------------------


def _check_int_range(path, value, low, high, out, unit=""):
    if value is None:
        return
    if not _is_int(value):
        out.add(path, "must be an integer", value)
    elif value < low or (high is not None and value > high):
        if high is None:
            out.add(path, "must be >= %d%s" % (low, unit), value)
        else:
            out.add(path, "must be between %d and %d%s" % (low, high, unit), value)


def _check_job(settings, target, out):
    s = settings
    if s.job_name is not None:
        name = s.job_name
        if not isinstance(name, str) or not name:
            out.add("job_name", "must be a non-empty string", name)
        elif len(name) > D.MAX_JOB_NAME:
            out.add("job_name", "must be at most %d characters" % D.MAX_JOB_NAME, name)
        elif not _JOB_NAME.fullmatch(name):
            out.add("job_name", "may hold only letters, digits and hyphens, starting with a letter or digit", name)
    if s.base_job_name is not None and s.job_name is None:
        base = s.base_job_name
        if not isinstance(base, str) or not base or not _BASE_NAME.fullmatch(base):
            out.add("base_job_name", "may hold only letters, digits and hyphens, starting with a letter or digit", base)
    if s.max_run is None or not _is_int(s.max_run):
        out.add("max_run", "must be a number of seconds", s.max_run)
    else:
        _check_int_range("max_run", s.max_run, 1, D.MAX_RUN_LIMIT_SECONDS, out, " seconds (28 days)")
    if s.use_spot_instances:
        if s.max_wait is None:
            out.add("max_wait", "is required with use_spot_instances", None)
    if s.max_wait is not None:
        if not _is_int(s.max_wait) or s.max_wait < 1:
            out.add("max_wait", "must be an integer number of seconds >= 1", s.max_wait)
        elif _is_int(s.max_run) and s.max_wait < s.max_run:
            out.add("max_wait", "must be >= max_run (%d)" % s.max_run, s.max_wait)
        if not s.use_spot_instances:
            out.add("max_wait", "is only for managed spot training (use_spot_instances=True)", s.max_wait)
    if not _is_int(s.volume_size) or s.volume_size < 1:
        out.add("volume_size", "must be an integer number of GB >= 1", s.volume_size)
    _check_enum("input_mode", s.input_mode, D.INPUT_MODES, out)
    if s.input_mode is None:
        out.add("input_mode", "must be one of %s" % ", ".join(D.INPUT_MODES), None)
    _check_int_range("keep_alive_period_in_seconds", s.keep_alive_period_in_seconds, D.KEEP_ALIVE_RANGE[0],
                     D.KEEP_ALIVE_RANGE[1], out, " seconds")
    _check_int_range("max_retry_attempts", s.max_retry_attempts, D.RETRY_ATTEMPTS_RANGE[0], D.RETRY_ATTEMPTS_RANGE[1], out)
    if s.output_path is not None:
        if target == "local" and isinstance(s.output_path, str) and s.output_path.startswith("file://"):
            pass
        else:
            what = "an S3 URI (s3://bucket/prefix)" + (" or a file:// URI" if target == "local" else "")
            _check_uri("output_path", s.output_path, "aws", out, what=what)
    if s.code_location is not None:
        _check_uri("code_location", s.code_location, "aws", out)
    if s.checkpoint_s3_uri is not None:
        _check_uri("checkpoint_s3_uri", s.checkpoint_s3_uri, "aws", out)
    if s.checkpoint_local_path is not None and s.checkpoint_s3_uri is None:
        out.add("checkpoint_local_path", "needs checkpoint_s3_uri", s.checkpoint_local_path)
    if s.model_uri is not None:
        _check_uri("model_uri", s.model_uri, target, out, allow_local=True)
    subnets, sgs = s.subnets, s.security_group_ids
    if (subnets is None) != (sgs is None) or (subnets == []) != (sgs == []):
        given, missing = ("subnets", "security_group_ids") if subnets else ("security_group_ids", "subnets")
        out.add(missing, "is required with %s (a VPC needs both)" % given, s.security_group_ids if subnets else s.subnets)
    for path, value, limit in (("subnets", subnets, D.MAX_SUBNETS), ("security_group_ids", sgs, D.MAX_SECURITY_GROUPS)):
        if value is None:
            continue
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v for v in value):
            out.add(path, "must be a list of IDs", value)
        elif len(value) > limit:
            out.add(path, "at most %d" % limit, len(value))
    if not isinstance(s.container_log_level, int) or isinstance(s.container_log_level, bool):
        out.add("container_log_level", "must be a logging level such as logging.INFO (20)", s.container_log_level)
    md = s.metric_definitions
    if md is not None:
        if not isinstance(md, (list, tuple)):
            out.add("metric_definitions", "must be a list of {'Name': ..., 'Regex': ...}", md)
        else:
            if len(md) > D.MAX_METRIC_DEFINITIONS:
                out.add("metric_definitions", "at most %d metric definitions" % D.MAX_METRIC_DEFINITIONS, len(md))
            for i, m in enumerate(md):
                if not isinstance(m, dict) or set(m) != {"Name", "Regex"} or not all(
                    isinstance(v, str) and v for v in m.values()
                ):
                    out.add("metric_definitions[%d]" % i, "must be {'Name': str, 'Regex': str}", m)
    for path in ("debugger_hook_config", "profiler_config"):
        value = getattr(s, path)
        if value in (None, False, True) or isinstance(value, dict) or hasattr(value, "_to_request_dict"):
            if isinstance(value, dict) and "S3OutputPath" in value:
                _check_uri(path + "['S3OutputPath']", value["S3OutputPath"], "aws", out)
            continue
        out.add(path, "must be a dict in the request's format, True, False or None", value)
    ec = s.experiment_config
    if ec is not None:
        allowed = ("ExperimentName", "TrialName", "TrialComponentDisplayName", "RunName")
        if not isinstance(ec, dict):
            out.add("experiment_config", "must be a dict with keys among %s" % ", ".join(allowed), ec)
        else:
            for key in ec:
                if key not in allowed:
                    out.add("experiment_config[%r]" % (key,), "is not one of %s" % ", ".join(allowed), key)


def _check_hyperparameters(settings, out):
    hps = settings.hyperparameters
    if hps is None:
        hps = {}
    if not isinstance(hps, dict):
        out.add("hyperparameters", "must be a dict", hps)
        return
    encode = _hyperparameters.encoder(settings)
    for key, value in hps.items():
        path = "hyperparameters[%r]" % (key,)
        if not isinstance(key, str):
            out.add(path, "keys must be strings", key)
            continue
        if len(key) > D.MAX_HYPERPARAMETER_KEY:
            out.add(path, "key must be at most %d characters" % D.MAX_HYPERPARAMETER_KEY, key)
        try:
            text = encode(value)
        except (TypeError, ValueError):
            out.add(path, "must be JSON-serialisable", value)
            continue
        if len(text) > D.MAX_HYPERPARAMETER_VALUE:
            out.add(
                path,
                "encoded value must be at most %d characters (is %d)" % (D.MAX_HYPERPARAMETER_VALUE, len(text)),
                value,
            )
    sdk = _hyperparameters.sdk_keys(settings)
    for key in hps:
        if key in sdk:
            out.add("hyperparameters[%r]" % (key,), "is set by the SDK itself; remove it", key)
    total = len(set(hps) | set(sdk))
    if total > D.MAX_HYPERPARAMETERS:
        out.add(
            "hyperparameters",
            "at most %d hyperparameters, the SDK's own %d included" % (D.MAX_HYPERPARAMETERS, len(sdk)),
            total,
        )


def _check_environment(settings, out):
    env = settings.environment
    if env is None:
        return
    if not isinstance(env, dict):
        out.add("environment", "must be a dict of variable name to value", env)
        return
    if len(env) > D.MAX_ENVIRONMENT:
        out.add("environment", "at most %d variables" % D.MAX_ENVIRONMENT, len(env))
    for key, value in env.items():
        path = "environment[%r]" % (key,)
        if not isinstance(key, str) or not _ENV_KEY.fullmatch(key):
            out.add(path, "variable names are letters, digits and '_', not starting with a digit", key)
        elif len(key) > D.MAX_ENVIRONMENT_KEY:
            out.add(path, "name must be at most %d characters" % D.MAX_ENVIRONMENT_KEY, key)
        if not isinstance(value, str):
            out.add(path, "value must be a string", value)
        elif len(value) > D.MAX_ENVIRONMENT_VALUE:
            out.add(path, "value must be at most %d characters" % D.MAX_ENVIRONMENT_VALUE, value)


def tag_list(tags):
    """Tags as ``[{"Key", "Value"}]`` from that form or a ``{key: value}`` dict."""
    if isinstance(tags, dict):
        return [{"Key": k, "Value": v} for k, v in tags.items()]
    return list(tags)


def _check_tags(settings, out):
    tags = settings.tags
    if tags is None:
        return
    if not isinstance(tags, (list, tuple, dict)):
        out.add("tags", "must be a list of {'Key': ..., 'Value': ...} or a dict", tags)
        return
    tags = tag_list(tags)
    if len(tags) > D.MAX_TAGS:
        out.add("tags", "at most %d tags" % D.MAX_TAGS, len(tags))
    keys = set()
    for i, tag in enumerate(tags):
        path = "tags[%d]" % i
        if not isinstance(tag, dict) or set(tag) != {"Key", "Value"}:
            out.add(path, "must be {'Key': str, 'Value': str}", tag)
            continue
        key, value = tag["Key"], tag["Value"]
        if not isinstance(key, str) or not 1 <= len(key) <= D.MAX_TAG_KEY:
            out.add(path + ".Key", "must be 1-%d characters" % D.MAX_TAG_KEY, key)
        elif key.lower().startswith("aws:"):
            out.add(path + ".Key", "keys starting with 'aws:' are reserved by AWS", key)
        elif key in keys:
            out.add(path + ".Key", "is used by another tag", key)
        keys.add(key)
        if not isinstance(value, str) or len(value) > D.MAX_TAG_VALUE:
            out.add(path + ".Value", "must be a string of at most %d characters" % D.MAX_TAG_VALUE, value)

