"""The one module that knows the CreateTrainingJob wire format, both ways. Pure: no I/O, no clock.

:func:`render` writes a :class:`_model.Job` as the request passed to
``create_training_job(**request)``, and notes for every part of it which argument of the user's it
came from (``origins``), so a problem the service's rules find in the request is reported under
the user's own name (``tags[3].Key``, ``inputs['train'].s3_data``). :func:`job_from_description`
reads a DescribeTrainingJob answer (or a request) back into a Job. Both directions are driven by
the same field tables (:data:`FIELDS`, :data:`CHANNEL_FIELDS`, :data:`GROUP_FIELDS`), so a new field
is added in one place; the few parts with rules of their own (the image, the cluster, channels,
hyperparameters) sit next to each other below.
"""
import json
import re

import attrs

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model import hyperparameters as H
from sagemaker_hetero import utils
from sagemaker_hetero._model import images as _images
from sagemaker_hetero._request.s3_uris import s3_key
from sagemaker_hetero._model.arguments import ALWAYS, ARGUMENT, FIELDS, GIVEN, TRUE
from sagemaker_hetero._model.job import CODE, INPUT, MODEL, Channel, Code, Distribution, Group, Job
from sagemaker_hetero.exceptions import ConfigError, Problem

__all__ = [
    "AUTO",
    "Context",
    "Rendered",
    "FIELDS",
    "CHANNEL_FIELDS",
    "GROUP_FIELDS",
    "render",
    "channel_body",
    "user_path",
    "job_from_description",
    "group_names",
    "image_framework",
    "training_image",
    "region_of",
    "job_status",
    "status_summary",
    "value_at",
]

#: ``framework=AUTO``: tell the framework from the training image.
AUTO = "auto"

#: ``(path in the channel body, Channel attribute, TrainingInput argument)``; ``SOURCE`` stands for
#: the data source's key, whose member names :data:`_SOURCES` gives.
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
_SOURCES = {
    "S3DataSource": {},
    "FileDataSource": {"S3Uri": "FileUri", "S3DataDistributionType": "FileDataDistributionType",
                       "S3DataType": None, "AttributeNames": None, "HubAccessConfig": None, "ModelAccessConfig": None},
}
_LIST_ATTRS = ("groups", "attribute_names")

#: ``(key in ResourceConfig.InstanceGroups[i], Group attribute, InstanceGroup argument)``
GROUP_FIELDS = (
    ("InstanceGroupName", "name", "instance_group_name"),
    ("InstanceType", "instance_type", "instance_type"),
    ("InstanceCount", "count", "instance_count"),
)

_WHEN_OF = dict((attr, when) for _, attr, when, _ in FIELDS)
_FIXED_ORIGINS = {
    ("RoleArn",): "role",
    ("AlgorithmSpecification", "TrainingImage"): "image_uri",
    ("OutputDataConfig", "S3OutputPath"): "output_path",
    ("ResourceConfig", "InstanceType"): "instance_type",
    ("ResourceConfig", "InstanceCount"): "instance_count",
    ("ResourceConfig", "InstanceGroups"): "instance_groups",
    ("InputDataConfig",): "inputs",
    ("HyperParameters",): "hyperparameters",
    ("Tags",): "tags",
    ("Environment",): "environment",
    ("VpcConfig", "Subnets"): "subnets",
    ("VpcConfig", "SecurityGroupIds"): "security_group_ids",
    ("AlgorithmSpecification", "MetricDefinitions"): "metric_definitions",
    ("DebugHookConfig",): "debugger_hook_config",
    ("ProfilerConfig",): "profiler_config",
}
# The request's keys in the order the SDK v2 writes them first.
_HEAD = ("AlgorithmSpecification", "OutputDataConfig", "TrainingJobName", "StoppingCondition", "ResourceConfig", "RoleArn")


@attrs.frozen
class Context(object):
    """What the request depends on besides the job: region, job name, role ARN, where the output
    goes (the default bucket resolved), where the code archive lives (None: no code), and whether
    the job runs locally (``file://`` URIs are local then; for AWS they are S3 URIs gone wrong)."""

    region = attrs.field()
    job_name = attrs.field()
    role_arn = attrs.field()
    output_path = attrs.field()
    code_uri = attrs.field(default=None)
    local = attrs.field(default=False)  # a local run: file:// channels and output are read locally


@attrs.frozen
class Rendered(object):
    """A request; ``origins``: wire path tuple -> the user's argument it came from; ``skip``: paths
    holding local-only values (a local run's ``file://`` channels and output); ``given``: wire path
    -> the user's own value where the request holds one derived from it (a role name's ARN)."""

    request = attrs.field()
    origins = attrs.field()
    skip = attrs.field(default=())
    given = attrs.field(factory=dict)


