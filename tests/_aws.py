"""Real-parts AWS test infrastructure (no patching of SDK or boto3 functions).

Three pieces, all talking plain HTTP on 127.0.0.1:

* :class:`MotoServer` - a ``moto.server.ThreadedMotoServer`` whose WSGI app is
  wrapped so that every request the server *receives* is recorded
  (:class:`RecordedRequest`): service, operation, method, path, query,
  headers, body, parsed JSON / form body, and the HTTP status moto answered;
  the operations moto lacks are answered in its place from a table
  (``MotoServer.answers``, :class:`tests._answers.Answers`; see (k) below).
* :class:`FaultProxy` - a transparent HTTP reverse proxy in front of the moto
  server.  boto3 clients point at it (``endpoint_url=proxy.url`` or
  ``AWS_ENDPOINT_URL``) and it injects faults at the HTTP layer: throttling
  responses, custom statuses, dropped connections before the request reaches
  moto (``reset_before``) or after moto has acted on it (``reset_after``);
  what it forwards reaches the server's answers too.
* :data:`network_guard` - refuses socket connections / name lookups for
  anything that is not loopback, so no test can reach the internet.

The pytest fixtures using these live in ``tests/conftest.py``
(``moto_server``, ``aws``, ``fault_proxy``).

What moto 5.2.5 actually does (verified by ``tests/test_aws_infra.py``; the
SDK's tests must not assume more than this):

(a) CreateTrainingJob with a name that already exists: moto does NOT fail.
    It answers HTTP 200 with the same ``TrainingJobArn`` and silently
    *replaces* the stored job (new CreationTime, the new request's fields).
    Real SageMaker answers HTTP 400, error code ``ResourceInUse`` (one of the
    three errors botocore's model lists for CreateTrainingJob:
    ResourceInUse, ResourceLimitExceeded, ResourceNotFound).  To test an SDK
    path that relies on that answer, set
    ``FaultProxy.unique_training_job_names = True``: the proxy then answers
    a CreateTrainingJob whose TrainingJobName already exists in moto (it asks
    moto with a DescribeTrainingJob over HTTP) with HTTP 400
    ``{"__type": "ResourceInUse", "message": "Training job names must be
    unique within an AWS account and region, and a training job with this
    name already exists (<arn>)"}`` instead of forwarding it.
(b) S3 CreateBucket on a bucket the same account already owns:
    us-west-2 (with a LocationConstraint) -> HTTP 409
    ``BucketAlreadyOwnedByYou`` ("Your previous request to create the named
    bucket succeeded and you already own it."); us-east-1 -> HTTP 200 (the
    legacy us-east-1 behaviour of real S3).
(c) CreateTrainingJob is not validated server-side beyond what it needs to
    build its response: any RoleArn string (bad account, even "x" when
    botocore's client-side parameter validation is off), unknown instance
    types, InstanceCount 0, InstanceGroups with unknown types and channels
    naming non-existent instance groups are all accepted (HTTP 200).
    ``ResourceConfig.InstanceGroups`` and
    ``InputDataConfig[].DataSource.S3DataSource.InstanceGroupNames`` are
    stored verbatim and returned by DescribeTrainingJob.  A missing
    OutputDataConfig makes moto crash (HTTP 500 HTML page, not a JSON
    error).  Only botocore's client-side validation (lengths, required
    members, types) applies.  moto adds
    ``AlgorithmSpecification.MetricDefinitions`` (a fake "test:dcg" metric)
    to the described job.
(d) There is no status progression: a created job is immediately
    ``TrainingJobStatus="Completed"``, ``SecondaryStatus="Completed"`` (with
    one "Starting" SecondaryStatusTransition), TrainingStart/EndTime equal
    to CreationTime, ModelArtifacts
    ``<S3OutputPath>/<name>/output/model.tar.gz``; moto has no state-manager
    transition for SageMaker training jobs.  StopTrainingJob is NOT
    implemented (HTTP 500, HTML body) - so botocore retries it as a 5xx.
    Implemented training-job actions: CreateTrainingJob,
    DescribeTrainingJob, ListTrainingJobs (plus AddTags/ListTags/DeleteTags,
    Search).
(e) CloudWatch Logs: DescribeLogStreams, GetLogEvents and FilterLogEvents
    are implemented, but moto writes no logs for training jobs: on a fresh
    server ``/aws/sagemaker/TrainingJobs`` does not exist and all three
    answer ``ResourceNotFoundException`` ("The specified log group does not
    exist.").  After CreateLogGroup/CreateLogStream/PutLogEvents they work
    (``logStreamNamePrefix``, ``orderBy``/``descending``, ``startFromHead``,
    ``nextForwardToken`` - which stays the same once the end is reached).
(f) S3 conditional writes: PutObject honours ``If-None-Match: *`` and
    ``If-Match: <etag>`` (HTTP 412 ``PreconditionFailed``);
    CompleteMultipartUpload honours ``If-None-Match: *`` but IGNORES
    ``If-Match`` (real S3 honours both).  A multipart object's ETag is the
    MD5 of its parts' MD5 digests, ``-`` and the number of parts, as on S3.
    Parts other than the last must be at least 5 MiB (``EntityTooSmall``).
    Checksums: PutObject and UploadPart with ``ChecksumAlgorithm="SHA256"``
    keep the checksum, and HeadObject with ``ChecksumMode="ENABLED"``
    answers it (a multipart object's composite one without a ``-N``);
    HeadObject with ``PartNumber=1`` answers the first part's size.  Unlike
    S3, moto keeps a ``ChecksumSHA256`` the request gives without checking
    it against the bytes.
(g) Every answer carries a ``Date`` header from the server's clock (the
    proxy relays it; answers the proxy makes up itself have none).
(h) Tuning jobs (verified by ``tests/test_aws_infra_tuning.py``):
    CreateHyperParameterTuningJob stores the request verbatim (a training
    job definition's ``ResourceConfig.InstanceGroups`` and channels'
    ``InstanceGroupNames`` included) and DescribeHyperParameterTuningJob
    returns it; the job is ``Completed`` at once, with a stand-in
    ``BestTrainingJob`` (``FakeTrainingJobName``, a training job that does
    not exist) and fixed counters.  A taken name is HTTP 400
    ``ResourceInUse`` "... already exists ..." (as SageMaker answers); an
    unknown job is HTTP 400 ``ResourceNotFound``.  No training job is
    created.  StopHyperParameterTuningJob is NOT implemented (HTTP 500).
(i) Pipelines (same test file): CreatePipeline stores the definition
    without reading it; a taken name is HTTP 400 ``ValidationException``
    "... Pipeline with name (<name>) already exists." (as SageMaker
    answers); UpdatePipeline replaces the definition; StartPipelineExecution
    answers an execution that is ``Succeeded`` at once (parameters kept,
    ListPipelineParametersForExecution) and runs no step; an unknown
    pipeline is HTTP 400 ``ValidationException`` "Could not find pipeline
    ...".  ListPipelineExecutionSteps is NOT implemented (HTTP 500).
(j) The Price List Query API (``pricing``, GetProducts) is not implemented at
    all: moto finds no backend for it and answers HTTP 500 with an HTML page
    (botocore retries it as a 5xx).  Tests that read prices have the
    server answer GetProducts (``MotoServer.answers``,
    ``tests/cost/_price_list.py``).  DescribeTrainingJob holds no
    ``TrainingTimeInSeconds`` or ``BillableTimeInSeconds``.
(k) What a preflight asks (verified by ``tests/test_answers.py``): IAM
    GetRole answers the role's ``Path``, its ``Arn`` with the path and the
    ``AssumeRolePolicyDocument`` as a decoded dict; a missing role is
    ``NoSuchEntity``.  STS GetCallerIdentity answers the user
    ``arn:aws:sts::123456789012:user/moto``.  KMS keys live in one region:
    DescribeKey of another region's key (by ARN or id), of a missing key or
    alias is ``NotFoundException``; a disabled key is ``Enabled: false``,
    ``KeyState: Disabled``.  EC2 DescribeSubnets / DescribeSecurityGroups
    with the ``subnet-id`` / ``group-id`` filters list only those that
    exist (no error), each with its ``VpcId`` (subnets with
    ``AvailableIpAddressCount``: the CIDR's size less 5); with ``SubnetIds=``
    a missing subnet is ``InvalidSubnetID.NotFound`` naming another id.
    ECR DescribeImages: a missing tag is ``ImageNotFoundException``, a
    missing repository (or one of another region) is
    ``RepositoryNotFoundException``.  S3 GetBucketLocation answers the
    ``LocationConstraint`` (null in us-east-1) or ``NoSuchBucket``;
    ListObjectsV2 with ``MaxKeys=1`` answers ``KeyCount``.  NOT implemented:
    Service Quotas ListServiceQuotas and IAM SimulatePrincipalPolicy (HTTP
    500), and GetServiceQuota answers ``NoSuchResourceException`` for
    ``sagemaker``: the server answers those itself (``tests/_answers.py``,
    ``MotoServer.answers``), in botocore's shapes, before moto sees them.

On Python 3.8 pip installs moto 5.0.x (its last releases for 3.8), which
differs in (f): PutObject ignores ``If-Match`` and CompleteMultipartUpload
ignores ``If-None-Match``.  Tests that need those answers are marked with
:data:`needs_moto_conditional_writes` (skipped there, with that reason).
Before 5.1.2 HeadObject answers no checksum: tests that need it are marked
with :data:`needs_moto_head_checksums`.
"""

