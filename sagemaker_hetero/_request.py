"""The one module that knows the CreateTrainingJob wire format.

``render(settings, context)`` turns validated :class:`JobSettings` into the request dict passed
to ``create_training_job(**request)``. It is pure: region, bucket, role ARN, job name and the
clock's reading all arrive in the :class:`RenderContext`.
"""
import json
import posixpath
import re

import attrs

from sagemaker_hetero import _defaults as D
from sagemaker_hetero import _hyperparameters, _images
from sagemaker_hetero._settings import group_name

__all__ = [
    "RenderContext",
    "CodePlan",
    "render",
    "channel_config",
    "default_job_name",
    "code_plan",
    "image_for",
    "parse_s3_uri",
]


@attrs.frozen
class RenderContext(object):
    """What the request depends on outside the settings: account-, clock- and region-bound values."""

    region = attrs.field()
    default_bucket = attrs.field()
    role_arn = attrs.field()
    job_name = attrs.field()


@attrs.frozen
class CodePlan(object):
    """Where the code archive goes (``upload`` False when ``source_dir`` already is an S3 archive)."""

    s3_uri = attrs.field()
    upload = attrs.field()
    program = attrs.field()


def parse_s3_uri(uri):
    """``("bucket", "key/prefix")`` of ``s3://bucket/key/prefix``."""
    rest = uri[len("s3://"):]
    bucket, _, key = rest.partition("/")
    return bucket, key


def _join(*parts):
    """Join S3 key parts with single slashes (empty parts skipped)."""
    return "/".join(p.strip("/") for p in parts if p and p.strip("/"))


def image_for(settings, region):
    if settings.image_uri is not None:
        return settings.image_uri
    types = [g.instance_type for g in settings.instance_groups] if settings.is_hetero else [settings.instance_type]
    return _images.image_uri(
        settings.framework, settings.framework_version, settings.py_version, _images.processor_for(types), region
    )


def _base_name(settings, region):
    if settings.base_job_name:
        return settings.base_job_name
    image = image_for(settings, region)
    m = re.match(r"^(.+/)?([^:/]+)(:[^:]+)?$", image)
    base = m.group(2) if m else image
    base = re.sub(r"[^a-zA-Z0-9-]+", "-", base).strip("-")
    return base or "training-job"


def default_job_name(settings, region, timestamp):
    """``{base}-{timestamp}`` cut to 63 characters, as the SageMaker Python SDK v2 names jobs.

    ``timestamp`` is ``YYYY-MM-DD-HH-MM-SS-mmm``, read from the clock by the caller.
    """
    base = _base_name(settings, region)
    return "%s-%s" % (base[: D.MAX_JOB_NAME - len(timestamp) - 1], timestamp)


def code_plan(settings, job_name, default_bucket):
    """Where the code archive lives, or None when the job ships no code."""
    if not settings.has_code:
        return None
    if settings.source_dir is not None:
        program = settings.entry_point
    else:
        program = posixpath.basename(settings.entry_point.replace("\\", "/"))
    if settings.source_dir is not None and settings.source_dir.startswith("s3://"):
        return CodePlan(s3_uri=settings.source_dir, upload=False, program=program)
    if settings.code_location is not None:
        bucket, prefix = parse_s3_uri(settings.code_location)
    elif settings.output_path is not None and settings.output_path.startswith("s3://"):
        bucket, prefix = parse_s3_uri(settings.output_path)[0], ""
    else:
        bucket, prefix = default_bucket, ""
    key = _join(prefix, job_name, "source", D.CODE_ARCHIVE)
    return CodePlan(s3_uri="s3://%s/%s" % (bucket, key), upload=True, program=program)


def output_path(settings, default_bucket):
    return settings.output_path if settings.output_path is not None else "s3://%s/" % default_bucket


