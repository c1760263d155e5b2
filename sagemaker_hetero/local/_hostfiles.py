"""A file a host left in its folder, read by the driver trusting nothing about it.

A host owns its folder while it runs, and what it leaves at a path the driver reads may be a FIFO
(reading it waits for a writer that never comes), a device, a folder, a socket, or a link to a
file the host could not read itself but the driver can (a driver running as root). So
:func:`read_regular` walks from the host's folder one component at a time, relative to directory
descriptors, never following a link (``O_NOFOLLOW``); it looks at what each component is before
opening it (``lstat``), opens the file ``O_NONBLOCK`` so no open waits, checks on the descriptor
that it is the regular file it looked at, and reads at most ``limit`` bytes.
"""
import os
import stat

__all__ = ["NotRegular", "read_regular", "read_failure", "kind_of", "FAILURE_FILE", "FAILURE_LIMIT"]

#: What a failing host says about its failure (SageMaker shows it as the job's FailureReason).
FAILURE_FILE = "output/failure"
FAILURE_LIMIT = 64 * 1024

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_KINDS = (
    (stat.S_ISREG, "a regular file"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class NotRegular(OSError):
    """A path that is not the regular file (or, above it, the real folder) it must be."""


def kind_of(mode):
    """``"a FIFO"``, ``"a symbolic link"``, ...: what ``st_mode`` ``mode`` says a path is."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _open_at(name, dir_fd, flags, want, path):
    """``(fd, stat)`` of ``name`` in ``dir_fd`` if it is what ``want`` (a stat test) accepts."""
    info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    if not want(info.st_mode):
        wanted = "a folder" if want is stat.S_ISDIR else "a regular file"
        raise NotRegular("%s is %s, not %s" % (path, kind_of(info.st_mode), wanted))
    fd = os.open(name, flags | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=dir_fd)
    try:
        now = os.fstat(fd)
        if not want(now.st_mode) or (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino):
            raise NotRegular("%s changed while it was opened (now %s)" % (path, kind_of(now.st_mode)))
    except BaseException:
        os.close(fd)
        raise
    return fd, now


def read_regular(folder, rel, limit):
    """``(data, size)``: at most ``limit`` bytes of the regular file ``rel`` (``/``-separated) under
    ``folder``, and its size.

    Raises ``FileNotFoundError`` when it is absent, :class:`NotRegular` naming what it is when it
    or a folder above it (below ``folder``) is anything else (a link, a FIFO, ...), another
    ``OSError`` when it cannot be read.
    """
    names = rel.split("/")
    fd = os.open(folder, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)
    try:
        for depth, name in enumerate(names[:-1]):
            path = "/".join(names[: depth + 1])
            inner, _ = _open_at(name, fd, os.O_RDONLY | _DIRECTORY, stat.S_ISDIR, path)
            os.close(fd)
            fd = inner
        inner, info = _open_at(names[-1], fd, os.O_RDONLY, stat.S_ISREG, rel)
        os.close(fd)
        fd = inner
        chunks, left = [], limit
        while left > 0:
            chunk = os.read(fd, min(left, 65536))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks), info.st_size
    finally:
        os.close(fd)


def read_failure(base_dir):
    """A host's ``output/failure``: ``(text or None, note or None)``. A regular file only, no link
    followed, at most :data:`FAILURE_LIMIT` bytes; a FIFO, a device, a link... is not opened for
    reading and the note says so, as it says when the text was cut."""
    try:
        data, size = read_regular(base_dir, FAILURE_FILE, FAILURE_LIMIT)
    except FileNotFoundError:
        return None, None
    except NotRegular as exc:
        return None, "%s: not read" % (exc,)
    except OSError as exc:
        return None, "%s cannot be read: %s" % (FAILURE_FILE, exc.strerror or repr(exc))
    note = None
    if size > len(data):
        note = "%s holds %d bytes: the first %d are shown" % (FAILURE_FILE, size, len(data))
    return data.decode("utf-8", "replace").strip() or None, note
