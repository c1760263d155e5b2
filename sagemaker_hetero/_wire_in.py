"""The wire format read back: a DescribeTrainingJob answer as the settings that would produce it.

``_request`` renders settings into CreateTrainingJob key names; this module is its mirror, and the
only other module that knows those names. A DescribeTrainingJob answer repeats the request's keys,
so everything here also reads a rendered request. Pure: no I/O, no clock.

:func:`settings_from_description` is the named constructor behind ``Estimator.attach``; rendering its
result with the job's name gives the job's request back (``tests/test_attach.py`` checks this for
every conformance scenario).
"""
import json
import re

from sagemaker_hetero import _defaults as D
from sagemaker_hetero import _images, _request
from sagemaker_hetero._settings import JobSettings
from sagemaker_hetero.exceptions import ConfigError, Problem

__all__ = [
    "AUTO",
    "HOMOGENEOUS_GROUP",
    "settings_from_description",
    "instance_groups_of",
    "group_names",
    "image_framework",
    "training_image",
    "region_of",
    "job_status",
    "status_summary",
    "base_name",
]

#: ``framework=AUTO``: tell the framework from the training image.
AUTO = "auto"
#: The one group of a cluster without instance groups (as the training toolkit names it).
HOMOGENEOUS_GROUP = "homogeneousCluster"

_LABELS = {"pytorch": "PyTorch", "tensorflow": "TensorFlow", None: "Estimator"}
_TIMESTAMP = re.compile(r"-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}-\d{3}$")
_DLC_IMAGE = re.compile(
    r"^(?P<account>\d{12})\.dkr\.ecr\.(?P<region>[a-z0-9-]+)\.amazonaws\.com(\.cn)?/"
    r"(?P<repository>[^:]+):(?P<version>\d[^-]*)-(?P<processor>cpu|gpu)-(?P<py_version>py\d+)$"
)
_TERMINAL = ("Completed", "Failed", "Stopped")


# -- small readers -----------------------------------------------------------------------------


def instance_groups_of(desc):
    """The job's :class:`InstanceGroup` list in order, or ``None`` for a cluster without groups."""
    from sagemaker_hetero.instance_group import InstanceGroup

    groups = (desc.get("ResourceConfig") or {}).get("InstanceGroups")
    if not groups:
        return None
    return [InstanceGroup(g.get("InstanceGroupName"), g.get("InstanceType"), g.get("InstanceCount")) for g in groups]


def group_names(desc):
    """The job's instance group names; ``["homogeneousCluster"]`` for a cluster without groups."""
    groups = instance_groups_of(desc)
    if groups is None:
        return [HOMOGENEOUS_GROUP]
    return [g.instance_group_name for g in groups]


def image_framework(image):
    """``(framework, version, processor, py_version, region)`` of a deep learning container image URI
    (``framework`` ``"pytorch"`` or ``"tensorflow"``), else ``None``."""
    match = _DLC_IMAGE.match(image or "")
    if not match:
        return None
    facts = _images.image_facts()
    for framework in ("pytorch", "tensorflow"):
        repositories = set(v["repository"] for v in facts[framework]["versions"].values())
        if match.group("repository") in repositories:
            return (
                framework,
                match.group("version"),
                match.group("processor"),
                match.group("py_version"),
                match.group("region"),
            )
    return None


def training_image(desc):
    """The job's training image URI."""
    return (desc.get("AlgorithmSpecification") or {}).get("TrainingImage")


def region_of(desc):
    """The region in the job's ARN (``arn:aws:sagemaker:REGION:...``), or ``None``."""
    parts = (desc.get("TrainingJobArn") or "").split(":")
    return parts[3] if len(parts) > 4 and parts[3] else None


def base_name(job_name):
    """A job name without the timestamp a default name ends with (the SDK v2's ``base_from_name``)."""
    return _TIMESTAMP.sub("", job_name) or job_name


def job_status(desc):
    """``(status, secondary status, last status message)`` of a description."""
    transitions = desc.get("SecondaryStatusTransitions") or []
    message = (transitions[-1].get("StatusMessage") or "") if transitions else ""
    return desc.get("TrainingJobStatus"), desc.get("SecondaryStatus"), message


