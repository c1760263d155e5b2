"""What the hosts' interpreter must import for the distribution's launcher, asked of it before any host starts.

``torch_distributed`` runs ``python -m torch.distributed.run`` on the distribution hosts, so it needs
``torch``; ``mpi`` runs ``python -m mpi4py <entry point>`` under ``mpirun`` (a Python entry point that
is not run as a module), so it needs ``mpi4py`` (``mpirun`` itself: ``_launchers.mpirun_for``).
Without them the hosts would start and die with ``No module named ...``; a local run says so first,
as a :class:`~sagemaker_hetero.exceptions.Problem` saying how to point ``LocalSession(python=...)``
at an environment that has the module.

The interpreter is asked once per ``(python, module)`` (:class:`Modules` keeps the answers), with one
short process that looks each module up (``importlib.util.find_spec``) without importing it. An
interpreter that cannot be asked (it does not start, fails, or takes too long) is no answer, not asked
again: the run goes on, and the host says what is wrong as it would have.
"""
import os
import subprocess
import threading

from sagemaker_hetero.exceptions import Problem
from sagemaker_hetero.local import _launchers

__all__ = ["Modules", "needed", "MISSING", "PROBE", "PROBE_TIMEOUT"]

# Prints the names among its arguments that the interpreter cannot find (one a line); imports none.
PROBE = "import importlib.util,sys; [print(m) for m in sys.argv[1:] if importlib.util.find_spec(m) is None]"
PROBE_TIMEOUT = 60.0  # seconds; an interpreter that does not answer by then is no answer
MISSING = (
    "%s on the distribution's hosts, and their interpreter %s cannot import %r: point LocalSession(python=...) "
    "at the interpreter of an environment that has it, "
    "e.g. LocalSession(python='/path/to/venv/bin/python'), or install it there ('%s -m pip install %s')"
)
_WHY = {
    "torch": "torch_distributed runs torchrun (python -m torch.distributed.run)",
    "mpi4py": "mpi runs the entry point as 'python -m mpi4py' under mpirun",
}


def _runs_python_file(code):
    """Whether the hosts run the entry point as ``python <file>.py`` (what ``python -m mpi4py`` wraps):
    a ``.py`` program not run as a module (a local ``source_dir`` with a ``setup.py`` runs it as one)."""
    if code is None or not isinstance(code.program, str) or not code.program.endswith(".py"):
        return False
    source = code.source_dir
    return not (isinstance(source, str) and not code.in_s3 and os.path.isfile(os.path.join(source, "setup.py")))


def needed(job):
    """``[(path, module, value)]``: the modules the job's launcher needs the hosts' interpreter to
    import, each with the distribution key (and its value) that asks for it."""
    launcher = _launchers.launcher_of(job)
    if launcher is None:
        return []
    options = job.distribution.options
    if launcher[0] == _launchers.TORCHRUN:
        return [("distribution.torch_distributed", "torch", options.get("torch_distributed"))]
    if _runs_python_file(job.code):
        return [("distribution.mpi", "mpi4py", options.get("mpi"))]
    return []


def _ask(python, modules, cwd):
    """The modules of ``modules`` that ``python`` cannot find, or ``None`` when it could not be asked."""
    try:
        done = subprocess.run([python, "-c", PROBE] + list(modules), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, cwd=cwd, timeout=PROBE_TIMEOUT)
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return set(done.stdout.decode("utf-8", "replace").split())


class Modules(object):
    """A session's answers: whether an interpreter finds a module, asked once per ``(python, module)``."""

    def __init__(self):
        self._found = {}  # (python, module) -> True, False, or None (no answer); not there: not asked yet
        self._lock = threading.Lock()

    def missing(self, python, modules, cwd=None):
        """The modules of ``modules`` that ``python`` cannot import (asked at most once each; ``cwd``:
        the folder the hosts run the entry point from, first on its path)."""
        with self._lock:
            ask = [m for m in modules if (python, m) not in self._found]
            if ask:
                answer = _ask(python, ask, cwd)
                for module in ask:
                    self._found[(python, module)] = None if answer is None else module not in answer
            return [m for m in modules if self._found.get((python, m)) is False]

    def problems(self, job, python):
        """The problems of ``job``'s launcher with the hosts' interpreter ``python`` (see :func:`needed`)."""
        wanted = needed(job)
        if not wanted:
            return []
        source = job.code.source_dir if job.code is not None else None
        cwd = source if isinstance(source, str) and os.path.isdir(source) else None
        missing = self.missing(python, [module for _, module, _ in wanted], cwd)
        return [Problem(path, MISSING % (_WHY[module], python, module, python, module), value)
                for path, module, value in wanted if module in missing]
