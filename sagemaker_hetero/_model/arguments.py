"""THE table of estimator arguments: each written once, with everything the code needs to know of it.

One :class:`Argument` row per argument of the SageMaker Python SDK v2's estimators (plus ``fit``'s
``experiment_config`` and our ``job_name``), in the generic ``Estimator``'s order: its default in
the signatures, the :class:`~._model.job.Job` attribute that holds it, the request field it is
sent as and when, and which estimators take it. From this table are made: :data:`ESTIMATOR_FIELDS`,
the fields of ``JobSettings`` (``_model.settings``), the pass-through attributes of ``Job``, what
the builder copies as given (:data:`AS_GIVEN`), the argument each attribute comes from
(:data:`ARGUMENT`), and the plain request fields that rendering writes and a description is read
back from (:data:`FIELDS`), and the ``Parameters`` sections of the estimators' docstrings from the
``doc`` column (``_model.docstrings``). The three estimators' ``__init__`` stay written out for IDE
help and static checkers; a test proves their names, order and defaults agree with this table. A new
pass-through request field is one row here (with its ``doc``) and one parameter in each signature.

Pure data: no I/O. Channel and instance group field tables (a ``TrainingInput``'s and an
``InstanceGroup``'s arguments and their places in the request) are here too.
"""
from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model import record

__all__ = ["Argument", "ARGUMENTS", "BY_NAME", "ESTIMATOR_FIELDS", "AS_GIVEN", "FLAGS", "ARGUMENT", "FIELDS",
           "DESCRIBED_ABSENT", "NOT_DESCRIBED",
           "FALSY_IS_NOT_GIVEN", "NONE_MEANS", "ALWAYS", "GIVEN", "TRUE", "ALL", "FRAMEWORKS", "TENSORFLOW", "FIT", "takes",
           "settings_default", "job_default", "SOURCE", "SOURCES", "CHANNEL_FIELDS", "LIST_ATTRS", "GROUP_FIELDS",
           "data_source", "channel_fields", "channel_body", "copied"]

# When a plain field is sent: always (even None, which the checks refuse), when given (not None),
# or only when true (the SDK v2 sends these flags only when set, with the value given).
ALWAYS, GIVEN, TRUE = "always", "given", "true"
# Who takes an argument: every estimator, PyTorch and TensorFlow, TensorFlow alone, ``fit``.
ALL, FRAMEWORKS, TENSORFLOW, FIT = "all", "frameworks", "tensorflow", "fit"
#: "Same as ``default``" (the ``generic_default`` column).
SAME = object()
#: The service describes nothing where the field was not sent (the ``described_absent`` column).
NOT_DESCRIBED = None


@record.frozen(eq=False, repr=False, slots=False)  # table rows, never compared: made on every import
class Argument(object):
    """One argument. ``attribute``: the Job attribute holding it (None: the builder turns it into
    structure, or rendering writes it by hand). ``path``/``when``/``only_with``: the request field
    it is sent as (None: written by hand), when, and the argument that must be sent too. ``copied``:
    the builder copies it as given (else it computes the attribute). ``sends``: a flag whose
    attribute holds this value when it is true (else None). ``falsy_is_not_given``: the
    SDK v2 tests it for truth (``""``, ``0``, ``[]`` are not given). ``none_means``: what None
    (not given, and not in the defaults configuration) stands for. ``setting``: it is part of the
    job (``sagemaker_session`` is not). ``described_absent``: what a DescribeTrainingJob answer holds
    at ``path`` for a job sent without the field (the service fills it in; :data:`NOT_DESCRIBED`:
    nothing), so a request compared with a description does not count it as a change. ``config``:
    where under ``SageMaker.TrainingJob`` the SageMaker defaults configuration holds the value it
    takes when not given (None), as the SDK v2's estimators take it. ``doc``: what it means, in the
    words ``help()`` shows."""

    def __repr__(self):
        return "Argument(%r)" % (self.name,)

    name = record.field()
    default = record.field(default=None)
    attribute = record.field(default=None)
    path = record.field(default=None)
    when = record.field(default=GIVEN)
    only_with = record.field(default=None)
    copied = record.field(default=True)
    sends = record.field(default=None)
    falsy_is_not_given = record.field(default=False)
    none_means = record.field(default=None)
    generic_default = record.field(default=SAME)
    takes = record.field(default=ALL)
    setting = record.field(default=True)
    described_absent = record.field(default=None)
    config = record.field(default=None)
    doc = record.field(default="")


_A = Argument
_AS = "AlgorithmSpecification"
_IMAGE_CONFIG = (_AS, "TrainingImageConfig")

