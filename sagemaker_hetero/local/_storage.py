"""Where a local job's bytes come from and go to: local folders, ``file://`` URIs and S3.

The local bucket ``s3://sagemaker-hetero-local/KEY`` (the default bucket of a :class:`LocalSession`)
is the file ``<root>/KEY``. Any other ``s3://`` URI is read or written with boto3, imported here on
first use only (``_aws.clients``), with the session's boto3 configuration (so ``AWS_ENDPOINT_URL``
and profiles apply). S3 URIs are read with ``_request.s3_uris``; how the data then reaches each
host's folders (links, hard-linked trees) is ``_trees``.
"""
import os
import posixpath
import shutil
import tempfile

from sagemaker_hetero._request.s3_uris import parse_s3_uri

__all__ = ["LOCAL_BUCKET", "escapes_root", "Storage", "file_uri", "path_of_file_uri"]

LOCAL_BUCKET = "sagemaker-hetero-local"
_CHUNK = 1 << 20


def file_uri(path):
    """``file:///absolute/path`` of a local path."""
    return "file://" + os.path.abspath(path)


def path_of_file_uri(uri):
    """The local path of ``file://PATH`` (a relative PATH is taken from the working directory)."""
    return os.path.abspath(uri[len("file://"):])


def escapes_root(uri):
    """Whether ``uri`` is a local-bucket URI whose key has a ``..`` segment: on S3 such a key is a
    name like any other, but as ``<root>/KEY`` it would name a path outside the root."""
    if not isinstance(uri, str) or not uri.startswith("s3://"):
        return False
    bucket, key = parse_s3_uri(uri)
    return bucket == LOCAL_BUCKET and ".." in key.split("/")


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
            bucket, key = parse_s3_uri(uri)
            if bucket == LOCAL_BUCKET:
                parts = [p for p in key.split("/") if p]
                if ".." in parts:  # LocalSession.check reports it first (escapes_root)
                    raise ValueError("%s names a path outside the local root %s" % (uri, self.root))
                return os.path.join(self.root, *parts)
        return None

    def file_uri_of(self, uri):
        """``uri`` as a ``file://`` URI when it is local, else unchanged."""
        path = self.local_path(uri)
        return uri if path is None else file_uri(path)

    # -- S3 ------------------------------------------------------------------------------------

    def _client(self):
        if self._s3 is None:
            from sagemaker_hetero._aws import clients

            session = self._boto_session or clients.new_boto_session(region_name=self.region)
            self._s3 = session.client("s3", region_name=session.region_name or self.region)
        return self._s3

    def _call(self, operation, **params):
        from sagemaker_hetero._aws import errors

        return errors.call(self._client(), operation, **params)

    def _keys(self, bucket, prefix):
        """The keys under ``prefix``, folders left out; the whole listing is read before any is used."""
        from sagemaker_hetero._aws import s3_data

        listed = s3_data.listed(lambda **page: self._call("ListObjectsV2", **page), {"Bucket": bucket, "Prefix": prefix})
        return [key for key, _ in listed if not key.endswith("/")]

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
        bucket, prefix = parse_s3_uri(uri)
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
        bucket, key = parse_s3_uri(uri)
        self._download(bucket, key, dest)

    def put(self, path, uri):
        """Copy the local file ``path`` to ``uri`` (a local path, ``file://`` or ``s3://``)."""
        local = self.local_path(uri)
        if local is not None or "://" not in uri:
            local = local or uri
            os.makedirs(os.path.dirname(local), exist_ok=True)
            if os.path.abspath(path) != os.path.abspath(local):
                # a new file of a name no one can foresee, renamed over the target (a link there is replaced)
                fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(local) + ".", suffix=".part",
                                           dir=os.path.dirname(local))
                try:
                    os.fchmod(fd, 0o644)
                    with os.fdopen(fd, "wb") as out, open(path, "rb") as source:
                        shutil.copyfileobj(source, out, _CHUNK)
                    os.replace(tmp, local)
                except BaseException:
                    _quietly_remove(tmp)
                    raise
            return
        bucket, key = parse_s3_uri(uri)
        with open(path, "rb") as body:
            self._call("PutObject", Bucket=bucket, Key=key, Body=body)


def _quietly_remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass
