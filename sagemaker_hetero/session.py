"""The AWS edge: a Session performs the calls a validated request needs.

``Session(boto_session=None, sagemaker_client=None, default_bucket=None)`` with the names the
SageMaker Python SDK v2 uses. It honours the usual boto3 configuration (profiles,
``AWS_DEFAULT_REGION``/``AWS_REGION``, ``AWS_ENDPOINT_URL``) and remembers what it looked up
(account, default bucket, role ARNs, input buckets), so a session launching many jobs pays for
those look-ups once: after the first job, a job costs one upload and one CreateTrainingJob.

Also the SDK v2's helpers notebooks use: :func:`get_execution_role` (and
``Session.get_caller_identity_arn``), ``Session.upload_data`` and the other S3 data methods
(``sagemaker_hetero.s3`` wraps them by URI).
"""
import email.utils
import errno
import json
import logging
import os
import re
import threading
import time

from typing import Any, Callable, Dict, List, Optional

import attrs
import boto3
import boto3.exceptions
import botocore.config

from sagemaker_hetero import _apps, _aws_errors, _boto, _code_store, _sdk_config, utils
from sagemaker_hetero._checks import round_one
from sagemaker_hetero._request import plan as _plan
from sagemaker_hetero._request import describe
from sagemaker_hetero._request import names as _context
from sagemaker_hetero._model import archive as _archive
from sagemaker_hetero import exceptions as E
from sagemaker_hetero._request.names import default_bucket_name
from sagemaker_hetero._code_store import MULTIPART_CHUNKSIZE, MULTIPART_THRESHOLD
from sagemaker_hetero._defaults import CODE_IGNORE
from sagemaker_hetero._job import TrainingJob
from sagemaker_hetero._logs import LOG_GROUP
from sagemaker_hetero._request import s3_uris
from sagemaker_hetero._request.s3_uris import key_under, s3_path_join
from sagemaker_hetero._s3_paths import download_targets, files_to_upload

__all__ = ["Session", "get_execution_role"]

LOGGER = logging.getLogger("sagemaker_hetero")

USER_AGENT = "sagemaker-hetero/0.1.0"
# botocore's standard retry mode (throttling and transient errors, exponential backoff with jitter).
RETRIES = {"mode": "standard", "max_attempts": 8}
# Polling and log reading can afford to slow down under throttling: adaptive mode.
POLL_RETRIES = {"mode": "adaptive", "max_attempts": 10}
# How far apart the clocks of this machine and AWS may be when telling a job we created (and
# lost the answer to) from an older job of the same name, when AWS's answer has no Date header to
# read AWS's own clock from.
CLOCK_SKEW_SECONDS = 300
# With AWS's clock (the Date header, whole seconds): how much earlier than our first attempt's
# arrival a job we created may say it was created.
_DATE_SLACK_SECONDS = 2
# What a CreateTrainingJob attempt came to (botocore's needs-retry event, per thread): AWS answered
# it; it never left (no connection); or it may have reached SageMaker and no answer says what became
# of it (the connection dropped or timed out while waiting, or a 5xx).
_ANSWERED, _UNSENT, _LOST = "answered", "unsent", "lost"
_ATTEMPTS = threading.local()
# How many built code archives a session keeps until their upload (more are built again when needed).
_KEPT_ARCHIVES = 4
#: How many default names a submission tries when the name it was given is taken (another process).
DEFAULT_NAME_ATTEMPTS = 5
# Training job names this process is creating (any session, any thread): while one call creates a job,
# no other call of this process creates (or takes as its own) a job of that name.
_CLAIMED_NAMES = set()
_CLAIMED_LOCK = threading.Lock()

#: The role ``get_execution_role(use_default=True)`` uses, created if missing (the SDK v2's name).
DEFAULT_ROLE_NAME = "AmazonSageMaker-DefaultRole"
#: The AWS managed policy attached to it.
DEFAULT_ROLE_POLICY = "AmazonSageMakerFullAccess"
_DEFAULT_ROLE_TRUST = {
    "Version": "2012-10-17",
    "Statement": [
        {"Effect": "Allow", "Principal": {"Service": ["sagemaker.amazonaws.com"]}, "Action": "sts:AssumeRole"}
    ],
}
#: Roles the SageMaker console creates live under ``service-role/``; the SDK v2 assumes that path for
#: a role of this name when IAM cannot be asked.
_CONSOLE_ROLE_NAME = "AmazonSageMaker-ExecutionRole"
# arn:PARTITION:sts::ACCOUNT:assumed-role/ROLE/SESSION (what GetCallerIdentity answers for a role)
_ASSUMED_ROLE = re.compile(r"^(.+)sts::(\d+):assumed-role/(.+?)/.*$")
_NOT_A_ROLE = (
    "The current AWS identity is not a role: {}, therefore it cannot be used as a SageMaker execution role"
)