class _Writer(object):
    def __init__(self):
        self.request = dict((key, None if key in ("TrainingJobName", "RoleArn") else {}) for key in _HEAD)
        # where a part that is left out (or missing) would have come from
        self.origins = dict((path, ARGUMENT[attr]) for path, attr, _, _ in FIELDS)
        self.origins.update(_FIXED_ORIGINS)
        self.skip = []
        # the user's own value where the request holds one derived from it (a role name's ARN)
        self.given = {}

    def put(self, path, value, arg):
        node = self.request
        for key in path[:-1]:
            node = node[key] if isinstance(node, list) else node.setdefault(key, {})
        node[path[-1]] = value
        self.origins[path] = arg


def _copied(value):
    """A container of the user's as a new one (the request owns its values)."""
    if isinstance(value, dict):
        return dict(value)
    return list(value) if isinstance(value, (list, tuple)) else value


def _when(when, value):
    return when == ALWAYS or (when == GIVEN and value is not None) or (when == TRUE and bool(value))


def render(job, context):
    """The request for ``job`` (a :class:`Rendered`). Parts that cannot be rendered (no training
    image for the versions given, a value that cannot be encoded) are left out: the checks report
    them, and a request is only sent when there is no problem."""
    w = _Writer()
    if job.job_name is None and job.base_job_name:  # a default name: problems are the base's
        w.put(("TrainingJobName",), context.job_name, "base_job_name")
        w.given[("TrainingJobName",)] = job.base_job_name
    else:
        w.put(("TrainingJobName",), context.job_name, "job_name")
    if context.role_arn is not None:
        w.put(("RoleArn",), context.role_arn, "role")
        w.given[("RoleArn",)] = job.role
    w.put(("AlgorithmSpecification", "TrainingInputMode"), job.input_mode, "input_mode")  # first, as the SDK v2
    try:
        image = _images.training_image(job, context.region)
    except _images.ImageLookupError:
        image = None
    if image is not None:
        w.put(("AlgorithmSpecification", "TrainingImage"), image, "image_uri" if job.image_uri is not None else "framework_version")
    if job.metric_definitions:
        path = ("AlgorithmSpecification", "MetricDefinitions")
        w.put(path, [dict(m) if isinstance(m, dict) else m for m in job.metric_definitions], "metric_definitions")
        for i in range(len(job.metric_definitions)):
            w.origins[path + (i,)] = "metric_definitions[%d]" % i
    w.put(("OutputDataConfig", "S3OutputPath"), context.output_path, "output_path")
    if context.local and _is_file_uri(context.output_path):
        w.skip.append(("OutputDataConfig", "S3OutputPath"))
    for path, attr, when, only_with in FIELDS:
        value = getattr(job, attr)
        if _when(when, value) and (only_with is None or _when(_WHEN_OF[only_with], getattr(job, only_with))):
            w.put(path, _copied(value), ARGUMENT[attr])
    _render_cluster(w, job)
    _render_channels(w, job, context)
    _render_hyperparameters(w, job, context)
    if job.tags:
        w.put(("Tags",), [dict(t) if isinstance(t, dict) else t for t in job.tags], "tags")
        for i in range(len(job.tags)):
            w.origins[("Tags", i)] = "tags[%d]" % i
            w.origins[("Tags", i, "Key")] = "tags[%d].Key" % i
            w.origins[("Tags", i, "Value")] = "tags[%d].Value" % i
    if job.subnets and job.security_group_ids:
        w.put(("VpcConfig", "Subnets"), list(job.subnets), "subnets")
        w.put(("VpcConfig", "SecurityGroupIds"), list(job.security_group_ids), "security_group_ids")
    for key, attr in (("DebugHookConfig", "debugger_hook_config"), ("ProfilerConfig", "profiler_config")):
        value = getattr(job, attr)
        if value is True:  # D2: sent only when asked for
            value = {"S3OutputPath": context.output_path}
        if value is not None:
            w.put((key,), dict(value), attr)
    if job.environment:
        w.put(("Environment",), dict(job.environment), "environment")
        for key, _ in job.environment:
            w.origins[("Environment", key)] = "environment[%r]" % (key,)
    if w.request["RoleArn"] is None:
        del w.request["RoleArn"]  # no role: the checks say it is required
    return Rendered(request=w.request, origins=w.origins, skip=tuple(w.skip), given=w.given)


