"""The one place where botocore's errors become ``sagemaker_hetero.exceptions`` types.

Every AWS call of the SDK goes through :func:`call`, so a caller only ever sees our exception
types; each keeps the AWS error code (``.code``) and says what to do.
"""
from sagemaker_hetero import exceptions as E

__all__ = ["call", "translate", "error_code"]

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
_BAD_CREDENTIALS = {
    "InvalidClientTokenId",
    "UnrecognizedClientException",
    "InvalidAccessKeyId",
    "SignatureDoesNotMatch",
    "ExpiredToken",
    "ExpiredTokenException",
}

_CREDENTIALS_HINT = (
    "Configure AWS credentials: run 'aws configure' or 'aws sso login', set AWS_PROFILE, or set "
    "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY. A dry run (fit(dry_run=True)) needs none."
)


def error_code(exc):
    response = getattr(exc, "response", None) or {}
    return (response.get("Error") or {}).get("Code")


def _message(exc):
    response = getattr(exc, "response", None) or {}
    return (response.get("Error") or {}).get("Message") or str(exc)


def translate(exc, operation, hint=None):
    """Our exception for a botocore exception ``exc`` raised by ``operation``."""
    import botocore.exceptions as B

    if isinstance(exc, (B.NoCredentialsError, B.PartialCredentialsError)):
        return E.NoCredentialsError(str(exc), code="NoCredentials", operation=operation, hint=_CREDENTIALS_HINT)
    if isinstance(exc, B.NoRegionError):
        return E.AWSError(
            str(exc),
            code="NoRegion",
            operation=operation,
            hint="Set AWS_REGION, a region in your AWS profile, or pass boto3.Session(region_name=...).",
        )
    if isinstance(exc, (B.EndpointConnectionError, B.ConnectionClosedError, B.ReadTimeoutError, B.ConnectTimeoutError)):
        return E.AWSError(
            str(exc),
            code="ConnectionError",
            operation=operation,
            hint=hint or "Could not reach AWS after retries; check the network, proxy or AWS_ENDPOINT_URL.",
        )
    if not isinstance(exc, B.ClientError):
        return E.AWSError(str(exc), code=type(exc).__name__, operation=operation, hint=hint)
    code = error_code(exc) or "Unknown"
    message = _message(exc)
    if code in _BAD_CREDENTIALS:
        return E.NoCredentialsError(message, code=code, operation=operation, hint=_CREDENTIALS_HINT)
    if code in _THROTTLING:
        return E.ThrottlingError(
            message,
            code=code,
            operation=operation,
            hint="AWS kept throttling after every retry; wait and try again, or launch fewer jobs at once.",
        )
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
    except (B.BotoCoreError, B.ClientError) as exc:
        raise translate(exc, operation, hint) from exc


def _snake(name):
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.lower())
    return "".join(out)
