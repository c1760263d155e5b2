"""The AWS edge: a Session performs the calls a validated request needs.

``Session(boto_session=None, sagemaker_client=None, default_bucket=None)`` with the names the
SageMaker Python SDK v2 uses. It honours the usual boto3 configuration (profiles,
``AWS_REGION``/``AWS_DEFAULT_REGION``, ``AWS_ENDPOINT_URL``) and remembers what it looked up
(account, default bucket, role ARNs, input buckets), so a session launching many jobs pays for
those look-ups once: after the first job, a job costs one upload and one CreateTrainingJob.
"""
import hashlib
import threading
import time

from typing import Any, Dict, Optional

import attrs
import boto3
import botocore.config

from sagemaker_hetero import _archive, _aws_errors, _context, _plan, _sdk_config, _wire
from sagemaker_hetero import exceptions as E
from sagemaker_hetero._context import default_bucket_name
from sagemaker_hetero._job import TrainingJob
from sagemaker_hetero._logs import LOG_GROUP

__all__ = ["Session"]

USER_AGENT = "sagemaker-hetero/0.1.0"
# botocore's standard retry mode (throttling and transient errors, exponential backoff with jitter).
RETRIES = {"mode": "standard", "max_attempts": 8}
# Polling and log reading can afford to slow down under throttling: adaptive mode.
POLL_RETRIES = {"mode": "adaptive", "max_attempts": 10}
# How far apart the clocks of this machine and AWS may be when telling a job we created (and
# lost the answer to) from an older job of the same name.
CLOCK_SKEW_SECONDS = 300
_PUT_OBJECT_MAX = 256 * 1024 * 1024


class Session(object):
    """Talks to SageMaker, S3, STS and IAM for the estimators.

    ``default_bucket`` overrides ``sagemaker-{region}-{account}``. Clients are created on first
    use; pass ``sagemaker_client`` to use your own SageMaker client.
    """

    local_mode = False
    #: seconds between DescribeTrainingJob polls while waiting: (first, longest); None for 2 s to 30 s
    poll_interval = None

    def __init__(
        self,
        boto_session: Optional[Any] = None,
        sagemaker_client: Optional[Any] = None,
        sagemaker_runtime_client: Optional[Any] = None,
        sagemaker_featurestore_runtime_client: Optional[Any] = None,
        default_bucket: Optional[str] = None,
        settings: Optional[Any] = None,
        sagemaker_metrics_client: Optional[Any] = None,
        sagemaker_config: Optional[Dict[str, Any]] = None,
        default_bucket_prefix: Optional[str] = None,
    ) -> None:
        # One region rule for everything (the dry run's too): an explicit session's region, else
        # AWS_REGION, AWS_DEFAULT_REGION, the profile's (boto3 alone does not read AWS_REGION).
        if boto_session is None:
            boto_session = boto3.Session(region_name=_context.region_from_environment())
        self.boto_session = boto_session
        self.boto_region_name = boto_session.region_name or _context.region_from_environment()
        if self.boto_region_name is None:
            raise E.ConfigError([E.Problem("sagemaker_session", _context.NO_REGION)])
        self._clients = {}
        if sagemaker_client is not None:
            self._clients["sagemaker"] = sagemaker_client
            self._clients["sagemaker-poll"] = sagemaker_client
        # The SDK v2 takes these for endpoints, feature store and metrics; a training job uses none.
        self.sagemaker_runtime_client = sagemaker_runtime_client
        self.sagemaker_featurestore_runtime_client = sagemaker_featurestore_runtime_client
        self.sagemaker_metrics_client = sagemaker_metrics_client
        self.settings = settings
        #: the SageMaker defaults configuration (docs/migrating.md): given, else read as the SDK v2 reads it
        self.sagemaker_config = sagemaker_config if sagemaker_config is not None else _sdk_config.load()
        self._default_bucket_name = default_bucket or _sdk_config.value(self.sagemaker_config,
                                                                         _sdk_config.DEFAULT_BUCKET)
        #: a key prefix for the default bucket: output and code go under it
        self.default_bucket_prefix = default_bucket_prefix or _sdk_config.value(
            self.sagemaker_config, _sdk_config.DEFAULT_BUCKET_PREFIX)
        self._account_id = None
        self._bucket_ready = set()
        self._role_arns = {}
        self._checked_input_buckets = set()
        self._lock = threading.RLock()

    # -- clients -------------------------------------------------------------------------------

    def _client(self, name):
        with self._lock:
            client = self._clients.get(name)
            if client is None:
                # "<service>-poll": a client for polling (adaptive retries), e.g. "logs-poll".
                service, retries = (name[: -len("-poll")], POLL_RETRIES) if name.endswith("-poll") else (name, RETRIES)
                config = botocore.config.Config(retries=self._retries(retries), user_agent_extra=USER_AGENT)
                client = self.boto_session.client(service, region_name=self.boto_region_name, config=config)
                self._clients[name] = client
            return client

    def _retries(self, defaults):
        """Our retry defaults, unless the user configured retries (AWS_RETRY_MODE, AWS_MAX_ATTEMPTS or
        ``retry_mode``/``max_attempts`` in the profile), which win as they do for boto3."""
        import os

        retries = dict(defaults)
        try:
            scoped = self.boto_session._session.get_scoped_config()
        except Exception:  # noqa: BLE001 - a missing profile is reported by boto3 itself later
            scoped = {}
        mode = os.environ.get("AWS_RETRY_MODE") or scoped.get("retry_mode")
        attempts = os.environ.get("AWS_MAX_ATTEMPTS") or scoped.get("max_attempts")
        if mode:
            retries["mode"] = mode
        if attempts:
            retries.pop("max_attempts", None)
            retries["total_max_attempts"] = int(attempts)
        return retries

    @property
    def sagemaker_client(self):
        return self._client("sagemaker")

    # -- look-ups, each made once per session --------------------------------------------------

    def account_id(self):
        """The caller's AWS account id (one STS call per session)."""
        with self._lock:
            if self._account_id is None:
                response = _aws_errors.call(self._client("sts"), "GetCallerIdentity")
                self._account_id = response["Account"]
            return self._account_id

    def default_bucket(self):
        """The default bucket's name, created if missing (``sagemaker-{region}-{account}``)."""
        name = self._default_bucket_name or default_bucket_name(self.boto_region_name, self.account_id())
        self._ensure_bucket(name)
        return name

    def _ensure_bucket(self, name):
        with self._lock:
            if name in self._bucket_ready:
                return
            s3 = self._client("s3")
            try:
                _aws_errors.call(s3, "HeadBucket", Bucket=name)
            except E.ResourceNotFoundError:
                self._create_bucket(name)
            except E.AccessDeniedError as exc:
                raise exc.hinted(
                    "The bucket %s exists but this account cannot use it (another account owns the name). "
                    "Pass Session(default_bucket='a-bucket-you-own') or output_path/code_location." % name,
                    cls=E.BucketOwnedByOtherAccountError,
                )
            self._bucket_ready.add(name)

    def _create_bucket(self, name):
        params = {"Bucket": name}
        if self.boto_region_name != "us-east-1":
            params["CreateBucketConfiguration"] = {"LocationConstraint": self.boto_region_name}
        try:
            _aws_errors.call(self._client("s3"), "CreateBucket", **params)
        except E.AWSError as exc:
            if exc.code == "BucketAlreadyOwnedByYou":
                return
            if exc.code == "BucketAlreadyExists":
                raise exc.hinted(
                    "The default bucket name %s belongs to another AWS account. Pass "
                    "Session(default_bucket='a-bucket-you-own') or output_path/code_location." % name,
                    cls=E.BucketOwnedByOtherAccountError,
                )
            raise

    def _role_arn(self, role):
        if role.startswith("arn:"):
            return role
        with self._lock:
            if role not in self._role_arns:
                try:
                    response = _aws_errors.call(self._client("iam"), "GetRole", RoleName=role)
                except E.ResourceNotFoundError as exc:
                    raise exc.hinted(
                        "There is no IAM role named %r in this account; pass the role ARN or create "
                        "a role that trusts sagemaker.amazonaws.com." % role
                    )
                self._role_arns[role] = response["Role"]["Arn"]
            return self._role_arns[role]

    def _check_input_buckets(self, job):
        """Refuse channels whose bucket does not exist (each bucket asked about once per session)."""
        problems = []
        s3 = self._client("s3")
        for channel in job.channels:
            if not _wire.is_s3_uri(channel.uri):
                continue
            bucket = _wire.parse_s3_uri(channel.uri)[0]
            with self._lock:
                if bucket in self._checked_input_buckets:
                    continue
            try:
                _aws_errors.call(s3, "HeadBucket", Bucket=bucket)
            except E.ResourceNotFoundError:
                problems.append(E.Problem(channel.arg, "the bucket %r does not exist (or is in no region you can see)"
                                          % bucket, channel.uri))
                continue
            except E.AWSError:
                pass  # denied, or in another region: the training role may see what we cannot
            with self._lock:
                self._checked_input_buckets.add(bucket)
        if problems:
            raise E.ConfigError(problems)

    # -- the session protocol the estimators use (facts, check, execute) -------------------------

    def facts(self):
        """What this session knows without asking AWS: the region, and what it has looked up."""
        return _plan.Facts(
            region=self.boto_region_name,
            account_id=self._account_id,
            default_bucket=self._default_bucket_name,
            default_bucket_prefix=self.default_bucket_prefix,
            role_arns=dict(self._role_arns),
        )

    def check(self, job):
        """``(job, problems)``: an AWS job needs nothing beyond the common checks."""
        return job, []

    def _looked_up_facts(self, job):
        """The facts the request needs, looked up (account, the default bucket, created if missing,
        and the role's ARN)."""
        bucket = self.default_bucket() if _plan.needs_default_bucket(job) else self._default_bucket_name
        if isinstance(job.role, str):
            self._role_arn(job.role)
        return attrs.evolve(self.facts(), default_bucket=bucket)

    def execute(self, job, now):
        """A checked job -> a created training job. Nothing is created if a step fails: the input
        buckets are checked, the facts looked up and the request rendered and checked with them
        before the code is uploaded and the job created."""
        self._check_input_buckets(job)
        plan = _plan.make_plan(job, self._looked_up_facts(job), now)
        problems = _plan.service_problems(plan)
        if problems:  # e.g. a role ARN from IAM or a bucket name the service does not take
            raise E.ConfigError(problems)
        if plan.code is not None and plan.code.upload:
            body, size = _archive.build_archive(job.code)
            try:
                self._upload_code(plan, body, size)
            finally:
                body.close()
        started = time.time()
        self._create_training_job(plan.request, started)
        return TrainingJob(self, plan.job_name, plan.request)

    def _upload_code(self, plan, body, size):
        bucket, key = _wire.parse_s3_uri(plan.code.s3_uri)
        digest = hashlib.md5()
        for chunk in iter(lambda: body.read(1 << 20), b""):
            digest.update(chunk)
        body.seek(0)
        s3 = self._client("s3")
        try:
            # If-None-Match: never overwrite the code of an existing job of the same name.
            if size <= _PUT_OBJECT_MAX:
                _aws_errors.call(s3, "PutObject", Bucket=bucket, Key=key, Body=body, IfNoneMatch="*")
            else:
                s3.upload_fileobj(body, bucket, key)
        except E.AWSError as exc:
            if exc.code == "PreconditionFailed" and self._same_object(bucket, key, digest.hexdigest()):
                return  # our own earlier attempt's upload
            if exc.code == "PreconditionFailed":
                raise E.JobConflictError(
                    "s3://%s/%s already holds other code" % (bucket, key),
                    code=exc.code,
                    operation="PutObject",
                    hint="A job named %r seems to exist already; choose another job_name." % plan.job_name,
                )
            if exc.code == "NoSuchBucket":
                raise exc.hinted("The code bucket %r does not exist; create it or change output_path/code_location." % bucket)
            raise

    def _same_object(self, bucket, key, md5):
        head = _aws_errors.call(self._client("s3"), "HeadObject", Bucket=bucket, Key=key)
        return head.get("ETag", "").strip('"') == md5

    def _create_training_job(self, request, started):
        client = self._client("sagemaker")
        try:
            _aws_errors.call(client, "CreateTrainingJob", **request)
        except E.AWSError as exc:
            if not _is_name_taken(exc):
                raise
            # The name is taken. After an ambiguous failure (the first attempt reached AWS but its
            # answer was lost) botocore's retry finds our own job: carry on with it if it is.
            existing = _aws_errors.call(client, "DescribeTrainingJob", TrainingJobName=request["TrainingJobName"])
            if _is_our_job(existing, request, started):
                return
            raise E.JobConflictError(
                "a training job named %r already exists and was not created by this request"
                % request["TrainingJobName"],
                code=exc.code,
                operation="CreateTrainingJob",
                hint="Choose another job_name (or leave it out for a unique default name).",
            )

    def describe_training_job(self, job_name):
        return _aws_errors.call(self._client("sagemaker-poll"), "DescribeTrainingJob", TrainingJobName=job_name)

    def stop_training_job(self, job_name):
        return _aws_errors.call(self._client("sagemaker"), "StopTrainingJob", TrainingJobName=job_name)

    def create_presigned_domain_url(self, **params):
        """A presigned URL into a SageMaker Studio domain (CreatePresignedDomainUrl)."""
        return _aws_errors.call(self._client("sagemaker"), "CreatePresignedDomainUrl", **params)["AuthorizedUrl"]

    def update_training_job(self, job_name, remote_debug_config=None, resource_config=None):
        """UpdateTrainingJob of a running job (remote debugging, a warm pool's keep-alive)."""
        params = {"TrainingJobName": job_name}
        if remote_debug_config is not None:
            params["RemoteDebugConfig"] = remote_debug_config
        if resource_config is not None:
            params["ResourceConfig"] = resource_config
        return _aws_errors.call(self._client("sagemaker"), "UpdateTrainingJob", **params)

    def logs_for_job(self, job_name, wait=False, poll=None, instance_groups=None, out=None):
        """Print the job's CloudWatch logs, each line labelled ``[<group>/<host>]`` (see docs/logs.md).

        ``wait=True`` follows the job until it ends (and raises ``UnexpectedStatusException`` if it
        fails); ``instance_groups`` shows only those groups' lines. Returns the job's description.
        """
        job = TrainingJob(self, job_name)
        return job.logs(follow=wait, instance_groups=instance_groups, out=out, poll=poll)

    # -- CloudWatch Logs (read by _log_tail) ---------------------------------------------------

    def _log_stream_names(self, prefix):
        """Names of the training job log streams starting with ``prefix`` (none if the log group
        does not exist yet)."""
        client = self._client("logs-poll")
        names, token = [], None
        while True:
            params = {"logGroupName": LOG_GROUP, "logStreamNamePrefix": prefix}
            if token:
                params["nextToken"] = token
            try:
                response = _aws_errors.call(client, "DescribeLogStreams", **params)
            except E.ResourceNotFoundError:
                return names
            page = [s["logStreamName"] for s in response.get("logStreams") or ()]
            names.extend(n for n in page if n not in names)
            next_token = response.get("nextToken")
            if not page or not next_token or next_token == token:
                return names
            token = next_token

    def _log_events(self, stream_name, token=None):
        """``([(timestamp ms, message)], next token)``: the stream's events after ``token``."""
        params = {"logGroupName": LOG_GROUP, "logStreamName": stream_name, "startFromHead": True}
        if token:
            params["nextToken"] = token
        response = _aws_errors.call(self._client("logs-poll"), "GetLogEvents", **params)
        events = [(e.get("timestamp", 0), e.get("message", "")) for e in response.get("events") or ()]
        return events, response.get("nextForwardToken")


def _is_name_taken(exc):
    text = (exc.aws_message or "").lower()
    return exc.code in ("ResourceInUse", "ValidationException", "ResourceInUseException") and (
        "already exist" in text or "in use" in text or "must be unique" in text
    )


def _is_our_job(described, request, started):
    """Whether a described job is the one ``request`` asked for, created after ``started``."""
    created = described.get("CreationTime")
    if created is not None:
        stamp = created.timestamp() if hasattr(created, "timestamp") else float(created)
        if stamp < started - CLOCK_SKEW_SECONDS:
            return False
    if described.get("RoleArn") != request["RoleArn"]:
        return False
    if described.get("HyperParameters", {}) != request.get("HyperParameters", {}):
        return False
    image = (described.get("AlgorithmSpecification") or {}).get("TrainingImage")
    if image != request["AlgorithmSpecification"]["TrainingImage"]:
        return False
    want = request["ResourceConfig"]
    got = described.get("ResourceConfig") or {}
    for key in ("InstanceGroups", "InstanceType", "InstanceCount"):
        if key in want and got.get(key) != want[key]:
            return False
    return True