def _render_cluster(w, job):
    if job.heterogeneous:
        w.put(("ResourceConfig", "InstanceGroups"), [], "instance_groups")
        for i, group in enumerate(job.groups):
            path = ("ResourceConfig", "InstanceGroups", i)
            w.request["ResourceConfig"]["InstanceGroups"].append(dict((key, getattr(group, attr)) for key, attr, _ in GROUP_FIELDS))
            w.origins[path] = group.arg
            for key, attr, arg in GROUP_FIELDS:
                w.origins[path + (key,)] = "%s.%s" % (group.arg, arg)
        return
    group = job.groups[0]
    for key, value, arg in (("InstanceType", group.instance_type, "instance_type"),
                            ("InstanceCount", group.count, "instance_count")):
        if value is not None:
            w.put(("ResourceConfig", key), value, arg)


def _is_file_uri(value):
    return isinstance(value, str) and value.startswith("file://")


def _channel_into(w, path, channel, uri, local=True):
    """Write one channel's body at ``path``, with the origins of its parts; a local run's
    ``file://`` channel is a ``FileDataSource`` (as in the SDK v2's local mode)."""
    source = "FileDataSource" if local and _is_file_uri(uri) else "S3DataSource"
    names = _SOURCES[source]
    w.put(path + ("DataSource",), {source: {}}, channel.arg)
    for sub, attr, arg in CHANNEL_FIELDS:
        if sub[:2] == ("DataSource", SOURCE):
            key = names.get(sub[2], sub[2])
            if key is None:
                continue
            sub = ("DataSource", source, key)
        origin = channel.arg if channel.plain else "%s.%s" % (channel.arg, arg)
        w.origins[path + sub] = origin
        value = uri if attr == "uri" else getattr(channel, attr)
        if value is not None:
            w.put(path + sub, _copied(value), origin)
    if source == "FileDataSource":
        w.skip.append(path + ("DataSource", source))


def channel_body(channel):
    """One channel's body (without ``ChannelName``), as in ``InputDataConfig``."""
    w = _Writer()
    _channel_into(w, ("channel",), channel, channel.uri)
    return w.request["channel"]


def _render_channels(w, job, context):
    if not job.channels:
        return
    w.put(("InputDataConfig",), [], "inputs")
    for i, channel in enumerate(job.channels):
        w.request["InputDataConfig"].append({})
        path = ("InputDataConfig", i)
        w.put(path + ("ChannelName",), channel.name, "model_channel_name" if channel.kind == MODEL else channel.arg)
        w.origins[path] = channel.arg
        _channel_into(w, path, channel, context.code_uri if channel.kind == CODE else channel.uri, context.local)


def _resolve(value, context):
    if value is H.JOB_NAME:
        return context.job_name
    if value is H.REGION:
        return context.region
    if value is H.CODE_URI:
        return context.code_uri
    if value is H.MODEL_DIR:
        return "s3://" + s3_key(str(context.output_path)[5:], context.job_name, "model")
    return value


def _render_hyperparameters(w, job, context):
    hps = {}
    origins = {}
    for key, value in job.hyperparameters:
        hps[key] = value
        origins[key] = "hyperparameters[%r]" % (key,)
    for key, value, arg in H.sdk_entries(job):
        try:
            hps[key] = H.encode(_resolve(value, context))
        except ValueError:
            continue  # reported by the checks
        origins[key] = arg
    if hps:
        w.put(("HyperParameters",), hps, "hyperparameters")
        for key, arg in origins.items():
            w.origins[("HyperParameters", key)] = arg


def user_path(origins, path):
    """The user's name for the wire ``path``: the longest prefix with an origin, then the rest."""
    for cut in range(len(path), -1, -1):
        base = origins.get(path[:cut])
        if base is not None:
            return base + "".join("[%d]" % p if isinstance(p, int) else "[%r]" % (p,) for p in path[cut:])
    return ".".join(str(p) for p in path) or "request"


# -- reading a description back ------------------------------------------------------------------

_DLC_IMAGE = re.compile(
    r"^(?P<account>\d{12})\.dkr\.ecr\.(?P<region>[a-z0-9-]+)\.amazonaws\.com(\.cn)?/"
    r"(?P<repository>[^:]+):(?P<version>\d[^-]*)-(?P<processor>cpu|gpu)-(?P<py_version>py\d+)$"
)


def value_at(desc, path):
    """The value at ``path`` (a tuple of keys) in a request or description, or None if it is not there."""
    node = desc
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _groups_of(desc):
    """``[(name, type, count)]`` of ResourceConfig.InstanceGroups, or None without instance groups."""
    groups = value_at(desc, ("ResourceConfig", "InstanceGroups"))
    if not groups:
        return None
    return [tuple(g.get(key) for key, _, _ in GROUP_FIELDS) for g in groups]