def _iso(value):
    if value is None:
        return None
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def status_summary(desc):
    """A job's state as plain JSON-ready data with snake_case keys (``sagemaker-hetero status``)."""
    status, secondary, message = job_status(desc)
    groups = instance_groups_of(desc)
    resource = desc.get("ResourceConfig") or {}
    if groups is None:
        cluster = [{"name": HOMOGENEOUS_GROUP, "type": resource.get("InstanceType"), "count": resource.get("InstanceCount")}]
    else:
        cluster = [{"name": g.instance_group_name, "type": g.instance_type, "count": g.instance_count} for g in groups]
    return {
        "job_name": desc.get("TrainingJobName"),
        "status": status,
        "secondary_status": secondary,
        "message": message,
        "failure_reason": desc.get("FailureReason"),
        "terminal": status in _TERMINAL,
        "creation_time": _iso(desc.get("CreationTime")),
        "training_start_time": _iso(desc.get("TrainingStartTime")),
        "training_end_time": _iso(desc.get("TrainingEndTime")),
        "instance_groups": cluster,
        "model_artifacts": (desc.get("ModelArtifacts") or {}).get("S3ModelArtifacts"),
        "arn": desc.get("TrainingJobArn"),
    }


# -- the settings of a described job -----------------------------------------------------------


def _channel(body):
    """``TrainingInput`` of one channel body (the reverse of ``_request.channel_config``)."""
    from sagemaker_hetero.inputs import ShuffleConfig, TrainingInput

    source = body.get("DataSource") or {}
    kwargs = {}
    if "FileDataSource" in source:  # a local run's channel
        data = source["FileDataSource"]
        kwargs["s3_data"] = data.get("FileUri")
        kwargs["distribution"] = data.get("FileDataDistributionType")
    else:
        data = source.get("S3DataSource") or {}
        kwargs["s3_data"] = data.get("S3Uri")
        kwargs["distribution"] = data.get("S3DataDistributionType")
        kwargs["s3_data_type"] = data.get("S3DataType", D.S3_DATA_TYPE)
        if data.get("AttributeNames") is not None:
            kwargs["attribute_names"] = list(data["AttributeNames"])
    if data.get("InstanceGroupNames") is not None:
        kwargs["instance_groups"] = list(data["InstanceGroupNames"])
    for key, name in (
        ("CompressionType", "compression"),
        ("ContentType", "content_type"),
        ("RecordWrapperType", "record_wrapping"),
        ("InputMode", "input_mode"),
    ):
        if body.get(key) is not None:
            kwargs[name] = body[key]
    if body.get("ShuffleConfig") is not None:
        kwargs["shuffle_config"] = ShuffleConfig(body["ShuffleConfig"].get("Seed"))
    return TrainingInput(**kwargs)


def _decode(value):
    try:
        return json.loads(value)
    except (TypeError, ValueError):
        return value


def _distribution(hps, framework):
    """The ``distribution`` argument whose hyperparameters are in ``hps`` (decoded); pops them."""
    if framework is None:
        return None
    dist = {}
    groups = hps.pop("sagemaker_distribution_instance_groups", None)
    hps.pop("sagemaker_instance_type", None)  # derived from the group's type again when rendered
    if "sagemaker_mpi_enabled" in hps:
        mpi = {"enabled": bool(hps.pop("sagemaker_mpi_enabled"))}
        if "sagemaker_mpi_num_of_processes_per_host" in hps:
            mpi["processes_per_host"] = hps.pop("sagemaker_mpi_num_of_processes_per_host")
        options = hps.pop("sagemaker_mpi_custom_mpi_options", "")
        if options:
            mpi["custom_mpi_options"] = options
        dist["mpi"] = mpi
    if "sagemaker_distributed_dataparallel_enabled" in hps or "mp_parameters" in hps:
        smdistributed = {}
        ddp = hps.pop("sagemaker_distributed_dataparallel_enabled", False)
        options = hps.pop("sagemaker_distributed_dataparallel_custom_mpi_options", "")
        if "mp_parameters" in hps:
            smdistributed["modelparallel"] = {"enabled": True, "parameters": hps.pop("mp_parameters")}
        if ddp or "modelparallel" not in smdistributed:
            smdistributed["dataparallel"] = {"enabled": bool(ddp)}
            if options:
                smdistributed["dataparallel"]["custom_mpi_options"] = options
        dist["smdistributed"] = smdistributed
    for key, strategy in (
        ("sagemaker_torch_distributed_enabled", "torch_distributed"),
        ("sagemaker_pytorch_xla_multi_worker_enabled", "pytorchxla"),
        ("sagemaker_parameter_server_enabled", "parameter_server"),
        ("sagemaker_multi_worker_mirrored_strategy_enabled", "multi_worker_mirrored_strategy"),
    ):
        if key in hps:
            dist[strategy] = {"enabled": bool(hps.pop(key))}
    if groups is not None:
        dist["instance_groups"] = list(groups) if isinstance(groups, list) else [groups]
    return dist or None


def _framework_and_image(desc, framework, region, groups, instance_type):
    """``(framework, framework_version, py_version, image_uri)``."""
    image = training_image(desc)
    parsed = image_framework(image)
    if framework == AUTO:
        framework = parsed[0] if parsed else None
    if framework is None:
        return None, None, None, image
    if parsed is None:
        return framework, None, None, image  # the framework's estimator with its own image
    if parsed[0] != framework:
        raise ConfigError(
            [
                Problem(
                    "training_job_name",
                    "job %r ran a %s image; attach it with %s.attach"
                    % (desc.get("TrainingJobName"), _LABELS[parsed[0]], _LABELS[parsed[0]]),
                    image,
                )
            ]
        )
    _, version, _, py_version, image_region = parsed
    types = [g.instance_type for g in groups] if groups is not None else [instance_type]
    try:
        same = image == _images.image_uri(
            framework, version, py_version, _images.processor_for(types), region or image_region
        )
    except _images.ImageLookupError:
        same = False
    return framework, version, py_version, (None if same else image)


def _model_dir(hps, framework, output_path, job_name, mpi):
    """TensorFlow's ``model_dir`` argument: ``None`` for the default, ``False`` when left out."""
    if framework != "tensorflow":
        return None
    if "model_dir" not in hps:
        return False
    value = hps.pop("model_dir")
    default = D.TF_MPI_MODEL_DIR if mpi else "s3://" + _request._join((output_path or "s3://")[5:], job_name, "model")
    return None if value == default else value