import http.client
import http.server
import io
import ipaddress
import json
import socket
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple, Union
from urllib.parse import parse_qsl, quote, urlsplit

import pytest

from tests._answers import Answers

__all__ = [
    "ACCOUNT_ID",
    "REGION",
    "FaultProxy",
    "FaultRule",
    "InProcessMoto",
    "MotoServer",
    "NetworkAccessBlocked",
    "NetworkGuard",
    "RecordedRequest",
    "describe_request",
    "needs_moto_conditional_writes",
    "needs_moto_head_checksums",
    "network_guard",
]

ACCOUNT_ID = "123456789012"  # moto's default account
REGION = "us-west-2"


def _moto_release():
    # type: () -> Tuple[int, ...]
    from importlib.metadata import version  # Python 3.8+; does not import moto

    return tuple(int(part) for part in version("moto").split(".")[:3] if part.isdigit())


needs_moto_conditional_writes = pytest.mark.skipif(
    _moto_release() < (5, 1),
    reason="moto 5.0.x (the last releases for Python 3.8) ignores If-Match on PutObject and "
    "If-None-Match on CompleteMultipartUpload; checked with a newer moto",
)
needs_moto_head_checksums = pytest.mark.skipif(
    _moto_release() < (5, 1, 2),
    reason="moto before 5.1.2 (5.0.x is the last for Python 3.8) answers no checksum to HeadObject with "
    "ChecksumMode=ENABLED; checked with a newer moto",
)

# --------------------------------------------------------------------------
# Request description (shared by MotoServer recording and FaultProxy matching)
# --------------------------------------------------------------------------

# S3 sub-resources -> the suffix of the operation name, e.g. PUT ?versioning
# on a bucket is PutBucketVersioning.
_S3_BUCKET_SUBRESOURCES = {
    "accelerate": "AccelerateConfiguration",
    "acl": "Acl",
    "analytics": "AnalyticsConfiguration",
    "cors": "Cors",
    "encryption": "Encryption",
    "intelligent-tiering": "IntelligentTieringConfiguration",
    "inventory": "InventoryConfiguration",
    "lifecycle": "LifecycleConfiguration",
    "location": "Location",
    "logging": "Logging",
    "metrics": "MetricsConfiguration",
    "notification": "NotificationConfiguration",
    "object-lock": "ObjectLockConfiguration",
    "ownershipControls": "OwnershipControls",
    "policy": "Policy",
    "policyStatus": "PolicyStatus",
    "publicAccessBlock": "PublicAccessBlock",
    "replication": "Replication",
    "requestPayment": "RequestPayment",
    "tagging": "Tagging",
    "versioning": "Versioning",
    "website": "Website",
}
_S3_OBJECT_SUBRESOURCES = {
    "acl": "Acl",
    "attributes": "Attributes",
    "legal-hold": "LegalHold",
    "retention": "Retention",
    "tagging": "Tagging",
    "torrent": "Torrent",
}


def credential_scope(headers, query=None):
    # type: (Dict[str, str], Optional[Dict[str, str]]) -> Optional[Tuple[str, str]]
    """``(region, service)`` from a SigV4 ``Authorization`` header
    (``AWS4-HMAC-SHA256 Credential=AKID/20240101/us-west-2/sagemaker/aws4_request, ...``)
    or a presigned URL's ``X-Amz-Credential``; ``None`` if unsigned."""
    credential = None
    auth = headers.get("authorization", "")
    if "Credential=" in auth:
        credential = auth.split("Credential=", 1)[1].split(",", 1)[0].strip()
    elif query and query.get("X-Amz-Credential"):
        credential = query["X-Amz-Credential"]
    if not credential:
        return None
    parts = credential.split("/")
    if len(parts) < 5:
        return None
    return parts[-3], parts[-2]


def _s3_operation(method, path, query, headers):
    # type: (str, str, Dict[str, str], Dict[str, str]) -> str
    segments = path.lstrip("/").split("/", 1)
    bucket = segments[0]
    key = segments[1] if len(segments) > 1 else ""
    copy = "x-amz-copy-source" in headers
    if not bucket:
        return "ListBuckets" if method == "GET" else "%s /" % method
    if not key:  # bucket-level operation
        if method == "HEAD":
            return "HeadBucket"
        if method == "POST" and "delete" in query:
            return "DeleteObjects"
        if method == "GET":
            if "list-type" in query:
                return "ListObjectsV2"
            if "uploads" in query:
                return "ListMultipartUploads"
            if "versions" in query:
                return "ListObjectVersions"
        for sub, suffix in _S3_BUCKET_SUBRESOURCES.items():
            if sub in query:
                verb = {"GET": "Get", "PUT": "Put", "DELETE": "Delete"}.get(method)
                if verb:
                    return "%sBucket%s" % (verb, suffix)
        return {
            "GET": "ListObjects",
            "PUT": "CreateBucket",
            "DELETE": "DeleteBucket",
        }.get(method, "%s /%s" % (method, bucket))
    # object-level operation
    if method == "PUT":
        if "partNumber" in query and "uploadId" in query:
            return "UploadPartCopy" if copy else "UploadPart"
        for sub, suffix in _S3_OBJECT_SUBRESOURCES.items():
            if sub in query:
                return "PutObject%s" % suffix
        return "CopyObject" if copy else "PutObject"
    if method == "POST":
        if "uploads" in query:
            return "CreateMultipartUpload"
        if "uploadId" in query:
            return "CompleteMultipartUpload"
        if "restore" in query:
            return "RestoreObject"
        if "select" in query:
            return "SelectObjectContent"
    if method == "GET":
        if "uploadId" in query:
            return "ListParts"
        for sub, suffix in _S3_OBJECT_SUBRESOURCES.items():
            if sub in query:
                return "GetObject%s" % suffix
        return "GetObject"
    if method == "HEAD":
        return "HeadObject"
    if method == "DELETE":
        if "uploadId" in query:
            return "AbortMultipartUpload"
        if "tagging" in query:
            return "DeleteObjectTagging"
        return "DeleteObject"
    return "%s %s" % (method, path)


def _parse_form(headers, body):
    # type: (Dict[str, str], bytes) -> Optional[Dict[str, str]]
    if not headers.get("content-type", "").startswith(
        "application/x-www-form-urlencoded"
    ):
        return None
    try:
        return dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
    except UnicodeDecodeError:
        return None


def _parse_json(headers, body):
    # type: (Dict[str, str], bytes) -> Any
    if not body:
        return None
    content_type = headers.get("content-type", "")
    if "json" not in content_type and "x-amz-target" not in headers:
        return None
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def describe_request(method, path, query, headers, body=b""):
    # type: (str, str, Dict[str, str], Dict[str, str], bytes) -> Tuple[Optional[str], str]
    """Return ``(service, operation)`` for an AWS API request.

    *headers* must have lower-case names, *query* is the parsed query string
    (first value per name), *path* the raw (percent-encoded) path.

    * service: the signing name from the SigV4 credential scope
      (``sagemaker``, ``s3``, ``sts``, ``logs``...), ``None`` if unsigned;
    * operation: the part after the dot of ``X-Amz-Target`` for JSON
      protocols (``SageMaker.CreateTrainingJob`` -> ``CreateTrainingJob``,
      ``Logs_20140328.GetLogEvents`` -> ``GetLogEvents``); ``Action`` from the
      query string or form body for query protocols (STS, IAM); for S3 a
      best-effort name inferred from method, path and sub-resources
      (``PutObject``, ``CreateBucket``, ``HeadBucket``, ``GetBucketLocation``,
      ``ListObjectsV2``, ``UploadPart``...); otherwise ``"METHOD /path"``.
    """
    scope = credential_scope(headers, query)
    service = scope[1] if scope else None
    target = headers.get("x-amz-target")
    if target:
        return service, target.rsplit(".", 1)[-1]
    if query.get("Action"):
        return service, query["Action"]
    form = _parse_form(headers, body)
    if form and form.get("Action"):
        return service, form["Action"]
    if service == "s3":
        return service, _s3_operation(method, path.split("?", 1)[0], query, headers)
    return service, "%s %s" % (method, path)


def _decode_aws_chunked(body):
    # type: (bytes) -> bytes
    """Strip ``aws-chunked`` framing (``<hex>;chunk-signature=...\\r\\n<data>\\r\\n``)."""
    out = []
    pos = 0
    while pos < len(body):
        eol = body.index(b"\r\n", pos)
        size = int(body[pos:eol].split(b";", 1)[0], 16)
        if size == 0:
            break
        start = eol + 2
        out.append(body[start : start + size])
        pos = start + size + 2
    return b"".join(out)


class RecordedRequest(object):
    """One HTTP request as received by the moto server or the fault proxy.

    ``headers`` has lower-case names (repeated headers joined with ``,``);
    ``query`` maps each query parameter to its first value (``raw_query`` is
    the undecoded string); ``body`` is the exact bytes of the request body
    (HTTP chunked framing removed); ``json`` / ``form`` are the parsed body
    when it is JSON / ``application/x-www-form-urlencoded``, else ``None``;
    ``status`` is the HTTP status that was answered (``None`` until then, or
    if the connection was dropped); ``error`` is the exception moto raised
    while handling it (answered with HTTP 500), if any.
    """

    def __init__(self, method, path, raw_query, headers, body):
        # type: (str, str, str, Dict[str, str], bytes) -> None
        self.time = time.time()
        self.method = method
        self.path = path
        self.raw_query = raw_query
        self.query = {}  # type: Dict[str, str]
        for name, value in parse_qsl(raw_query, keep_blank_values=True):
            self.query.setdefault(name, value)
        self.headers = headers
        self.body = body
        self.json = _parse_json(headers, body)
        self.form = _parse_form(headers, body)
        self.service, self.operation = describe_request(
            method, path, self.query, headers, body
        )
        self.description = "%s %s" % (method, path)
        self.status = None  # type: Optional[int]
        self.error = None  # type: Optional[str]

    @property
    def payload(self):
        # type: () -> bytes
        """The body with S3 ``aws-chunked`` content encoding undone."""
        if "aws-chunked" in self.headers.get(
            "content-encoding", ""
        ) or self.headers.get("x-amz-content-sha256", "").startswith("STREAMING-"):
            return _decode_aws_chunked(self.body)
        return self.body

    def __repr__(self):
        return "<RecordedRequest %s %s %s -> %s>" % (
            self.service,
            self.operation,
            self.description,
            self.status,
        )


