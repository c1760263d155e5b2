"""A code archive unpacked into a new folder: nothing lands outside it, no link is followed, the size is bounded.

Every member is written relative to an open descriptor of its folder, one path component at a time,
with ``O_NOFOLLOW`` (:class:`Writer`): a member whose path passes through a symbolic link (one the
archive made, or one that was there) is refused, never followed, on every Python this package
supports. Neither ``os.path.realpath`` (which stops resolving past ``PATH_MAX``) nor ``tarfile``'s
``data`` filter (sound only in the newest patch releases) is relied on: ``tarfile`` only reads.

Before anything is written, the members are checked as a whole (:func:`check`): no absolute name,
no ``..``, names and link targets of at most :data:`MAX_NAME` characters and :data:`MAX_DEPTH`
folders; a symbolic link only to a relative target that, resolved component by component from its
own folder through the archive's links as they stand once it is unpacked, stays inside. The writer
then refuses a hard link to anything but a regular file written before it, an entry replacing a
folder, a path through a link or a file. Devices and FIFOs are skipped. Modes are masked as the
``data`` filter masks them (no set-id or sticky bit, no group/other write, a file its owner cannot
execute is executable by nobody, the owner reads and writes files; folders take the umask).

Sizes are counted, never trusted: the unpacked tar stream and the bytes written (sparse members
included) may not pass the limit (:class:`Limits`: 64 MiB for code unpacked in memory, else
``$SAGEMAKER_HETERO_LOCAL_CODE_MAX_BYTES``, 8 GiB by default), nor the members
``$SAGEMAKER_HETERO_LOCAL_CODE_MAX_MEMBERS`` (200,000): a gzip bomb or a lying gzip trailer stops
there with a ``ConfigError``. The archives this package builds (POSIX ustar, folders and files
only, at most 64 MiB unpacked) are parsed here directly (:func:`_plain_ustar`); anything else is
read with ``tarfile``, twice (checked, then written), keeping no member.
"""
import collections
import contextlib
import errno
import gzip
import os
import stat
import struct
import tarfile
import zlib

from sagemaker_hetero.exceptions import ConfigError, Problem

__all__ = ["extract_archive", "Writer", "Limits", "limits", "check", "unpacked_size", "MEMORY_LIMIT"]

MEMORY_LIMIT = 64 << 20  # the most code unpacked in memory, or held in this process while it is written (bytes)
MAX_BYTES = 8 << 30  # by default, the most a code archive may unpack to on disk
MAX_MEMBERS = 200000  # by default, the most members (each costs an inode)
MAX_NAME = 4096  # the longest member name or link target (PATH_MAX: nothing longer opens by path)
MAX_DEPTH = 256  # the most folders a member's name may nest (the hosts' code walks recurse)
BYTES_ENV = "SAGEMAKER_HETERO_LOCAL_CODE_MAX_BYTES"
MEMBERS_ENV = "SAGEMAKER_HETERO_LOCAL_CODE_MAX_MEMBERS"
_HINT = "the code archive must unpack inside its folder (rebuild it from a source_dir, or remove the member)"
_CHUNK = 1 << 20  # a file's bytes are copied in pieces of this size
_MAX_READ = 4 * _CHUNK  # the largest read tarfile may make at once (a header: names, PAX records)
_MAX_STEPS = 4096  # the most names one link's target may resolve through, its links' included
_MAX_PROBLEMS = 20
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW
_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
_SUFFIXES = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_READ_ERRORS = (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile)

#: How much an archive may unpack to: ``max_bytes`` (the tar stream, and the bytes written),
#: ``max_members``; ``in_memory``: the bound is :data:`MEMORY_LIMIT` (the message says so).
Limits = collections.namedtuple("Limits", "max_bytes max_members in_memory")


class _TooLarge(Exception):
    """The archive is larger than its limits; ``args[0]``: ``"bytes"``, ``"members"`` or ``"header"``."""


def limits(in_memory=False, environ=None):
    """The :class:`Limits` of an archive unpacked in memory or on disk, from ``environ`` (default
    ``os.environ``); a variable that is not a positive number raises ``ConfigError`` naming it."""
    environ = os.environ if environ is None else environ
    problems, values = [], []
    for name, default, suffixed in ((BYTES_ENV, MAX_BYTES, True), (MEMBERS_ENV, MAX_MEMBERS, False)):
        text = environ.get(name, "").strip()
        number = _number(text.upper(), suffixed) if text else default
        if number is None:
            what = "a number of bytes, optionally with K, M, G or T (binary)" if suffixed else "a whole number"
            problems.append(Problem(name, "%s must be %s, at least 1 (got %r); unset it for the default, %d"
                                    % (name, what, text, default), text))
        values.append(number)
    if problems:
        raise ConfigError(problems)
    max_bytes, max_members = values
    if in_memory and max_bytes > MEMORY_LIMIT:
        return Limits(MEMORY_LIMIT, max_members, True)
    return Limits(max_bytes, max_members, False)