def channel_config(value, all_groups=None):
    """One channel's body (without ``ChannelName``) from a TrainingInput or a URI string."""
    from sagemaker_hetero.inputs import TrainingInput

    if isinstance(value, str):
        value = TrainingInput(s3_data=value)
    groups = value.instance_groups if value.instance_groups is not None else all_groups
    if isinstance(value.s3_data, str) and value.s3_data.startswith("file://"):
        # Local runs only (the SDK v2's local-mode shape); it keeps the channel's groups too.
        data = {"FileUri": value.s3_data, "FileDataDistributionType": value.distribution or D.S3_DISTRIBUTION}
        kind = "FileDataSource"
    else:
        data = {
            "S3DataType": value.s3_data_type,
            "S3Uri": value.s3_data,
            "S3DataDistributionType": value.distribution or D.S3_DISTRIBUTION,
        }
        kind = "S3DataSource"
    if groups is not None:
        data["InstanceGroupNames"] = [group_name(g) for g in groups]
    if value.attribute_names is not None and kind == "S3DataSource":
        data["AttributeNames"] = list(value.attribute_names)
    source = {kind: data}
    body = {"DataSource": source}
    if value.compression is not None:
        body["CompressionType"] = value.compression
    if value.content_type is not None:
        body["ContentType"] = value.content_type
    if value.record_wrapping is not None:
        body["RecordWrapperType"] = value.record_wrapping
    if value.input_mode is not None:
        body["InputMode"] = value.input_mode
    if value.shuffle_config is not None:
        body["ShuffleConfig"] = {"Seed": value.shuffle_config.seed}
    return body


def _channels(settings, code):
    from sagemaker_hetero.inputs import TrainingInput

    own = []
    if settings.model_uri is not None:
        model = TrainingInput(settings.model_uri, content_type=D.MODEL_CONTENT_TYPE, input_mode="File")
        own.append((settings.model_channel_name, model))
    if code is not None and settings.enable_network_isolation:
        own.append((D.CODE_CHANNEL, TrainingInput(code.s3_uri)))
    assigned = any(isinstance(v, TrainingInput) and v.instance_groups is not None for _, v in settings.channels)
    # D3: the SDK's own channels go to every group when the user's channels name groups, so the
    # request obeys the service's all-or-none rule.
    all_groups = [g.instance_group_name for g in settings.instance_groups] if assigned else None
    out = [dict({"ChannelName": name}, **channel_config(value)) for name, value in settings.channels]
    out.extend(dict({"ChannelName": name}, **channel_config(value, all_groups)) for name, value in own)
    return out


def _distribution_group_type(settings):
    dist = settings.distribution or {}
    refs = dist.get("instance_groups") if isinstance(dist, dict) else None
    if not settings.is_hetero:
        return None
    if refs:
        name = group_name(refs[0])
    elif len(settings.instance_groups) == 1:
        name = settings.instance_groups[0].instance_group_name
    else:
        return None
    for g in settings.instance_groups:
        if g.instance_group_name == name:
            return g.instance_type
    return None


def hyperparameters(settings, context, code):
    """The encoded hyperparameters: the user's, then the SDK's own."""
    encode = _hyperparameters.encoder(settings)
    raw = dict(settings.hyperparameters or {})
    if code is not None:
        submit = D.NETWORK_ISOLATION_SUBMIT_DIR if settings.enable_network_isolation else code.s3_uri
        raw["sagemaker_submit_directory"] = submit
        raw["sagemaker_program"] = code.program
        raw["sagemaker_container_log_level"] = settings.container_log_level
        raw["sagemaker_job_name"] = context.job_name
        raw["sagemaker_region"] = context.region
    extra = _hyperparameters.distribution_hyperparameters(settings, _distribution_group_type(settings))
    if settings.framework == "tensorflow" and settings.model_dir is not False:
        model_dir = settings.model_dir
        if model_dir is None:
            if extra.get("sagemaker_mpi_enabled"):
                model_dir = D.TF_MPI_MODEL_DIR
            else:
                model_dir = "s3://" + _join(output_path(settings, context.default_bucket)[5:], context.job_name, "model")
        extra["model_dir"] = model_dir
    encoded = {k: encode(v) for k, v in raw.items()}
    encoded.update({k: json.dumps(v) for k, v in extra.items()})
    return encoded