class Session(object):
    """Talks to SageMaker, S3, STS and IAM for the estimators, in one region (the SDK v2's ``Session``).

    Clients are made on first use. The region is the boto session's, else ``AWS_DEFAULT_REGION``,
    ``AWS_REGION`` or the profile's; without one, a ``ConfigError``.

    Parameters
    ----------
    boto_session : boto3.Session, optional
        The credentials and region (default: a new boto3 session).
    sagemaker_client : object, optional
        A SageMaker client of your own, used for every SageMaker call.
    sagemaker_runtime_client : object, optional
        Kept as the SDK v2 keeps it (endpoints); a training job uses none.
    sagemaker_featurestore_runtime_client : object, optional
        Kept as the SDK v2 keeps it (feature store); a training job uses none.
    default_bucket : str, optional
        The bucket for output and code, in place of ``sagemaker-{region}-{account}``.
    settings : object, optional
        Kept as the SDK v2 keeps it.
    sagemaker_metrics_client : object, optional
        Kept as the SDK v2 keeps it (metrics); a training job uses none.
    sagemaker_config : dict, optional
        The SageMaker defaults configuration, in place of the one read from ``config.yaml``.
    default_bucket_prefix : str, optional
        A key prefix in the default bucket that output and code go under.
    """

    local_mode = False
    #: seconds between DescribeTrainingJob polls while waiting: (first, longest); None for 2 s to 30 s
    poll_interval = None
    #: code archives larger than this many bytes go up in parts of ``multipart_chunksize`` bytes
    multipart_threshold = MULTIPART_THRESHOLD
    multipart_chunksize = MULTIPART_CHUNKSIZE
    #: names (``fnmatch`` patterns) left out of code archives wherever they are in the tree; set it on a
    #: session, or on the class for every session (docs/submitting.md)
    code_ignore = CODE_IGNORE

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
        """Make the session; the parameters are the class's."""
        # One region rule for everything (the dry run's too): an explicit session's region, else
        # AWS_DEFAULT_REGION (which wins, as in boto3), AWS_REGION (boto3 alone does not read it), the
        # profile's.
        if boto_session is None:
            boto_session = _boto.new_boto_session(region_name=_context.region_from_environment())
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
        self.sagemaker_config = (_sdk_config.check(sagemaker_config) if sagemaker_config is not None
                                 else _sdk_config.load())
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
        # Code archives: SHA-256 by what a scan of the tree saw (_archive.signature); a few built archives
        # not yet uploaded, by SHA-256; the code keys known to hold their archive (nothing to send).
        self._code_digests = {}
        self._built_archives = {}
        self._stored_code = set()
        self._upload_lock = threading.Lock()

    def __repr__(self):
        """``Session(region=..., default_bucket=...)``: what the session was given (no AWS call)."""
        given = [("region", self.boto_region_name), ("default_bucket", self._default_bucket_name),
                 ("default_bucket_prefix", self.default_bucket_prefix)]
        return "Session(%s)" % ", ".join("%s=%r" % (k, v) for k, v in given if v is not None)

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
        """The SageMaker client (the one given, else one made on first use)."""
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
            params = {"Bucket": name}
            owner = self._sdk_bucket_owner(name)
            if owner:  # a name anyone can guess: S3 answers 403 if another account holds it
                params["ExpectedBucketOwner"] = owner
            try:
                _aws_errors.call(s3, "HeadBucket", **params)
            except E.ResourceNotFoundError:
                self._create_bucket(name)
            except E.AccessDeniedError as exc:
                raise self._bucket_denied(name, exc)
            self._bucket_ready.add(name)

    def _bucket_denied(self, name, exc):
        """The error for a 403 from HeadBucket on the default bucket: another account owns the name, or
        this identity may not use a bucket of its own account. ListBuckets (this account's buckets) tells
        which, when the identity may call it."""
        elsewhere = "Pass Session(default_bucket='a-bucket-you-own') or output_path and code_location."
        try:
            listed = _aws_errors.call(self._client("s3"), "ListBuckets", Prefix=name)
        except E.AWSError:
            return exc.hinted(
                "The bucket %s exists, but this identity may not use it: either another account owns the name, or "
                "this identity lacks s3:ListBucket on it (and s3:ListAllMyBuckets, which would tell which). %s"
                % (name, elsewhere))
        if any(bucket.get("Name") == name for bucket in listed.get("Buckets") or ()):
            return exc.hinted(
                "The bucket %s is this account's, but this identity may not use it: HeadBucket needs s3:ListBucket "
                "on it (and the upload s3:PutObject). Grant those, or: %s" % (name, elsewhere))
        return exc.hinted(
            "The bucket %s exists but belongs to another AWS account (it is not among this account's buckets). %s"
            % (name, elsewhere),
            cls=E.BucketOwnedByOtherAccountError,
        )

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
            if not s3_uris.is_s3_uri(channel.uri):
                continue
            bucket = s3_uris.parse_s3_uri(channel.uri)[0]
            with self._lock:  # one HeadBucket per bucket, however many threads submit at once
                if bucket in self._checked_input_buckets:
                    continue
                try:
                    _aws_errors.call(s3, "HeadBucket", Bucket=bucket)
                except E.ResourceNotFoundError:
                    problems.append(E.Problem(channel.arg, "the bucket %r does not exist (or is in no region you can "
                                              "see)" % bucket, channel.uri))
                    continue
                except E.AWSError:
                    pass  # denied, or in another region: the training role may see what we cannot
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
        """``(job, problems)``: an AWS job needs nothing beyond the common checks (the session protocol).

        Parameters
        ----------
        job : Job
            The job model.
        """
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
        before the code is uploaded and the job created.

        A default name (no ``job_name``) is stamped with a millisecond no other default name of this
        process has (``utils.claim_time``); if the name is taken all the same (another process, another
        machine), the job is created under the next free stamp instead, up to ``DEFAULT_NAME_ATTEMPTS``
        names. A job another call of this process is creating, or created, is never taken as ours.

        Parameters
        ----------
        job : Job
            The checked job model.
        now : float
            The time (seconds since the epoch) default names are stamped with.
        """
        default_name = job.job_name is None
        if default_name:
            now = utils.claim_time(now)
        plan = self.plan_job(job, now)
        problems = round_one.service_problems(plan)
        if problems:  # e.g. a role ARN from IAM or a bucket name the service does not take
            raise E.ConfigError(problems)
        self.upload_code(plan)
        for attempt in range(1, DEFAULT_NAME_ATTEMPTS + 1):
            try:
                self._create_claimed(plan.job_name, plan.request)
                break
            except E.JobConflictError:
                if not default_name or attempt == DEFAULT_NAME_ATTEMPTS:
                    raise
                LOGGER.info("The default job name %s is taken; trying the next one.", plan.job_name)
                # The same facts, the same code key: only the name (and what holds it) changes.
                plan = _plan.make_plan(job, plan.facts, utils.claim_time(now), code_digest=plan.code_digest)
        return TrainingJob(self, plan.job_name, plan.request, framework=job.framework)

    def _create_claimed(self, name, request):
        """:meth:`_create_training_job` with ``name`` claimed for this call in this process: a name another
        call is creating is a :class:`JobConflictError` without asking AWS."""
        with _CLAIMED_LOCK:
            if name in _CLAIMED_NAMES:
                raise E.JobConflictError(
                    "a training job named %r is being created by another call in this process" % name,
                    code="ResourceInUse", operation="CreateTrainingJob", job_name=name, hint=_conflict_hint(name))
            _CLAIMED_NAMES.add(name)
        try:
            self._create_training_job(request)
        finally:
            with _CLAIMED_LOCK:
                _CLAIMED_NAMES.discard(name)

    def plan_job(self, job, now):
        """The :class:`_plan.Plan` of a checked job with what AWS knows: its input buckets checked, the
        account, default bucket (created if missing) and role ARN looked up. Nothing is uploaded.

        Parameters
        ----------
        job : Job
            The checked job model.
        now : float
            The time (seconds since the epoch) a default name is stamped with.
        """
        self._check_input_buckets(job)
        return _plan.make_plan(job, self._looked_up_facts(job), now, code_digest=self.code_digest(job))

    def code_digest(self, job):
        """The SHA-256 of ``job``'s code archive (its key's content address), or None when it ships no
        archive to upload. The tree is scanned (one ``stat`` per entry); the archive is built only when
        the scan differs from every earlier one of this session, and kept until it is uploaded.

        Parameters
        ----------
        job : Job
            The job model.
        """
        code = job.code
        if code is None or code.in_s3:
            return None
        entries = _archive.scan(code, tuple(self.code_ignore))
        key = (tuple(self.code_ignore), _archive.signature(entries))
        with self._lock:
            found = self._code_digests.get(key)
        if found is not None:
            return found
        body, size = _archive.write_archive(entries)
        digest = _archive.digest(body)
        with self._lock:
            self._code_digests[key] = digest
            if digest in self._built_archives:
                body.close()
            else:
                self._built_archives[digest] = (body, size)
                while len(self._built_archives) > _KEPT_ARCHIVES:  # the oldest goes; rebuilt if needed
                    self._built_archives.pop(next(iter(self._built_archives)))[0].close()
        return digest

    def upload_code(self, plan):
        """Put the plan's code archive where the plan says, unless this session knows it is there
        (nothing to do without code, or with code already in S3).

        Parameters
        ----------
        plan : Plan
            The job's plan.
        """
        if plan.code is None or not plan.code.upload:
            return
        bucket, key = s3_uris.parse_s3_uri(plan.code.s3_uri)
        with self._upload_lock:  # one upload of an archive at a time: the others find it stored
            if (bucket, key) in self._stored_code:
                return
            with self._lock:
                body, size = self._built_archives.pop(plan.code_digest, (None, None))
            if body is None:
                body, size = _archive.build_archive(plan.job.code, tuple(self.code_ignore))
            try:
                if plan.code_digest is not None and _archive.digest(body) != plan.code_digest:
                    raise E.ConfigError([E.Problem(
                        "source_dir" if plan.job.code.source_dir else "entry_point",
                        "changed while the job was being submitted (its archive is no longer the one the request "
                        "names); submit again")])
                self._upload_code(plan, body, size)
            finally:
                body.close()
            self._stored_code.add((bucket, key))

    def _upload_code(self, plan, body, size):
        """Put the code archive at its key (its content address), never over an object that is there
        already, unless S3's checksums show that object is these bytes (``_code_store.store``)."""
        bucket, key = s3_uris.parse_s3_uri(plan.code.s3_uri)
        expected = self._expected_bucket_owner(bucket)
        target = (bucket, key, {"ExpectedBucketOwner": expected} if expected else {})
        part = _code_store.part_size(size, self.multipart_threshold, self.multipart_chunksize)
        digest = plan.code_digest or _archive.digest(body)
        _code_store.store(self._client("s3"), target, body, size, part, digest, job_name=plan.job_name)

    def _create_training_job(self, request, clock=time.monotonic, wall_clock=time.time):
        """CreateTrainingJob, its outcome made certain.

        A refused first attempt (``ResourceInUse`` included: the name is someone else's, or an earlier
        run's) is raised as it is. If an attempt may have reached SageMaker without its answer coming
        back (botocore then retries), the job is described: if it is the one this request asked for
        (:func:`_is_our_job`, created after the first attempt by AWS's clock) the submission carries
        on; if a job of that name is another, JobConflictError; if none exists, the error is raised; if
        it cannot be described, JobMayExistError names the job. ``clock`` (monotonic) and
        ``wall_clock`` time the attempts.
        """
        client = self._client("sagemaker")
        name = request["TrainingJobName"]
        _track_create_attempts(client)
        outcomes = _ATTEMPTS.outcomes = []
        first = clock(), wall_clock()
        try:
            _aws_errors.call(client, "CreateTrainingJob", **request)
            return
        except E.AWSError as exc:
            failure = exc
        finally:
            _ATTEMPTS.outcomes = None
        taken = _is_name_taken(failure)
        if taken and _LOST not in outcomes[:-1]:
            raise _conflict(name, failure)
        if not taken and _LOST not in outcomes:
            raise failure
        try:
            existing = _aws_errors.call(client, "DescribeTrainingJob", TrainingJobName=name)
        except E.ResourceNotFoundError:
            if taken:  # SageMaker said the name is taken, then that there is no such job
                raise _may_exist(name, failure, "DescribeTrainingJob then found no job of that name")
            created = "No training job named %r was created: submitting again is safe." % name
            raise failure.hinted("\n".join(filter(None, (failure.hint, created))), job_name=name)
        except E.AWSError as exc:
            raise _may_exist(name, failure, "DescribeTrainingJob failed too (%s: %s)" % (exc.code, exc.aws_message))
        earliest = _earliest_creation(existing, clock() - first[0], first[1])
        if _is_our_job(existing, request, earliest):
            LOGGER.info("CreateTrainingJob's answer was lost; the training job %s is the one this request created.",
                        name)
            return
        raise _conflict(name, failure)

    def describe_training_job(self, job_name):
        """DescribeTrainingJob's answer.

        Parameters
        ----------
        job_name : str
            The training job.
        """
        return _aws_errors.call(self._client("sagemaker-poll"), "DescribeTrainingJob", TrainingJobName=job_name)

    def stop_training_job(self, job_name):
        """StopTrainingJob.

        Parameters
        ----------
        job_name : str
            The training job.
        """
        return _aws_errors.call(self._client("sagemaker"), "StopTrainingJob", TrainingJobName=job_name)

    def create_presigned_domain_url(self, **params):
        """A presigned URL into a SageMaker Studio domain (CreatePresignedDomainUrl's AuthorizedUrl).

        Parameters
        ----------
        **params
            CreatePresignedDomainUrl's parameters (``DomainId``, ``UserProfileName``, ...).
        """
        return _aws_errors.call(self._client("sagemaker"), "CreatePresignedDomainUrl", **params)["AuthorizedUrl"]

    def update_training_job(self, job_name, remote_debug_config=None, resource_config=None):
        """UpdateTrainingJob of a running job (remote debugging, a warm pool's keep-alive).

        Parameters
        ----------
        job_name : str
            The training job.
        remote_debug_config : dict, optional
            A RemoteDebugConfig, e.g. ``{"EnableRemoteDebug": True}``.
        resource_config : dict, optional
            A ResourceConfigForUpdate, e.g. ``{"KeepAlivePeriodInSeconds": 600}``.
        """
        params = {"TrainingJobName": job_name}
        if remote_debug_config is not None:
            params["RemoteDebugConfig"] = remote_debug_config
        if resource_config is not None:
            params["ResourceConfig"] = resource_config
        return _aws_errors.call(self._client("sagemaker"), "UpdateTrainingJob", **params)

    def logs_for_job(self, job_name, wait=False, poll=None, instance_groups=None, out=None):
        """Print the job's CloudWatch logs, each line labelled ``[<group>/<host>]`` (see docs/logs.md).

        Parameters
        ----------
        job_name : str
            The training job.
        wait : bool, default False
            Follow the job until it ends (an ``UnexpectedStatusException`` if it fails).
        poll : float, optional
            Seconds between polls while following (default: the job's own pace).
        instance_groups : list of str, optional
            Show only these groups' lines.
        out : file, optional
            Where to print (default: standard output).

        Returns
        -------
        dict
            The job's description.
        """
        job = TrainingJob(self, job_name)
        return job.logs(follow=wait, instance_groups=instance_groups, out=out, poll=poll)

    # -- the caller's role (get_execution_role) ------------------------------------------------

    def get_caller_identity_arn(self) -> str:
        """The ARN of the user or role whose credentials this session uses, as the SDK v2 finds it.

        In a SageMaker notebook instance or Studio (its metadata file, ``_apps.STUDIO_METADATA_FILE``):
        the ``ExecutionRoleArn`` it names, else the notebook instance's role, the user profile's or the
        domain's execution role. Elsewhere (or when those calls fail): the STS caller identity, an
        assumed role's session ARN turned into the role's ARN, with the role's path from IAM.
        """
        metadata = _notebook_metadata()
        if metadata is not None:
            arn = self._notebook_role_arn(metadata)
            if arn:
                return arn
        identity = _aws_errors.call(self._client("sts"), "GetCallerIdentity")["Arn"]
        match = _ASSUMED_ROLE.match(identity)
        if match is None:
            return identity  # a user, the account root, a federated user: not a role
        role = "%siam::%s:role/%s" % match.groups()
        try:
            return self._role_arn(match.group(3))  # GetRole: the role's ARN with its path
        except E.AWSError:
            LOGGER.warning("Couldn't call 'get_role' to get Role ARN from role name %s to get Role path.",
                           match.group(3))
            if _CONSOLE_ROLE_NAME in identity:
                LOGGER.warning("Assuming role was created in SageMaker AWS console, as the name contains "
                               "`%s`. Defaulting to Role ARN with service-role in path. If this Role ARN is "
                               "incorrect, please add IAM read permissions to your role or supply the Role Arn "
                               "directly.", _CONSOLE_ROLE_NAME)
                role = "%siam::%s:role/service-role/%s" % match.groups()
            return role

    def _notebook_role_arn(self, metadata):
        """The execution role a notebook's metadata names or leads to, or None if SageMaker cannot say."""
        if metadata.get("ExecutionRoleArn") is not None:
            return metadata["ExecutionRoleArn"]
        client = self._client("sagemaker")
        domain_id = metadata.get("DomainId")
        try:
            if domain_id is None:
                described = _aws_errors.call(client, "DescribeNotebookInstance",
                                             NotebookInstanceName=metadata.get("ResourceName"))
                return described.get("RoleArn")
            profile = _aws_errors.call(client, "DescribeUserProfile", DomainId=domain_id,
                                       UserProfileName=metadata.get("UserProfileName"))
            role = (profile.get("UserSettings") or {}).get("ExecutionRole")
            if role:
                return role
            domain = _aws_errors.call(client, "DescribeDomain", DomainId=domain_id)
            return (domain.get("DefaultUserSettings") or {}).get("ExecutionRole")
        except E.AWSError:
            LOGGER.debug("Couldn't call 'describe_notebook_instance' to get the Role ARN of the instance %s.",
                         metadata.get("ResourceName"))
            return None

    # -- S3 data (sagemaker_hetero.s3 calls these by URI) --------------------------------------

    def upload_data(
        self,
        path: str,
        bucket: Optional[str] = None,
        key_prefix: str = "data",
        callback: Optional[Callable[[int], Any]] = None,
        extra_args: Optional[Dict[str, Any]] = None,
    ) -> str:
        """Upload a local file, or a folder with everything under it, to S3.

        A file goes to ``{key_prefix}/{file name}``, a folder's files to
        ``{key_prefix}/{path relative to the folder}``.

        Parameters
        ----------
        path : str
            The local file or folder.
        bucket : str, optional
            The bucket (default: the default bucket, created if missing, under ``default_bucket_prefix``).
        key_prefix : str, default 'data'
            The key prefix the files go under.
        callback : callable, optional
            Called with the number of bytes sent, chunk by chunk.
        extra_args : dict, optional
            boto3's ``ExtraArgs`` (``SSEKMSKeyId``, ``ContentType``, ...).

        Returns
        -------
        str
            ``s3://{bucket}/{key_prefix}/{file name}`` for a file, ``s3://{bucket}/{key_prefix}`` for a folder.
        """
        if not os.path.exists(path):  # before the default bucket is made
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
        if bucket:
            final_bucket, final_prefix = bucket, key_prefix or ""
        else:
            final_bucket = self.default_bucket()
            final_prefix = s3_path_join(self.default_bucket_prefix, key_prefix)
        files, file_name = files_to_upload(path, final_prefix)
        owner = self._expected_bucket_owner(final_bucket)
        if owner:
            extra_args = dict(extra_args or {}, ExpectedBucketOwner=owner)
        for local_path, key in files:
            self._upload_file(local_path, final_bucket, key, callback, extra_args)
        if file_name is not None:
            return "s3://%s/%s" % (final_bucket, key_under(final_prefix, file_name))
        return "s3://{}/{}".format(final_bucket, final_prefix)

    def upload_string_as_file_body(self, body: str, bucket: str, key: str, kms_key: Optional[str] = None) -> str:
        """Write a string to an S3 object; its URI.

        Parameters
        ----------
        body : str
            The object's content.
        bucket : str
            The bucket.
        key : str
            The object's key.
        kms_key : str, optional
            The KMS key to encrypt it with.
        """
        params = {"Bucket": bucket, "Key": key, "Body": body}
        if kms_key is not None:
            params.update(SSEKMSKeyId=kms_key, ServerSideEncryption="aws:kms")
        owner = self._expected_bucket_owner(bucket)
        if owner:
            params["ExpectedBucketOwner"] = owner
        _aws_errors.call(self._client("s3"), "PutObject", **params)
        return "s3://{}/{}".format(bucket, key)

    def download_data(
        self, path: str, bucket: str, key_prefix: str = "", extra_args: Optional[Dict[str, Any]] = None
    ) -> List[str]:
        """Download every object whose key starts with ``key_prefix`` into the folder ``path``; the
        local paths written.

        An object lands at its key relative to ``key_prefix`` (at its file name when ``key_prefix``
        has an extension: one file). A key that would land outside ``path`` is refused (ValueError)
        before anything is downloaded.

        Parameters
        ----------
        path : str
            The local folder.
        bucket : str
            The bucket.
        key_prefix : str, default ''
            The keys to download start with it.
        extra_args : dict, optional
            boto3's ``ExtraArgs`` of each download.
        """
        s3 = self._client("s3")
        owner = self._expected_bucket_owner(bucket)
        params = {"Bucket": bucket, "Prefix": key_prefix}
        if owner:
            params["ExpectedBucketOwner"] = owner
        objects = self._list_objects(params)
        if not objects:
            LOGGER.info("Nothing to download from bucket: %s, key_prefix: %s.", bucket, key_prefix)
            return []
        directories, files = download_targets(path, key_prefix, objects)
        download_args = dict(extra_args or {})
        if owner:
            download_args["ExpectedBucketOwner"] = owner
        for directory in directories:
            os.makedirs(directory, exist_ok=True)
        downloaded = []
        for key, destination in files:
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            _aws_errors.call(s3, "DownloadFile", Bucket=bucket, Key=key, Filename=destination,
                             ExtraArgs=download_args or None)
            downloaded.append(destination)
        return downloaded

    def read_s3_file(self, bucket: str, key_prefix: str) -> str:
        """The body of an S3 object, decoded as UTF-8.

        Parameters
        ----------
        bucket : str
            The bucket.
        key_prefix : str
            The object's key.
        """
        params = {"Bucket": bucket, "Key": key_prefix}
        owner = self._expected_bucket_owner(bucket)
        if owner:
            params["ExpectedBucketOwner"] = owner
        response = _aws_errors.call(self._client("s3"), "GetObject", **params)
        return response["Body"].read().decode("utf-8")

    def list_s3_files(self, bucket: str, key_prefix: str) -> List[str]:
        """The keys of the objects in a bucket that start with a prefix.

        Parameters
        ----------
        bucket : str
            The bucket.
        key_prefix : str
            The prefix.
        """
        return [key for key, _ in self._list_objects({"Bucket": bucket, "Prefix": key_prefix})]

    def _list_objects(self, params):
        """``[(key, size)]`` of every object ListObjectsV2 lists for ``params``, page after page."""
        s3 = self._client("s3")
        objects, token = [], None
        while True:
            page = dict(params, ContinuationToken=token) if token else params
            response = _aws_errors.call(s3, "ListObjectsV2", **page)
            objects.extend((o["Key"], o.get("Size", 0)) for o in response.get("Contents") or ())
            token = response.get("NextContinuationToken")
            if not token:
                return objects

    def _upload_file(self, local_path, bucket, key, callback, extra_args):
        """One managed upload (boto3's transfer: multipart when large), its errors translated."""
        try:
            _aws_errors.call(self._client("s3"), "UploadFile", Filename=local_path, Bucket=bucket, Key=key,
                             Callback=callback, ExtraArgs=extra_args)
        except boto3.exceptions.S3UploadFailedError as exc:
            # boto3 wraps the failed request's ClientError; the one translator reads that
            cause = exc.__context__ if exc.__context__ is not None else exc
            raise _aws_errors.translate(cause, "UploadFile") from exc

    def _expected_bucket_owner(self, bucket):
        """This account when ``bucket`` is the ``sagemaker-{region}-{account}`` default bucket this
        session named and looked up, else None: S3 calls on it then send ``ExpectedBucketOwner``, as the
        SDK v2 does against someone else owning that predictable name. A bucket you named yourself
        (``default_bucket=``, the SDK defaults configuration) may be another account's, and is not checked."""
        with self._lock:
            return self._sdk_bucket_owner(bucket) if bucket in self._bucket_ready else None

    def _sdk_bucket_owner(self, bucket):
        """This account when ``bucket`` is the default bucket name this session made up
        (``sagemaker-{region}-{account}``, no ``default_bucket`` given), else None."""
        with self._lock:
            if not bucket or self._default_bucket_name is not None or self._account_id is None:
                return None
            return self._account_id if bucket == default_bucket_name(self.boto_region_name, self._account_id) else None

    # -- tuning jobs and pipelines (sagemaker_hetero.tuner, sagemaker_hetero.workflow) ------------

    def create_tuning_job(self, request, started):
        """CreateHyperParameterTuningJob. When the name is taken after an ambiguous failure (the first
        attempt reached AWS, its answer was lost), the existing job is ours if it was created after
        ``started`` from the same definition and ranges; else a :class:`JobConflictError`.

        Parameters
        ----------
        request : dict
            The CreateHyperParameterTuningJob request.
        started : float
            When this attempt started (seconds since the epoch).
        """
        client = self._client("sagemaker")
        name = request["HyperParameterTuningJobName"]
        try:
            _aws_errors.call(client, "CreateHyperParameterTuningJob", **request)
        except E.AWSError as exc:
            if not _is_name_taken(exc):
                raise
            if _is_our_tuning_job(self.describe_tuning_job(name), request, started):
                return
            raise E.JobConflictError(
                "a tuning job named %r already exists and was not created by this request" % name,
                code=exc.code,
                operation="CreateHyperParameterTuningJob",
                hint="Choose another job_name (or leave it out for a default name with the minute in it).",
            )

    def describe_tuning_job(self, job_name):
        """DescribeHyperParameterTuningJob's answer (the SDK v2's name).

        Parameters
        ----------
        job_name : str
            The tuning job.
        """
        return _aws_errors.call(self._client("sagemaker-poll"), "DescribeHyperParameterTuningJob",
                                HyperParameterTuningJobName=job_name)

    def stop_tuning_job(self, name):
        """StopHyperParameterTuningJob; a job that has already ended is left as it is (as in the SDK v2).

        Parameters
        ----------
        name : str
            The tuning job.
        """
        try:
            _aws_errors.call(self._client("sagemaker"), "StopHyperParameterTuningJob", HyperParameterTuningJobName=name)
        except E.AWSError as exc:
            if exc.code != "ValidationException" or isinstance(exc, E.ResourceNotFoundError):
                raise
            LOGGER.info("Tuning job %s is already stopped or not running.", name)

    def upsert_pipeline(self, request):
        """CreatePipeline, or UpdatePipeline (without the tags and the request token) when a pipeline of
        that name exists.

        Parameters
        ----------
        request : dict
            The CreatePipeline request.
        """
        client = self._client("sagemaker")
        try:
            return _aws_errors.call(client, "CreatePipeline", **request)
        except E.AWSError as exc:
            if exc.code != "ValidationException" or "already exist" not in (exc.aws_message or "").lower():
                raise
        update = dict((k, v) for k, v in request.items() if k not in ("Tags", "ClientRequestToken"))
        return _aws_errors.call(client, "UpdatePipeline", **update)

    def describe_pipeline(self, name):
        """DescribePipeline's answer.

        Parameters
        ----------
        name : str
            The pipeline.
        """
        return _aws_errors.call(self._client("sagemaker-poll"), "DescribePipeline", PipelineName=name)

    def start_pipeline_execution(self, request):
        """StartPipelineExecution; its answer (``PipelineExecutionArn``).

        Parameters
        ----------
        request : dict
            The StartPipelineExecution request.
        """
        return _aws_errors.call(self._client("sagemaker"), "StartPipelineExecution", **request)

    def describe_pipeline_execution(self, arn):
        """DescribePipelineExecution's answer.

        Parameters
        ----------
        arn : str
            The execution's ARN.
        """
        return _aws_errors.call(self._client("sagemaker-poll"), "DescribePipelineExecution", PipelineExecutionArn=arn)

    # -- CloudWatch Logs (read by _log_tail) ---------------------------------------------------

    def _log_stream_names(self, prefix):
        """Names of the training job log streams starting with ``prefix`` (none if the log group
        does not exist yet)."""
        client = self._client("logs-poll")
        names, seen, token = [], set(), None
        while True:
            params = {"logGroupName": LOG_GROUP, "logStreamNamePrefix": prefix}
            if token:
                params["nextToken"] = token
            try:
                response = _aws_errors.call(client, "DescribeLogStreams", **params)
            except E.ResourceNotFoundError:
                return names
            page = [s["logStreamName"] for s in response.get("logStreams") or ()]
            for name in page:
                if name not in seen:
                    seen.add(name)
                    names.append(name)
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