class _RequestLog(object):
    """Thread-safe list of :class:`RecordedRequest` with filter helpers."""

    def __init__(self):
        self._log_lock = threading.Lock()
        self._requests = []  # type: List[RecordedRequest]

    def _record(self, request):
        # type: (RecordedRequest) -> None
        with self._log_lock:
            self._requests.append(request)

    @property
    def requests(self):
        # type: () -> List[RecordedRequest]
        """Snapshot of every request recorded so far, oldest first."""
        with self._log_lock:
            return list(self._requests)

    def clear_requests(self):
        # type: () -> None
        with self._log_lock:
            del self._requests[:]

    def calls(self, service=None, operation=None):
        # type: (Optional[str], Optional[str]) -> List[RecordedRequest]
        """Recorded requests, optionally filtered by service and/or operation."""
        return [
            r
            for r in self.requests
            if (service is None or r.service == service)
            and (operation is None or r.operation == operation)
        ]

    def operations(self, service=None):
        # type: (Optional[str]) -> List[str]
        """Operation names in order, e.g. ``["CreateBucket", "PutObject"]``."""
        return [r.operation for r in self.calls(service=service)]

    def last_json(self, operation, service=None):
        # type: (str, Optional[str]) -> Any
        """Parsed JSON body of the last recorded *operation* request."""
        matching = self.calls(service=service, operation=operation)
        if not matching:
            raise LookupError(
                "no %s request recorded (recorded: %s)"
                % (operation, ", ".join(self.operations()) or "nothing")
            )
        return matching[-1].json


# --------------------------------------------------------------------------
# Moto server
# --------------------------------------------------------------------------


# Header marking requests the FaultProxy makes on its own behalf.
_INTERNAL_HEADER = "X-FaultProxy-Internal"
_INTERNAL_ENVIRON_KEY = "HTTP_X_FAULTPROXY_INTERNAL"


def _headers_from_environ(environ):
    # type: (Dict[str, Any]) -> Dict[str, str]
    headers = {}
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            headers[key[5:].replace("_", "-").lower()] = value
        elif key in ("CONTENT_TYPE", "CONTENT_LENGTH") and value:
            headers[key.replace("_", "-").lower()] = value
    return headers


def _read_wsgi_body(environ):
    # type: (Dict[str, Any]) -> bytes
    stream = environ.get("wsgi.input")
    if stream is None:
        return b""
    length = environ.get("CONTENT_LENGTH")
    if length:
        remaining = int(length)
        parts = []
        while remaining > 0:
            chunk = stream.read(remaining)
            if not chunk:
                break
            parts.append(chunk)
            remaining -= len(chunk)
        return b"".join(parts)
    if environ.get("wsgi.input_terminated"):  # chunked: read to the end
        return stream.read()
    return b""


class MotoServer(_RequestLog):
    """A ``ThreadedMotoServer`` on 127.0.0.1 that records what it receives.

    ``MotoServer().start()`` (or ``with MotoServer() as server:``); ``url``
    is ``http://127.0.0.1:<port>``.  Requests to ``/moto-api/...`` (e.g.
    :meth:`reset`) and the FaultProxy's own look-ups (marked with the
    ``X-FaultProxy-Internal`` header) are not recorded.
    """

    def __init__(self, host="127.0.0.1", port=0, quiet=True):
        # type: (str, int, bool) -> None
        super(MotoServer, self).__init__()
        from moto.server import ThreadedMotoServer
        from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
        from werkzeug.serving import make_server

        try:  # recent moto: its own handler keeps underscores in header names
            from moto.moto_server.werkzeug_app import MotoRequestHandler
        except ImportError:  # moto 5.0.x (its last releases for Python 3.8): werkzeug's handler
            from werkzeug.serving import WSGIRequestHandler as MotoRequestHandler

        recorder = self

        class _Handler(MotoRequestHandler):
            def log_request(self, code="-", size="-"):
                if not quiet:
                    MotoRequestHandler.log_request(self, code, size)

        class _RecordingThreadedMotoServer(ThreadedMotoServer):
            # Same as ThreadedMotoServer._server_entry, with the app wrapped.
            def _server_entry(self):
                app = recorder._wrap(DomainDispatcherApplication(create_backend_app))
                self._server = make_server(
                    self._ip_address, self._port, app, True, request_handler=_Handler
                )
                self._server_ready_event.set()
                self._server.serve_forever()

        self._moto = _RecordingThreadedMotoServer(
            ip_address=host, port=port, verbose=False
        )
        self._started = False
        self.host = host
        self.port = port
        #: what the server answers in moto's place (tests/_answers.py); reset with the server
        self.answers = Answers()

    def _wrap(self, app):
        # type: (Callable[..., Any]) -> Callable[..., Any]
        def recording_app(environ, start_response):
            if environ.get("PATH_INFO", "").startswith("/moto-api") or environ.get(
                _INTERNAL_ENVIRON_KEY
            ):
                return app(environ, start_response)
            body = _read_wsgi_body(environ)
            environ["wsgi.input"] = io.BytesIO(body)
            raw_uri = environ.get("RAW_URI") or quote(environ.get("PATH_INFO", ""))
            path, _, raw_query = raw_uri.partition("?")
            if not raw_query:
                raw_query = environ.get("QUERY_STRING", "")
            record = RecordedRequest(
                environ.get("REQUEST_METHOD", "GET"),
                path,
                raw_query,
                _headers_from_environ(environ),
                body,
            )
            self._record(record)
            answered = self.answers.answer(record)
            if answered is not None:  # an operation moto lacks (tests/_answers.py)
                record.status, headers, payload = answered
                start_response("%d %s" % (record.status, http.client.responses.get(record.status, "")), headers)
                return [payload]

            def recording_start_response(status, headers, exc_info=None):
                record.status = int(status.split(" ", 1)[0])
                if exc_info is None:
                    return start_response(status, headers)
                return start_response(status, headers, exc_info)

            try:
                return app(environ, recording_start_response)
            except Exception as exc:
                # moto raised (e.g. NotImplementedError for an unimplemented
                # action); werkzeug answers 500 with an HTML page.
                record.error = "%s: %s" % (type(exc).__name__, exc)
                if record.status is None:
                    record.status = 500
                raise

        return recording_app

    def start(self):
        # type: () -> MotoServer
        self._moto.start()
        self.host, self.port = self._moto.get_host_and_port()
        self._started = True
        return self

    @property
    def url(self):
        # type: () -> str
        return "http://%s:%d" % (self.host, self.port)

    def reset(self):
        # type: () -> None
        """Clear all moto state (``POST /moto-api/reset``) and the answers' account state; keeps the records."""
        self.answers.reset()
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            conn.request("POST", "/moto-api/reset", body=b"")
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError("moto reset failed: HTTP %d" % response.status)
        finally:
            conn.close()

    def stop(self):
        # type: () -> None
        if not self._started:
            return
        self._started = False
        self._moto.stop()
        server = getattr(self._moto, "_server", None)
        if server is not None:
            server.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc_info):
        self.stop()

    def __repr__(self):
        return "<MotoServer %s>" % self.url


