"""Folders no other user can reach, and what the driver makes in them, never through a link.

**The root** of local jobs (:func:`ready_root`). The default one, ``<temp>/sagemaker-hetero-local-<uid>``,
sits in a folder every user may write: it is made mode 0700 and used only while it is a real folder
(not a link) of this user that no one else may enter. A root the user names is their own folder: it
is made 0700 when missing and used while it is a folder of this user that no one else may write
(0755 is fine). Anything else is refused with a ``ConfigError`` naming ``root``, the path and what to do.

**Inside it** (and in ``/dev/shm``), what the driver makes or opens is made relative to the folder
holding it (``dir_fd``) and opened with ``O_NOFOLLOW``, its owner checked after ``mkdir``
(:func:`private_folder`, :func:`open_below`, :class:`JobLock`): a link planted in its place is
refused, never followed. :func:`remove_tree` never follows a link either, not even at the top.

**Folders a process owns** (:class:`OwnedFolder`: the trash's ``<root>/.trash/<pid>-*`` and the code in
memory, ``/dev/shm/sagemaker-hetero-<uid>/<pid>-*``): the process that made one holds an ``flock``
on it for as long as it uses it (the system drops it when the process dies, however it dies). Another
process deletes such a folder only when it can take that lock and sees no live process of that pid
(:func:`sweep`): a pid it cannot see (another PID namespace sharing ``/dev/shm`` or the root) is no
proof that the owner is gone.
"""
import binascii
import errno
import fcntl
import os
import stat
import sys
import threading

from sagemaker_hetero.exceptions import ConfigError, Problem
from sagemaker_hetero.local import _fork_closed

__all__ = ["MEMORY_DIR", "TRASH_DIR", "NotPrivate", "root_problems", "ready_root", "open_dir", "private_folder",
           "new_folder", "open_below", "create_new", "write_new", "JobLock", "OwnedFolder", "sweep", "remove_later",
           "remove_tree", "memory_folder", "holds_file"]

MEMORY_DIR = "/dev/shm"  # a tmpfs on Linux: code unpacked there costs no disk (memory_folder)
TRASH_DIR = ".trash"  # <root>/.trash/<pid>-*/: folders being deleted in the background
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_PENDING = ".new-"  # an OwnedFolder's name until it is locked: sweep() ignores it


class NotPrivate(OSError):
    """A folder or file the driver was to make or use is not this user's alone (or is a link)."""


def _uid():
    return os.getuid() if hasattr(os, "getuid") else None


def _root_problem(info, default):
    """What makes an existing root (``os.lstat`` of it, or ``os.stat`` for a root the user named) unusable, or None."""
    mode = stat.S_IMODE(info.st_mode)
    if stat.S_ISLNK(info.st_mode):
        return "is a symbolic link, not a folder of yours"
    if not stat.S_ISDIR(info.st_mode):
        return "is not a folder"
    if _uid() is not None and info.st_uid != _uid():
        return ("belongs to uid %d, not to you (uid %d): whoever made it could run code as you in your jobs"
                % (info.st_uid, _uid()))
    if default and mode & 0o077:
        return "is open to other users (mode %04o): it must be yours alone (mode 0700)" % mode
    if not default and mode & 0o022:
        return "may be written by other users (mode %04o)" % mode
    return None


def _root_hint(info, default):
    """What to do about a root :func:`_root_problem` refused."""
    if stat.S_ISDIR(info.st_mode) and info.st_uid == _uid():  # only its mode is wrong
        change = "chmod 700" if default else "chmod go-w"
        return "%s it if what it holds is yours, or remove it, or pass root= another folder" % change
    return "remove it (as its owner or root), or pass root= a folder of yours"


def root_problems(path, default):
    """``[Problem("root", ...)]`` when the existing folder ``path`` may not be a root (see the module);
    ``default``: whether it is the default root. A missing root is fine (it is made 0700)."""
    try:
        info = os.lstat(path) if default else os.stat(path)
    except FileNotFoundError:
        return []
    except OSError as exc:
        return [Problem("root", "%s cannot be used (%s); pass root= another folder" % (path, exc.strerror), path)]
    why = _root_problem(info, default)
    if why is None:
        return []
    return [Problem("root", "%s %s; %s" % (path, why, _root_hint(info, default)), path)]


