"""Where a local job's bytes come from and go to: local folders, ``file://`` URIs and S3.

The local bucket ``s3://sagemaker-hetero-local/KEY`` (the default bucket of a :class:`LocalSession`)
is the file ``<root>/KEY``. Any other ``s3://`` URI is read or written with boto3, imported here on
first use only, with the session's boto3 configuration (so ``AWS_ENDPOINT_URL`` and profiles apply).
"""
import os
import posixpath
import shutil
import tarfile

__all__ = [
    "LOCAL_BUCKET",
    "Storage",
    "file_uri",
    "path_of_file_uri",
    "link_or_copy",
    "extract_archive",
]

LOCAL_BUCKET = "sagemaker-hetero-local"
_CHUNK = 1 << 20


def file_uri(path):
    """``file:///absolute/path`` of a local path."""
    return "file://" + os.path.abspath(path)


def path_of_file_uri(uri):
    """The local path of ``file://PATH`` (a relative PATH is taken from the working directory)."""
    return os.path.abspath(uri[len("file://"):])


def _split_s3(uri):
    bucket, _, key = uri[len("s3://"):].partition("/")
    return bucket, key


class Storage(object):
    """Reads and writes URIs for one session. ``boto_session``: a ``boto3.Session`` or ``None``."""

    def __init__(self, root, region, boto_session=None):
        self.root = root
        self.region = region
        self._boto_session = boto_session
        self._s3 = None

    # -- URIs ----------------------------------------------------------------------------------

    def local_path(self, uri):
        """The local path a URI stands for (``file://`` or the local bucket), else ``None``."""
        if uri.startswith("file://"):
            return path_of_file_uri(uri)
        if uri.startswith("s3://"):
            bucket, key = _split_s3(uri)
            if bucket == LOCAL_BUCKET:
                return os.path.join(self.root, *[p for p in key.split("/") if p])
        return None

    def file_uri_of(self, uri):
        """``uri`` as a ``file://`` URI when it is local, else unchanged."""
        path = self.local_path(uri)
        return uri if path is None else file_uri(path)

    # -- S3 ------------------------------------------------------------------------------------

    def _client(self):
        if self._s3 is None:
            import boto3

            session = self._boto_session or boto3.Session(region_name=self.region)
            self._s3 = session.client("s3", region_name=session.region_name or self.region)
        return self._s3

    def _call(self, operation, **params):
        from sagemaker_hetero import _aws_errors

        return _aws_errors.call(self._client(), operation, **params)

    def _keys(self, bucket, prefix):
        token = None
        while True:
            params = {"Bucket": bucket, "Prefix": prefix}
            if token:
                params["ContinuationToken"] = token
            page = self._call("ListObjectsV2", **params)
            for item in page.get("Contents") or ():
                if not item["Key"].endswith("/"):
                    yield item["Key"]
            token = page.get("NextContinuationToken")
            if not page.get("IsTruncated") or not token:
                return

    def _download(self, bucket, key, dest):
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        body = self._call("GetObject", Bucket=bucket, Key=key)["Body"]
        try:
            with open(dest, "wb") as handle:
                for chunk in iter(lambda: body.read(_CHUNK), b""):
                    handle.write(chunk)
        finally:
            body.close()

    # -- what the job needs --------------------------------------------------------------------

    def fetch_prefix(self, uri, dest):
        """Every object under the S3 prefix ``uri``, downloaded below the folder ``dest``.

        Paths are relative to the prefix when it names a folder (``s3://b/data`` holding
        ``data/x.csv`` gives ``x.csv``), else to the folder holding the prefix. Returns the count.
        """
        bucket, prefix = _split_s3(uri)
        folder = prefix.rstrip("/") + "/" if prefix else ""
        parent = prefix.rsplit("/", 1)[0] + "/" if "/" in prefix else ""
        count = 0
        for key in self._keys(bucket, prefix):
            if key.startswith(folder):
                rel = key[len(folder):]
            elif key == prefix:
                rel = posixpath.basename(key)
            else:
                rel = key[len(parent):]
            parts = [p for p in rel.split("/") if p not in ("", ".", "..")]
            if not parts:
                continue
            self._download(bucket, key, os.path.join(dest, *parts))
            count += 1
        os.makedirs(dest, exist_ok=True)
        return count

    def fetch_object(self, uri, dest):
        """Download the one object ``uri`` to the file ``dest``."""
        bucket, key = _split_s3(uri)
        self._download(bucket, key, dest)

    def put(self, path, uri):
        """Copy the local file ``path`` to ``uri`` (a local path, ``file://`` or ``s3://``)."""
        local = self.local_path(uri)
        if local is not None or "://" not in uri:
            local = local or uri
            os.makedirs(os.path.dirname(local), exist_ok=True)
            if os.path.abspath(path) != os.path.abspath(local):
                tmp = local + ".part"
                shutil.copyfile(path, tmp)
                os.replace(tmp, local)
            return
        bucket, key = _split_s3(uri)
        with open(path, "rb") as body:
            self._call("PutObject", Bucket=bucket, Key=key, Body=body)


def link_or_copy(source, dest):
    """A symbolic link ``dest`` -> ``source``; a copy where links cannot be made. Never changes ``source``."""
    parent = os.path.dirname(dest)
    if parent:
        os.makedirs(parent, exist_ok=True)
    try:
        os.symlink(source, dest, target_is_directory=os.path.isdir(source))
        return "link"
    except (OSError, NotImplementedError):
        if os.path.isdir(source):
            shutil.copytree(source, dest, symlinks=False)
        else:
            shutil.copy2(source, dest)
        return "copy"


def extract_archive(archive, dest):
    """Unpack the gzipped tar ``archive`` into ``dest``, refusing members that would land outside it."""
    dest = os.path.abspath(dest)
    with tarfile.open(archive, "r:*") as tar:
        members = []
        for member in tar.getmembers():
            target = os.path.abspath(os.path.join(dest, member.name))
            if target != dest and not target.startswith(dest + os.sep):
                raise ValueError("%s: member %r would be written outside %s" % (archive, member.name, dest))
            if member.issym() or member.islnk():
                link = os.path.abspath(os.path.join(os.path.dirname(target), member.linkname))
                if member.islnk():
                    link = os.path.abspath(os.path.join(dest, member.linkname))
                if link != dest and not link.startswith(dest + os.sep):
                    raise ValueError("%s: link %r points outside %s" % (archive, member.name, dest))
            if member.isdev():
                continue
            members.append(member)
        _extract(tar, dest, members)


def _extract(tar, dest, members):
    # Members are checked above; where tarfile has extraction filters (3.12+ and security
    # backports) say so explicitly, which also keeps 3.12-3.13 from warning.
    checked = getattr(tarfile, "tar_filter", None)
    if checked is not None:
        tar.extraction_filter = checked
    tar.extractall(dest, members=members)
