"""The SDK v2's ``Session``: it performs the calls a validated request needs, through the AWS edge.

It honours the usual boto3 configuration and remembers what it looked up (account, default bucket,
role ARNs, input buckets): after the first job, a job costs one upload and one CreateTrainingJob.
Also the SDK v2's helpers notebooks use: :func:`get_execution_role`, ``upload_data`` and the other
S3 data methods (``sagemaker_hetero.s3`` wraps them by URI). It keeps the SDK v2's names and
signatures and follows ``_runner.SessionProtocol``; the work is ``_aws``'s (clients, account,
code_upload, create, s3_data, roles, log_tail).
"""
import errno
import os
import time
from typing import Any, Callable, Dict, List, Optional

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._aws import (account, clients, code_upload, create, errors, files, log_tail, roles, s3_data,
                                   sdk_config)
from sagemaker_hetero._aws.code_upload import MULTIPART_CHUNKSIZE, MULTIPART_THRESHOLD
from sagemaker_hetero._aws.training_job import TrainingJob
from sagemaker_hetero._defaults import CODE_IGNORE
from sagemaker_hetero._request import names
from sagemaker_hetero._request.plan import CREATE_TRAINING_JOB
from sagemaker_hetero._request.s3_uris import s3_path_join

__all__ = ["Session", "TrainingJob", "get_execution_role"]