def _track_create_attempts(client):
    """Have ``client`` report each CreateTrainingJob attempt's outcome to :func:`_note_create_attempt`
    (botocore's event system; registered once per client)."""
    events = getattr(getattr(client, "meta", None), "events", None)
    if events is not None:
        events.register("needs-retry.sagemaker.CreateTrainingJob", _note_create_attempt,
                        unique_id="sagemaker-hetero-create-attempts")


def _note_create_attempt(response=None, caught_exception=None, **_):
    outcomes = getattr(_ATTEMPTS, "outcomes", None)
    if outcomes is not None:
        outcomes.append(_attempt_outcome(response, caught_exception))
    # None: botocore's retry handler decides whether to retry


def _attempt_outcome(response, caught_exception):
    import botocore.exceptions as B

    if caught_exception is not None:  # no connection could be made (ConnectTimeoutError included): never sent
        return _UNSENT if isinstance(caught_exception, B.EndpointConnectionError) else _LOST
    status = getattr(response[0], "status_code", None) if response else None
    return _LOST if status is None or status >= 500 else _ANSWERED


def _conflict(name, failure):
    return E.JobConflictError(
        "a training job named %r already exists and was not created by this request" % name,
        code=failure.code, operation="CreateTrainingJob", job_name=name, hint=_conflict_hint(name))