def ready_root(path, default):
    """Make the root ``path`` (mode 0700; the folders above it as any folder the user makes) when it
    is missing, then check it as :func:`root_problems` does, on the folder opened; raises ``ConfigError``."""
    try:
        if not os.path.lexists(path):
            parent = os.path.dirname(path)
            if parent:
                os.makedirs(parent, exist_ok=True)
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                pass
        fd = os.open(path, _DIR | (_NOFOLLOW if default else 0))
    except OSError as exc:
        problems = root_problems(path, default)
        raise ConfigError(problems or [Problem("root", "%s cannot be used as the root of local jobs (%s); pass "
                                               "root= a folder of yours" % (path, exc.strerror or exc), path)])
    try:
        why = _root_problem(os.fstat(fd), default)
    finally:
        os.close(fd)
    if why is not None:
        raise ConfigError(root_problems(path, default) or [Problem("root", "%s %s" % (path, why), path)])


def open_dir(path):
    """A descriptor of the folder ``path`` (the caller's choice: links in it are followed)."""
    return os.open(path, _DIR)


def private_folder(parent_fd, name):
    """A descriptor of the folder ``name`` in ``parent_fd``, made 0700 when missing; it must be a real
    folder of this user that no one else may write (one others may read is closed: mode 0700).
    Raises :class:`NotPrivate` otherwise."""
    try:
        os.mkdir(name, 0o700, dir_fd=parent_fd)
    except FileExistsError:
        pass
    fd = _open_folder(parent_fd, name)
    try:
        info = os.fstat(fd)
        if _uid() is not None and info.st_uid != _uid():
            raise NotPrivate(errno.EPERM, "belongs to uid %d, not to you" % info.st_uid, name)
        if info.st_mode & 0o022:
            raise NotPrivate(errno.EPERM, "may be written by other users (mode %04o)"
                             % stat.S_IMODE(info.st_mode), name)
        if info.st_mode & 0o077:
            os.fchmod(fd, 0o700)
    except BaseException:
        os.close(fd)
        raise
    return fd


def new_folder(parent_fd, name):
    """A descriptor of the new folder ``name`` made (mode 0700) in ``parent_fd``; it must not exist."""
    os.mkdir(name, 0o700, dir_fd=parent_fd)
    fd = _open_folder(parent_fd, name)
    if _uid() is not None and os.fstat(fd).st_uid != _uid():
        os.close(fd)
        raise NotPrivate(errno.EPERM, "was replaced by a folder that is not yours", name)
    return fd


def _open_folder(parent_fd, name):
    """``name`` in ``parent_fd`` opened as a folder, never through a link (:class:`NotPrivate` if it is one)."""
    try:
        return os.open(name, _DIR | _NOFOLLOW, dir_fd=parent_fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise NotPrivate(exc.errno, "is a symbolic link or not a folder (not followed)", name)
        raise


def open_below(base, parts, make=False):
    """A descriptor of the folder ``base/parts[0]/parts[1]/...``, each step opened without following a
    link (:class:`NotPrivate` at a link); ``make``: missing steps are made, mode 0700, and must be ours."""
    fd = open_dir(base)
    try:
        for index, part in enumerate(parts):
            if make:
                try:
                    os.mkdir(part, 0o700, dir_fd=fd)
                except FileExistsError:
                    pass
            try:
                step = _open_folder(fd, part)
            except NotPrivate as exc:
                raise NotPrivate(exc.errno, exc.strerror, os.path.join(base, *parts[:index + 1]))
            os.close(fd)
            fd = step
            if make and _uid() is not None and os.fstat(fd).st_uid != _uid():
                raise NotPrivate(errno.EPERM, "is not a folder of yours", os.path.join(base, *parts[:index + 1]))
    except BaseException:
        os.close(fd)
        raise
    return fd


def create_new(dir_fd, name, mode=0o600, flags=0):
    """A descriptor, open for writing (and ``flags``), of the new file ``name`` in ``dir_fd``: it must not
    exist (a link is not followed)."""
    return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | flags, mode, dir_fd=dir_fd)


def write_new(dir_fd, name, data, mode=0o600):
    """Write ``data`` (bytes) as the new file ``name`` in ``dir_fd``: it must not exist (a link is not followed)."""
    with os.fdopen(create_new(dir_fd, name, mode), "wb") as handle:
        handle.write(data)


