"""Descriptors the driver holds that a forked child of it must not keep: a job's lifeline write end
(a child keeping it would keep the hosts alive after the driver died) and a job folder's lock (a
child keeping it would keep the folder locked after the job ended). One registry and one fork hook
close them in every child made by ``os.fork`` (multiprocessing included); the parent keeps its own.
"""
import os
import threading

__all__ = ["keep", "release"]

_fds = set()
_lock = threading.Lock()


def keep(fd):
    """Register ``fd``: it is closed in every child forked from now on, until :func:`release`."""
    with _lock:
        _fds.add(fd)


def release(owner, attr):
    """Close the descriptor in ``owner.attr`` (if any), set it to None and forget it, atomically."""
    with _lock:
        fd = getattr(owner, attr)
        setattr(owner, attr, None)
        if fd is not None:
            _fds.discard(fd)
            os.close(fd)


def _drop_in_child():
    # The child has one thread, but the lock may have been held at the fork: replace it, do not take it.
    global _lock
    _lock = threading.Lock()
    for fd in list(_fds):
        try:
            os.close(fd)
        except OSError:
            pass
    _fds.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_drop_in_child)