#: How many default names a submission tries when the name it was given is taken (another process).
DEFAULT_NAME_ATTEMPTS = 5
#: What the problems of making a session are problems with (a ConfigError's subject): no training job yet.
_SESSION_SUBJECT = "the SageMaker session"


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
    #: the SDK v2's local-mode configuration (``config["local"]["container_root"]``): an AWS session has none
    config = None
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
        # One region rule for everything (the dry run's too): an explicit session's region, else
        # AWS_DEFAULT_REGION (which wins, as in boto3), AWS_REGION (boto3 alone does not read it), the
        # profile's.
        """Make the session; the parameters are the class's."""
        if boto_session is None:
            boto_session = clients.new_boto_session(region_name=files.region_from_environment())
        self.boto_session = boto_session
        self.boto_region_name = boto_session.region_name or files.region_from_environment()
        problems = names.region_problems(self.boto_region_name, "boto_session", "or pass boto_session=boto3.Session("
                                         "region_name=...)", placeholder_ok=True)
        if problems:
            raise E.ConfigError(problems, _SESSION_SUBJECT)
        self._clients = clients.Clients(boto_session, self.boto_region_name, sagemaker_client)
        # The SDK v2 takes these for endpoints, feature store and metrics; a training job uses none.
        self.sagemaker_runtime_client = sagemaker_runtime_client
        self.sagemaker_featurestore_runtime_client = sagemaker_featurestore_runtime_client
        self.sagemaker_metrics_client = sagemaker_metrics_client
        self.settings = settings
        #: the SageMaker defaults configuration (docs/migrating.md): given, else read as the SDK v2 reads it
        try:
            self.sagemaker_config = (sdk_config.check(sagemaker_config) if sagemaker_config is not None
                                     else sdk_config.load())
        except E.ConfigError as exc:  # the configuration's problems, not a training job's
            raise E.ConfigError(exc.problems, _SESSION_SUBJECT) from None
        #: the account, default bucket and role look-ups, each made once (the facts a request needs)
        self._account = account.Account(self._clients, self.boto_region_name, default_bucket or sdk_config.value(
            self.sagemaker_config, sdk_config.DEFAULT_BUCKET))
        #: a key prefix for the default bucket: output and code go under it
        self.default_bucket_prefix = default_bucket_prefix or sdk_config.value(
            self.sagemaker_config, sdk_config.DEFAULT_BUCKET_PREFIX)
        #: the code archives: digests, archives built and not yet uploaded, keys known to hold theirs
        self._code = code_upload.CodeArchives(self._clients, self._account)
        self._s3_data = s3_data.S3Data(self._clients, self._account)
        #: the job log streams a ``TrainingJob`` reads its logs from (CloudWatch Logs)
        self.log_streams = log_tail.LogStreams(self._clients)

    def __repr__(self):
        """``Session(region=..., default_bucket=...)``: what the session was given (no AWS call)."""
        given = [("region", self.boto_region_name), ("default_bucket", self._account.bucket_name),
                 ("default_bucket_prefix", self.default_bucket_prefix)]
        return "Session(%s)" % ", ".join("%s=%r" % (k, v) for k, v in given if v is not None)

    # -- clients -------------------------------------------------------------------------------

    def _client(self, name):
        return self._clients.client(name)

    @property
    def sagemaker_client(self):
        """The SageMaker client (the one given, else one made on first use)."""
        return self._client("sagemaker")

    # -- look-ups, each made once per session --------------------------------------------------

    def account_id(self):
        """The caller's AWS account id (one STS call per session)."""
        return self._account.id()

    def caller_identity(self, quick=False):
        """GetCallerIdentity's answer (``Account``, ``Arn``, ``UserId``), asked once per session.

        Parameters
        ----------
        quick : bool, default False
            Ask by one attempt with short timeouts (as a preflight asks), not with the session's retries.
        """
        return self._account.caller_identity(quick)

    def iam_role(self, name, fresh=False, quick=False):
        """IAM's description of a role (GetRole's ``Role``), asked once per session.

        Parameters
        ----------
        name : str
            The role's name.
        fresh : bool, default False
            Ask IAM again instead of using the answer this session has.
        quick : bool, default False
            Ask by one attempt with short timeouts (as a preflight asks), not with the session's retries.
        """
        return self._account.iam_role(name, fresh, quick)

    def quick_client(self, service):
        """The client a preflight asks with: one attempt, short timeouts (the SageMaker client given to
        the session, if one was).

        Parameters
        ----------
        service : str
            The service's name, as boto3 takes it (``"sts"``, ``"service-quotas"``...).
        """
        return self._client(service + "-quick")

    def default_bucket(self):
        """The default bucket's name, created if missing (``sagemaker-{region}-{account}``)."""
        return self._account.default_bucket()

    # -- the session protocol the estimators use (facts, check, execute) -------------------------

    def facts(self):
        """What this session knows without asking AWS: the region, and what it has looked up."""
        return self._account.facts(self.default_bucket_prefix)

    def check(self, job):
        """``(job, problems)``: an AWS job needs nothing beyond the common checks (the session protocol).

        Parameters
        ----------
        job : Job
            The job model.
        """
        return job, []

    def execute(self, job, now):
        """A checked job -> a created training job (no preflight), through ``_runner.execute``.

        Parameters
        ----------
        job : Job
            The checked job model.
        now : float
            The time (seconds since the epoch) default names are stamped with.
        """
        from sagemaker_hetero import _runner

        return _runner.executed(self, job, now)

    def lookup_facts(self, job):
        """The facts ``job``'s request needs (the protocol): the account when the default bucket is named
        after it, a role name's ARN (a failure is raised by :meth:`provision`). Nothing is created.

        Parameters
        ----------
        job : Job
            The checked job model.
        """
        return self._account.request_facts(job, self.default_bucket_prefix)

    def preflight(self, plan, mode, out=None):
        """``fit(preflight=mode)``'s preflight of the plan (the protocol; ``_preflight.gate.check``).

        Parameters
        ----------
        plan : Plan
        mode : bool, str, list or None
            ``fit``'s ``preflight``.
        out : file, optional
            Where ``"warn"`` prints (default: standard error).
        """
        from sagemaker_hetero._preflight import gate

        gate.check(self, plan, mode, out)

    def provision(self, plan):
        """What the account must hold before the upload (the protocol): the input buckets (a missing one
        is a ``ConfigError``), the default bucket (created if missing) when the job uses it, the role.

        Parameters
        ----------
        plan : Plan
        """
        self._account.provision(plan.job)

    def create(self, plan):
        """The plan's one create call (the protocol): CreateTrainingJob, a ``TrainingJob`` (a taken default
        name: the next free stamp, up to ``DEFAULT_NAME_ATTEMPTS``; ResourceLimitExceeded told as a quota),
        or a tuning job's CreateHyperParameterTuningJob (:meth:`create_tuning_job`; None).

        Parameters
        ----------
        plan : Plan
        """
        if plan.operation != CREATE_TRAINING_JOB:
            return self.create_tuning_job(plan.request, time.time())
        from sagemaker_hetero._preflight import gate

        from sagemaker_hetero import _runner

        created = gate.created(self, plan, lambda p: create.create_plan(self._client("sagemaker"), p,
                                                                         DEFAULT_NAME_ATTEMPTS, _runner.renamed))
        return TrainingJob(self, created.job_name, created.request, framework=plan.job.framework,
                           failure=self.job_failure)

    def code_digest(self, job):
        """The SHA-256 of ``job``'s code archive (its key's content address), or None when it ships no
        archive to upload. The tree is scanned (one ``stat`` per entry); the archive is built only when
        the scan differs from every earlier one of this session, and kept until it is uploaded.

        Parameters
        ----------
        job : Job
            The job model.
        """
        return self._code.digest(job, tuple(self.code_ignore))

    def upload_code(self, plan):
        """Put the plan's code archive where the plan says, unless this session knows it is there
        (nothing to do without code, or with code already in S3).

        Parameters
        ----------
        plan : Plan
            The job's plan.
        """
        self._code.upload(plan, tuple(self.code_ignore), self.multipart_threshold, self.multipart_chunksize)

    def job_failure(self, job_name, status, desc):
        """The exception of a training job that ended badly (the protocol; handed to each ``TrainingJob``):
        the SDK v2's ``CapacityError`` when SageMaker had no capacity for it, else ``UnexpectedStatusException``.

        Parameters
        ----------
        job_name : str
            The training job.
        status : str
            The status it ended with.
        desc : dict
            Its last DescribeTrainingJob answer.
        """
        from sagemaker_hetero._preflight import capacity

        if capacity.capacity_reason(status, desc):
            return capacity.capacity_error(self, job_name, status, desc)
        return E.UnexpectedStatusException(job_name, status, desc.get("FailureReason"))

    def describe_training_job(self, job_name):
        """DescribeTrainingJob's answer.

        Parameters
        ----------
        job_name : str
            The training job.
        """
        return errors.call(self._client("sagemaker-poll"), "DescribeTrainingJob", TrainingJobName=job_name)

    def stop_training_job(self, job_name):
        """StopTrainingJob.

        Parameters
        ----------
        job_name : str
            The training job.
        """
        return errors.call(self._client("sagemaker"), "StopTrainingJob", TrainingJobName=job_name)

    def create_presigned_domain_url(self, **params):
        """A presigned URL into a SageMaker Studio domain (CreatePresignedDomainUrl's AuthorizedUrl).

        Parameters
        ----------
        **params
            CreatePresignedDomainUrl's parameters (``DomainId``, ``UserProfileName``, ...).
        """
        return errors.call(self._client("sagemaker"), "CreatePresignedDomainUrl", **params)["AuthorizedUrl"]

    def update_training_job(self, job_name, remote_debug_config=None, resource_config=None):
        """UpdateTrainingJob of a running job (remote debugging, a warm pool's keep-alive).

        Parameters
        ----------
        job_name : str
            The training job.
        remote_debug_config : dict, optional
            A RemoteDebugConfig dict, as UpdateTrainingJob takes it (one flag: remote debugging on or off).
        resource_config : dict, optional
            A ResourceConfigForUpdate, e.g. ``{"KeepAlivePeriodInSeconds": 600}``.
        """
        params = {"TrainingJobName": job_name}
        if remote_debug_config is not None:
            params["RemoteDebugConfig"] = remote_debug_config
        if resource_config is not None:
            params["ResourceConfig"] = resource_config
        return errors.call(self._client("sagemaker"), "UpdateTrainingJob", **params)

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
        job = TrainingJob(self, job_name, failure=self.job_failure)
        return job.logs(follow=wait, instance_groups=instance_groups, out=out, poll=poll)

    # -- the caller's role (get_execution_role) ------------------------------------------------

    def get_caller_identity_arn(self) -> str:
        """The ARN of the user or role whose credentials this session uses, as the SDK v2 finds it.

        In a SageMaker notebook instance or Studio (its metadata file, ``_aws.apps.STUDIO_METADATA_FILE``):
        the ``ExecutionRoleArn`` it names, else the notebook instance's role, the user profile's or the
        domain's execution role. Elsewhere (or when those calls fail): the STS caller identity, an
        assumed role's session ARN turned into the role's ARN, with the role's path from IAM.
        """
        return roles.caller_identity_arn(self._clients, self._account.role_arn)

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
            return self._s3_data.upload(path, bucket, key_prefix or "", callback, extra_args)
        prefix = s3_path_join(self.default_bucket_prefix, key_prefix)
        return self._s3_data.upload(path, self.default_bucket(), prefix, callback, extra_args)

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
        return self._s3_data.put_string(body, bucket, key, kms_key)

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
        return self._s3_data.download(path, bucket, key_prefix, extra_args)

    def read_s3_file(self, bucket: str, key_prefix: str) -> str:
        """The body of an S3 object, decoded as UTF-8.

        Parameters
        ----------
        bucket : str
            The bucket.
        key_prefix : str
            The object's key.
        """
        return self._s3_data.read(bucket, key_prefix)

    def list_s3_files(self, bucket: str, key_prefix: str) -> List[str]:
        """The keys of the objects in a bucket that start with a prefix.

        Parameters
        ----------
        bucket : str
            The bucket.
        key_prefix : str
            The prefix.
        """
        return self._s3_data.keys(bucket, key_prefix)

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
        create.create_tuning_job(self._client("sagemaker"), request, started, self.describe_tuning_job)

    def describe_tuning_job(self, job_name):
        """DescribeHyperParameterTuningJob's answer (the SDK v2's name).

        Parameters
        ----------
        job_name : str
            The tuning job.
        """
        return errors.call(self._client("sagemaker-poll"), "DescribeHyperParameterTuningJob",
                           HyperParameterTuningJobName=job_name)

    def stop_tuning_job(self, name):
        """StopHyperParameterTuningJob; a job that has already ended is left as it is (as in the SDK v2).

        Parameters
        ----------
        name : str
            The tuning job.
        """
        create.stop_tuning_job(self._client("sagemaker"), name)

    def upsert_pipeline(self, request):
        """CreatePipeline, or UpdatePipeline (without the tags and the request token) when a pipeline of
        that name exists.

        Parameters
        ----------
        request : dict
            The CreatePipeline request.
        """
        return create.upsert_pipeline(self._client("sagemaker"), request)

    def describe_pipeline(self, name):
        """DescribePipeline's answer.

        Parameters
        ----------
        name : str
            The pipeline.
        """
        return errors.call(self._client("sagemaker-poll"), "DescribePipeline", PipelineName=name)

    def start_pipeline_execution(self, request):
        """StartPipelineExecution; its answer (``PipelineExecutionArn``).

        Parameters
        ----------
        request : dict
            The StartPipelineExecution request.
        """
        return errors.call(self._client("sagemaker"), "StartPipelineExecution", **request)

    def describe_pipeline_execution(self, arn):
        """DescribePipelineExecution's answer.

        Parameters
        ----------
        arn : str
            The execution's ARN.
        """
        return errors.call(self._client("sagemaker-poll"), "DescribePipelineExecution", PipelineExecutionArn=arn)


TrainingJob.new_session = Session  # TrainingJob.attach(name)'s default session (the AWS edge imports no public module)


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
    return roles.execution_role(arn, use_default, sagemaker_session._clients, sagemaker_session.boto_region_name)