class JobLock(object):
    """An exclusive ``flock`` on the file ``path`` while a job runs; the OS drops it if the driver dies.

    The file holds ``<pid> <job name>`` of the holder. Its folder is made private
    (:func:`private_folder`) and the file opened without following a link, then checked to be a file
    of this user. :meth:`acquire` raises ``ConfigError`` naming the running job and its process when
    another run (any process) holds it, or naming ``root`` when the folder or the file is not ours.
    """

    def __init__(self, path, name):
        self.path = path
        self.name = name
        self._fd = None

    def _open(self):
        folder, file_name = os.path.split(self.path)
        try:
            parent = open_dir(os.path.dirname(folder))
            try:
                where = private_folder(parent, os.path.basename(folder))
            finally:
                os.close(parent)
            try:
                fd = os.open(file_name, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _CLOEXEC | os.O_NONBLOCK, 0o600,
                             dir_fd=where)
            finally:
                os.close(where)
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or (_uid() is not None and info.st_uid != _uid()):
                os.close(fd)
                raise NotPrivate(errno.EPERM, "is not a file of yours", self.path)
        except OSError as exc:
            why = exc.strerror if exc.errno != errno.ELOOP else "a symbolic link"
            message = "cannot use the lock %s of job %s (%s): remove it" % (self.path, self.name, why)
            raise ConfigError([Problem("root", message, os.path.dirname(folder))])
        return fd

    def acquire(self):
        fd = self._open()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 200).decode("utf-8", "replace").split()
            os.close(fd)
            pid = holder[0] if holder else "unknown"
            message = ("local job %s is running in process %s with this root (lock %s held); wait for it to end or "
                       "stop it, or choose another job_name or root" % (self.name, pid, self.path))
            raise ConfigError([Problem("job_name", message, self.name)])
        os.ftruncate(fd, 0)
        os.write(fd, ("%d %s\n" % (os.getpid(), self.name)).encode("utf-8"))
        self._fd = fd
        _fork_closed.keep(fd)  # a forked child (multiprocessing in the driver) must not keep the folder locked
        return self

    def release(self):
        _fork_closed.release(self, "_fd")


class OwnedFolder(object):
    """A new folder ``<parent>/<pid>-<random>`` this process holds an ``flock`` on until :meth:`remove`.

    It is made as ``.new-<pid>-<random>``, locked, then renamed: :func:`sweep` never sees it unlocked.
    ``parent_fd``: the folder it goes in (kept open until :meth:`remove`); ``parent``: its path.
    """

    def __init__(self, parent_fd, parent):
        token = "%d-%s" % (os.getpid(), binascii.hexlify(os.urandom(6)).decode("ascii"))
        os.mkdir(_PENDING + token, 0o700, dir_fd=parent_fd)
        fd = _open_folder(parent_fd, _PENDING + token)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.rename(_PENDING + token, token, src_dir_fd=parent_fd, dst_dir_fd=parent_fd)
            self._parent_fd = os.dup(parent_fd)
        except BaseException:
            os.close(fd)
            _remove_at(parent_fd, _PENDING + token)
            raise
        self.fd = fd
        self.name = token
        self.path = os.path.join(parent, token)
        self._lock = threading.Lock()
        _fork_closed.keep(fd)  # a forked child must not keep it locked after this process ended

    def __repr__(self):
        return "OwnedFolder(%r)" % (self.path,)

    def remove(self):
        """Delete the folder and all it holds, then drop the lock; later calls do nothing."""
        with self._lock:
            if self._parent_fd is None:
                return
            _remove_at(self._parent_fd, self.name)
            os.close(self._parent_fd)
            self._parent_fd = None
            _fork_closed.release(self, "fd")


def sweep(parent_fd):
    """Delete the ``<pid>-*`` folders in ``parent_fd`` whose owner is gone: their lock can be taken
    (held while it is deleted) and no live process here has that pid (as before locks: an older
    version's folder, whose owner may still run). Links and other files are left alone."""
    for name in os.listdir(parent_fd):
        pid, dash, _ = name.partition("-")
        if not (pid.isdigit() and dash):
            continue
        try:
            fd = os.open(name, _DIR | _NOFOLLOW, dir_fd=parent_fd)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if not _alive(int(pid)):
                _remove_at(parent_fd, name)
        except OSError:
            pass  # held: its owner lives
        finally:
            os.close(fd)


def _alive(pid):
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def remove_later(paths, root):
    """Remove ``paths`` (folders or files under ``root``) now as far as anyone can see, and for good soon.

    Each is renamed into an :class:`OwnedFolder` of ``<root>/.trash/`` (one cheap rename) and deleted
    there by a background thread, which the interpreter waits for at exit; trash whose owner is gone
    is deleted with it (:func:`sweep`). Where a rename fails (another file system) the path is
    deleted at once. ``.trash`` is a :func:`private_folder`: a link there is not followed.
    """
    paths = [p for p in paths if os.path.lexists(p)]
    if not paths:
        return
    trash, bin_ = None, None
    try:
        parent = open_dir(root)
        try:
            trash = private_folder(parent, TRASH_DIR)
        finally:
            os.close(parent)
        bin_ = OwnedFolder(trash, os.path.join(root, TRASH_DIR))
    except OSError:
        if trash is not None:
            os.close(trash)
        trash = None
    for index, path in enumerate(paths):
        try:
            if bin_ is None:
                raise OSError("no trash folder")
            os.rename(path, "%d" % index, dst_dir_fd=bin_.fd)
        except OSError:
            remove_tree(path)
    if bin_ is not None:
        thread = threading.Thread(target=_empty_trash, args=(trash, bin_), name="sagemaker-hetero-trash")
        thread.daemon = False  # exit waits until the folders are gone (a job ends in its daemon supervisor thread)
        thread.start()


