"""A code archive unpacked into a folder, checked so that no member lands outside it.

An archive of folders and files only (as the code archives this package builds) going to an empty
folder is parsed here directly (:func:`_plain_ustar`) and written by :class:`PlainWriter`, which the
archive builder also feeds as it builds; anything else is extracted by ``tarfile``.
"""
import copy
import os
import shutil
import struct
import tarfile
import zlib

from sagemaker_hetero.exceptions import ConfigError, Problem

__all__ = ["extract_archive", "PlainWriter", "unpacked_size", "MEMORY_LIMIT"]

MEMORY_LIMIT = 64 << 20  # the largest unpacked code put in memory (bytes), and at most 1/10 of its free space


def unpacked_size(archive):
    """The size of the gzipped ``archive`` unpacked, as its gzip trailer says (modulo 4 GiB), or None
    (not gzip, or over :data:`MEMORY_LIMIT` packed: too large to keep in memory anyway)."""
    try:
        with open(archive, "rb") as handle:
            magic = handle.read(2)
            handle.seek(-4, os.SEEK_END)
            size = struct.unpack("<I", handle.read(4))[0]
            packed = handle.tell()
    except (OSError, struct.error):
        return None
    return size if magic == b"\x1f\x8b" and packed <= MEMORY_LIMIT else None


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
    :data:`MEMORY_LIMIT` unpacked, PAX or GNU headers, links, a bad checksum...): ``tarfile`` reads
    those. Parsing the headers here costs a fraction of ``tarfile``'s objects per member."""
    size = unpacked_size(archive)
    if size is None or size > MEMORY_LIMIT:  # held in this process while it is written
        return None
    try:
        with open(archive, "rb") as handle:
            packed = handle.read()
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        data = inflate.decompress(packed, MEMORY_LIMIT + 1)
    except (OSError, zlib.error):
        return None
    if len(data) > MEMORY_LIMIT or inflate.unconsumed_tail or inflate.unused_data or not inflate.eof:
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
