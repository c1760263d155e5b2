"""The one place where botocore's errors become ``sagemaker_hetero.exceptions`` types.

Every AWS call of the SDK goes through :func:`call`, so a caller only ever sees our exception
types; each keeps the AWS error code (``.code``) and says what to do. An answer that is no AWS
error at all (an HTML page, a bare HTTP status) or says the endpoint lacks the operation becomes
one line: the operation, the HTTP status and what it means, never the page itself; so does an answer
botocore cannot parse at all (``ResponseParserError``: an HTML page where XML was expected, an empty
body).
"""
import re

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._aws import answers

__all__ = ["call", "translate", "error_code", "misshapen", "quieted"]

_THROTTLING = {
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottledException",
    "TooManyRequestsException",
    "ProvisionedThroughputExceededException",
    "TransactionInProgressException",
    "RequestLimitExceeded",
    "BandwidthLimitExceeded",
    "LimitExceededException",
    "RequestThrottled",
    "SlowDown",
    "PriorRequestNotComplete",
    "EC2ThrottledException",
}
_DENIED = {"AccessDenied", "AccessDeniedException", "UnauthorizedOperation", "403"}
_NOT_FOUND = {"ResourceNotFound", "NoSuchBucket", "NoSuchKey", "NoSuchEntity", "404", "ResourceNotFoundException"}
# The credentials are wrong, each code with what it says about them.
_UNKNOWN_KEY = "AWS does not know the access key ID (a typo, a deleted key, or a key of another partition)."
_WRONG_SECRET = ("The secret access key does not match the access key ID (or this machine's clock is off by "
                 "more than 5 minutes).")
_EXPIRED = "The credentials have expired: refresh them (aws sso login, or new session credentials)."
_BAD_CREDENTIALS = {
    "InvalidClientTokenId": _UNKNOWN_KEY,
    "UnrecognizedClientException": _UNKNOWN_KEY,
    "InvalidAccessKeyId": _UNKNOWN_KEY,
    "AuthFailure": _UNKNOWN_KEY,
    "SignatureDoesNotMatch": _WRONG_SECRET,
    "InvalidSignatureException": _WRONG_SECRET,
    "IncompleteSignature": _WRONG_SECRET,
    "InvalidSignature": _WRONG_SECRET,
    "ExpiredToken": _EXPIRED,
    "ExpiredTokenException": _EXPIRED,
    "RequestExpired": _EXPIRED,
    "TokenRefreshRequired": _EXPIRED,
}
# The endpoint does not know the operation (JSON services, query services, S3).
_UNIMPLEMENTED = {"UnknownOperationException", "InvalidAction", "NotImplemented", "501"}

_CREDENTIALS_HINT = (
    "Configure AWS credentials: run 'aws configure' or 'aws sso login', set AWS_PROFILE, or set "
    "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY. A dry run (fit(dry_run=True)) needs none."
)
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)


def error_code(exc):
    response = getattr(exc, "response", None) or {}
    return (response.get("Error") or {}).get("Code")


def _message(exc):
    response = getattr(exc, "response", None) or {}
    return (response.get("Error") or {}).get("Message") or str(exc)


def _status(exc):
    response = getattr(exc, "response", None) or {}
    return (response.get("ResponseMetadata") or {}).get("HTTPStatusCode")


def _is_page(message):
    """Whether an error message is a document (an HTML page) rather than an AWS error message."""
    head = message.lstrip()[:200].lower()
    return head.startswith("<!doctype") or head.startswith("<html") or "<body" in head or "<h1" in head


def _page_title(message):
    match = _TITLE.search(message)
    if match:
        return " ".join(match.group(1).split())[:80]
    text = " ".join(re.sub(r"<[^>]*>", " ", message).split())
    return text[:80]


def _where(endpoint):
    return "the endpoint %s" % endpoint if endpoint else "the endpoint"


