"""A DescribeTrainingJob answer (or a CreateTrainingJob request) read back: the job model, and a
job's state. Pure: no I/O, no clock.

:func:`job_from_description` is :func:`~._request.render.render` backwards, for ``attach`` and a
local run of a given request: it reads the same field tables (``_model.arguments``: the plain
fields, a channel's and a group's), the SDK's own hyperparameters back into code, distribution and
TensorFlow's ``model_dir``, and the image back into framework and versions. :func:`value_at`,
:func:`image_of`, :func:`job_status` and :func:`status_summary` read single facts of a description.
"""
import re

from sagemaker_hetero import _defaults as D
from sagemaker_hetero import utils
from sagemaker_hetero._model import images, record
from sagemaker_hetero._model.arguments import FIELDS, GROUP_FIELDS, LIST_ATTRS, TRUE, channel_fields
from sagemaker_hetero._model.hyperparameters import decode
from sagemaker_hetero._model.job import CODE, INPUT, MODEL, Channel, Code, Distribution, Group, Job
from sagemaker_hetero._model.strategies import FLAG, PLAIN
from sagemaker_hetero._request.read_back import _groups_of, group_names, groups_of, image_of, value_at  # noqa: F401
from sagemaker_hetero._request.s3_uris import s3_key
from sagemaker_hetero.exceptions import ConfigError, Problem

__all__ = ["AUTO", "job_from_description", "value_at", "groups_of", "group_names", "image_framework", "image_of", "region_of",
           "job_status", "status_summary", "iso", "decoded"]

#: ``framework=AUTO``: tell the framework from the training image.
AUTO = "auto"

_DLC_IMAGE = re.compile(
    r"^(?P<account>\d{12})\.dkr\.ecr\.(?P<region>[a-z0-9-]+)\.amazonaws\.com(\.cn)?/"
    r"(?P<repository>[^:]+):(?P<version>\d[^-]*)-(?P<processor>cpu|gpu)-(?P<py_version>py\d+)$"
)


def image_framework(image):
    """``(framework, version, processor, py_version, region)`` of a deep learning container image URI
    (``framework`` ``"pytorch"`` or ``"tensorflow"``), else ``None``."""
    match = _DLC_IMAGE.match(image or "")
    if not match:
        return None
    facts = images.image_facts()
    for framework in ("pytorch", "tensorflow"):
        repositories = set(v["repository"] for v in facts[framework]["versions"].values())
        if match.group("repository") in repositories:
            return (framework, match.group("version"), match.group("processor"), match.group("py_version"),
                    match.group("region"))
    return None


def region_of(desc):
    """The region in the job's ARN (``arn:aws:sagemaker:REGION:...``), or ``None``."""
    arn = desc.get("TrainingJobArn")
    parts = arn.split(":") if isinstance(arn, str) else ()
    return parts[3] if len(parts) > 4 and parts[3] else None


def decoded(value):
    """A hyperparameter as the SDK encoded it, decoded (``_model.hyperparameters.decode``); one nested
    too deep for json's decoder, which recurses, is no value the SDK encoded: it is kept as it is."""
    try:
        return decode(value)
    except RecursionError:
        return value


def job_status(desc):
    """``(status, secondary status, last status message)`` of a description."""
    transitions = desc.get("SecondaryStatusTransitions") or []
    message = (transitions[-1].get("StatusMessage") or "") if transitions else ""
    return desc.get("TrainingJobStatus"), desc.get("SecondaryStatus"), message


def iso(value):
    if value is None:
        return None
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def status_summary(desc):
    """A job's state as plain JSON-ready data with snake_case keys (``sagemaker-hetero status``)."""
    status, secondary, message = job_status(desc)
    groups = groups_of(desc)
    return {
        "job_name": desc.get("TrainingJobName"),
        "status": status,
        "secondary_status": secondary,
        "message": message,
        "failure_reason": desc.get("FailureReason"),
        "terminal": status in D.TERMINAL_STATUSES,
        "creation_time": iso(desc.get("CreationTime")),
        "training_start_time": iso(desc.get("TrainingStartTime")),
        "training_end_time": iso(desc.get("TrainingEndTime")),
        "instance_groups": [{"name": n, "type": t, "count": c} for n, t, c in groups],
        "model_artifacts": value_at(desc, ("ModelArtifacts", "S3ModelArtifacts")),
        "arn": desc.get("TrainingJobArn"),
    }


