"""The job as the user described it: a frozen snapshot of an estimator's arguments plus ``fit``'s.

Nothing here checks or converts values: ``_build`` turns these settings into the job model.
"""
import attrs

from sagemaker_hetero import _defaults as D

__all__ = ["JobSettings", "ESTIMATOR_FIELDS"]

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
    "training_plan",
    "training_repository_access_mode",
    "training_repository_credentials_provider_arn",
    "enable_infra_check",
    "container_entry_point",
    "container_arguments",
    "enable_remote_debug",
    "enable_session_tag_chaining",
    "disable_output_compression",
    "instance_placement_config",
)


@attrs.frozen
class JobSettings(object):
    """Everything the user said about one training job.

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
    config_tags = attrs.field(default=None)  # the defaults configuration's, appended unless given
    model_uri = attrs.field(default=None)
    model_channel_name = attrs.field(default=D.MODEL_CHANNEL)
    enable_sagemaker_metrics = attrs.field(default=None)
    model_dir = attrs.field(default=None)
    job_name = attrs.field(default=None)
    training_plan = attrs.field(default=None)
    training_repository_access_mode = attrs.field(default=None)
    training_repository_credentials_provider_arn = attrs.field(default=None)
    enable_infra_check = attrs.field(default=None)
    container_entry_point = attrs.field(default=None)
    container_arguments = attrs.field(default=None)
    enable_remote_debug = attrs.field(default=None)
    enable_session_tag_chaining = attrs.field(default=None)
    disable_output_compression = attrs.field(default=False)
    instance_placement_config = attrs.field(default=None)