def _not_aws_answer(code, message, status, operation, endpoint, hint):
    """One line for an answer that carries no AWS error (an HTML page, a bare status), or None."""
    page = _is_page(message)
    if not page and not (code.isdigit() and code not in ("403", "404")):
        return None
    status = status or (int(code) if code.isdigit() else None)
    what = "an HTML page (%r)" % _page_title(message) if page else "no AWS error in the answer"
    if status is not None and status >= 500:
        meaning = ("%s failed inside, or does not implement %s (an emulator such as moto answers so for an "
                   "operation it lacks)" % (_where(endpoint), operation))
    else:
        meaning = "something other than the AWS API answered (a proxy, or a wrong endpoint URL)"
    text = "HTTP %s, %s: %s" % (status if status is not None else "?", what, meaning)
    return E.AWSError(text, code=code, operation=operation,
                      hint=hint or "Try again later; if AWS_ENDPOINT_URL (or endpoint_url) is set, check what it "
                                   "points at.")


def translate(exc, operation, hint=None, endpoint=None):
    """Our exception for a botocore exception ``exc`` raised by ``operation`` (``endpoint``: the URL the
    client sent it to, named when the answer is not an AWS error). ``exc`` is :func:`quieted` once read:
    it is ours the cause of, which a traceback prints."""
    translated = _translated(exc, operation, hint, endpoint)
    quieted(exc)
    return translated


def quieted(exc):
    """``exc`` (and the exceptions it was raised from or while handling) with its own text shown
    (``exceptions.shown``): a traceback prints the cause of our exception with it, and what AWS said
    in a botocore error's message is text there too. Only ``args`` change (what ``str`` and a
    traceback print); ``exc.response`` keeps the answer as it came."""
    link = exc
    for _ in range(8):  # a chain is short; a cycle is not followed
        if link is None:
            break
        try:
            link.args = tuple(E.shown(a) if isinstance(a, str) else a for a in link.args)
        except Exception:  # noqa: BLE001 - an exception whose args cannot be set keeps them
            pass
        link = link.__cause__ or link.__context__
    return exc


def _translated(exc, operation, hint, endpoint):
    import botocore.exceptions as B

    if isinstance(exc, (B.NoCredentialsError, B.PartialCredentialsError)):
        return E.NoCredentialsError(str(exc), code="NoCredentials", operation=operation, hint=_CREDENTIALS_HINT)
    if isinstance(exc, B.NoRegionError):  # the region rule's one wording (_request.names.no_region)
        from sagemaker_hetero._request import names

        return E.AWSError(str(exc), code="NoRegion", operation=operation,
                          hint=names.no_region("or pass boto3.Session(region_name=...)") + ".")
    if isinstance(exc, (B.EndpointConnectionError, B.ConnectionClosedError, B.ReadTimeoutError, B.ConnectTimeoutError)):
        return E.AWSError(
            str(exc),
            code="ConnectionError",
            operation=operation,
            hint=hint or "Could not reach AWS after retries; check the network, proxy or AWS_ENDPOINT_URL.",
        )
    if _is_parse_error(exc):
        return _unreadable(exc, operation, endpoint, hint)
    if not isinstance(exc, B.ClientError):
        return E.AWSError(str(exc), code=type(exc).__name__, operation=operation, hint=hint)
    return _client_error(exc, operation, hint, endpoint)


def _parse_errors():
    """botocore's exception classes for an answer it could not read (``ResponseParserError`` is a plain
    Exception, not a ``BotoCoreError``)."""
    from botocore import parsers

    return tuple(c for c in (getattr(parsers, "ResponseParserError", None),) if c is not None)


def _is_parse_error(exc):
    return isinstance(exc, _parse_errors()) or answers.raised_reading_answer(exc)


def _unreadable(exc, operation, endpoint, hint):
    """One line for an answer botocore could not parse (an HTML page, an empty or cut body, a body of
    another shape): what came back and what it means, never the body itself."""
    body = str(exc).partition("\n")[2]
    what = "an HTML page (%r)" % _page_title(body) if _is_page(body) else (
        "an answer of another shape (%s: %s)" % (type(exc).__name__, str(exc)[:80])
        if not isinstance(exc, _parse_errors()) else
        "an empty answer" if not body.strip(" b'\"") else "an answer that is not AWS's")
    message = ("botocore could not read the answer, %s: %s did not answer as AWS does (an emulator such as moto "
               "answers so for an operation it lacks, or a proxy answered)" % (what, _where(endpoint)))
    return E.AWSError(message, code="ResponseParserError", operation=operation,
                      hint=hint or "Try again later; if AWS_ENDPOINT_URL (or endpoint_url) is set, check what it "
                                   "points at.")