def _number(text, suffixed):
    unit = _SUFFIXES.get(text[-1:]) if suffixed else None
    digits = text[:-1] if unit else text
    if not digits or digits.strip("0123456789"):
        return None
    return int(digits) * (unit or 1) or None


def unpacked_size(archive):
    """The size of the gzipped ``archive`` unpacked, as its gzip trailer says (modulo 4 GiB), or None
    (not gzip, or over :data:`MEMORY_LIMIT` packed: too large to keep in memory anyway). A claim,
    for choosing where to unpack: the unpacking counts for itself."""
    try:
        with open(archive, "rb") as handle:
            magic = handle.read(2)
            handle.seek(-4, os.SEEK_END)
            size = struct.unpack("<I", handle.read(4))[0]
            packed = handle.tell()
    except (OSError, struct.error):
        return None
    return size if magic == b"\x1f\x8b" and packed <= MEMORY_LIMIT else None


def extract_archive(archive, dest, in_memory=False):
    """Unpack the tar ``archive`` into ``dest`` (a new or empty folder), as the module says.

    ``in_memory``: ``dest`` is in memory, so at most :data:`MEMORY_LIMIT` bytes may be written. An
    archive that would write outside ``dest``, is over its limits or cannot be read raises
    ``ConfigError`` (what was written before a limit was reached stays, for the caller to delete).
    """
    bounds = limits(in_memory)
    os.makedirs(dest, exist_ok=True)
    if os.listdir(dest):
        raise ValueError("%s must be empty to unpack %s into it" % (dest, archive))
    try:
        with Writer(archive, dest, bounds) as writer:
            plain = _plain_ustar(archive, bounds.max_bytes)
            if plain is None:
                _extract_tar(archive, writer, bounds)
                return
            for member in plain:
                writer.add(*member)
    except _TooLarge as exc:
        raise _too_large(archive, bounds, exc.args[0]) from None
    except _READ_ERRORS as exc:
        message = "%s cannot be read as a tar archive (%s: %s); rebuild it" % (archive, type(exc).__name__, exc)
        raise ConfigError([Problem("source_dir", message, archive)]) from None


def _too_large(archive, bounds, what):
    if what == "members":
        message = ("%s holds more than %d members (the limit: $%s, default %d); set it higher if the code "
                   "really has that many files" % (archive, bounds.max_members, MEMBERS_ENV, MAX_MEMBERS))
    elif what == "header":
        message = "%s has a tar header over %d bytes: a damaged or hostile archive; rebuild it" % (archive, _MAX_READ)
    elif bounds.in_memory:
        message = ("%s unpacks to more than %d bytes, the most code unpacked in memory may hold, though its gzip "
                   "trailer says %s: a damaged or hostile archive; rebuild it"
                   % (archive, bounds.max_bytes, unpacked_size(archive)))
    else:
        message = ("%s unpacks to more than %d bytes (the limit: $%s, default %dG); set it higher if the code "
                   "really is that large" % (archive, bounds.max_bytes, BYTES_ENV, MAX_BYTES >> 30))
    return ConfigError([Problem("source_dir", message, archive)])


def _extract_tar(archive, writer, bounds):
    """The members of ``archive`` read by ``tarfile`` and checked (:func:`check`), then read again
    and written by ``writer``."""
    with _tar(archive, bounds) as tar:
        check(archive, (_kind(m) for m in _members(tar)), bounds)
    with _tar(archive, bounds) as tar:
        for member in _members(tar):
            kind, name, _, target = _kind(member)
            if kind == "file":
                writer.add(name, False, member.mode, member.mtime, tar.extractfile(member))
            elif kind == "dir":
                writer.add(name, True, member.mode, member.mtime, None)
            elif kind != "skip":
                writer.link(name, target, kind == "hardlink")


@contextlib.contextmanager
def _tar(archive, bounds):
    """``archive`` open for ``tarfile``, from a decompressed stream bounded by ``bounds``."""
    with open(archive, "rb") as raw:
        magic = raw.read(6)
        raw.seek(0)
        if magic[:2] == b"\x1f\x8b":
            stream = gzip.GzipFile(fileobj=raw, mode="rb")
        elif magic[:3] == b"BZh":
            import bz2

            stream = bz2.BZ2File(raw)
        elif magic == b"\xfd7zXZ\x00":
            import lzma

            stream = lzma.LZMAFile(raw)
        else:
            stream = raw
        with stream, tarfile.open(fileobj=_Bounded(stream, bounds.max_bytes), mode="r:") as tar:
            yield tar