def _read_channel(body, kind=INPUT):
    source = "FileDataSource" if "FileDataSource" in (body.get("DataSource") or {}) else "S3DataSource"
    values = {}
    for sub, attr, _ in channel_fields(source):
        value = value_at(body, sub)
        if value is not None:
            values[attr] = tuple(value) if attr in LIST_ATTRS else value
    name = body.get("ChannelName")
    return Channel(name=name, kind=kind, arg="inputs[%r]" % (name,), **dict({"uri": None}, **values))


def _distribution_of(hps, framework):
    """The :class:`Distribution` whose hyperparameters are in ``hps`` (decoded); pops them."""
    if framework is None:
        return None
    options = {}
    groups = hps.pop("sagemaker_distribution_instance_groups", None)
    hps.pop("sagemaker_instance_type", None)  # derived from the group's type again when rendered
    if FLAG["mpi"] in hps:
        mpi = {"enabled": bool(hps.pop(FLAG["mpi"]))}
        if "sagemaker_mpi_num_of_processes_per_host" in hps:
            mpi["processes_per_host"] = hps.pop("sagemaker_mpi_num_of_processes_per_host")
        custom = hps.pop("sagemaker_mpi_custom_mpi_options", "")
        if custom:
            mpi["custom_mpi_options"] = custom
        options["mpi"] = mpi
    if FLAG["smdistributed"] in hps or "mp_parameters" in hps:
        smdistributed = {}
        ddp = hps.pop(FLAG["smdistributed"], False)
        custom = hps.pop("sagemaker_distributed_dataparallel_custom_mpi_options", "")
        if "mp_parameters" in hps:
            smdistributed["modelparallel"] = {"enabled": True, "parameters": hps.pop("mp_parameters")}
        if ddp or "modelparallel" not in smdistributed:
            smdistributed["dataparallel"] = {"enabled": bool(ddp)}
            if custom:
                smdistributed["dataparallel"]["custom_mpi_options"] = custom
        options["smdistributed"] = smdistributed
    for key, strategy in PLAIN:
        if key in hps:
            options[strategy] = {"enabled": bool(hps.pop(key))}
    named = tuple(groups) if isinstance(groups, list) else ((groups,) if groups is not None else None)
    if not options and named is None:
        return None
    return Distribution(options, group=named[0] if named and len(named) == 1 else None, named=named)


def _framework_and_image(desc, framework, region, groups):
    """``(framework, framework_version, py_version, image_uri)``."""
    image = image_of(desc)
    parsed = image_framework(image)
    if framework == AUTO:
        framework = parsed[0] if parsed else None
    if framework is None:
        return None, None, None, image
    if parsed is None:
        return framework, None, None, image  # the framework's estimator with its own image
    if parsed[0] != framework:
        raise ConfigError([Problem(
            "training_job_name",
            "job %r ran a %s image; attach it with %s.attach" % (desc.get("TrainingJobName"), D.FRAMEWORK_LABELS[parsed[0]],
                                                                 D.FRAMEWORK_LABELS[parsed[0]]),
            image,
        )])
    _, version, _, py_version, image_region = parsed
    probe = Job(framework=framework, framework_version=version, py_version=py_version, groups=groups)
    try:
        same = image == images.training_image(probe, region or image_region)
    except images.ImageLookupError:
        same = False
    return framework, version, py_version, (None if same else image)


def job_from_description(desc, framework=AUTO, region=None, model_channel_name=D.MODEL_CHANNEL):
    """The :class:`Job` of a DescribeTrainingJob answer (or a CreateTrainingJob request).

    ``framework``: ``"pytorch"``, ``"tensorflow"``, ``None`` (the generic Estimator: the image as
    ``image_uri``) or :data:`AUTO` (from the image). ``region`` decides whether a deep learning
    container image is the one the versions give there (default: the job ARN's region). A channel
    named ``model_channel_name`` holding a model (``ContentType`` ``application/x-sagemaker-model``)
    is the model channel; the ``code`` channel of a network-isolated job carries the code.

    Raises :class:`ConfigError` if ``framework`` names another framework than the job's image.
    Tags are read from a request but are not part of a description.
    """
    job_name = desc.get("TrainingJobName")
    listed = _groups_of(desc) is not None
    groups = tuple(Group(n, t, c, arg="instance_groups[%d]" % i) if listed else Group(n, t, c)
                   for i, (n, t, c) in enumerate(groups_of(desc)))
    framework, version, py_version, image = _framework_and_image(desc, framework, region or region_of(desc), groups)
    values = dict(framework=framework, framework_version=version, py_version=py_version, image_uri=image,
                  heterogeneous=listed, groups=groups, output_path=value_at(desc, ("OutputDataConfig",
                                                                                                "S3OutputPath")),
                  role=desc.get("RoleArn"))
    values.update(_plain_fields(desc))
    submit = _hyperparameters_into(values, desc, job_name)
    values["channels"], values["code"] = _channels_of(desc, values["code"], submit, model_channel_name)
    values.update(_structures(desc))
    return Job(job_name=job_name, base_job_name=utils.base_from_name(job_name) if job_name else None, **values)