#: Every argument, in the generic Estimator's order, then the framework estimators' own, then fit's.
ARGUMENTS = (
    _A("image_uri", attribute="image_uri", falsy_is_not_given=True,
       doc=("The training image's URI. The generic Estimator needs one; a framework estimator "
            "without it runs the Deep Learning Container of its framework_version and py_version.")),
    _A("role", attribute="role", config=("RoleArn",),
       doc=("The IAM role SageMaker assumes to run the job: an ARN, or a role name of the session's "
            "account.")),
    _A("instance_count",
       doc=("How many instances a cluster without instance groups has (with instance_type). Leave "
            "it out with instance_groups.")),
    _A("instance_type",
       doc=("The instance type of a cluster without instance groups, e.g. 'ml.c5.xlarge' (with "
            "instance_count). Leave it out with instance_groups.")),
    _A("keep_alive_period_in_seconds", attribute="keep_alive_period", described_absent=0,
       path=("ResourceConfig", "KeepAlivePeriodInSeconds"),
       doc=("How long the instances stay warm after the job, for a next job of the same "
            "configuration (warm pools).")),
    _A("volume_size", D.VOLUME_SIZE_GB, "volume_size", ("ResourceConfig", "VolumeSizeInGB"), ALWAYS,
       doc=("The size in GB of each instance's storage volume, which holds File-mode inputs and "
            "checkpoints.")),
    _A("volume_kms_key", attribute="volume_kms_key", path=("ResourceConfig", "VolumeKmsKeyId"), described_absent="",
       config=("ResourceConfig", "VolumeKmsKeyId"),
       doc="The KMS key that encrypts the instances' storage volumes."),
    _A("max_run", D.MAX_RUN_SECONDS, "max_run", ("StoppingCondition", "MaxRuntimeInSeconds"), ALWAYS,
       doc="The longest the job may run, in seconds: SageMaker stops it then."),
    _A("input_mode", D.INPUT_MODE, "input_mode", (_AS, "TrainingInputMode"), ALWAYS,
       doc=("How the channels reach the containers unless a TrainingInput says otherwise: 'File' "
            "(copied before the script starts), 'FastFile' (streamed as read) or 'Pipe'.")),
    _A("output_path", attribute="output_path",
       doc=("The S3 prefix the model artifacts and output go under; default: the session's default "
            "bucket.")),
    _A("output_kms_key", attribute="output_kms_key", path=("OutputDataConfig", "KmsKeyId"), described_absent="",
       config=("OutputDataConfig", "KmsKeyId"),
       doc="The KMS key that encrypts the model artifacts in S3."),
    _A("base_job_name", falsy_is_not_given=True,
       doc=("The prefix of a generated job name (a timestamp follows it); default: the image's or "
            "the framework's name.")),
    _A("sagemaker_session", setting=False,
       doc=("Where jobs run: a Session (AWS; one is made when first needed) or a LocalSession (this "
            "machine).")),
    _A("hyperparameters",
       doc=("The hyperparameters, a dict the script receives as command-line arguments and in its "
            "environment.")),
    _A("tags",
       doc="The job's tags: a list of {'Key': ..., 'Value': ...}, or a dict of key to value."),
    _A("subnets", config=("VpcConfig", "Subnets"),
       doc="The IDs of the VPC subnets the instances run in (with security_group_ids)."),
    _A("security_group_ids", config=("VpcConfig", "SecurityGroupIds"),
       doc="The IDs of the VPC security groups of the instances (with subnets)."),
    _A("model_uri", falsy_is_not_given=True,
       doc=("The S3 URI of a model the job starts from; it arrives in the channel named "
            "model_channel_name.")),
    _A("model_channel_name", D.MODEL_CHANNEL,
       doc="The name of the channel model_uri arrives in."),
    _A("metric_definitions",
       doc="The metrics to read from the job's logs: a list of {'Name': ..., 'Regex': ...}."),
    _A("encrypt_inter_container_traffic", attribute="encrypt_inter_container_traffic",
       path=("EnableInterContainerTrafficEncryption",), when=TRUE, none_means=False, described_absent=False,
       config=("EnableInterContainerTrafficEncryption",),
       doc="Encrypt the traffic between the job's instances (distributed training gets slower)."),
    _A("use_spot_instances", False, "spot", ("EnableManagedSpotTraining",), TRUE, described_absent=False,
       doc="Run on managed spot capacity, which can be interrupted (needs max_wait)."),
    _A("max_wait", attribute="max_wait", path=("StoppingCondition", "MaxWaitTimeInSeconds"),
       doc="The longest a spot job may wait for capacity and run, in seconds; at least max_run."),
    _A("checkpoint_s3_uri", attribute="checkpoint_s3_uri", path=("CheckpointConfig", "S3Uri"), when=TRUE,
       doc=("The S3 URI the containers' checkpoint folder is kept in step with, so that an "
            "interrupted job can resume.")),
    _A("checkpoint_local_path", attribute="checkpoint_local_path", path=("CheckpointConfig", "LocalPath"), when=TRUE,
       only_with="checkpoint_s3_uri",
       doc=("The checkpoint folder in the containers (with checkpoint_s3_uri); default: "
            "/opt/ml/checkpoints.")),
    _A("enable_network_isolation", attribute="network_isolation", path=("EnableNetworkIsolation",), when=TRUE,
       none_means=False, described_absent=False, config=("EnableNetworkIsolation",),
       doc="Run the containers without network access; the code then arrives as a channel."),
    _A("debugger_hook_config", falsy_is_not_given=True,
       doc="The Debugger hook: a DebugHookConfig request dict; False sends none."),
    _A("enable_sagemaker_metrics", attribute="enable_sagemaker_metrics",
       path=(_AS, "EnableSageMakerMetricsTimeSeries"), copied=False, described_absent=False,
       doc=("Publish the metrics as time series; default: on for a framework estimator given a "
            "framework_version.")),
    _A("profiler_config", falsy_is_not_given=True,
       doc="The Profiler configuration, a ProfilerConfig request dict, sent only when given."),
    _A("disable_profiler", none_means=False, generic_default=False, config=("ProfilerConfig", "DisableProfiler"),
       doc=("Turn the profiler off. Kept on the estimator; no profiler is sent unless "
            "profiler_config asks for one.")),
    _A("environment", config=("Environment",),
       doc="Environment variables set in every container: a dict of name to value."),
    _A("max_retry_attempts", attribute="max_retry_attempts", path=("RetryStrategy", "MaximumRetryAttempts"),
       doc="How many times the service retries the job after an internal error (1 to 30)."),
    _A("source_dir",
       doc=("The folder of the code, packed and uploaded as the code archive, or the S3 URI of a "
            ".tar.gz; entry_point is relative to it.")),
    _A("container_log_level", D.CONTAINER_LOG_LEVEL,
       doc="The logging level of the training toolkit in the containers, e.g. logging.DEBUG."),
    _A("code_location",
       doc="The S3 prefix the code archive is uploaded under; default: the default bucket."),
    _A("entry_point", falsy_is_not_given=True,
       doc=("The script every host runs, relative to source_dir when that is given. The framework "
            "estimators need one; the generic Estimator can run its image's own.")),
    _A("dependencies",
       doc=("Local folders or files copied into the code archive beside the source, importable by "
            "the script.")),
    _A("instance_groups",
       doc=("The instance groups of a heterogeneous cluster, each an InstanceGroup(name, "
            "instance_type, instance_count); give them instead of instance_type and instance_count.")),
    _A("training_repository_access_mode", attribute="training_repository_access_mode",
       path=_IMAGE_CONFIG + ("TrainingRepositoryAccessMode",),
       doc=("How the image is pulled: 'Platform' (default), or 'Vpc' for a private registry reached "
            "through the job's VPC.")),
    _A("training_repository_credentials_provider_arn", attribute="training_repository_credentials_provider_arn",
       path=_IMAGE_CONFIG + ("TrainingRepositoryAuthConfig", "TrainingRepositoryCredentialsProviderArn"),
       only_with="training_repository_access_mode",
       doc=("The ARN of the Lambda function that returns the private registry's credentials (with "
            "training_repository_access_mode).")),
    _A("container_entry_point", attribute="container_entry_point", path=(_AS, "ContainerEntrypoint"),
       doc="The container's entry point in place of the image's, a list of strings."),
    _A("container_arguments", attribute="container_arguments", path=(_AS, "ContainerArguments"),
       doc="The arguments of the container's entry point, a list of strings."),
    _A("disable_output_compression", False, "output_compression", ("OutputDataConfig", "CompressionType"), copied=False,
       sends="NONE", described_absent="GZIP",
       doc="Upload the model artifacts as they are, not packed into model.tar.gz."),
    _A("enable_infra_check", attribute="enable_infra_check", path=("InfraCheckConfig", "EnableInfraCheck"),
       described_absent=False,
       doc="Run the service's infrastructure health checks on the instances before the job starts."),
    _A("enable_remote_debug", attribute="enable_remote_debug", path=("RemoteDebugConfig", "EnableRemoteDebug"),
       described_absent=False,
       doc=("Allow remote debugging of the running containers; enable_remote_debug() and "
            "disable_remote_debug() change it later.")),
    _A("enable_session_tag_chaining", attribute="enable_session_tag_chaining",
       path=("SessionChainingConfig", "EnableSessionTagChaining"), described_absent=False,
       doc="Pass the session's tags on to the role the job assumes."),
    _A("training_plan", attribute="training_plan", path=("ResourceConfig", "TrainingPlanArn"),
       doc="The ARN of a training plan whose reserved capacity the job runs on."),
    _A("instance_placement_config", attribute="instance_placement_config",
       path=("ResourceConfig", "InstancePlacementConfig"),
       doc="Where the instances are placed: an InstancePlacementConfig request dict."),
    _A("job_name", falsy_is_not_given=True,
       doc=("The job's name; default: base_job_name and a timestamp. fit(job_name=...) replaces it. "
            "Not in the SDK v2, which takes it in fit() only.")),
    _A("capacity_wait", 0, "capacity_wait",
       doc=("Seconds to wait, when every instance group's choice has failed for capacity, before the first "
            "choices are tried again (docs/capacity.md); 0 does not wait. Never sent.")),
    _A("capacity_attempts", attribute="capacity_attempts",
       doc=("The most jobs a submission makes for capacity reasons (docs/capacity.md); default: one per "
            "choice of the instance groups. Never sent.")),
    _A("framework_version", attribute="framework_version", takes=FRAMEWORKS,
       doc=("The framework's version, e.g. '2.1.0', which chooses the Deep Learning Container; "
            "needed without image_uri.")),
    _A("py_version", attribute="py_version", takes=FRAMEWORKS,
       doc="The container's Python version, e.g. 'py310'; needed without image_uri."),
    _A("distribution", takes=FRAMEWORKS,
       doc=("The distributed launcher, e.g. {'torch_distributed': {'enabled': True}}. With instance "
            "groups, its 'instance_groups' names the one group that runs it.")),
    _A("model_dir", takes=TENSORFLOW,
       doc=("Where the script saves its model, passed as --model_dir: default "
            "s3://{output_path}/{job name}/model (/opt/ml/model under MPI); False passes none.")),
    _A("experiment_config", attribute="experiment_config", path=("ExperimentConfig",), copied=False, takes=FIT,
       doc=("The SageMaker Experiments run the job belongs to: a dict of ExperimentName, TrialName, "
            "TrialComponentDisplayName and RunName.")),
)