class InProcessMoto(_RequestLog):
    """moto's in-process mock (``mock_aws``: no server, no socket, nothing leaves the process), with
    the :class:`MotoServer`'s interface for what the code sent (``requests``, ``calls``,
    ``operations``, ``last_json``, ``clear_requests``), read from moto's request recorder (which
    writes to ``path``). ``InProcessMoto(path).start()`` ... ``stop()``, or ``with``; clients made
    meanwhile must have no endpoint URL (``AWS_ENDPOINT_URL`` unset)."""

    def __init__(self, path):
        # type: (str) -> None
        super(InProcessMoto, self).__init__()
        self.path = path
        self._mock = None  # type: Any
        self._location = None  # type: Optional[str]

    def start(self):
        # type: () -> InProcessMoto
        from moto import mock_aws
        from moto.moto_api import recorder

        self._mock = mock_aws()
        self._mock.start()
        self._location = recorder._location  # read from MOTO_RECORDER_FILEPATH when moto is imported
        recorder._location = self.path
        recorder.reset_recording()
        recorder.start_recording()
        return self

    def stop(self):
        # type: () -> None
        from moto.moto_api import recorder

        if self._mock is None:
            return
        recorder.stop_recording()
        recorder._location = self._location
        self._mock.stop()
        self._mock = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc_info):
        self.stop()

    @property
    def requests(self):
        # type: () -> List[RecordedRequest]
        """Every request the mock received since the start (or :meth:`clear_requests`), oldest first."""
        import base64

        out = []
        with open(self.path) as handle:
            for line in handle:
                entry = json.loads(line)
                body = entry.get("body") or ""
                body = base64.b64decode(body) if entry.get("body_encoded") else body.encode("utf-8")
                headers = dict((k.lower(), v) for k, v in entry["headers"].items())
                url = urlsplit(entry["url"])
                path = url.path or "/"
                host = url.hostname or ""
                if ".s3." in host and not host.startswith("s3."):  # virtual-hosted style: the bucket in the host
                    path = "/" + host.split(".s3.", 1)[0] + path
                out.append(RecordedRequest(entry["method"], path, url.query, headers, body))
        return out

    def clear_requests(self):
        # type: () -> None
        from moto.moto_api import recorder

        recorder.reset_recording()

    def __repr__(self):
        return "<InProcessMoto %s>" % self.path


# --------------------------------------------------------------------------
# Fault-injecting reverse proxy
# --------------------------------------------------------------------------

FAULT_KINDS = ("throttle", "reset_before", "reset_after", "status", "delay")

# Hop-by-hop headers are not forwarded (Transfer-Encoding is handled apart).
_HOP_BY_HOP = frozenset(
    [
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "upgrade",
    ]
)


class FaultRule(object):
    """A fault registered with :meth:`FaultProxy.add_fault`.

    Matches requests whose service / operation equal the given ones (``None``
    = any) and for which ``match(record)`` is true (if given).  ``times`` is
    how many matching requests get the fault (``None`` = all of them); after
    that they pass through.  ``hits`` counts the faults injected.
    """

    def __init__(
        self,
        kind,
        service=None,
        operation=None,
        times=1,
        status=None,
        body=None,
        headers=None,
        delay=0.0,
        match=None,
        code=None,
        message=None,
    ):
        if kind not in FAULT_KINDS:
            raise ValueError("kind must be one of %s, not %r" % (FAULT_KINDS, kind))
        if kind == "status" and status is None:
            raise ValueError('kind="status" needs status=')
        if (code is not None or message is not None) and (kind != "status" or body is not None):
            raise ValueError('code=/message= go with kind="status" and no body=')
        self.kind = kind
        self.service = service
        self.operation = operation
        self.times = times
        self.status = status
        self.body = body
        self.headers = dict(headers or {})
        self.delay = delay
        self.match = match
        self.code = code
        self.message = message
        self.hits = 0
        self.held = []  # type: List[RecordedRequest]

    @property
    def exhausted(self):
        # type: () -> bool
        return self.times is not None and self.hits >= self.times

    def matches(self, record):
        # type: (RecordedRequest) -> bool
        if self.exhausted:
            return False
        if self.service is not None and (record.service or "").lower() != self.service.lower():
            return False
        if self.operation is not None and record.operation != self.operation:
            return False
        return self.match is None or bool(self.match(record))

    def __repr__(self):
        return "<FaultRule %s service=%s operation=%s hits=%d/%s>" % (
            self.kind,
            self.service,
            self.operation,
            self.hits,
            "inf" if self.times is None else self.times,
        )


def _protocol(record):
    # type: (RecordedRequest) -> str
    if record.service == "s3":
        return "s3"
    if "x-amz-target" in record.headers:
        return "json"
    if record.query.get("Action") or (record.form or {}).get("Action"):
        return "query"
    return "rest-json"