def _members(tar):
    """The members of ``tar`` one by one, none kept (``tarfile`` would keep every one it reads)."""
    while True:
        member = tar.next()
        if member is None:
            return
        del tar.members[:]
        yield member


def _kind(member):
    """``(kind, name, size, link target)`` of a ``tarfile`` member; kind ``"skip"``: a device, a FIFO..."""
    if member.isreg():
        return "file", member.name, member.size, None
    if member.isdir():
        return "dir", member.name, 0, None
    if member.issym() or member.islnk():
        return "symlink" if member.issym() else "hardlink", member.name, 0, member.linkname
    return "skip", member.name, 0, None


class _Bounded(object):
    """A decompressed stream that refuses (``_TooLarge``) to go past ``limit`` bytes, however it is
    read or sought, or to read more than :data:`_MAX_READ` at once: what a tar header or a gzip
    trailer claims is never what is counted."""

    def __init__(self, raw, limit):
        self._raw, self._limit = raw, limit

    def read(self, size=-1):
        if size is None or size < 0 or size > _MAX_READ:
            raise _TooLarge("header")
        pos = self._raw.tell()
        data = self._raw.read(max(0, min(size, self._limit + 1 - pos)))
        if pos + len(data) > self._limit:
            raise _TooLarge("bytes")
        return data

    def seek(self, offset, whence=os.SEEK_SET):
        if whence == os.SEEK_SET and offset > self._limit:
            raise _TooLarge("bytes")
        return self._raw.seek(offset, whence)

    def tell(self):
        return self._raw.tell()


def _parts(name):
    """The components of a member's name under the folder, or why it has none there."""
    if len(name) > MAX_NAME:
        return "has a name of %d characters (at most %d)" % (len(name), MAX_NAME)
    if "\0" in name:
        return "has a NUL character in its name"
    if name.startswith("/"):
        return "has an absolute name"
    parts = tuple(p for p in name.split("/") if p not in ("", "."))
    if ".." in parts:
        return "has '..' in its name"
    if len(parts) > MAX_DEPTH + 1:
        return "is %d folders deep (at most %d)" % (len(parts) - 1, MAX_DEPTH)
    return parts


def check(archive, members, bounds):
    """Refuse ``members`` — ``(kind, name, size, link target)`` in archive order — as the module
    says, before anything is written: ``ConfigError`` listing the refused members (the first
    :data:`_MAX_PROBLEMS`), ``_TooLarge`` past ``bounds``. Pure: what is on disk plays no part."""
    problems, links, total = [], _Links(), 0
    for count, (kind, name, size, target) in enumerate(members, 1):
        if count > bounds.max_members:
            raise _TooLarge("members")
        total += size
        if total > bounds.max_bytes:
            raise _TooLarge("bytes")
        if kind == "skip":
            continue
        parts = _parts(name)
        if isinstance(parts, str):
            why = parts
        elif not parts and kind != "dir":
            why = "would replace the folder itself"
        else:
            why = _target_problem(kind, target) if target is not None else None
        if not why:
            through = links.through(parts[:-1])
            why = through and "would be written through the link %s" % "/".join(through)
        if why:
            problems.append(_refused(archive, name, why))
            if len(problems) >= _MAX_PROBLEMS:
                break
            continue
        links.put(parts, target if kind == "symlink" else None)
    problems.extend(_refused(archive, "/".join(parts), why) for parts, why in links.escaping())
    if problems:
        raise ConfigError(problems[:_MAX_PROBLEMS])


def _target_problem(kind, target):
    if kind == "hardlink":
        source = _parts(target)
        return "links to %s, which %s" % (_shown(target), source) if isinstance(source, str) else None
    if not target or len(target) > MAX_NAME or "\0" in target:
        return "links to a name of %d characters (at least 1, at most %d, no NUL)" % (len(target), MAX_NAME)
    return None


def _refused(archive, member, why):
    return Problem("source_dir", "%s: member %s %s; %s" % (archive, _shown(member), why, _HINT), member[:MAX_NAME])


def _shown(name):
    return repr(name) if len(name) <= 300 else repr(name[:300]) + "..."