def _conflict_hint(name):
    return ("Choose another job_name (or leave it out for a unique default name). To follow the existing job: "
            "PyTorch.attach(%r) (or Estimator/TensorFlow), or: sagemaker-hetero status %s" % (name, name))


def _may_exist(name, failure, why):
    return E.JobMayExistError(
        "CreateTrainingJob got no answer (%s: %s) and %s: the training job %r may exist"
        % (failure.code, failure.aws_message, why, name),
        code=failure.code, operation="CreateTrainingJob", job_name=name,
        hint="Look before submitting again: sagemaker-hetero status %s (or PyTorch.attach(%r)). If it exists, it "
             "is this submission's job; if not, submit again." % (name, name))


def _earliest_creation(described, elapsed, started):
    """The earliest creation time (seconds since the epoch) of a job our first attempt created:
    ``elapsed`` seconds before the description's Date header (AWS's clock), else ``started`` (this
    machine's clock) less ``CLOCK_SKEW_SECONDS``."""
    headers = (described.get("ResponseMetadata") or {}).get("HTTPHeaders") or {}
    try:
        answered = email.utils.parsedate_to_datetime(headers["date"]).timestamp()
    except (KeyError, TypeError, ValueError, IndexError):
        return started - CLOCK_SKEW_SECONDS
    return answered - elapsed - _DATE_SLACK_SECONDS