def _hook_config(value, default_output):
    if value is None or value is False:
        return None
    if value is True:
        return {"S3OutputPath": default_output}
    if hasattr(value, "_to_request_dict"):
        return value._to_request_dict()
    return dict(value)


def render(settings, context):
    """The CreateTrainingJob request for validated ``settings``."""
    s = settings
    code = code_plan(s, context.job_name, context.default_bucket)
    algorithm = {"TrainingInputMode": s.input_mode, "TrainingImage": image_for(s, context.region)}
    if s.metric_definitions:
        algorithm["MetricDefinitions"] = [dict(m) for m in s.metric_definitions]
    metrics = s.enable_sagemaker_metrics
    if metrics is None and s.framework is not None:
        metrics = True
    if metrics is not None:
        algorithm["EnableSageMakerMetricsTimeSeries"] = bool(metrics)
    out_path = output_path(s, context.default_bucket)
    output = {"S3OutputPath": out_path}
    if s.output_kms_key is not None:
        output["KmsKeyId"] = s.output_kms_key
    resource = {"VolumeSizeInGB": s.volume_size}
    if s.volume_kms_key is not None:
        resource["VolumeKmsKeyId"] = s.volume_kms_key
    if s.keep_alive_period_in_seconds is not None:
        resource["KeepAlivePeriodInSeconds"] = s.keep_alive_period_in_seconds
    if s.is_hetero:
        resource["InstanceGroups"] = [
            {"InstanceGroupName": g.instance_group_name, "InstanceType": g.instance_type, "InstanceCount": g.instance_count}
            for g in s.instance_groups
        ]
    else:
        resource["InstanceType"] = s.instance_type
        resource["InstanceCount"] = s.instance_count
    stopping = {"MaxRuntimeInSeconds": s.max_run}
    if s.max_wait is not None:
        stopping["MaxWaitTimeInSeconds"] = s.max_wait

    request = {
        "AlgorithmSpecification": algorithm,
        "OutputDataConfig": output,
        "TrainingJobName": context.job_name,
        "StoppingCondition": stopping,
        "ResourceConfig": resource,
        "RoleArn": context.role_arn,
    }
    channels = _channels(s, code)
    if channels:
        request["InputDataConfig"] = channels
    hps = hyperparameters(s, context, code)
    if hps:
        request["HyperParameters"] = hps
    if s.tags:
        from sagemaker_hetero._validate import tag_list

        request["Tags"] = tag_list(s.tags)
    if s.subnets and s.security_group_ids:
        request["VpcConfig"] = {"Subnets": list(s.subnets), "SecurityGroupIds": list(s.security_group_ids)}
    if s.enable_network_isolation:
        request["EnableNetworkIsolation"] = True
    if s.encrypt_inter_container_traffic:
        request["EnableInterContainerTrafficEncryption"] = True
    if s.use_spot_instances:
        request["EnableManagedSpotTraining"] = True
    if s.checkpoint_s3_uri is not None:
        checkpoint = {"S3Uri": s.checkpoint_s3_uri}
        if s.checkpoint_local_path is not None:
            checkpoint["LocalPath"] = s.checkpoint_local_path
        request["CheckpointConfig"] = checkpoint
    if s.experiment_config:
        request["ExperimentConfig"] = dict(s.experiment_config)
    hook = _hook_config(s.debugger_hook_config, out_path)
    if hook is not None:
        request["DebugHookConfig"] = hook
    profiler = _hook_config(s.profiler_config, out_path)
    if profiler is not None:
        request["ProfilerConfig"] = profiler
    if s.environment:
        request["Environment"] = dict(s.environment)
    if s.max_retry_attempts is not None:
        request["RetryStrategy"] = {"MaximumRetryAttempts": s.max_retry_attempts}
    return request