def group_names(desc):
    """The job's instance group names; ``["homogeneousCluster"]`` for a cluster without groups."""
    groups = _groups_of(desc)
    return [D.HOMOGENEOUS_GROUP] if groups is None else [g[0] for g in groups]


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
            return (framework, match.group("version"), match.group("processor"), match.group("py_version"),
                    match.group("region"))
    return None


def training_image(desc):
    """The job's training image URI."""
    return value_at(desc, ("AlgorithmSpecification", "TrainingImage"))


def region_of(desc):
    """The region in the job's ARN (``arn:aws:sagemaker:REGION:...``), or ``None``."""
    parts = (desc.get("TrainingJobArn") or "").split(":")
    return parts[3] if len(parts) > 4 and parts[3] else None


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
    groups = _groups_of(desc)
    if groups is None:
        groups = [(D.HOMOGENEOUS_GROUP, value_at(desc, ("ResourceConfig", "InstanceType")),
                   value_at(desc, ("ResourceConfig", "InstanceCount")))]
    return {
        "job_name": desc.get("TrainingJobName"),
        "status": status,
        "secondary_status": secondary,
        "message": message,
        "failure_reason": desc.get("FailureReason"),
        "terminal": status in D.TERMINAL_STATUSES,
        "creation_time": _iso(desc.get("CreationTime")),
        "training_start_time": _iso(desc.get("TrainingStartTime")),
        "training_end_time": _iso(desc.get("TrainingEndTime")),
        "instance_groups": [{"name": n, "type": t, "count": c} for n, t, c in groups],
        "model_artifacts": value_at(desc, ("ModelArtifacts", "S3ModelArtifacts")),
        "arn": desc.get("TrainingJobArn"),
    }


def _read_channel(body, kind=INPUT):
    source_key = "FileDataSource" if "FileDataSource" in (body.get("DataSource") or {}) else "S3DataSource"
    names = _SOURCES[source_key]
    values = {}
    for sub, attr, _ in CHANNEL_FIELDS:
        if sub[:2] == ("DataSource", SOURCE):
            key = names.get(sub[2], sub[2])
            if key is None:
                continue
            sub = ("DataSource", source_key, key)
        value = value_at(body, sub)
        if value is not None:
            values[attr] = tuple(value) if attr in _LIST_ATTRS else value
    name = body.get("ChannelName")
    return Channel(name=name, kind=kind, arg="inputs[%r]" % (name,), **dict({"uri": None}, **values))


def _decode(value):
    try:
        return json.loads(value)
    except (TypeError, ValueError):
        return value


def _distribution_of(hps, framework):
    """The :class:`Distribution` whose hyperparameters are in ``hps`` (decoded); pops them."""
    if framework is None:
        return None
    options = {}
    groups = hps.pop("sagemaker_distribution_instance_groups", None)
    hps.pop("sagemaker_instance_type", None)  # derived from the group's type again when rendered
    if "sagemaker_mpi_enabled" in hps:
        mpi = {"enabled": bool(hps.pop("sagemaker_mpi_enabled"))}
        if "sagemaker_mpi_num_of_processes_per_host" in hps:
            mpi["processes_per_host"] = hps.pop("sagemaker_mpi_num_of_processes_per_host")
        custom = hps.pop("sagemaker_mpi_custom_mpi_options", "")
        if custom:
            mpi["custom_mpi_options"] = custom
        options["mpi"] = mpi
    if "sagemaker_distributed_dataparallel_enabled" in hps or "mp_parameters" in hps:
        smdistributed = {}
        ddp = hps.pop("sagemaker_distributed_dataparallel_enabled", False)
        custom = hps.pop("sagemaker_distributed_dataparallel_custom_mpi_options", "")
        if "mp_parameters" in hps:
            smdistributed["modelparallel"] = {"enabled": True, "parameters": hps.pop("mp_parameters")}
        if ddp or "modelparallel" not in smdistributed:
            smdistributed["dataparallel"] = {"enabled": bool(ddp)}
            if custom:
                smdistributed["dataparallel"]["custom_mpi_options"] = custom
        options["smdistributed"] = smdistributed
    for key, strategy in (
        ("sagemaker_torch_distributed_enabled", "torch_distributed"),
        ("sagemaker_pytorch_xla_multi_worker_enabled", "pytorchxla"),
        ("sagemaker_parameter_server_enabled", "parameter_server"),
        ("sagemaker_multi_worker_mirrored_strategy_enabled", "multi_worker_mirrored_strategy"),
    ):
        if key in hps:
            options[strategy] = {"enabled": bool(hps.pop(key))}
    named = tuple(groups) if isinstance(groups, list) else ((groups,) if groups is not None else None)
    if not options and named is None:
        return None
    return Distribution(options, group=named[0] if named and len(named) == 1 else None, named=named)