# The fields of a request a described job echoes as sent (the described job has more, e.g. moto's
# MetricDefinitions, SageMaker's defaults): a job is ours only if all that we sent is there.
_ECHOED = (
    ("RoleArn",),
    ("HyperParameters",),
    ("AlgorithmSpecification", "TrainingImage"),
    ("AlgorithmSpecification", "AlgorithmName"),
    ("AlgorithmSpecification", "TrainingInputMode"),
    ("ResourceConfig", "InstanceGroups"),
    ("ResourceConfig", "InstanceType"),
    ("ResourceConfig", "InstanceCount"),
    ("ResourceConfig", "VolumeSizeInGB"),
    ("OutputDataConfig", "S3OutputPath"),
    ("StoppingCondition", "MaxRuntimeInSeconds"),
)


def _is_our_job(described, request, earliest):
    """Whether a described job is the one ``request`` asked for: every echoed field as sent, the same
    channels reading the same data, and created no earlier than ``earliest`` (seconds since the epoch)."""
    created = described.get("CreationTime")
    if created is not None:
        stamp = created.timestamp() if hasattr(created, "timestamp") else float(created)
        if stamp < earliest:
            return False
    for path in _ECHOED:
        sent, got = describe.value_at(request, path), describe.value_at(described, path)
        if sent is not None and got != sent and (sent or got):  # an empty dict sent may come back absent
            return False
    return _channels(described) == _channels(request)


