"""Where a local job's bytes come from and go to: local folders, ``file://`` URIs and S3.

The local bucket ``s3://sagemaker-hetero-local/KEY`` (the default bucket of a :class:`LocalSession`)
is the file ``<root>/KEY``. Any other ``s3://`` URI is read or written with boto3, imported here on
first use only, with the session's boto3 configuration (so ``AWS_ENDPOINT_URL`` and profiles apply).
"""
import copy
import os
import posixpath
import shutil
import struct
import sys
import tarfile
import zlib

from sagemaker_hetero.exceptions import ConfigError, Problem
from sagemaker_hetero.local import _private

__all__ = [
    "LOCAL_BUCKET",
    "escapes_root",
    "Storage",
    "file_uri",
    "path_of_file_uri",
    "link_or_copy",
    "link_files",
    "extract_archive",
    "PlainWriter",
    "walk_files",
    "Tree",
    "fits_in_memory",
    "unpacked_size",
]

LOCAL_BUCKET = "sagemaker-hetero-local"
_MEMORY_DIR = _private.MEMORY_DIR  # a tmpfs on Linux: code unpacked there costs no disk (memory_folder)
_MEMORY_LIMIT = 64 << 20  # the largest unpacked code put in memory (bytes), and at most 1/10 of its free space
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
            from sagemaker_hetero import _boto

            session = self._boto_session or _boto.new_boto_session(region_name=self.region)
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


def unpacked_size(archive):
    """The size of the gzipped ``archive`` unpacked, as its gzip trailer says (modulo 4 GiB), or None
    (not gzip, or over :data:`_MEMORY_LIMIT` packed: too large to keep in memory anyway)."""
    try:
        with open(archive, "rb") as handle:
            magic = handle.read(2)
            handle.seek(-4, os.SEEK_END)
            size = struct.unpack("<I", handle.read(4))[0]
            packed = handle.tell()
    except (OSError, struct.error):
        return None
    return size if magic == b"\x1f\x8b" and packed <= _MEMORY_LIMIT else None


def fits_in_memory(size):
    """Whether ``size`` bytes may go into :func:`memory_folder`: at most :data:`_MEMORY_LIMIT`, and a
    tenth of the free space."""
    if size is None or size > _MEMORY_LIMIT or not sys.platform.startswith("linux"):
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


def _inside(path, root):
    return path == root or path.startswith(root + os.sep)


def _unsafe(archive, member, why, hint):
    message = "%s: member %r %s; %s" % (archive, member, why, hint)
    return ConfigError([Problem("source_dir", message, member)])


# Members are checked before: where tarfile has filters, say so (3.12-3.13 warn without a filter).
_TRUSTED = {"filter": "fully_trusted"} if hasattr(tarfile, "fully_trusted_filter") else {}
_HINT = "the code archive must unpack inside its folder (rebuild it from a source_dir, or remove the member)"


def extract_archive(archive, dest, data_filter=None):
    """Unpack the tar ``archive`` into ``dest``; a member that would land outside it raises ``ConfigError``.

    An archive of folders and files only (as the code archives this project builds, which follow
    links) going to an empty folder is written directly, its names checked. Otherwise, with
    ``tarfile``'s ``data`` filter (Python 3.12, 3.11.4+, 3.10.12+, 3.9.17+, 3.8.17+) that filter
    checks every member. Without it (or ``data_filter=False``: for tests) members are extracted one
    by one, each checked against what is on disk at that moment, links resolved: a link written by
    an earlier member cannot lead a later one out. Device files are skipped either way.
    """
    dest = os.path.abspath(dest)
    os.makedirs(dest, exist_ok=True)
    if data_filter is None:
        data_filter = getattr(tarfile, "data_filter", None) is not None
    empty = not os.listdir(dest)
    if empty:
        plain = _plain_ustar(archive)
        if plain is not None:
            _write_plain(archive, dest, plain)
            return
    with tarfile.open(archive, "r:*") as tar:
        members = [m for m in tar.getmembers() if not (m.isdev() or m.isfifo())]
        if empty and not any(m.issym() or m.islnk() for m in members):
            _extract_plain(archive, tar, dest, members)
            return
        if data_filter:
            try:
                tar.extractall(dest, members=members, filter="data")
            except tarfile.FilterError as exc:
                raise _unsafe(archive, getattr(exc, "tarinfo", None) and exc.tarinfo.name,
                              "is refused (%s)" % (exc,), _HINT)
            return
        _extract_checked(archive, tar, dest, members)


_USTAR_MAGIC = b"ustar\x0000"  # POSIX ustar, as _archive writes it
_PLAIN_TYPES = {b"0": False, b"\0": False, b"5": True}  # regular file, folder