def _error_response(record, status, code, message):
    # type: (RecordedRequest, int, str, str) -> Tuple[int, List[Tuple[str, str]], bytes]
    """An AWS-shaped error response for the protocol of *record*."""
    request_id = "faultproxy-%d" % int(time.time() * 1000000)
    protocol = _protocol(record)
    if protocol in ("s3", "query"):
        if protocol == "s3":
            body = (
                '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>%s</Code>'
                "<Message>%s</Message><RequestId>%s</RequestId>"
                "<HostId>faultproxy</HostId></Error>" % (code, message, request_id)
            )
        else:
            body = (
                "<ErrorResponse><Error><Type>Sender</Type><Code>%s</Code>"
                "<Message>%s</Message></Error><RequestId>%s</RequestId>"
                "</ErrorResponse>" % (code, message, request_id)
            )
        headers = [
            ("Content-Type", "application/xml"),
            ("x-amz-request-id", request_id),
        ]
        return status, headers, body.encode("utf-8")
    headers = [
        ("Content-Type", "application/x-amz-json-1.1"),
        ("x-amzn-RequestId", request_id),
    ]
    if protocol == "rest-json":
        headers.append(("x-amzn-ErrorType", code))
    payload = json.dumps({"__type": code, "message": message}).encode("utf-8")
    return status, headers, payload


class _DropConnection(Exception):
    """Raised inside the proxy handler to close the connection unanswered."""


class _ProxyHTTPServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    proxy = None  # type: FaultProxy

    def handle_error(self, request, client_address):
        # A client going away mid-response is not worth a traceback.
        if not isinstance(sys.exc_info()[1], (ConnectionError, socket.timeout)):
            http.server.ThreadingHTTPServer.handle_error(self, request, client_address)


class _ProxyHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, like real AWS endpoints
    server = None  # type: _ProxyHTTPServer

    def log_message(self, format, *args):  # noqa: A002 - stdlib signature
        pass

    def setup(self):
        http.server.BaseHTTPRequestHandler.setup(self)
        self.server.proxy._track(self.connection, True)

    def finish(self):
        try:
            http.server.BaseHTTPRequestHandler.finish(self)
        finally:
            self.server.proxy._track(self.connection, False)

    def _read_body(self):
        # type: () -> Tuple[bytes, Optional[List[bytes]], bytes]
        """``(body, chunks or None, raw trailer lines)``."""
        transfer_encoding = self.headers.get("Transfer-Encoding", "").lower()
        if "chunked" in transfer_encoding:
            chunks = []
            while True:
                line = self.rfile.readline(65537)
                if not line:
                    raise _DropConnection()
                size = int(line.split(b";", 1)[0].strip(), 16)
                if size == 0:
                    break
                data = self.rfile.read(size)
                self.rfile.readline()  # CRLF after the chunk data
                chunks.append(data)
            trailers = b""
            while True:
                line = self.rfile.readline(65537)
                if line in (b"\r\n", b"\n", b""):
                    break
                trailers += line
            return b"".join(chunks), chunks, trailers
        length = self.headers.get("Content-Length")
        if length:
            return self.rfile.read(int(length)), None, b""
        return b"", None, b""

    def _handle(self):
        proxy = self.server.proxy
        try:
            body, chunks, trailers = self._read_body()
        except (_DropConnection, ValueError):
            self.close_connection = True
            return
        headers = {}  # type: Dict[str, str]
        for name, value in self.headers.items():
            key = name.lower()
            headers[key] = "%s,%s" % (headers[key], value) if key in headers else value
        path, _, raw_query = self.path.partition("?")
        record = RecordedRequest(self.command, path, raw_query, headers, body)
        proxy._record(record)
        rule = proxy._take_fault(record)
        try:
            if rule is None:
                response = proxy._upstream(self, record, body, chunks, trailers)
            elif rule.kind == "throttle":
                if record.service == "s3":
                    response = _error_response(
                        record, 503, "SlowDown", "Please reduce your request rate."
                    )
                elif _protocol(record) == "query":
                    response = _error_response(record, 400, "Throttling", "Rate exceeded")
                elif _protocol(record) == "rest-json":
                    response = _error_response(
                        record, 429, "ThrottlingException", "Rate exceeded"
                    )
                else:
                    response = _error_response(
                        record, 400, "ThrottlingException", "Rate exceeded"
                    )
            elif rule.kind == "status":
                response = proxy._custom_response(record, rule)
            elif rule.kind == "reset_before":
                raise _DropConnection()
            elif rule.kind == "reset_after":
                proxy._upstream(self, record, body, chunks, trailers)
                raise _DropConnection()
            else:  # delay
                rule.held.append(record)
                if hasattr(rule.delay, "wait"):  # an event: hold until it is set
                    if not rule.delay.wait(proxy.timeout):
                        raise _DropConnection()  # never released: the test sees an error, not a pass
                else:
                    time.sleep(rule.delay)
                response = proxy._upstream(self, record, body, chunks, trailers)
            if rule is not None and rule.headers and rule.kind != "status":
                response = (response[0], response[1] + list(rule.headers.items()), response[2])
        except _DropConnection:
            # Close without answering: the client sees the connection closed
            # before any response byte (RemoteDisconnected).
            self.close_connection = True
            return
        self._respond(record, *response)

    def _respond(self, record, status, headers, body):
        # type: (RecordedRequest, int, List[Tuple[str, str]], bytes) -> None
        record.status = status
        self.send_response_only(status)
        has_length = False
        for name, value in headers:
            lower = name.lower()
            if lower in _HOP_BY_HOP or lower == "transfer-encoding":
                continue
            if lower == "content-length":
                has_length = True
            self.send_header(name, value)
        no_body = self.command == "HEAD" or status in (204, 304) or status < 200
        if not has_length and not no_body:
            self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if body and not no_body:
            self.wfile.write(body)
        self.wfile.flush()

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _handle


