"""The preflight's AWS calls (edge): each through the one error translator, throttling retried.

:meth:`Asker.call` returns the answer, or a :class:`judge.Missing` when AWS says the thing asked
about does not exist (the error codes the caller expects); anything else that keeps the call from
being answered — access denied, a missing permission, no credentials, an unreachable or emulated
endpoint without the operation, an answer botocore cannot read, throttling that outlasts
:data:`THROTTLE_DELAYS`, any other exception of a stub, a proxy or an in-process emulator (moto's
``mock_aws`` raises ``NotImplementedError``), an answer without what the check reads from it — raises
:class:`Unanswered`, which the checks report as "unknown" naming the IAM action the call needs. The
clients are made from the session's boto3 session, without botocore's own retries (this module
retries throttling, and nothing else: a preflight does not wait on an endpoint that is down), and
shared by every session made with that boto3 session; the SageMaker calls use the session's
SageMaker client.
"""
import time

from sagemaker_hetero._aws import clients, errors
from sagemaker_hetero import exceptions as E
from sagemaker_hetero._preflight.judge import Missing
from sagemaker_hetero._preflight.report import ACTIONS

__all__ = ["Asker", "Unanswered", "THROTTLE_DELAYS", "why", "named"]

#: Seconds waited before each new attempt of a throttled call (so at most 4 attempts).
THROTTLE_DELAYS = (0.5, 1.0, 2.0)


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
        return "the endpoint could not be reached"
    text = " ".join(str(exc.aws_message or "").split())
    return "%s: %s" % (exc.code or "error", text[:160])


class Asker(object):
    """The calls of preflights of one session (clients made on first use); ``sleep`` waits ``delays``
    (default :data:`THROTTLE_DELAYS`) between throttled attempts."""

    def __init__(self, session, sleep=time.sleep, delays=None):
        self.session = session
        self.region = session.boto_region_name
        self.sleep = sleep
        self.delays = tuple(THROTTLE_DELAYS if delays is None else delays)

    def client(self, service):
        if service == "sagemaker":
            return self.session.sagemaker_client
        return clients.single_attempt_client(self.session.boto_session, service, self.region, "preflight")

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
            try:
                return ask()
            except E.ThrottlingError as exc:
                if delay is None:
                    raise Unanswered(permission, why(exc, permission))
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