BY_NAME = dict((a.name, a) for a in ARGUMENTS)
_SETTINGS = tuple(a for a in ARGUMENTS if a.setting)


def takes(argument, framework):
    """Whether the estimator of ``framework`` (None: the generic Estimator) takes ``argument``."""
    if argument.takes == FRAMEWORKS:
        return framework is not None
    if argument.takes == TENSORFLOW:
        return framework == "tensorflow"
    return argument.takes == ALL


def settings_default(argument):
    """The value of a setting not given at all (a CLI spec without it): None as it stands for."""
    if argument.default is None and argument.none_means is not None:
        return argument.none_means
    return argument.default


def job_default(argument):
    """The default of the argument's Job attribute: its setting's when copied as given, else None."""
    return settings_default(argument) if argument.copied else None


#: Every estimator setting, as the SageMaker Python SDK v2 names it.
ESTIMATOR_FIELDS = tuple(a.name for a in _SETTINGS if a.takes != FIT)
#: Arguments the SDK v2 tests for truth: an empty one ("", 0, False, []) is not given.
FALSY_IS_NOT_GIVEN = tuple(a.name for a in _SETTINGS if a.falsy_is_not_given)
#: ``{argument: what None stands for}``: flags the SDK v2 turns from None to False when the
#: defaults configuration does not set them.
NONE_MEANS = dict((a.name, a.none_means) for a in _SETTINGS if a.none_means is not None)
#: ``(Job attribute, the argument it is)`` of the arguments the model keeps as they were given.
AS_GIVEN = tuple((a.attribute, a.name) for a in _SETTINGS if a.attribute is not None and a.copied)
#: ``(Job attribute, the argument, the value it holds when the argument is true)`` of the flags
#: sent as a value (the SDK v2's ``disable_output_compression=True`` sends ``CompressionType: NONE``).
FLAGS = tuple((a.attribute, a.name, a.sends) for a in _SETTINGS if a.sends is not None)
#: Job attribute -> the user's argument it comes from (for problems).
ARGUMENT = dict((a.attribute, a.name) for a in _SETTINGS if a.attribute is not None)
#: The request's plain fields, ``(wire path, Job attribute, when sent, only-with attribute)``: sent
#: always, when given or when true, and then only if the ``only with`` attribute is sent too.
FIELDS = tuple((a.path, a.attribute, a.when, BY_NAME[a.only_with].attribute if a.only_with else None)
               for a in _SETTINGS if a.path is not None)
