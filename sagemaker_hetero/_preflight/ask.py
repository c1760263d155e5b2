"""The preflight's AWS calls (edge): each through the one error translator, throttling retried.

:meth:`Asker.call` returns the answer, or a :class:`judge.Missing` when AWS says the thing asked
about does not exist (the error codes the caller expects); anything else that keeps the call from
being answered — access denied, a missing permission, no credentials, an unreachable or emulated
endpoint without the operation, an answer botocore cannot read, throttling that outlasts
:data:`THROTTLE_DELAYS`, any other exception of a stub, a proxy or an in-process emulator (moto's
``mock_aws`` raises ``NotImplementedError``), an answer without what the check reads from it — raises
:class:`Unanswered`, which the checks report as "unknown" naming the IAM action the call needs. The
clients are the session's single-attempt ones (``Session.quick_client``: no botocore retries, short
timeouts; this module retries throttling, and nothing else: a preflight does not wait on an endpoint
that is down or slow), a SageMaker client given to the session excepted. A preflight asks for at most
:data:`BUDGET` seconds (:meth:`Asker.begin`): a call not made within them is unanswered, not asked.
"""
import time

from sagemaker_hetero._aws import errors
from sagemaker_hetero import exceptions as E
from sagemaker_hetero._preflight.judge import Missing
from sagemaker_hetero._preflight.report import ACTIONS

__all__ = ["Asker", "Unanswered", "THROTTLE_DELAYS", "BUDGET", "why", "named"]

#: Seconds waited before each new attempt of a throttled call (so at most 4 attempts).
THROTTLE_DELAYS = (0.5, 1.0, 2.0)
#: Seconds one preflight spends asking at most (with each call's own timeouts: about a minute at worst).
BUDGET = 45.0


class Unanswered(Exception):
    """A call could not be answered; ``permission`` is the IAM action it needs, ``why`` says what
    happened."""

    def __init__(self, permission, why):
        super(Unanswered, self).__init__("%s: %s" % (permission, why))
        self.permission = permission
        self.why = why


def named(exc, limit=160):
    """``exc`` in one line: its class and the start of its message (``KeyError: 'Quota'``)."""
    text = " ".join(str(exc).split())
    return "%s: %s" % (type(exc).__name__, text[:limit]) if text else type(exc).__name__


def why(exc, permission):
    """Why an exception (an AWS error, or any other) left a check unanswered, in a few words."""
    if not isinstance(exc, E.AWSError):
        return "%s got no usable answer: %s" % (permission, named(exc))
    if isinstance(exc, E.AccessDeniedError):
        return "access denied: the caller needs %s" % permission
    if isinstance(exc, E.NoCredentialsError):
        return "no usable AWS credentials (%s)" % (exc.code or "none")
    if isinstance(exc, E.ThrottlingError):
        return "throttled after %d attempts" % (len(THROTTLE_DELAYS) + 1)
    if exc.code == "ConnectionError":
        text = str(exc.aws_message or "")
        if "timeout" in text.lower():  # botocore's 'Read timeout on endpoint URL: "..."' (or connect timeout)
            return "no answer in time (%s)" % " ".join(text.split())[:160]
        return "the endpoint could not be reached"
    text = " ".join(str(exc.aws_message or "").split())
    return "%s: %s" % (exc.code or "error", text[:160])


class Asker(object):
    """The calls of preflights of one session (clients made on first use); ``sleep`` waits ``delays``
    (default :data:`THROTTLE_DELAYS`) between throttled attempts; ``clock`` (monotonic seconds) times
    each preflight's ``budget`` (default :data:`BUDGET`)."""

    def __init__(self, session, sleep=time.sleep, delays=None, clock=time.monotonic, budget=None):
        self.session = session
        self.region = session.boto_region_name
        self.sleep = sleep
        self.delays = tuple(THROTTLE_DELAYS if delays is None else delays)
        self.clock = clock
        self.budget = BUDGET if budget is None else budget
        self.deadline = None  # no limit until a preflight begins

    def begin(self):
        """A preflight begins: its calls are made within :attr:`budget` seconds from now."""
        self.deadline = self.clock() + self.budget

    def client(self, service):
        return self.session.quick_client(service)  # one attempt, short timeouts (SessionProtocol)

    def _in_time(self, permission, wait=0.0):
        """Raise :class:`Unanswered` when waiting ``wait`` seconds more would pass the preflight's budget."""
        if self.deadline is not None and self.clock() + wait > self.deadline:
            raise Unanswered(permission, "no answer within the preflight's %g s (the endpoint answers slowly, "
                                         "throttles or does not answer)" % self.budget)

    def call(self, service, operation, missing=(), read=None, **params):
        """``operation``'s answer, or ``read(answer)`` (what a check takes from it: an answer without it is
        unanswered too); :class:`Missing` for an error code in ``missing``; else :class:`Unanswered`."""
        def ask():
            answer = errors.call(self.client(service), operation, **params)
            return answer if read is None else read(answer)

        return self.through(ACTIONS[(service, operation)], ask, missing)

    def through(self, permission, ask, missing=()):
        """``ask()`` (one AWS call through the translator, needing ``permission``), retried while
        throttled; an error code in ``missing`` is a :class:`Missing` answer; any other exception
        (not only an AWS error: whatever a stub, a proxy or an emulator raises) is :class:`Unanswered`."""
        for delay in self.delays + (None,):
            self._in_time(permission)
            try:
                return ask()
            except E.ThrottlingError as exc:
                if delay is None:
                    raise Unanswered(permission, why(exc, permission))
                self._in_time(permission, delay)
                self.sleep(delay)
            except E.AWSError as exc:
                if exc.code in missing:
                    return Missing(exc.code, exc.aws_message)
                raise Unanswered(permission, why(exc, permission))
            except Unanswered:
                raise
            except Exception as exc:  # noqa: BLE001 - a check never crashes a fit: what it could not ask is unknown
                raise Unanswered(permission, why(exc, permission))
        raise AssertionError("unreachable")  # pragma: no cover
