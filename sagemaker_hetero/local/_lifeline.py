"""Hosts die with their driver, even a SIGKILLed one: a pipe only the driver writes to.

Each job opens one pipe. The driver keeps the write end (close-on-exec, and closed in any child
``os.fork`` makes, so no other process holds it) and never writes to it; every host's process
starts as ``/bin/sh`` with the read end as its standard input, and runs :data:`BOOTSTRAP`:

1. it leaves a **watchdog** in the host's process group, orphaned at once (a double fork), so it
   is nobody's child: a small shell that ignores the usual signals, reads the pipe and waits;
2. it sets its standard input to ``/dev/null``, closes every copy of the pipe and ``exec``\\ s
   the entry point: the same pid, no child, no extra descriptor, standard input ``/dev/null`` —
   what the entry point saw before the watchdog existed.

The pipe reaches end-of-file only when the driver's write end is closed: when the driver exits,
whatever kills it (the kernel closes a dead process's descriptors), or when the job ends. The
watchdog then stops its whole process group as the driver would (SIGTERM, SIGKILL after the grace
period). It dies with the group whenever the driver stops or reaps the host, so in a normal run
it never acts. A process that left the host's process group (``setsid``, ``setpgid``) escapes it.

A shell drops the variables whose names are no shell names (dash, ``/bin/sh`` on Debian, keeps none of
them), and a hyperparameter ``batch-size`` is ``SM_HP_BATCH-SIZE``: such variables are handed on
through ``env`` at the shell's ``exec``, so the entry point gets them as on SageMaker.
"""
import os
import re

from sagemaker_hetero.local import _fork_closed

__all__ = ["BOOTSTRAP", "WATCHDOG", "HOST_NAME", "Lifeline", "guarded"]

HOST_NAME = "sagemaker-hetero-host"  # $0 of the bootstrap shell
# Shell lines that leave the watchdog behind, with $w = the grace period (seconds). On entry fd 0 is
# the lifeline's read end; fd 3 carries it to the watchdog only; on exit stdin is /dev/null. Run by
# BOOTSTRAP, and by the namespaces' set-up shell (``_isolation.SETUP``) itself.
WATCHDOG = (
    "exec 3<&0 0</dev/null\n"
    "( { trap '' HUP INT QUIT PIPE ALRM TERM USR1 USR2\n"
    "    while read -r _; do :; done\n"
    "    kill -s TERM 0; sleep \"$w\"; kill -s KILL 0\n"
    "  } <&3 3<&- >/dev/null 2>&1 & )\n"
    "exec 3<&-\n"
)
# Run by /bin/sh -c with $1 = the grace period, then the entry point's command line.
BOOTSTRAP = "w=$1\nshift\n" + WATCHDOG + "exec \"$@\"\n"
_SHELL = "/bin/sh"
_ENV = "/usr/bin/env" if os.path.exists("/usr/bin/env") else "env"
_SHELL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")  # what a POSIX shell keeps of its environment


def guarded(argv, grace, shell=None, env=None):
    """The command line that runs ``argv`` under the watchdog (``grace``: seconds, TERM to KILL).

    ``shell``: a command line ending in a shell that takes the grace period, then ``argv``, and runs
    :data:`WATCHDOG` itself (the namespaces' set-up); by default :data:`BOOTSTRAP`'s. ``env``: the
    environment the command line is started with; its variables the shell would drop (names that
    are no shell names) are set again by ``env`` when the shell ``exec``\\ s ``argv``.
    """
    odd = ["%s=%s" % (name, value) for name, value in sorted((env or {}).items()) if not _SHELL_NAME.match(name)]
    if odd:
        argv = [_ENV, "--"] + odd + list(argv)
    return list(shell or (_SHELL, "-c", BOOTSTRAP, HOST_NAME)) + ["%.3f" % grace] + list(argv)


class Lifeline(object):
    """One job's pipe: ``read_fd`` goes to every host as standard input; :meth:`close` cuts it."""

    def __init__(self):
        self.read_fd, self._write_fd = os.pipe()  # both close-on-exec
        _fork_closed.keep(self._write_fd)

    def close_read(self):
        """The driver's copy of the read end, once every host holds its own."""
        fd, self.read_fd = self.read_fd, None
        if fd is not None:
            os.close(fd)

    def close(self):
        """Cut the line: every watchdog still running stops its host's process group."""
        self.close_read()
        _fork_closed.release(self, "_write_fd")

