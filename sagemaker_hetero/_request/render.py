"""The CreateTrainingJob request, rendered once from the job model. Pure: no I/O, no clock.

:func:`render` writes a :class:`~._model.job.Job` as the request passed to
``create_training_job(**request)``, and notes for every part of it which argument of the user's it
came from (``origins``), so a problem the service's rules find in the request is reported under
the user's own name (``tags[3].Key``, ``inputs['train'].s3_data``; :func:`user_path`). The plain
fields come from the table of arguments (``_model.arguments.FIELDS``), a channel's and a group's
from their field tables there, which ``_request.describe`` reads back; the few parts with rules of
their own (the image, the cluster, channels, hyperparameters) sit next to each other below.
:class:`Writer` writes a request with its origins (the tuning request's writer too).
"""
from sagemaker_hetero._model import hyperparameters as H
from sagemaker_hetero._model import images, record, variables
from sagemaker_hetero._model.arguments import (ALWAYS, ARGUMENT, FIELDS, GIVEN, GROUP_FIELDS, TRUE, channel_fields, copied,
                                               data_source)
from sagemaker_hetero._model.job import CODE, MODEL
from sagemaker_hetero._model.settings import model_class
from sagemaker_hetero._request.s3_uris import s3_key

__all__ = ["Context", "Rendered", "Writer", "render", "user_path"]

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


@model_class
class Context(object):
    """What the request depends on besides the job: region, job name, role ARN, where the output
    goes (the default bucket resolved), where the code archive lives (None: no code), and the facts
    it is rendered with (``_request.plan.Facts``; None: an AWS session's): whether the job runs on
    this machine is theirs (``Facts.local``: ``file://`` URIs are local then; for AWS they are S3 URIs
    gone wrong), read where the request's shape differs (:func:`_runs_here`)."""

    region = record.field()
    job_name = record.field()
    role_arn = record.field()
    output_path = record.field()
    code_uri = record.field(default=None)
    facts = record.field(default=None, repr=False)
    #: the training image, as the plan resolved it once (None: none); default: looked up here
    image = record.field(default=images.LOOK_UP, repr=False)


@model_class
class Rendered(object):
    """A request; ``origins``: wire path tuple -> the user's argument it came from; ``skip``: paths
    holding local-only values (a local run's ``file://`` channels and output); ``given``: wire path
    -> the user's own value where the request holds one derived from it (a role name's ARN);
    ``derived``: wire path -> a string derived from a pipeline parameter's value, written with the
    parameter's token instead (``_model.variables.tokens_in``; a pipeline step's definition)."""

    request = record.field()
    origins = record.field()
    skip = record.field(default=())
    given = record.field(factory=dict)
    derived = record.field(factory=dict)


class Writer(object):
    """A request being written: ``request``, ``origins`` (wire path -> the user's argument a part
    came from, or would have come from where it is left out), ``skip`` (local-only paths) and
    ``given`` (the user's own value where the request holds one derived from it)."""

    def __init__(self, request=None, origins=None):
        self.request = {} if request is None else request
        self.origins = {} if origins is None else origins
        self.skip = []
        self.given = {}
        self.derived = {}

    def put(self, path, value, arg):
        """Write ``value`` at ``path`` (making the dicts on the way), coming from the argument ``arg``."""
        node = self.request
        for key in path[:-1]:
            node = node[key] if isinstance(node, list) else node.setdefault(key, {})
        node[path[-1]] = value
        if arg is not None:
            self.origins[path] = arg

    def rendered(self):
        return Rendered(request=self.request, origins=self.origins, skip=tuple(self.skip), given=self.given,
                        derived=self.derived)


def _training_writer():
    """A writer of a CreateTrainingJob request: its keys in the SDK v2's order first, and where each
    plain field would come from."""
    origins = dict((path, ARGUMENT[attr]) for path, attr, _, _ in FIELDS)
    origins.update(_FIXED_ORIGINS)
    return Writer(dict((key, None if key in ("TrainingJobName", "RoleArn") else {}) for key in _HEAD), origins)


def _runs_here(context):
    """Whether the request is a local run's (its facts'): its ``file://`` channels and output are read here."""
    return context.facts is not None and bool(context.facts.local)