#: ``(argument, path under SageMaker.TrainingJob)``: the arguments not given (None) that take their
#: value from the SageMaker defaults configuration, as the SDK v2's estimators do.
CONFIGURED = tuple((a.name, a.config) for a in _SETTINGS if a.config is not None)
#: ``(wire path, value)``: what a description holds at a field that was not sent (the service's value).
DESCRIBED_ABSENT = tuple((a.path, a.described_absent) for a in _SETTINGS
                         if a.path is not None and a.described_absent is not NOT_DESCRIBED)


# -- a channel's and an instance group's fields ----------------------------------------------

#: ``(path in the channel body, Channel attribute, TrainingInput argument)``; ``SOURCE`` stands for
#: the data source's key, whose member names :data:`SOURCES` gives.
SOURCE = "<source>"
CHANNEL_FIELDS = (
    (("DataSource", SOURCE, "S3DataType"), "data_type", "s3_data_type"),
    (("DataSource", SOURCE, "S3Uri"), "uri", "s3_data"),
    (("DataSource", SOURCE, "S3DataDistributionType"), "distribution", "distribution"),
    (("DataSource", SOURCE, "InstanceGroupNames"), "groups", "instance_groups"),
    (("DataSource", SOURCE, "AttributeNames"), "attribute_names", "attribute_names"),
    (("DataSource", SOURCE, "HubAccessConfig"), "hub_access_config", "hub_access_config"),
    (("DataSource", SOURCE, "ModelAccessConfig"), "model_access_config", "model_access_config"),
    (("CompressionType",), "compression", "compression"),
    (("ContentType",), "content_type", "content_type"),
    (("RecordWrapperType",), "record_wrapping", "record_wrapping"),
    (("InputMode",), "input_mode", "input_mode"),
    (("ShuffleConfig", "Seed"), "shuffle_seed", "shuffle_config"),
)
#: The data source of an S3 channel, and of a local run's ``file://`` channel (the SDK v2's local
#: mode shape; never sent to AWS): its key and the names its members take there (None: none).
SOURCES = {
    "S3DataSource": {},
    "FileDataSource": {"S3Uri": "FileUri", "S3DataDistributionType": "FileDataDistributionType",
                       "S3DataType": None, "AttributeNames": None, "HubAccessConfig": None, "ModelAccessConfig": None},
}
#: Channel attributes that hold lists (tuples in the model).
LIST_ATTRS = ("groups", "attribute_names")