def _client_error(exc, operation, hint, endpoint):
    """Our exception for a botocore ``ClientError``: by its code (credentials, throttling, an operation
    the endpoint lacks, denied, not found), else by what its message says."""
    code = error_code(exc) or "Unknown"
    message = _message(exc)
    if code in _BAD_CREDENTIALS:
        return E.NoCredentialsError(message, code=code, operation=operation,
                                    hint="%s %s" % (_BAD_CREDENTIALS[code], _CREDENTIALS_HINT))
    if code in _THROTTLING:
        return E.ThrottlingError(
            message,
            code=code,
            operation=operation,
            hint="AWS kept throttling after every retry; wait and try again, or launch fewer jobs at once.",
        )
    if code in _UNIMPLEMENTED or _status(exc) == 501:
        return E.AWSError(
            "HTTP %s: %s does not implement %s" % (_status(exc) or "?", _where(endpoint), operation),
            code=code,
            operation=operation,
            hint=hint or "An emulator (AWS_ENDPOINT_URL) may lack it; against AWS, update boto3 and botocore.",
        )
    unreadable = _not_aws_answer(code, message, _status(exc), operation, endpoint, hint)
    if unreadable is not None:
        return unreadable
    if code in _DENIED:
        return E.AccessDeniedError(
            message,
            code=code,
            operation=operation,
            hint=hint or "The caller's IAM policy must allow %s on this resource." % operation,
        )
    if code in _NOT_FOUND:
        return E.ResourceNotFoundError(message, code=code, operation=operation, hint=hint)
    lowered = message.lower()
    if code == "ValidationException" and ("not found" in lowered or "could not find" in lowered):
        return E.ResourceNotFoundError(message, code=code, operation=operation, hint=hint)
    if code == "ValidationException" and ("role" in message.lower() or "assume" in message.lower()):
        return E.AWSError(
            message,
            code=code,
            operation=operation,
            hint="Check the role: it must exist, trust sagemaker.amazonaws.com, and you need iam:PassRole on it.",
        )
    return E.AWSError(message, code=code, operation=operation, hint=hint)


def call(client, operation, hint=None, **params):
    """``client.<operation>(**params)`` with botocore's errors translated (operation in CamelCase)."""
    import botocore.exceptions as B

    method = getattr(client, _snake(operation))
    try:
        return method(**params)
    except (B.BotoCoreError, B.ClientError) + _parse_errors() as exc:
        endpoint = getattr(getattr(client, "meta", None), "endpoint_url", None)
        raise translate(exc, operation, hint, endpoint=endpoint) from exc
    except answers.READING_ERRORS as exc:
        if isinstance(exc, E.SageMakerHeteroError) or not answers.raised_reading_answer(exc):
            raise
        raise misshapen(client, operation, exc, hint) from exc


def misshapen(client, operation, exc, hint=None):
    """The :class:`AWSError` for an answer botocore could not read because its fields are not of the
    shape AWS answers (``exc``: what its parser raised): each wrong field named, and kept as the
    error's ``problems``."""
    meta = getattr(client, "meta", None)
    try:
        answer = answers.answer_of(exc)
    except LookupError:  # no answer to name the fields of: the parser's error is named
        found = []
    except (ValueError, RecursionError):
        found = [E.Problem("the answer", "nests too deep to read, or is no JSON")]
    else:
        try:
            found = answers.problems(meta.service_model.operation_model(operation).output_shape, answer)
        except Exception:  # naming the fields is a courtesy: the error is told whatever they are
            found = []
    named = "; ".join(str(p) for p in found) or "%s: %s" % (type(exc).__name__, exc)
    where = _where(getattr(meta, "endpoint_url", None))
    message = ("botocore could not read the answer, its fields are not of the shape AWS answers (%s): %s did not "
               "answer as AWS does (a proxy or an emulator answered)" % (named, where))
    error = E.AWSError(message, code="ResponseParserError", operation=operation,
                       hint=hint or "If AWS_ENDPOINT_URL (or endpoint_url) is set, check what it points at.")
    error.problems = found
    return error


def _snake(name):
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.lower())
    return "".join(out)