def _plain_fields(desc):
    """The Job attributes of the table's plain fields (a field left out: the attribute's default)."""
    values = {}
    defaults = record.fields_dict(Job)
    for path, attr, when, _ in FIELDS:
        value = value_at(desc, path)
        if when == TRUE:
            value = value if value else defaults[attr].default
        elif value is None:
            value = defaults[attr].default
        values[attr] = dict(value) if isinstance(value, dict) else value
    return values


def _hyperparameters_into(values, desc, job_name):
    """Put the user's hyperparameters, the code, the distribution and TensorFlow's ``model_dir`` read
    from the SDK's own hyperparameters into ``values``; returns ``sagemaker_submit_directory``."""
    framework = values["framework"]
    raw = dict(desc.get("HyperParameters") or {})
    has_code = "sagemaker_program" in raw
    json_encoded = framework is not None or has_code
    sdk = dict((k, decoded(v)) for k, v in raw.items()) if json_encoded else {}
    code = submit = None
    if has_code:
        submit = sdk.pop("sagemaker_submit_directory", None)
        code = Code(entry_point=sdk.pop("sagemaker_program"), source_dir=submit,
                    log_level=sdk.pop("sagemaker_container_log_level", D.CONTAINER_LOG_LEVEL))
        sdk.pop("sagemaker_job_name", None)
        sdk.pop("sagemaker_region", None)
    distribution = _distribution_of(sdk, framework)
    if framework == "tensorflow":
        mpi = bool(distribution and distribution.enabled("mpi"))
        values["model_dir"] = _model_dir(sdk, values["output_path"], job_name, mpi)
    kept = set(sdk) if json_encoded else set(raw)
    values.update(hyperparameters=tuple((k, v) for k, v in raw.items() if k in kept), json_hyperparameters=json_encoded,
                  distribution=distribution, code=code)
    return submit


def _channels_of(desc, code, submit, model_channel_name):
    """``(channels, code)``: the channels, the model's and an isolated job's code channel among them
    (whose URI is the code's)."""
    channels = []
    isolated_code = bool(desc.get("EnableNetworkIsolation")) and submit == D.NETWORK_ISOLATION_SUBMIT_DIR
    for body in desc.get("InputDataConfig") or ():
        name = body.get("ChannelName")
        if isolated_code and name == D.CODE_CHANNEL:
            channel = _read_channel(body, CODE)
            code = record.evolve(code, source_dir=channel.uri)
            channel = record.evolve(channel, uri=None, arg="source_dir", plain=True)
        elif name == model_channel_name and body.get("ContentType") == D.MODEL_CONTENT_TYPE:
            channel = record.evolve(_read_channel(body, MODEL), arg="model_uri", plain=True)
        else:
            channel = _read_channel(body)
        channels.append(channel)
    return tuple(channels), code


def _structures(desc):
    """The Job attributes of the request's structures: metrics, VPC, debugger and profiler, tags
    (a request's; a description has none) and environment."""
    values = {}
    if value_at(desc, ("AlgorithmSpecification", "MetricDefinitions")):
        values["metric_definitions"] = tuple(dict(m) for m in desc["AlgorithmSpecification"]["MetricDefinitions"])
    vpc = desc.get("VpcConfig") or {}
    if vpc.get("Subnets") and vpc.get("SecurityGroupIds"):
        values["subnets"], values["security_group_ids"] = tuple(vpc["Subnets"]), tuple(vpc["SecurityGroupIds"])
    for key, attr in (("DebugHookConfig", "debugger_hook_config"), ("ProfilerConfig", "profiler_config")):
        if desc.get(key):
            values[attr] = dict(desc[key])
    if desc.get("Tags"):
        values["tags"] = tuple(dict(t) for t in desc["Tags"])
    if desc.get("Environment"):
        values["environment"] = tuple(desc["Environment"].items())
    return values


def _model_dir(hps, output_path, job_name, mpi):
    """TensorFlow's ``model_dir``: ``None`` for the default, ``False`` when left out."""
    if "model_dir" not in hps:
        return False
    value = hps.pop("model_dir")
    default = D.TF_MPI_MODEL_DIR if mpi else "s3://" + s3_key((output_path or "s3://")[5:], job_name, "model")
    return None if value == default else value