def _empty_trash(trash, bin_):
    try:
        bin_.remove()
        sweep(trash)  # what a process that ended left behind
    except OSError:
        pass
    finally:
        os.close(trash)


def remove_tree(path):
    """Delete ``path`` and all it holds, as far as the user may; never raises, never follows a link
    (a link at ``path`` is removed itself). A folder without the owner's permissions (overlayfs leaves
    its ``work/work`` as mode 000) is given them first, so it can be emptied without root."""
    path = os.path.normpath(path)
    try:
        parent = open_dir(os.path.dirname(path) or ".")
    except OSError:
        return
    try:
        _remove_at(parent, os.path.basename(path))
    finally:
        os.close(parent)


def _remove_at(parent_fd, name):
    """Delete ``name`` in ``parent_fd`` (see :func:`remove_tree`), depth first, one descriptor per
    level; what cannot be deleted stays."""
    work = [(parent_fd, name, None)]  # (folder, name in it, descriptor of it once opened)
    try:
        while work:
            folder, entry, fd = work.pop()
            if fd is not None:  # its content is gone
                os.close(fd)
                _quietly(os.rmdir, entry, dir_fd=folder)
                continue
            fd = _open_to_empty(folder, entry)
            if fd is None:
                continue
            work.append((folder, entry, fd))
            try:
                names = os.listdir(fd)
            except OSError:
                names = []
            work.extend((fd, n, None) for n in names)
    finally:
        for _, _, fd in work:
            if fd is not None:
                os.close(fd)


def _open_to_empty(folder, entry):
    """A descriptor of the folder ``entry`` to empty, or None once a non-folder was unlinked (or failed)."""
    try:
        os.unlink(entry, dir_fd=folder)  # a file or a link: removed itself; a folder: EISDIR
        return None
    except IsADirectoryError:
        pass
    except OSError as exc:
        if exc.errno not in (errno.EISDIR, errno.EPERM):  # EPERM: unlink of a folder elsewhere
            return None
    try:
        return os.open(entry, _DIR | _NOFOLLOW, dir_fd=folder)
    except PermissionError:
        try:
            info = os.stat(entry, dir_fd=folder, follow_symlinks=False)
            if not stat.S_ISDIR(info.st_mode):
                return None
            os.chmod(entry, stat.S_IMODE(info.st_mode) | 0o700, dir_fd=folder)
            return os.open(entry, _DIR | _NOFOLLOW, dir_fd=folder)
        except OSError:
            return None
    except OSError:
        return None


def _quietly(call, *args, **kwargs):
    try:
        call(*args, **kwargs)
    except OSError:
        pass


def memory_folder():
    """A new :class:`OwnedFolder` in memory (``/dev/shm``, Linux's tmpfs), or None where there is none.

    Each file or folder made on disk costs an inode (0.1-0.5 ms each on a busy ext4); in memory it
    costs microseconds. The folder is ``/dev/shm/sagemaker-hetero-<uid>/<pid>-*`` in a
    :func:`private_folder` (else None: stay on disk); folders there whose owner is gone are deleted
    first (:func:`sweep`). The caller removes its own (:meth:`OwnedFolder.remove`).
    """
    if not sys.platform.startswith("linux") or _uid() is None:
        return None
    try:
        shm = open_dir(MEMORY_DIR)
    except OSError:
        return None
    try:
        own = private_folder(shm, "sagemaker-hetero-%d" % _uid())
    except OSError:
        return None
    finally:
        os.close(shm)
    try:
        sweep(own)
        return OwnedFolder(own, os.path.join(MEMORY_DIR, "sagemaker-hetero-%d" % _uid()))
    except OSError:
        return None
    finally:
        os.close(own)


def holds_file(root, name, marker):
    """Whether ``name`` in the folder ``root`` (a descriptor) is a folder (not a link) holding the regular
    file ``marker`` (a local job's folder, by its marker file), or None when there is no such entry."""
    try:
        info = os.stat(name, dir_fd=root, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if not stat.S_ISDIR(info.st_mode):
        return False
    try:
        folder = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=root)
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.stat(marker, dir_fd=folder, follow_symlinks=False).st_mode)
    except OSError:
        return False
    finally:
        os.close(folder)
