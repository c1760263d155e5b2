"""SIGTERM and SIGHUP to the driver while a local job runs: stop the hosts, then end as asked.

:func:`install` (main thread only, a no-op elsewhere) puts :func:`_handle` in place for SIGTERM and
SIGHUP, remembering what was there; :func:`release` puts it back once no job runs. The handler
calls the job runner's callback (it stops every host), then chains: to the previous Python
handler if there was one, else (the default action) it dies by the signal itself, so the exit
status is the signal's as if no handler had been installed. A signal that was ignored (``nohup``)
or handled outside Python is left alone: the job keeps running, as the owner of the process asked.

Ctrl-C while :meth:`LocalJob.wait` blocks: :func:`record_interrupts` has SIGINT noted rather than
raised wherever the main thread happens to be (a ``KeyboardInterrupt`` raised between a lock's
acquisition and its ``with`` block leaves the lock held, and an ``Event`` whose lock is held never
ends its waits); the wait raises it itself, at a safe point.
"""
import os
import signal
import sys
import threading

__all__ = ["SIGNALS", "install", "release", "installed", "record_interrupts"]

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))

_previous = {}  # signal -> the handler ours replaced
_state = {"callback": None}


def _in_main_thread():
    return threading.current_thread() is threading.main_thread()


def installed():
    """The signals our handler is in place for."""
    return sorted(s for s in _previous if signal.getsignal(s) is _handle)


def install(callback):
    """Handle SIGTERM and SIGHUP with ``callback(signum)`` first; ``False`` off the main thread."""
    if not _in_main_thread():
        return False
    _state["callback"] = callback
    for signum in SIGNALS:
        current = signal.getsignal(signum)
        if current is _handle:
            continue
        if current is None or current == signal.SIG_IGN:  # handled in C, or ignored on purpose
            _previous.pop(signum, None)
            continue
        _previous[signum] = current
        signal.signal(signum, _handle)
    return True


def release():
    """Put the previous handlers back (main thread only; a handler set since then is kept)."""
    if not _in_main_thread():
        return
    for signum, previous in list(_previous.items()):
        if signal.getsignal(signum) is _handle:
            signal.signal(signum, previous)
        del _previous[signum]


def record_interrupts(noted):
    """SIGINT appends to the list ``noted`` until the returned function is called (it puts the handler
    back). Main thread only, and only over Python's own SIGINT handler: a program's handler is kept,
    and elsewhere the returned function does nothing."""
    if not _in_main_thread() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return lambda: None

    def note(signum, frame):
        noted.append(signum)

    signal.signal(signal.SIGINT, note)

    def put_back():
        if signal.getsignal(signal.SIGINT) is note:
            signal.signal(signal.SIGINT, signal.default_int_handler)

    return put_back


def _handle(signum, frame):
    previous = _previous.get(signum, signal.SIG_DFL)
    callback = _state["callback"]
    if callback is not None:
        callback(signum)
    if callable(previous):
        previous(signum, frame)
        return
    for stream in (sys.stdout, sys.stderr):  # as an exit would; the default action does not
        try:
            stream.flush()
        except Exception:
            pass
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
    raise SystemExit(128 + signum)  # reached only if the signal is blocked in this thread