class FaultProxy(_RequestLog):
    """Transparent HTTP reverse proxy on 127.0.0.1 that can inject faults.

    ``FaultProxy(moto_server_or_url).start()``; point boto3 at ``proxy.url``.
    Requests are forwarded unchanged (method, path, headers incl. ``Host``
    and ``Authorization``, exact body; chunked bodies are re-sent chunked);
    responses are relayed with their status, headers and body.

    ``add_fault(...)`` registers a :class:`FaultRule`; rules are tried in
    the order they were added, the first matching non-exhausted one applies:

    * ``throttle``: answer without forwarding - SageMaker/other JSON
      protocols: HTTP 400 ``{"__type": "ThrottlingException", "message":
      "Rate exceeded"}``; S3: HTTP 503 XML ``SlowDown``; query protocols
      (STS): HTTP 400 XML ``Throttling``;
    * ``reset_before``: close the connection without forwarding/answering;
    * ``reset_after``: forward (moto acts on it), then close the connection
      without answering - the ambiguous failure;
    * ``status``: answer ``status`` with ``body`` (bytes, str, or a dict
      sent as JSON; default: an AWS-shaped ``InternalFailure`` /
      ``InternalError`` error) and extra ``headers``, without forwarding.
      Without ``body``, ``code=`` and ``message=`` make that error another
      one, shaped as the request's protocol answers errors (JSON ``__type``
      for SageMaker, XML ``<Error><Code>`` for S3 and STS), e.g.
      ``add_fault("CreateTrainingJob", kind="status", status=400,
      code="InvalidSignatureException", message="...")`` - a wrong secret
      key's answer; ``UnknownOperationException`` - what an AWS JSON
      service answers for an operation it does not know.  An HTML page
      (what a load balancer, a proxy or moto's own crash answers) is
      ``body=b"<html>..."`` with ``headers={"Content-Type": "text/html"}``;
    * ``delay``: sleep ``delay`` seconds, then forward; or, when ``delay``
      is a ``threading.Event``, hold the request until the event is set
      (a test decides when it goes on: no clock involved), then forward -
      if it is not set within the proxy's ``timeout`` the connection is
      closed unanswered.  The rule's ``held`` lists the requests it held,
      in the order they arrived (before they are forwarded).

    ``hits`` is the number of faults injected, ``requests`` every request the
    proxy saw (including faulted ones), ``faults`` the ``(rule, record)``
    pairs.  Set ``unique_training_job_names = True`` to emulate real
    SageMaker's ``ResourceInUse`` answer to a duplicate CreateTrainingJob
    (moto itself silently overwrites; see the module docstring).
    """

    def __init__(self, upstream, host="127.0.0.1", port=0, timeout=60.0,
                 unique_training_job_names=False):
        # type: (Union[str, MotoServer], str, int, float, bool) -> None
        super(FaultProxy, self).__init__()
        self.upstream_url = upstream.url if isinstance(upstream, MotoServer) else upstream
        parts = urlsplit(self.upstream_url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError("upstream must be an http:// URL: %r" % self.upstream_url)
        self._upstream_host = parts.hostname
        self._upstream_port = parts.port or 80
        self.timeout = timeout
        self.unique_training_job_names = unique_training_job_names
        self._lock = threading.Lock()
        self._rules = []  # type: List[FaultRule]
        self.faults = []  # type: List[Tuple[FaultRule, RecordedRequest]]
        self._connections = set()  # type: set
        self._server = _ProxyHTTPServer((host, port), _ProxyHandler)
        self._server.proxy = self
        self.host, self.port = self._server.server_address[:2]
        self._thread = None  # type: Optional[threading.Thread]

    # -- lifecycle ---------------------------------------------------------

    def start(self):
        # type: () -> FaultProxy
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="FaultProxy-%d" % self.port,
            daemon=True,
        )
        self._thread.start()
        return self

    @property
    def url(self):
        # type: () -> str
        return "http://%s:%d" % (self.host, self.port)

    def stop(self):
        # type: () -> None
        """Stop serving and close the listening socket and open connections."""
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join()
            self._thread = None
        with self._lock:
            connections = list(self._connections)
        for conn in connections:  # idle keep-alive connections
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._server.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc_info):
        self.stop()

    def __repr__(self):
        return "<FaultProxy %s -> %s>" % (self.url, self.upstream_url)

    def _track(self, conn, alive):
        with self._lock:
            if alive:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)

    # -- faults ------------------------------------------------------------

    def add_fault(
        self,
        operation=None,  # type: Optional[str]
        kind="throttle",  # type: str
        times=1,  # type: Optional[int]
        service=None,  # type: Optional[str]
        status=None,  # type: Optional[int]
        body=None,  # type: Union[None, bytes, str, Dict[str, Any]]
        headers=None,  # type: Optional[Dict[str, str]]
        delay=0.0,  # type: Union[float, threading.Event]
        match=None,  # type: Optional[Callable[[RecordedRequest], bool]]
        code=None,  # type: Optional[str]
        message=None,  # type: Optional[str]
    ):
        # type: (...) -> FaultRule
        rule = FaultRule(
            kind,
            service=service,
            operation=operation,
            times=times,
            status=status,
            body=body,
            headers=headers,
            delay=delay,
            match=match,
            code=code,
            message=message,
        )
        with self._lock:
            self._rules.append(rule)
        return rule

    def clear_faults(self):
        # type: () -> None
        with self._lock:
            del self._rules[:]

    @property
    def rules(self):
        # type: () -> List[FaultRule]
        with self._lock:
            return list(self._rules)

    @property
    def hits(self):
        # type: () -> int
        """How many faults were injected so far."""
        with self._lock:
            return len(self.faults)

    def _take_fault(self, record):
        # type: (RecordedRequest) -> Optional[FaultRule]
        with self._lock:
            for rule in self._rules:
                if rule.matches(record):
                    rule.hits += 1
                    self.faults.append((rule, record))
                    return rule
        return None

    def _custom_response(self, record, rule):
        # type: (RecordedRequest, FaultRule) -> Tuple[int, List[Tuple[str, str]], bytes]
        status = int(rule.status)
        if rule.body is None:
            code = rule.code or ("InternalError" if record.service == "s3" else "InternalFailure")
            response_status, headers, body = _error_response(
                record, status, code, rule.message or "Injected HTTP %d" % status
            )
        else:
            if isinstance(rule.body, dict):
                body = json.dumps(rule.body).encode("utf-8")
                headers = [("Content-Type", "application/x-amz-json-1.1")]
            else:
                body = rule.body.encode("utf-8") if isinstance(rule.body, str) else rule.body
                headers = []
        return status, headers + list(rule.headers.items()), body

    # -- forwarding --------------------------------------------------------

    def _send_upstream(self, method, path, header_items, body, chunks=None, trailers=b""):
        # type: (str, str, List[Tuple[str, str]], bytes, Optional[List[bytes]], bytes) -> Tuple[int, List[Tuple[str, str]], bytes]
        conn = http.client.HTTPConnection(
            self._upstream_host, self._upstream_port, timeout=self.timeout
        )
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in header_items:
                if name.lower() in _HOP_BY_HOP:
                    continue
                conn.putheader(name, value)
            conn.endheaders()
            if chunks is not None:
                for chunk in chunks:
                    conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                conn.send(b"0\r\n" + trailers + b"\r\n")
            elif body:
                conn.send(body)
            response = conn.getresponse()
            payload = response.read()
            return response.status, response.getheaders(), payload
        finally:
            conn.close()

    def _upstream(self, handler, record, body, chunks, trailers):
        # type: (_ProxyHandler, RecordedRequest, bytes, Optional[List[bytes]], bytes) -> Tuple[int, List[Tuple[str, str]], bytes]
        header_items = list(handler.headers.items())
        if (
            self.unique_training_job_names
            and record.operation == "CreateTrainingJob"
            and isinstance(record.json, dict)
            and record.json.get("TrainingJobName")
        ):
            existing = self._describe_training_job(header_items, record.json["TrainingJobName"])
            if existing is not None:
                return _error_response(
                    record,
                    400,
                    "ResourceInUse",
                    "Training job names must be unique within an AWS account and "
                    "region, and a training job with this name already exists (%s)"
                    % existing.get("TrainingJobArn"),
                )
        try:
            return self._send_upstream(
                handler.command, handler.path, header_items, body, chunks, trailers
            )
        except (OSError, http.client.HTTPException) as exc:
            return _error_response(
                record, 502, "BadGateway", "FaultProxy: upstream failed: %r" % (exc,)
            )

    def _describe_training_job(self, header_items, name):
        # type: (List[Tuple[str, str]], str) -> Optional[Dict[str, Any]]
        body = json.dumps({"TrainingJobName": name}).encode("utf-8")
        items = []
        for key, value in header_items:
            lower = key.lower()
            if lower == "x-amz-target":
                value = "SageMaker.DescribeTrainingJob"
            elif lower == "content-length":
                value = str(len(body))
            elif lower in ("transfer-encoding", "expect"):
                continue
            items.append((key, value))
        items.append((_INTERNAL_HEADER, "1"))
        status, _, payload = self._send_upstream("POST", "/", items, body)
        if status != 200:
            return None
        return json.loads(payload.decode("utf-8"))