def _when(when, value):
    return when == ALWAYS or (when == GIVEN and value is not None) or (when == TRUE and bool(value))


def _render_v3_fields(w, job):
    """What only a ModelTrainer's job sends, as SDK v3 sends it: StoppingCondition's MaxPendingTimeInSeconds,
    and the flags given as False."""
    if job.max_pending_time is not None:
        w.put(("StoppingCondition", "MaxPendingTimeInSeconds"), job.max_pending_time, "max_pending_time")
    for key, argument in job.sent_false:
        if w.request.get(key) is None:
            w.put((key,), False, argument)


def render(job, context):
    """The request for ``job`` (a :class:`Rendered`). Parts that cannot be rendered (no training
    image for the versions given, a value that cannot be encoded) are left out: the checks report
    them, and a request is only sent when there is no problem."""
    w = _training_writer()
    if job.job_name is None and job.base_job_name:  # a default name: problems are the base's
        w.put(("TrainingJobName",), context.job_name, "base_job_name")
        w.given[("TrainingJobName",)] = job.base_job_name
    else:
        w.put(("TrainingJobName",), context.job_name, "job_name")
    if context.role_arn is not None:
        w.put(("RoleArn",), context.role_arn, "role")
        w.given[("RoleArn",)] = job.role
    w.put(("AlgorithmSpecification", "TrainingInputMode"), job.input_mode, "input_mode")  # first, as the SDK v2
    image = images.image_or_none(job, context.region) if context.image is images.LOOK_UP else context.image
    if image is not None:
        w.put(("AlgorithmSpecification", "TrainingImage"), image, "image_uri" if job.image_uri is not None else "framework_version")
    if job.metric_definitions:
        path = ("AlgorithmSpecification", "MetricDefinitions")
        w.put(path, [dict(m) if isinstance(m, dict) else m for m in job.metric_definitions], "metric_definitions")
        for i in range(len(job.metric_definitions)):
            w.origins[path + (i,)] = "metric_definitions[%d]" % i
    w.put(("OutputDataConfig", "S3OutputPath"), context.output_path, "output_path")
    if _runs_here(context) and _is_file_uri(context.output_path):
        w.skip.append(("OutputDataConfig", "S3OutputPath"))
    for path, attr, when, only_with in FIELDS:
        value = getattr(job, attr)
        if _when(when, value) and (only_with is None or _when(_WHEN_OF[only_with], getattr(job, only_with))):
            w.put(path, copied(value), ARGUMENT[attr])
    _render_v3_fields(w, job)
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
    return w.rendered()


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


def _channel_into(w, path, channel, uri, source):
    """Write one channel's body at ``path`` from its data ``source`` (``_model.arguments.data_source``),
    with the origins of its parts."""
    w.put(path + ("DataSource",), {source: {}}, channel.arg)
    for sub, attr, arg in channel_fields(source):
        origin = channel.arg if channel.plain else "%s.%s" % (channel.arg, arg)
        w.origins[path + sub] = origin
        value = uri if attr == "uri" else getattr(channel, attr)
        if value is not None:
            w.put(path + sub, copied(value), origin)
    if source == "FileDataSource":
        w.skip.append(path + ("DataSource", source))


def _render_channels(w, job, context):
    if not job.channels:
        return
    w.put(("InputDataConfig",), [], "inputs")
    here = _runs_here(context)  # a local run's file:// channel is a FileDataSource (as in the SDK v2's local mode)
    for i, channel in enumerate(job.channels):
        w.request["InputDataConfig"].append({})
        path = ("InputDataConfig", i)
        w.put(path + ("ChannelName",), channel.name, "model_channel_name" if channel.kind == MODEL else channel.arg)
        w.origins[path] = channel.arg
        uri = context.code_uri if channel.kind == CODE else channel.uri
        _channel_into(w, path, channel, uri, data_source(uri, here))


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
        value = _resolve(value, context)
        try:
            hps[key] = H.encode(value)
        except ValueError:
            continue  # reported by the checks
        origins[key] = arg
        tokens = variables.tokens_in(value)  # a pipeline parameter's value in it: the definition shows its token
        if tokens is not None:
            w.derived[("HyperParameters", key)] = H.encode(tokens)
    if hps or job.empty_hyperparameters:
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
