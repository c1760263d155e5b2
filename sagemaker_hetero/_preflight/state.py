"""What a session remembers between preflights, so that a later job of it costs no call.

Kept per session object (weakly: it goes with the session): the quota-name map and quota values,
the account's use of the quotas (the jobs in progress, counted at most :data:`USE_LIFETIME` seconds
ago, plus the instances of the jobs this session started since), the descriptions already counted,
every finding of a subject that was "ok" or "unknown", and every call that could not be answered
(:meth:`State.asked`), all for the session's life: an endpoint that cannot answer a call (an emulator
without the operation, a permission the caller lacks) is not asked it again by a later job, and an
unknown is told once (:meth:`State.untold`). A problem is never remembered: a subject with a problem
is asked about again, so a fix shows at once, and a verdict from remembered quota values or use that
comes out as a problem is made again from fresh answers before it is told.
"""
import threading
import time
import weakref

from sagemaker_hetero._preflight.ask import Unanswered
from sagemaker_hetero._preflight.report import OK, UNKNOWN

__all__ = ["State", "state_of", "USE_LIFETIME"]

#: Seconds the account's counted use of the quotas is used again.
USE_LIFETIME = 600.0
_STATES = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def state_of(session):
    """The :class:`State` of ``session`` (made on first use)."""
    with _LOCK:
        state = _STATES.get(session)
        if state is None:
            state = _STATES[session] = State()
        return state


class State(object):
    """One session's memory (see the module docstring); ``lock`` is held for a whole preflight, so
    jobs started at once from threads of one session ask AWS once."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.lock = threading.RLock()
        self.asker = None
        self.codes = None  # quota name -> code
        self.values = {}  # quota code -> value
        self.described = {}  # job name -> {quota name: instances}
        self.usable = set()  # buckets found in the job's region
        self._use = None  # (when counted, {quota name: instances})
        self._started = {}  # {quota name: instances} of the jobs started since
        self._findings = {}  # key -> [Finding]
        self._unanswered = {}  # key of a call -> the Unanswered it raised
        self._told = set()  # the unknown findings already told

    # -- the account's use of the quotas ---------------------------------------------------------

    def use(self):
        """``{quota name: instances}`` in use as last counted plus what this session started since,
        or None when not counted within :data:`USE_LIFETIME` seconds."""
        if self._use is None or self.clock() - self._use[0] >= USE_LIFETIME:
            return None
        out = dict(self._use[1])
        for name, count in self._started.items():
            out[name] = out.get(name, 0) + count
        return out

    def counted(self, use):
        """The use just counted from the jobs in progress (which include those this session started)."""
        self._use = (self.clock(), dict(use))
        self._started = {}

    def started(self, requested):
        """A job of this session was created, asking ``requested`` (``{quota name: instances}``)."""
        with self.lock:
            for name, count in requested.items():
                self._started[name] = self._started.get(name, 0) + count

    def forget_use(self):
        """The remembered use is wrong (SageMaker refused a job over a quota): count again next time."""
        with self.lock:
            self._use = None
            self._started = {}

    # -- findings ----------------------------------------------------------------------------------

    def findings(self, key):
        """The remembered findings of ``key`` (a subject), or None."""
        kept = self._findings.get(key)
        return None if kept is None else list(kept)

    def keep(self, key, findings):
        """Remember ``findings`` of ``key`` if each is "ok" or "unknown"; return them."""
        if all(f.result in (OK, UNKNOWN) for f in findings):
            self._findings[key] = list(findings)
        return findings

    def untold(self, findings):
        """The unknown ``findings`` not told yet in this session (each is told once)."""
        out = []
        for finding in findings:
            key = (finding.check, finding.subject, finding.detail)
            if finding.result == UNKNOWN and key not in self._told:
                self._told.add(key)
                out.append(finding)
        return out

    # -- calls that could not be answered ----------------------------------------------------------

    def asked(self, key, ask):
        """``ask()``'s answer; the :class:`Unanswered` it raised once is raised again for ``key``
        (a call and what it asked) without asking, for the session's life."""
        kept = self._unanswered.get(key)
        if kept is not None:
            raise kept
        try:
            return ask()
        except Unanswered as exc:
            self._unanswered[key] = exc
            raise
