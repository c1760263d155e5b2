"""Where a local job's bytes come from and go to: local folders, ``file://`` URIs and S3.

The local bucket ``s3://sagemaker-hetero-local/KEY`` (the default bucket of a :class:`LocalSession`)
is the file ``<root>/KEY``. Any other ``s3://`` URI is read or written with boto3, imported here on
first use only, with the session's boto3 configuration (so ``AWS_ENDPOINT_URL`` and profiles apply).
"""
import os
import posixpath
import shutil
import sys
import tempfile

from sagemaker_hetero.local import _private, _untar

__all__ = [
    "LOCAL_BUCKET",
    "escapes_root",
    "Storage",
    "file_uri",
    "path_of_file_uri",
    "link_or_copy",
    "link_files",
    "walk_files",
    "Tree",
    "fits_in_memory",
]

LOCAL_BUCKET = "sagemaker-hetero-local"
_MEMORY_DIR = _private.MEMORY_DIR  # a tmpfs on Linux: code unpacked there costs no disk (memory_folder)
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
    bucket, key = _split_s3(uri)
    return bucket == LOCAL_BUCKET and ".." in key.split("/")


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
        bucket, key = _split_s3(uri)
        with open(path, "rb") as body:
            self._call("PutObject", Bucket=bucket, Key=key, Body=body)


def _quietly_remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def link_files(base, files, dest):
    """A symbolic link ``dest/REL`` -> ``base/REL`` for each file ``REL`` of ``files`` (copies where
    links cannot be made); each folder is made once."""
    made = set()
    for rel in files:
        target = os.path.join(dest, rel)
        parent = os.path.dirname(target)
        if parent not in made:
            os.makedirs(parent, exist_ok=True)
            made.add(parent)
        source = os.path.join(base, rel)
        try:
            os.symlink(source, target)
        except (OSError, NotImplementedError):
            shutil.copy2(source, target)


def link_or_copy(source, dest):
    """A symbolic link ``dest`` -> ``source``; a copy where links cannot be made. Never changes ``source``."""
    parent = os.path.dirname(dest)
    if parent:
        os.makedirs(parent, exist_ok=True)
    try:
        os.symlink(source, dest, target_is_directory=os.path.isdir(source))
        return "link"
    except (OSError, NotImplementedError):
        if os.path.isdir(source):  # links followed, as a link would show them; a link loop is not
            os.makedirs(dest, exist_ok=True)
            link_files(source, walk_files(source), dest)
        else:
            shutil.copy2(source, dest)
        return "copy"


class Tree(object):
    """A folder, listed once (on first use), to be given to several hosts as trees of hard links
    (:meth:`link_into`)."""

    def __init__(self, folder):
        self.folder = folder
        self._entries = None  # (relative path, "dir" | "file" | "link", link target), parents first

    @property
    def entries(self):
        if self._entries is None:
            self._entries = []
            self._list(self.folder, "")
        return self._entries

    def _list(self, path, prefix):
        with os.scandir(path) as found:
            entries = sorted(found, key=lambda e: e.name)
        for entry in entries:
            rel = prefix + entry.name
            if entry.is_symlink():
                self._entries.append((rel, "link", os.readlink(entry.path)))
            elif entry.is_dir():
                self._entries.append((rel, "dir", None))
                self._list(entry.path, rel + os.sep)
            else:
                self._entries.append((rel, "file", None))

    def link_into(self, dest):
        """``dest`` as a copy of the folder made of hard links (copies where links fail).

        Folders are made anew and symbolic links recreated, so what ``dest`` holds is its own; files
        share their contents with the folder (a file rewritten in place changes in both).
        """
        os.makedirs(dest, exist_ok=True)
        source = self.folder
        for rel, kind, target in self.entries:
            dst = os.path.join(dest, rel)
            if kind == "dir":
                os.mkdir(dst)
            elif kind == "link":
                os.symlink(target, dst)
            else:
                src = os.path.join(source, rel)
                try:
                    os.link(src, dst)
                except OSError:
                    shutil.copy2(src, dst)


def fits_in_memory(size):
    """Whether ``size`` bytes may go into :func:`memory_folder`: at most :data:`_untar.MEMORY_LIMIT`,
    and a tenth of the free space."""
    if size is None or size > _untar.MEMORY_LIMIT or not sys.platform.startswith("linux"):
        return False
    try:
        space = os.statvfs(_MEMORY_DIR)
    except OSError:
        return False
    return size * 10 <= space.f_bavail * space.f_frsize


def walk_files(folder, on_loop=None):
    """Relative paths (``/``-separated) of the files under ``folder``, sorted; links followed.

    A link to a folder that is being walked already (one of the folders above it: a loop) is
    skipped and its path given to ``on_loop``; other links, to folders seen elsewhere, are followed.
    """
    out = []

    def visit(path, prefix, above):
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            try:
                if entry.is_dir():
                    info = entry.stat()
                    key = (info.st_dev, info.st_ino)
                    if key in above:
                        if on_loop is not None:
                            on_loop(entry.path)
                        continue
                    visit(entry.path, prefix + entry.name + "/", above | {key})
                elif entry.is_file():
                    out.append(prefix + entry.name)
            except OSError:  # vanished, or a link that cannot be followed
                continue

    info = os.stat(folder)
    visit(folder, "", frozenset([(info.st_dev, info.st_ino)]))
    return sorted(out)