class _Links(object):
    """The archive's symbolic links as they stand so far (pure): a tree of the folders holding them,
    each folder's entries by name, a link's entry holding its target under the key None."""

    def __init__(self):
        self.tree, self.targets = {}, {}

    def put(self, parts, target):
        """The entry ``parts`` is now the link to ``target``, or (None) anything but a link."""
        if target is None and parts not in self.targets:
            return
        node = self.tree
        for name in parts:
            node = node.setdefault(name, {})
        if target is None:
            del node[None], self.targets[parts]
        else:
            node[None] = self.targets[parts] = target

    def through(self, folder):
        """The components of the first link on the way to ``folder``, or None."""
        node = self.tree
        for depth, name in enumerate(folder):
            node = node.get(name)
            if node is None:
                return None
            if None in node:
                return folder[:depth + 1]
        return None

    def escaping(self):
        """``(components, why)`` of each link whose target, resolved component by component from
        the link's folder through every link there, as the system would resolve it, leads outside
        the folder (or through more than :data:`_MAX_STEPS` names)."""
        found = ((parts, _escape(self.tree, parts[:-1], self.targets[parts])) for parts in sorted(self.targets))
        return [(parts, why) for parts, why in found if why]


def _escape(tree, folder, target):
    """Why the link ``target`` in ``folder`` leads outside ``tree`` (see :meth:`_Links.escaping`), or None."""
    stack = [tree]
    for name in folder:
        stack.append(stack[-1].get(name, {}))
        if None in stack[-1]:
            return "is in a linked folder (nothing is written through a link)"
    outside = "links to %s, which leads outside the folder" % _shown(target)
    if target.startswith("/"):
        return outside
    pending, steps = target.split("/")[::-1], 0
    while pending:
        steps += 1
        if steps > _MAX_STEPS:
            return "links to %s, which resolves through more than %d names" % (_shown(target), _MAX_STEPS)
        name = pending.pop()
        if name in ("", "."):
            continue
        if name == "..":
            if len(stack) == 1:
                return outside
            stack.pop()
            continue
        node = stack[-1].get(name, {})
        if None not in node:
            stack.append(node)
        elif node[None].startswith("/"):  # a link: its target, from the folder holding it
            return outside
        else:
            pending.extend(node[None].split("/")[::-1])
    return None