#: ``(key in ResourceConfig.InstanceGroups[i], Group attribute, InstanceGroup argument)``
GROUP_FIELDS = (
    ("InstanceGroupName", "name", "instance_group_name"),
    ("InstanceType", "instance_type", "instance_type"),
    ("InstanceCount", "count", "instance_count"),
)


def data_source(uri, local=True):
    """The data source key of a channel at ``uri``: a local run's ``file://`` channel is a
    ``FileDataSource`` (as in the SDK v2's local mode), any other an ``S3DataSource``."""
    return "FileDataSource" if local and isinstance(uri, str) and uri.startswith("file://") else "S3DataSource"


def channel_fields(source):
    """``[(path in the channel body, Channel attribute, TrainingInput argument)]`` of a channel whose
    data source is ``source`` (:data:`CHANNEL_FIELDS` with the source's member names)."""
    names = SOURCES[source]
    out = []
    for sub, attr, arg in CHANNEL_FIELDS:
        if sub[:2] == ("DataSource", SOURCE):
            key = names.get(sub[2], sub[2])
            if key is None:
                continue
            sub = ("DataSource", source, key)
        out.append((sub, attr, arg))
    return out


def copied(value):
    """A container of the user's as a new one (a request owns its values)."""
    if isinstance(value, dict):
        return dict(value)
    return list(value) if isinstance(value, (list, tuple)) else value


def channel_body(channel, uri=None, local=True):
    """One channel's body as a request holds it, without ``ChannelName`` (``uri``: its URI, else the
    channel's own); what ``TrainingInput.config`` shows."""
    uri = channel.uri if uri is None else uri
    source = data_source(uri, local)
    body = {"DataSource": {source: {}}}
    for sub, attr, _ in channel_fields(source):
        value = uri if attr == "uri" else getattr(channel, attr)
        if value is not None:
            node = body
            for key in sub[:-1]:
                node = node.setdefault(key, {})
            node[sub[-1]] = copied(value)
    return body