def _plain_ustar(archive):
    """The members of a gzipped POSIX ustar ``archive`` holding files and folders only (the archives
    ``_archive`` builds), read at once, as :func:`_write_plain` takes them. None for anything else (over
    :data:`_MEMORY_LIMIT` unpacked, PAX or GNU headers, links, a bad checksum...): ``tarfile`` reads
    those. Parsing the headers here costs a fraction of ``tarfile``'s objects per member."""
    size = unpacked_size(archive)
    if size is None or size > _MEMORY_LIMIT:  # held in this process while it is written
        return None
    try:
        with open(archive, "rb") as handle:
            packed = handle.read()
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        data = inflate.decompress(packed, _MEMORY_LIMIT + 1)
    except (OSError, zlib.error):
        return None
    if len(data) > _MEMORY_LIMIT or inflate.unconsumed_tail or inflate.unused_data or not inflate.eof:
        return None
    members, pos, end = [], 0, len(data)
    while pos + 512 <= end:
        block = data[pos:pos + 512]
        if not block.strip(b"\0"):
            view = memoryview(data)  # the end-of-archive marker
            return [(name, kind, mode, mtime, lambda out, a=start, b=start + size: out.write(view[a:b]))
                    for name, kind, mode, mtime, start, size in members]
        kind = _PLAIN_TYPES.get(block[156:157])
        try:
            checksum = int(block[148:156].strip(b" \0"), 8)
            size = int(block[124:136].strip(b" \0") or b"0", 8)
            mode = int(block[100:108].strip(b" \0") or b"0", 8)
            mtime = int(block[136:148].strip(b" \0") or b"0", 8)
            name = block[:100].split(b"\0", 1)[0]
            prefix = block[345:500].split(b"\0", 1)[0]
            name = (prefix + b"/" + name if prefix else name).decode("utf-8")
        except ValueError:  # base-256 numbers, names that are not UTF-8
            return None
        if kind is None or block[257:265] != _USTAR_MAGIC or \
                checksum != sum(block[:148]) + 256 + sum(block[156:]):
            return None
        if block[156:157] == b"\0" and name.endswith("/"):
            kind = True  # an old-style folder, as tarfile reads it
        start = pos + 512
        pos = start + (size + 511) // 512 * 512
        if pos > end:
            return None  # cut short
        members.append((name, kind, mode, mtime, start, 0 if kind else size))
    return None


class PlainWriter(object):
    """Writes folders and files of an archive into the empty folder ``dest``, as its members come
    (:meth:`add`, or called as ``_archive.write_archive``'s ``each``). With no link among them, a
    name without ``..`` that is not absolute stays inside, so the names are all there is to check;
    ``archive`` names the archive in the error."""

    def __init__(self, archive, dest):
        self.archive, self.dest = archive, dest
        self._made = {dest}

    def __call__(self, name, is_dir, mode, data):
        self.add(name, is_dir, mode, 0, None if data is None else (lambda out: out.write(data)))

    def add(self, name, is_dir, mode, mtime, copy):
        """One member: ``copy(out)`` writes a file's bytes; ``mtime`` is set on files."""
        parts = [p for p in name.split("/") if p not in ("", ".")]
        if name.startswith("/") or ".." in parts:
            raise _unsafe(self.archive, name, "would be written outside %s" % self.dest, _HINT)
        if not parts:
            return
        path = os.path.join(self.dest, *parts)
        folder = path if is_dir else os.path.dirname(path)
        if folder not in self._made:
            os.makedirs(folder, exist_ok=True)
            self._made.add(folder)
        if is_dir:
            return
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), (mode & 0o755) | 0o600)
        with os.fdopen(fd, "wb") as out:
            copy(out)
        os.utime(path, (mtime, mtime))


def _write_plain(archive, dest, members):
    """Write ``members`` (``(name, is_dir, mode, mtime, copy)``) with a :class:`PlainWriter`."""
    writer = PlainWriter(archive, dest)
    for member in members:
        writer.add(*member)


def _extract_plain(archive, tar, dest, members):
    """Folders and files only (``tarfile``'s members), into an empty ``dest`` (:func:`_write_plain`)."""
    _write_plain(archive, dest, (
        (m.name, m.isdir(), m.mode, m.mtime, lambda out, m=m: shutil.copyfileobj(tar.extractfile(m), out))
        for m in members))


def _extract_checked(archive, tar, dest, members):
    real_dest = os.path.realpath(dest)
    for member in members:
        if os.path.isabs(member.name):
            raise _unsafe(archive, member.name, "has an absolute path", _HINT)
        target = os.path.realpath(os.path.join(dest, member.name))
        if not _inside(target, real_dest):
            raise _unsafe(archive, member.name, "would be written outside %s (at %s)" % (dest, target), _HINT)
        if member.issym() or member.islnk():
            if os.path.isabs(member.linkname):
                raise _unsafe(archive, member.name, "links to the absolute path %r" % member.linkname, _HINT)
            if member.issym():
                base = os.path.dirname(os.path.join(dest, member.name))
            else:
                base = dest
            link = os.path.realpath(os.path.join(base, member.linkname))
            if not _inside(link, real_dest):
                raise _unsafe(archive, member.name, "links outside %s (to %s)" % (dest, link), _HINT)
        member = copy.copy(member)
        member.mode &= 0o755  # as the data filter: no set-id, sticky or group/other write bits
        member.uid, member.gid, member.uname, member.gname = os.getuid(), os.getgid(), "", ""
        tar.extract(member, dest, **_TRUSTED)
