"""The job as the user described it: a frozen snapshot of an estimator plus ``fit`` arguments.

Nothing here checks or converts values; ``_validate`` checks them, ``_request`` renders them.
"""
import attrs

from sagemaker_hetero import _defaults as D

__all__ = ["JobSettings", "ESTIMATOR_FIELDS", "group_name", "normalize_inputs", "NOT_GIVEN"]

NOT_GIVEN = object()

# Every estimator setting, as the SageMaker Python SDK v2 names it.
ESTIMATOR_FIELDS = (
    "role",
    "instance_groups",
    "instance_type",
    "instance_count",
    "volume_size",
    "volume_kms_key",
    "max_run",
    "input_mode",
    "output_path",
    "output_kms_key",
    "base_job_name",
    "hyperparameters",
    "tags",
    "subnets",
    "security_group_ids",
    "metric_definitions",
    "encrypt_inter_container_traffic",
    "use_spot_instances",
    "max_wait",
    "checkpoint_s3_uri",
    "checkpoint_local_path",
    "enable_network_isolation",
    "environment",
    "max_retry_attempts",
    "keep_alive_period_in_seconds",
    "entry_point",
    "source_dir",
    "dependencies",
    "code_location",
    "container_log_level",
    "image_uri",
    "framework_version",
    "py_version",
    "distribution",
    "debugger_hook_config",
    "profiler_config",
    "disable_profiler",
    "model_uri",
    "model_channel_name",
    "enable_sagemaker_metrics",
    "model_dir",
    "job_name",
)


@attrs.frozen
class JobSettings(object):
    """Everything needed to validate and render one CreateTrainingJob request.

    ``framework`` is ``None`` (generic Estimator), ``"pytorch"`` or ``"tensorflow"``;
    ``channels`` is a tuple of ``(name, str-or-TrainingInput)`` from ``fit(inputs)``.
    """

    framework = attrs.field(default=None)
    channels = attrs.field(default=())
    inputs_problem = attrs.field(default=None)
    experiment_config = attrs.field(default=None)
    role = attrs.field(default=None)
    instance_groups = attrs.field(default=None)
    instance_type = attrs.field(default=None)
    instance_count = attrs.field(default=None)
    volume_size = attrs.field(default=D.VOLUME_SIZE_GB)
    volume_kms_key = attrs.field(default=None)
    max_run = attrs.field(default=D.MAX_RUN_SECONDS)
    input_mode = attrs.field(default=D.INPUT_MODE)
    output_path = attrs.field(default=None)
    output_kms_key = attrs.field(default=None)
    base_job_name = attrs.field(default=None)
    hyperparameters = attrs.field(default=None)
    tags = attrs.field(default=None)
    subnets = attrs.field(default=None)
    security_group_ids = attrs.field(default=None)
    metric_definitions = attrs.field(default=None)
    encrypt_inter_container_traffic = attrs.field(default=False)
    use_spot_instances = attrs.field(default=False)
    max_wait = attrs.field(default=None)
    checkpoint_s3_uri = attrs.field(default=None)
    checkpoint_local_path = attrs.field(default=None)
    enable_network_isolation = attrs.field(default=False)
    environment = attrs.field(default=None)
    max_retry_attempts = attrs.field(default=None)
    keep_alive_period_in_seconds = attrs.field(default=None)
    entry_point = attrs.field(default=None)
    source_dir = attrs.field(default=None)
    dependencies = attrs.field(default=None)
    code_location = attrs.field(default=None)
    container_log_level = attrs.field(default=D.CONTAINER_LOG_LEVEL)
    image_uri = attrs.field(default=None)
    framework_version = attrs.field(default=None)
    py_version = attrs.field(default=None)
    distribution = attrs.field(default=None)
    debugger_hook_config = attrs.field(default=None)
    profiler_config = attrs.field(default=None)
    disable_profiler = attrs.field(default=False)
    model_uri = attrs.field(default=None)
    model_channel_name = attrs.field(default=D.MODEL_CHANNEL)
    enable_sagemaker_metrics = attrs.field(default=None)
    model_dir = attrs.field(default=None)
    job_name = attrs.field(default=None)

    @property
    def is_hetero(self):
        return self.instance_groups is not None

    @property
    def has_code(self):
        """True when the SDK ships a code archive (an entry point to run)."""
        return self.entry_point is not None or (self.framework is not None and self.source_dir is not None)


def group_name(ref):
    """The group name a reference stands for: a name, or an InstanceGroup's name."""
    name = getattr(ref, "instance_group_name", NOT_GIVEN)
    return ref if name is NOT_GIVEN else name


def normalize_inputs(inputs, default_channel=D.DEFAULT_CHANNEL):
    """``fit(inputs)`` as ``((name, value), ...)`` and a problem text (or None)."""
    from sagemaker_hetero.inputs import TrainingInput

    if inputs is None:
        return (), None
    if isinstance(inputs, (str, TrainingInput)):
        return ((default_channel, inputs),), None
    if isinstance(inputs, dict):
        return tuple(inputs.items()), None
    return (), "expected an S3 URI, a TrainingInput or a dict of channel name to either"