# --------------------------------------------------------------------------
# Network guard
# --------------------------------------------------------------------------


class NetworkAccessBlocked(RuntimeError):
    """A test tried to reach a non-loopback address (see tests/_aws.py)."""


_LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")


def _is_local_host(host):
    # type: (Any) -> bool
    if host is None:
        return True
    if isinstance(host, bytes):
        host = bytes.decode(host, "ascii", "replace")
    host = str(host)
    if host in ("", "<broadcast>"):
        return host == ""
    if host.lower() in _LOCAL_NAMES or host.lower().endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_unspecified


class NetworkGuard(object):
    """Refuse non-loopback connections from this process.

    Replaces ``socket.socket.connect``/``connect_ex``/``sendto`` and
    ``socket.getaddrinfo`` with checks that raise :class:`NetworkAccessBlocked`
    (before anything is sent or resolved) unless the destination is
    127.0.0.0/8, ::1, ``localhost``, unspecified, or not an IP socket
    (AF_UNIX...).  The refused socket is closed.  ``blocked`` lists the
    refused destinations.  :meth:`loopback_connects` counts the connection
    attempts one thread made to a loopback port (refused ones included), so
    a test can wait for "the client has tried twice" instead of sleeping.

    ``NetworkAccessBlocked`` is deliberately not an ``OSError``: retry loops
    that treat connection errors as transient must not swallow it.  botocore
    reports it as ``HTTPClientError("An HTTP Client raised an unhandled
    exception: tests must not use the network: ...")``.
    """

    def __init__(self):
        self.blocked = []  # type: List[Tuple[str, Any]]
        self._originals = None  # type: Optional[Dict[str, Any]]
        self._loopback = {}  # type: Dict[Tuple[int, Optional[int]], int]

    def loopback_connects(self, port, thread_id):
        # type: (int, Optional[int]) -> int
        """Connection attempts thread *thread_id* made to *port* on loopback so far."""
        return self._loopback.get((port, thread_id), 0)

    @property
    def installed(self):
        # type: () -> bool
        return self._originals is not None

    def _refuse(self, what, address, sock=None):
        self.blocked.append((what, address))
        if sock is not None:
            # Callers such as socket.create_connection() only close the
            # socket on OSError; close it here so nothing leaks.
            sock.close()
        raise NetworkAccessBlocked(
            "tests must not use the network: %s to %r refused by the network "
            "guard in tests/_aws.py (only loopback is allowed; point clients at "
            "the moto server via the `aws` fixture)" % (what, address)
        )

    def _check(self, sock, what, address):
        if sock.family not in (socket.AF_INET, socket.AF_INET6):
            return
        host = address[0] if isinstance(address, tuple) and address else address
        if not _is_local_host(host):
            self._refuse(what, address, sock)
        if what == "connect" and isinstance(address, tuple) and len(address) > 1:
            key = (address[1], threading.get_ident())  # one key per thread: no lost updates
            self._loopback[key] = self._loopback.get(key, 0) + 1

    def install(self):
        # type: () -> None
        if self._originals is not None:
            return
        guard = self
        originals = {
            "connect": socket.socket.connect,
            "connect_ex": socket.socket.connect_ex,
            "sendto": socket.socket.sendto,
            "getaddrinfo": socket.getaddrinfo,
        }
        own_names = set()
        try:
            own_names.add(socket.gethostname().lower())
        except OSError:
            pass

        def connect(self, address):
            guard._check(self, "connect", address)
            return originals["connect"](self, address)

        def connect_ex(self, address):
            guard._check(self, "connect", address)
            return originals["connect_ex"](self, address)

        def sendto(self, data, *args):
            guard._check(self, "sendto", args[-1])
            return originals["sendto"](self, data, *args)

        def getaddrinfo(host, *args, **kwargs):
            name = bytes.decode(host, "ascii", "replace") if isinstance(host, bytes) else host
            if not (_is_local_host(name) or _is_ip_literal(name) or str(name).lower() in own_names):
                guard._refuse("name lookup", host)
            return originals["getaddrinfo"](host, *args, **kwargs)

        socket.socket.connect = connect
        socket.socket.connect_ex = connect_ex
        socket.socket.sendto = sendto
        socket.getaddrinfo = getaddrinfo
        self._originals = originals

    def uninstall(self):
        # type: () -> None
        originals = self._originals
        if originals is None:
            return
        socket.socket.connect = originals["connect"]
        socket.socket.connect_ex = originals["connect_ex"]
        socket.socket.sendto = originals["sendto"]
        socket.getaddrinfo = originals["getaddrinfo"]
        self._originals = None


def _is_ip_literal(host):
    # type: (Any) -> bool
    """IP literals resolve without a DNS query (connect() is checked anyway)."""
    try:
        ipaddress.ip_address(str(host).split("%", 1)[0])
        return True
    except ValueError:
        return False


network_guard = NetworkGuard()