class Writer(object):
    """Writes an archive's members into the folder ``dest``, each relative to the descriptor of its
    folder, never through a link (:meth:`add`, :meth:`link`; or called as
    ``_archive.write_archive``'s ``each``). ``archive`` names the archive in errors; ``bounds``
    (:class:`Limits`, or None) limits the members and the bytes written. A context manager: it
    holds the descriptors of the folders down to the last one written until it is closed."""

    def __init__(self, archive, dest, bounds=None):
        self.archive, self.dest, self._bounds = archive, dest, bounds
        self._path, self._fds = (), [os.open(dest, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW)]
        self._files, self._members, self._bytes = set(), 0, 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        while self._fds:
            os.close(self._fds.pop())
        self._path = ()

    def __call__(self, name, is_dir, mode, data):
        self.add(name, is_dir, mode, 0, data)

    def add(self, name, is_dir, mode, mtime, data):
        """A folder, or a file of ``data`` (bytes, or a file object, read to its end) modified at ``mtime``."""
        parts = self._checked(name)
        if is_dir:
            self._folder(parts)
            return
        fd = self._make(parts, lambda parent: os.open(parts[-1], _FILE_FLAGS, _file_mode(mode), dir_fd=parent))
        try:
            if isinstance(data, (bytes, bytearray, memoryview)):
                self._count(len(data))
                _write_all(fd, data)
            else:
                for chunk in iter(lambda: data.read(_CHUNK), b""):
                    self._count(len(chunk))
                    _write_all(fd, chunk)
            os.utime(fd, (mtime, mtime))
        finally:
            os.close(fd)
        self._files.add(parts)

    def link(self, name, target, hard):
        """A symbolic link to ``target`` (which :func:`check` resolved), or a hard link to the file
        ``target`` (a member's name) written before it."""
        parts = self._checked(name)
        if not hard:
            self._make(parts, lambda parent: os.symlink(target, parts[-1], dir_fd=parent))
            return
        source = _parts(target)
        if source not in self._files:
            why = "links to %s, which is not a file written before it" % _shown(target)
            raise ConfigError([_refused(self.archive, name, why)])
        if source == parts:
            return
        source_fd = os.dup(self._folder(source[:-1]))
        try:
            self._make(parts, lambda parent: os.link(source[-1], parts[-1], src_dir_fd=source_fd,
                                                     dst_dir_fd=parent, follow_symlinks=False))
        finally:
            os.close(source_fd)
        self._files.add(parts)

    def _checked(self, name):
        parts = _parts(name)
        if isinstance(parts, str):
            raise ConfigError([_refused(self.archive, name, parts)])
        self._members += 1
        if self._bounds is not None and self._members > self._bounds.max_members:
            raise _TooLarge("members")
        return parts

    def _count(self, size):
        self._bytes += size
        if self._bounds is not None and self._bytes > self._bounds.max_bytes:
            raise _TooLarge("bytes")

    def _folder(self, parts):
        """The descriptor of the folder ``parts``, opened (made where missing) one component at a
        time without following a link; those of the folders down to it are kept for the next member."""
        if parts == self._path:
            return self._fds[-1]
        path, fds = self._path, self._fds
        same = 0
        while same < len(path) and same < len(parts) and path[same] == parts[same]:
            same += 1
        while len(fds) > same + 1:
            os.close(fds.pop())
        self._path = parts[:same]
        for depth in range(same, len(parts)):
            fds.append(self._enter(fds[-1], parts[:depth + 1]))
            self._path = parts[:depth + 1]
        return fds[-1]

    def _enter(self, parent, parts):
        name = parts[-1]
        try:
            return os.open(name, _DIR_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise self._not_a_folder(parent, parts, exc)
        try:
            os.mkdir(name, 0o777, dir_fd=parent)
        except FileExistsError:
            pass
        try:
            return os.open(name, _DIR_FLAGS, dir_fd=parent)
        except OSError as exc:
            raise self._not_a_folder(parent, parts, exc)

    def _not_a_folder(self, parent, parts, exc):
        if exc.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            return exc
        mode = os.stat(parts[-1], dir_fd=parent, follow_symlinks=False).st_mode
        what = "a link" if stat.S_ISLNK(mode) else "not a folder"
        return ConfigError([_refused(self.archive, "/".join(parts), "is %s: nothing is written through it" % what)])

    def _make(self, parts, make):
        """``make(folder descriptor)`` creates the entry ``parts`` (what it returns is returned); an
        entry there already (not a folder) is removed first, as a later member replaces an earlier one."""
        if not parts:
            raise ConfigError([_refused(self.archive, ".", "would replace the folder itself")])
        parent = self._folder(parts[:-1])
        try:
            return make(parent)
        except FileExistsError:
            pass
        if stat.S_ISDIR(os.stat(parts[-1], dir_fd=parent, follow_symlinks=False).st_mode):
            raise ConfigError([_refused(self.archive, "/".join(parts), "would replace a folder")])
        os.unlink(parts[-1], dir_fd=parent)
        self._files.discard(parts)
        return make(parent)


def _file_mode(mode):
    """A file's mode as tarfile's ``data`` filter leaves it (before the umask)."""
    mode &= 0o755
    if not mode & 0o100:
        mode &= ~0o111
    return mode | 0o600


def _write_all(fd, data):
    view, done = memoryview(data), 0
    while done < len(view):
        done += os.write(fd, view[done:])


_USTAR_MAGIC = b"ustar\x0000"  # POSIX ustar, as _archive writes it
_PLAIN_TYPES = {b"0": False, b"\0": False, b"5": True}  # regular file, folder


def _plain_ustar(archive, max_bytes=MEMORY_LIMIT):
    """The members of a gzipped POSIX ustar ``archive`` holding files and folders only (the archives
    ``_model.archive`` builds), read at once, as :meth:`Writer.add` takes them. None for anything else (over
    :data:`MEMORY_LIMIT` unpacked, PAX or GNU headers, links, a bad checksum...): ``tarfile`` reads
    those. Parsing the headers here costs a fraction of ``tarfile``'s objects per member. More
    than ``max_bytes`` unpacked (below :data:`MEMORY_LIMIT`) raises ``_TooLarge``."""
    size = unpacked_size(archive)
    if size is None or size > MEMORY_LIMIT:  # held in this process while it is written
        return None
    limit = min(max_bytes, MEMORY_LIMIT)
    try:
        with open(archive, "rb") as handle:
            packed = handle.read()
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        data = inflate.decompress(packed, limit + 1)  # counted: the trailer may lie
    except (OSError, zlib.error):
        return None
    if len(data) > limit and limit < MEMORY_LIMIT:
        raise _TooLarge("bytes")
    if len(data) > limit or inflate.unconsumed_tail or inflate.unused_data or not inflate.eof:
        return None
    view, members, pos, end = memoryview(data), [], 0, len(data)
    while pos + 512 <= end:
        block = data[pos:pos + 512]
        if not block.strip(b"\0"):
            return members  # the end-of-archive marker
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
        members.append((name, kind, mode, mtime, None if kind else view[start:start + size]))
    return None