def settings_from_description(desc, framework=AUTO, region=None, model_channel_name=D.MODEL_CHANNEL):
    """The :class:`JobSettings` that render the described job's request (its name included).

    ``desc`` is a DescribeTrainingJob answer (or a CreateTrainingJob request). ``framework`` is
    ``"pytorch"``, ``"tensorflow"``, ``None`` (the generic Estimator: the image as ``image_uri``) or
    :data:`AUTO` (from the image). ``region`` decides whether a deep learning container image is the
    one the versions give there (default: the job ARN's region). A channel named
    ``model_channel_name`` holding a model (``ContentType`` ``application/x-sagemaker-model``)
    becomes ``model_uri``; the ``code`` channel of a network-isolated job becomes ``source_dir``.

    Raises :class:`ConfigError` if ``framework`` names another framework than the job's image.
    Tags are read from a request but are not part of a description (``attach`` cannot restore them).
    """
    job_name = desc.get("TrainingJobName")
    region = region or region_of(desc)
    algorithm = desc.get("AlgorithmSpecification") or {}
    resource = desc.get("ResourceConfig") or {}
    stopping = desc.get("StoppingCondition") or {}
    output = desc.get("OutputDataConfig") or {}
    groups = instance_groups_of(desc)
    values = {}
    if groups is not None:
        values["instance_groups"] = groups
    else:
        values["instance_type"] = resource.get("InstanceType")
        values["instance_count"] = resource.get("InstanceCount")
    framework, version, py_version, image = _framework_and_image(
        desc, framework, region, groups, values.get("instance_type")
    )
    values.update(framework_version=version, py_version=py_version, image_uri=image)

    raw = dict(desc.get("HyperParameters") or {})
    has_code = "sagemaker_program" in raw
    json_encoded = framework is not None or has_code
    hps = {k: _decode(v) for k, v in raw.items()} if json_encoded else raw
    channels = [(body.get("ChannelName"), body) for body in desc.get("InputDataConfig") or []]
    if has_code:
        values["entry_point"] = hps.pop("sagemaker_program")
        submit = hps.pop("sagemaker_submit_directory", None)
        if desc.get("EnableNetworkIsolation") and submit == D.NETWORK_ISOLATION_SUBMIT_DIR:
            code = [body for name, body in channels if name == D.CODE_CHANNEL]
            if code:
                channels = [(n, b) for n, b in channels if n != D.CODE_CHANNEL]
                submit = _channel(code[0]).s3_data
        values["source_dir"] = submit
        if "sagemaker_container_log_level" in hps:
            values["container_log_level"] = hps.pop("sagemaker_container_log_level")
        hps.pop("sagemaker_job_name", None)
        hps.pop("sagemaker_region", None)
    distribution = _distribution(hps, framework)
    if distribution is not None:
        values["distribution"] = distribution
    values["output_path"] = output.get("S3OutputPath")
    mpi = bool(distribution and (distribution.get("mpi") or {}).get("enabled"))
    model_dir = _model_dir(hps, framework, values["output_path"], job_name, mpi)
    if model_dir is not None:
        values["model_dir"] = model_dir
    values["hyperparameters"] = hps

    model = [body for name, body in channels if name == model_channel_name and body.get("ContentType") == D.MODEL_CONTENT_TYPE]
    if model:
        channels = [(n, b) for n, b in channels if n != model_channel_name]
        values["model_uri"] = _channel(model[0]).s3_data
    values["model_channel_name"] = model_channel_name

    values["role"] = desc.get("RoleArn")
    values["input_mode"] = algorithm.get("TrainingInputMode", D.INPUT_MODE)
    if algorithm.get("MetricDefinitions"):
        values["metric_definitions"] = [dict(m) for m in algorithm["MetricDefinitions"]]
    metrics = algorithm.get("EnableSageMakerMetricsTimeSeries")
    if metrics is not None and not (framework is not None and metrics):
        values["enable_sagemaker_metrics"] = metrics
    for key, name in (("VolumeSizeInGB", "volume_size"), ("VolumeKmsKeyId", "volume_kms_key"),
                      ("KeepAlivePeriodInSeconds", "keep_alive_period_in_seconds")):
        if resource.get(key) is not None:
            values[name] = resource[key]
    values["max_run"] = stopping.get("MaxRuntimeInSeconds", D.MAX_RUN_SECONDS)
    if stopping.get("MaxWaitTimeInSeconds") is not None:
        values["max_wait"] = stopping["MaxWaitTimeInSeconds"]
    if output.get("KmsKeyId") is not None:
        values["output_kms_key"] = output["KmsKeyId"]
    vpc = desc.get("VpcConfig") or {}
    if vpc.get("Subnets") and vpc.get("SecurityGroupIds"):
        values["subnets"] = list(vpc["Subnets"])
        values["security_group_ids"] = list(vpc["SecurityGroupIds"])
    values["enable_network_isolation"] = bool(desc.get("EnableNetworkIsolation"))
    values["encrypt_inter_container_traffic"] = bool(desc.get("EnableInterContainerTrafficEncryption"))
    values["use_spot_instances"] = bool(desc.get("EnableManagedSpotTraining"))
    checkpoint = desc.get("CheckpointConfig") or {}
    if checkpoint.get("S3Uri") is not None:
        values["checkpoint_s3_uri"] = checkpoint["S3Uri"]
        values["checkpoint_local_path"] = checkpoint.get("LocalPath")
    for key, name in (("DebugHookConfig", "debugger_hook_config"), ("ProfilerConfig", "profiler_config")):
        if desc.get(key):
            values[name] = dict(desc[key])
    if desc.get("Tags"):  # a request's; a description has none
        values["tags"] = [dict(t) for t in desc["Tags"]]
    if desc.get("Environment"):
        values["environment"] = dict(desc["Environment"])
    retry = desc.get("RetryStrategy") or {}
    if retry.get("MaximumRetryAttempts") is not None:
        values["max_retry_attempts"] = retry["MaximumRetryAttempts"]
    return JobSettings(
        framework=framework,
        channels=tuple((name, _channel(body)) for name, body in channels),
        experiment_config=dict(desc["ExperimentConfig"]) if desc.get("ExperimentConfig") else None,
        job_name=job_name,
        base_job_name=base_name(job_name) if job_name else None,
        **values
    )