def _framework_and_image(desc, framework, region, groups):
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
        raise ConfigError([Problem(
            "training_job_name",
            "job %r ran a %s image; attach it with %s.attach" % (desc.get("TrainingJobName"), D.FRAMEWORK_LABELS[parsed[0]],
                                                                 D.FRAMEWORK_LABELS[parsed[0]]),
            image,
        )])
    _, version, _, py_version, image_region = parsed
    probe = Job(framework=framework, framework_version=version, py_version=py_version, groups=groups)
    try:
        same = image == _images.training_image(probe, region or image_region)
    except _images.ImageLookupError:
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
    region = region or region_of(desc)
    listed = _groups_of(desc)
    if listed is None:
        resource = desc.get("ResourceConfig") or {}
        groups = (Group(D.HOMOGENEOUS_GROUP, resource.get("InstanceType"), resource.get("InstanceCount")),)
    else:
        groups = tuple(Group(n, t, c, arg="instance_groups[%d]" % i) for i, (n, t, c) in enumerate(listed))
    framework, version, py_version, image = _framework_and_image(desc, framework, region, groups)
    values = dict(framework=framework, framework_version=version, py_version=py_version, image_uri=image,
                  heterogeneous=listed is not None, groups=groups)
    defaults = attrs.fields_dict(Job)
    for path, attr, when, _ in FIELDS:
        value = value_at(desc, path)
        if when == TRUE:
            value = value if value else defaults[attr].default
        elif value is None:
            value = defaults[attr].default
        values[attr] = dict(value) if isinstance(value, dict) else value
    values["output_path"] = value_at(desc, ("OutputDataConfig", "S3OutputPath"))
    values["role"] = desc.get("RoleArn")

    raw = dict(desc.get("HyperParameters") or {})
    has_code = "sagemaker_program" in raw
    json_encoded = framework is not None or has_code
    sdk = dict((k, _decode(v)) for k, v in raw.items()) if json_encoded else {}
    code = None
    submit = None
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
    values["hyperparameters"] = tuple((k, v) for k, v in raw.items() if k in kept)
    values["json_hyperparameters"] = json_encoded
    values["distribution"] = distribution

    channels = []
    isolated_code = bool(desc.get("EnableNetworkIsolation")) and submit == D.NETWORK_ISOLATION_SUBMIT_DIR
    for body in desc.get("InputDataConfig") or ():
        name = body.get("ChannelName")
        if isolated_code and name == D.CODE_CHANNEL:
            channel = _read_channel(body, CODE)
            code = attrs.evolve(code, source_dir=channel.uri)
            channel = attrs.evolve(channel, uri=None, arg="source_dir", plain=True)
        elif name == model_channel_name and body.get("ContentType") == D.MODEL_CONTENT_TYPE:
            channel = attrs.evolve(_read_channel(body, MODEL), arg="model_uri", plain=True)
        else:
            channel = _read_channel(body)
        channels.append(channel)
    values["channels"] = tuple(channels)
    values["code"] = code

    if value_at(desc, ("AlgorithmSpecification", "MetricDefinitions")):
        values["metric_definitions"] = tuple(dict(m) for m in desc["AlgorithmSpecification"]["MetricDefinitions"])
    vpc = desc.get("VpcConfig") or {}
    if vpc.get("Subnets") and vpc.get("SecurityGroupIds"):
        values["subnets"], values["security_group_ids"] = tuple(vpc["Subnets"]), tuple(vpc["SecurityGroupIds"])
    for key, attr in (("DebugHookConfig", "debugger_hook_config"), ("ProfilerConfig", "profiler_config")):
        if desc.get(key):
            values[attr] = dict(desc[key])
    if desc.get("Tags"):  # a request's; a description has none
        values["tags"] = tuple(dict(t) for t in desc["Tags"])
    if desc.get("Environment"):
        values["environment"] = tuple(desc["Environment"].items())
    return Job(job_name=job_name, base_job_name=utils.base_from_name(job_name) if job_name else None, **values)


def _model_dir(hps, output_path, job_name, mpi):
    """TensorFlow's ``model_dir``: ``None`` for the default, ``False`` when left out."""
    if "model_dir" not in hps:
        return False
    value = hps.pop("model_dir")
    default = D.TF_MPI_MODEL_DIR if mpi else "s3://" + s3_key((output_path or "s3://")[5:], job_name, "model")
    return None if value == default else value