def _channels(job):
    return [(c.get("ChannelName"), ((c.get("DataSource") or {}).get("S3DataSource") or {}).get("S3Uri"))
            for c in job.get("InputDataConfig") or ()]


def _is_our_tuning_job(described, request, started):
    """Whether a described tuning job is the one ``request`` asked for, created after ``started``."""
    created = described.get("CreationTime")
    if created is not None:
        stamp = created.timestamp() if hasattr(created, "timestamp") else float(created)
        if stamp < started - CLOCK_SKEW_SECONDS:
            return False
    mine, theirs = request.get("TrainingJobDefinition") or {}, described.get("TrainingJobDefinition") or {}
    for key in ("RoleArn", "StaticHyperParameters"):
        if mine.get(key) != theirs.get(key):
            return False
    return _tuned_ranges(request) == _tuned_ranges(described)


def _tuned_ranges(request):
    """The non-empty range lists of a tuning request or description."""
    ranges = (request.get("HyperParameterTuningJobConfig") or {}).get("ParameterRanges") or {}
    return dict((kind, items) for kind, items in ranges.items() if items)


def get_execution_role(sagemaker_session: Optional[Session] = None, use_default: bool = False) -> str:
    """The ARN of the IAM role whose credentials the session uses (``Session.get_caller_identity_arn``).

    A ValueError when the caller is not a role (a user, say), unless ``use_default``.

    Parameters
    ----------
    sagemaker_session : Session, optional
        The session whose caller it is (default: a new ``Session()``).
    use_default : bool, default False
        When the caller is not a role, use ``AmazonSageMaker-DefaultRole`` (trusting SageMaker, created
        if missing, with the managed policy ``AmazonSageMakerFullAccess`` attached), as the SDK v2 does.
    """
    if not sagemaker_session:
        sagemaker_session = Session()
    arn = sagemaker_session.get_caller_identity_arn()
    if ":role/" in arn:
        return arn
    if use_default:
        LOGGER.warning("Using default role: %s", DEFAULT_ROLE_NAME)
        iam = sagemaker_session._client("iam")
        try:
            _aws_errors.call(iam, "GetRole", RoleName=DEFAULT_ROLE_NAME)
        except E.ResourceNotFoundError:
            _aws_errors.call(iam, "CreateRole", RoleName=DEFAULT_ROLE_NAME,
                             AssumeRolePolicyDocument=json.dumps(_DEFAULT_ROLE_TRUST))
            LOGGER.warning("Created new sagemaker execution role: %s", DEFAULT_ROLE_NAME)
        partition = _context.partition_for(sagemaker_session.boto_region_name)
        _aws_errors.call(iam, "AttachRolePolicy", RoleName=DEFAULT_ROLE_NAME,
                         PolicyArn="arn:%s:iam::aws:policy/%s" % (partition, DEFAULT_ROLE_POLICY))
        return _aws_errors.call(iam, "GetRole", RoleName=DEFAULT_ROLE_NAME)["Role"]["Arn"]
    raise ValueError(_NOT_A_ROLE.format(arn))


def _notebook_metadata():
    """The metadata of the SageMaker notebook instance or Studio app this runs in (a dict), else None."""
    path = _apps.STUDIO_METADATA_FILE
    if not os.path.exists(path):
        return None
    try:
        with open(path, "rb") as handle:
            metadata = json.loads(handle.read())
    except (OSError, ValueError) as exc:
        LOGGER.warning("Could not read the notebook metadata %s (%s); asking STS who the caller is.", path, exc)
        return None
    return metadata if isinstance(metadata, dict) else None
