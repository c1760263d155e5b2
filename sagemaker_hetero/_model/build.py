"""The user's objects as the job model, and back. Pure: no I/O, no clock.

:func:`build` turns :class:`JobSettings` (an estimator's arguments plus ``fit``'s, or a CLI spec)
into one :class:`~._model.job.Job`, resolving what the user's objects mean: which groups a channel and
the distribution name, the SDK's own channels, the hyperparameters as the job receives them. It
reports what cannot be interpreted (an instance group that is not an ``InstanceGroup``, a channel
reference to no group, ...) as problems under the user's argument names, and leaves every scalar as
given: the service's limits are checked on the rendered request (``_checks.round_one``), our own
rules on the model (``_checks.rules``).

:func:`arguments` is the inverse, for ``attach``: the estimator arguments and ``fit`` inputs that
build a given job.
"""
import copy

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model import hyperparameters, images, record
from sagemaker_hetero._model import keywords as _keywords
from sagemaker_hetero._model.arguments import AS_GIVEN, FALSY_IS_NOT_GIVEN, FLAGS
from sagemaker_hetero._model.job import CODE, MODEL, NOT_GIVEN, Channel, Code, Distribution, Group, Job, group_name
from sagemaker_hetero._model.settings import JobSettings
from sagemaker_hetero.exceptions import Problems
from sagemaker_hetero._model.user import InstanceGroup, ShuffleConfig, TrainingInput

__all__ = ["settings", "build", "arguments", "sdk_distribution", "hashable", "as_sequence", "as_tags"]


def settings(framework, arguments, inputs=None, job_name=None, experiment_config=None):
    """The :class:`JobSettings` of an estimator's ``arguments`` (a dict) and ``fit``'s."""
    values = dict(arguments)
    if job_name:  # as in the SDK v2, an empty name (or None) is no name: the default one
        values["job_name"] = job_name
    if isinstance(inputs, TrainingInput) and inputs.input_mode is not None:
        values["input_mode"] = inputs.input_mode  # as in the SDK v2: one TrainingInput's mode is the job's
    channels, problem = _channels_of(inputs)
    return JobSettings(framework=framework, channels=channels, inputs_problem=problem,
                       experiment_config=experiment_config, **values)


def _channels_of(inputs):
    """``fit(inputs)`` as ``((name, value), ...)`` and ``(problem text, the inputs given)`` (or None)."""
    if inputs is None:
        return (), None
    if isinstance(inputs, (str, TrainingInput)):
        return ((D.DEFAULT_CHANNEL, inputs),), None
    if isinstance(inputs, dict):
        return tuple(inputs.items()), None
    return (), ("expected an S3 URI, a TrainingInput or a dict of channel name to either", inputs)


def _falsy(value):
    try:
        return value is not None and not value
    except Exception:  # noqa: BLE001 - an object that cannot say: it is given
        return False


def build(settings):
    """``(job, problems)``: the :class:`Job` of ``settings`` and what could not be interpreted."""
    s = settings
    out = Problems()
    # Where the SDK v2 tests an argument for truth, an empty one ("", 0, False, []) is not given.
    falsy = [name for name in FALSY_IS_NOT_GIVEN if _falsy(getattr(s, name))]
    if s.framework is None and "image_uri" in falsy:
        falsy.remove("image_uri")  # the generic Estimator sends it as given (and ours refuses an empty one)
    s = record.evolve(s, **dict((name, None) for name in falsy))
    heterogeneous, groups = _cluster(s, out)
    code = _code(s, out)
    channels = _channels(s, heterogeneous, groups, code, out)
    json_hps = s.framework is not None or code is not None
    base = s.base_job_name
    if base is not None and not isinstance(base, str) and s.job_name is None:  # a base names no named job
        out.add("base_job_name", "must be a string", base)
    job = Job(
        framework=s.framework,
        heterogeneous=heterogeneous,
        groups=groups,
        channels=channels,
        distribution=_distribution(s, heterogeneous, groups, out),
        code=code,
        hyperparameters=_hyperparameter_items(s.hyperparameters, json_hps, out),
        json_hyperparameters=json_hps,
        subnets=as_sequence("subnets", s.subnets, out, "a list of subnet IDs"),
        security_group_ids=as_sequence("security_group_ids", s.security_group_ids, out, "a list of security group IDs"),
        environment=_mapping("environment", s.environment, out, "a dict of variable name to value"),
        tags=_with_config_tags(as_tags(s.tags, out), s.config_tags),
        metric_definitions=as_sequence("metric_definitions", s.metric_definitions, out,
                                     "a list of {'Name': ..., 'Regex': ...}", copy_dicts=True),
        enable_sagemaker_metrics=_metrics_default(s.framework, s.framework_version) if s.enable_sagemaker_metrics is None
        else s.enable_sagemaker_metrics,
        experiment_config=_experiment_config(s.experiment_config, out),
        debugger_hook_config=_hook("debugger_hook_config", s.debugger_hook_config, out),
        profiler_config=_hook("profiler_config", s.profiler_config, out),
        model_dir=s.model_dir if s.framework == "tensorflow" else None,
        job_name=s.job_name,
        base_job_name=base if isinstance(base, str) else None,
        **dict(dict((attr, getattr(s, arg)) for attr, arg in AS_GIVEN),
               **dict((attr, sends if getattr(s, arg) else None) for attr, arg, sends in FLAGS))
    )
    if s.output_compression is not None and job.output_compression is None:  # ModelTrainer's CompressionType
        job = record.evolve(job, output_compression=s.output_compression)
    if s.empty_hyperparameters:  # ModelTrainer: SDK v3 sends HyperParameters {} when there are none
        job = record.evolve(job, empty_hyperparameters=True)
    if s.max_pending_time is not None:  # ModelTrainer: SDK v3's StoppingCondition.max_pending_time_in_seconds
        job = record.evolve(job, max_pending_time=s.max_pending_time)
    if s.sent_false:  # ModelTrainer: SDK v3 sends a flag given as False
        job = record.evolve(job, sent_false=tuple(s.sent_false))
    if s.makes_default_bucket:  # ModelTrainer: SDK v3 makes the default bucket whatever the output path
        job = record.evolve(job, makes_default_bucket=True)
    return job, out.items


# -- the cluster -------------------------------------------------------------------------------


def _cluster(s, out):
    """``(heterogeneous, groups)``."""
    if s.instance_groups is None:
        has_type, has_count = s.instance_type is not None, s.instance_count is not None
        if not has_type and not has_count:
            out.add("instance_groups", "give instance_groups, or instance_type and instance_count")
        elif not has_type:
            out.add("instance_type", "is required with instance_count", None)
        elif not has_count:
            out.add("instance_count", "is required with instance_type", None)
        return False, (Group(D.HOMOGENEOUS_GROUP, s.instance_type, s.instance_count),)
    for arg in ("instance_type", "instance_count"):
        value = getattr(s, arg)
        if value is not None:
            out.add(arg, "cannot be given together with instance_groups; describe every instance in the groups", value)
    given = s.instance_groups
    if not isinstance(given, (list, tuple)):
        out.add("instance_groups", "must be a list of InstanceGroup", given)
        return True, ()
    if not given:
        out.add("instance_groups", "must hold at least one InstanceGroup", given)
    groups = []
    for i, g in enumerate(given):
        arg = "instance_groups[%d]" % i
        if not isinstance(g, InstanceGroup):
            out.add(arg, "must be an InstanceGroup(name, instance_type, instance_count)", g)
            continue
        groups.append(Group(g.instance_group_name, g.instance_type, g.instance_count, arg=arg))
    return True, tuple(groups)


def _group_names(path, refs, heterogeneous, groups, out, empty="must name at least one instance group "
                 "(or leave instance_groups out)"):
    """The names the group references ``refs`` stand for (None if unusable); reports each bad one."""
    if not isinstance(refs, (list, tuple)):
        out.add(path, "must be a list of instance group names", refs)
        return None
    if not refs:
        out.add(path, empty, refs)
        return None
    if not heterogeneous:
        out.add(path, "names instance groups, but the estimator has no instance_groups", [group_name(r) for r in refs])
        return None
    known = dict((g.name, g) for g in groups if g.name is not None and hashable(g.name))  # a missing name is its own problem
    names = []
    for i, ref in enumerate(refs):
        where = "%s[%d]" % (path, i)
        name = group_name(ref)
        if not isinstance(name, str):
            out.add(where, "must be an instance group name or InstanceGroup", ref)
            continue
        if name in names:
            out.add(where, "names the same instance group twice", name)
        names.append(name)
        group = known.get(name)
        if group is None:
            out.add(where, "is not an instance group of this job (groups: %s)" % _listed(known), name)
        elif isinstance(ref, InstanceGroup) and (ref.instance_type, ref.instance_count) != (group.instance_type, group.count):
            out.add(where, "has the name of a group of this job but another type or count (%s x %s)"
                    % (group.count, group.instance_type), ref)
    return tuple(names)


def hashable(value):
    """Whether ``value`` can be a dict key or a set member."""
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _listed(names):
    return ", ".join(repr(n) for n in names) or "none"


# -- code and channels -------------------------------------------------------------------------


def _code(s, out):
    entry, source, deps = s.entry_point, s.source_dir, s.dependencies
    if entry is None:
        if s.framework is not None:
            out.add("entry_point", "is required: the script every host runs", None)
        elif source is not None:
            out.add("entry_point", "is required when source_dir is given", None)
        return None
    ok = True
    if not isinstance(entry, str) or not entry:
        out.add("entry_point", "must be a file path", entry)
        ok = False
    elif entry.startswith("s3://"):
        out.add("entry_point", "must be a local file (put S3 code in source_dir as a .tar.gz)", entry)
        ok = False
    if source is not None:
        if not isinstance(source, str) or not source:
            out.add("source_dir", "must be a directory path or an S3 URI of a .tar.gz", source)
            ok = False
        elif source.startswith("s3://") and not source.endswith(".tar.gz"):
            out.add("source_dir", "an S3 source_dir must be a .tar.gz archive", source)
    if deps is not None and not isinstance(deps, (list, tuple)):
        out.add("dependencies", "must be a list of local paths", deps)
        deps = None
    if not ok:
        return None
    return Code(
        entry_point=entry,
        source_dir=source,
        dependencies=tuple(deps or ()),
        location=s.code_location,
        log_level=s.container_log_level,
    )


def _channels(s, heterogeneous, groups, code, out):
    channels = []
    if s.inputs_problem:
        out.add("inputs", *s.inputs_problem)
    for name, value in s.channels:
        arg = "inputs[%r]" % (name,)
        if isinstance(value, TrainingInput):
            channel = _channel(name, value, arg, heterogeneous, groups, out)
            if s.distribution_as_given and not value.distribution:  # SDK v3 sends no default distribution
                channel = record.evolve(channel, distribution=None)
            channels.append(channel)
        elif isinstance(value, str):
            channels.append(Channel(name=name, uri=value, arg=arg, plain=True))
        else:
            out.add(arg, "must be an S3 URI or a TrainingInput", value)
    # D3: when the user's channels name groups, the SDK's own channels name every group, so the
    # request obeys the service's all-or-none rule.
    assigned = any(c.groups is not None for c in channels)
    every = tuple(g.name for g in groups) if assigned else None
    if s.model_uri is not None:
        channels.append(Channel(name=s.model_channel_name, uri=s.model_uri, groups=every, content_type=D.MODEL_CONTENT_TYPE,
                                input_mode="File", kind=MODEL, arg="model_uri", plain=True))
    if code is not None and s.enable_network_isolation:
        channels.append(Channel(name=D.CODE_CHANNEL, uri=None, groups=every, kind=CODE, arg="source_dir", plain=True))
    return tuple(channels)


def _channel(name, value, arg, heterogeneous, groups, out):
    if value.target_attribute_name is not None:
        out.add(arg + ".target_attribute_name", "is for AutoML jobs; a training job channel has no target attribute",
                value.target_attribute_name)
    refs = value.instance_groups
    names = None
    if refs is not None:  # names given, even unusable ones, make it a channel that names groups
        names = _group_names(arg + ".instance_groups", refs, heterogeneous, groups, out) or ()
    channel = Channel.of_input(name, value, groups=names, arg=arg)
    if value.shuffle_config is not None and not isinstance(value.shuffle_config, ShuffleConfig):
        out.add(arg + ".shuffle_config", "must be ShuffleConfig(seed)", value.shuffle_config)
        channel = record.evolve(channel, shuffle_seed=None)
    if value.attribute_names is not None and not isinstance(value.attribute_names, (list, tuple)):
        out.add(arg + ".attribute_names", "must be a list of attribute names", value.attribute_names)
        channel = record.evolve(channel, attribute_names=None)
    return channel


# -- distribution ------------------------------------------------------------------------------


def _distribution(s, heterogeneous, groups, out):
    dist = s.distribution
    if dist is None:
        return None
    if s.framework is None:
        out.add("distribution", _keywords.instead("distribution"), dist)
        return None
    if not isinstance(dist, dict):
        out.add("distribution", "must be a dict such as {'mpi': {'enabled': True}}", dist)
        return None
    options = dict((k, _copy(v)) for k, v in dist.items() if k != "instance_groups")
    refs = dist.get("instance_groups", NOT_GIVEN)
    path = "distribution.instance_groups"
    if refs is NOT_GIVEN or refs is None:
        only = groups[0].name if heterogeneous and len(groups) == 1 and len(s.instance_groups) == 1 else None
        return Distribution(options, group=only)
    if heterogeneous and isinstance(refs, (list, tuple)) and len(refs) > 1:
        out.add(path, "must name exactly one instance group", [group_name(r) for r in refs])
        return Distribution(options, named=tuple(group_name(r) for r in refs))
    if heterogeneous and not isinstance(refs, (list, tuple)):
        example = " such as [%r]" % (refs,) if isinstance(refs, str) else ""
        out.add(path, "must be a list naming one instance group%s" % example, refs)
        return Distribution(options, named=())  # named, wrongly: the one problem is this one
    before = len(out.items)
    named = _group_names(path, refs, heterogeneous, groups, out, empty="must name exactly one instance group") or ()
    group = named[0] if named and len(out.items) == before else None
    return Distribution(options, group=group, named=named)


def sdk_distribution(framework, distribution, instance_groups=None):
    """A checked ``distribution`` as the SDK v2 keeps it on the estimator: groups by name (the one
    group of a one-group job named when not given, as the SDK v2 names it), and for PyTorch
    ``pytorchddp`` as ``smdistributed.dataparallel``."""
    if not isinstance(distribution, dict):
        return distribution
    out = dict((k, _copy(v)) for k, v in distribution.items())
    if not out.get("instance_groups") and isinstance(instance_groups, (list, tuple)) and len(instance_groups) == 1:
        out["instance_groups"] = list(instance_groups)
    if isinstance(out.get("instance_groups"), (list, tuple)):
        out["instance_groups"] = [group_name(g) for g in out["instance_groups"]]
    if framework == "pytorch" and "pytorchddp" in out and "smdistributed" not in out:
        out["smdistributed"] = {"dataparallel": out.pop("pytorchddp")}
    return out


def _copy(value):
    """A copy of a distribution option (its dicts and lists; other values as they are)."""
    try:
        return copy.deepcopy(value)
    except Exception:  # noqa: BLE001 - an object that cannot be copied is used as it is
        return value


# -- the rest ----------------------------------------------------------------------------------


def _metrics_default(framework, version):
    """As the SDK v2: SageMaker metrics on for a framework estimator given a framework version
    (PyTorch 1.3 and TensorFlow 1.15 or later); else the field is left out."""
    minimum = D.METRICS_MIN_VERSION.get(framework)
    if minimum is None or not isinstance(version, str):
        return None
    return True if images.version_tuple(version) >= minimum else None


def _hyperparameter_items(hps, as_json, out):
    if hps is None:
        return ()
    if not isinstance(hps, dict):
        out.add("hyperparameters", "must be a dict", hps)
        return ()
    items = {}  # keys as strings, as the SDK v2 sends them (a later key that reads the same wins)
    for key, value in hps.items():
        try:
            name = key if isinstance(key, str) else str(key)
        except Exception:  # noqa: BLE001 - a key whose str() fails
            out.add("hyperparameters[%r]" % (key,), "key must be a string", key)
            continue
        try:
            items[name] = hyperparameters.encode(value, as_json)
        except ValueError as exc:
            what = "JSON-serialisable" if as_json else "convertible to a string"
            out.add("hyperparameters[%r]" % (key,), "must be %s (%s)" % (what, exc), value)
    return tuple(items.items())


def as_sequence(arg, value, out, what, copy_dicts=False):
    """A list argument as a tuple (None when empty or not given)."""
    if value is None:
        return None
    if not isinstance(value, (list, tuple)):
        out.add(arg, "must be %s" % what, value)
        return None
    if not value:
        return None
    return tuple(dict(v) if copy_dicts and isinstance(v, dict) else v for v in value)


def _mapping(arg, value, out, what):
    """A dict argument as ``((key, value), ...)`` (None when empty or not given)."""
    if value is None:
        return None
    if not isinstance(value, dict):
        out.add(arg, "must be %s" % what, value)
        return None
    return tuple(value.items()) or None


def as_tags(tags, out):
    if tags is None:
        return None
    if isinstance(tags, dict):  # the SDK v2's form: keys and values as strings
        try:
            return tuple({"Key": str(k), "Value": str(v)} for k, v in tags.items()) or None
        except Exception as exc:  # noqa: BLE001 - a key or value whose str() fails
            out.add("tags", "must be a dict of strings (%s: %s)" % (type(exc).__name__, exc), tags)
            return None
    return as_sequence("tags", tags, out, "a list of {'Key': ..., 'Value': ...} or a dict", copy_dicts=True)


def _with_config_tags(tags, config_tags):
    """The job's tags, then the defaults configuration's whose key no tag of the job has (the SDK v2's
    merge: the user's tag of a key wins)."""
    if not isinstance(config_tags, (list, tuple)) or not config_tags:
        return tags
    keys = set(t.get("Key") for t in tags or () if isinstance(t, dict) and hashable(t.get("Key")))
    extra = [dict(t) for t in config_tags
             if isinstance(t, dict) and not (hashable(t.get("Key")) and t.get("Key") in keys)]
    return tuple(tags or ()) + tuple(extra) or None


def _experiment_config(value, out):
    if value is None:
        return None
    if not isinstance(value, dict):
        out.add("experiment_config", "must be a dict such as {'ExperimentName': ..., 'TrialName': ...}", value)
        return None
    return dict(value) or None


def _hook(arg, value, out):
    """A debugger or profiler config: None (not sent), True (to the output path) or a request dict."""
    if value is None or value is False:
        return None
    if value is True:
        return True
    if isinstance(value, dict):
        return dict(value)
    to_request = getattr(value, "_to_request_dict", None)
    if callable(to_request):  # the SageMaker Python SDK's DebuggerHookConfig / ProfilerConfig objects
        try:
            rendered = to_request()
        except Exception as exc:  # noqa: BLE001 - a foreign object's failure is the user's problem to see
            out.add(arg, "could not be turned into a request (%s: %s)" % (type(exc).__name__, exc), value)
            return None
        if isinstance(rendered, dict):
            return dict(rendered)
    out.add(arg, "must be a dict in the request's format, True, False or None", value)
    return None


# -- back: the arguments that build a job (attach) -----------------------------------------------


def arguments(job):
    """``(estimator keyword arguments, inputs)`` that build ``job`` again (``inputs``: ``{name:
    TrainingInput}`` or None). Arguments at their defaults are left out."""
    kwargs = {}
    if job.heterogeneous:
        kwargs["instance_groups"] = [InstanceGroup(g.name, g.instance_type, g.count) for g in job.groups]
    elif job.groups:
        kwargs["instance_type"], kwargs["instance_count"] = job.groups[0].instance_type, job.groups[0].count
    defaults = record.fields_dict(Job)
    for attr, arg in AS_GIVEN:
        value = getattr(job, attr)
        if value != defaults[attr].default:
            kwargs[arg] = value
    for attr, arg, sends in FLAGS:
        if getattr(job, attr) == sends:
            kwargs[arg] = True
    for arg, value in (("debugger_hook_config", job.debugger_hook_config), ("profiler_config", job.profiler_config),
                       ("base_job_name", job.base_job_name)):
        if value is not None:
            kwargs[arg] = value
    if job.subnets and job.security_group_ids:
        kwargs["subnets"], kwargs["security_group_ids"] = list(job.subnets), list(job.security_group_ids)
    if job.environment:
        kwargs["environment"] = dict(job.environment)
    if job.tags:
        kwargs["tags"] = [dict(t) for t in job.tags]
    if job.metric_definitions:
        kwargs["metric_definitions"] = [dict(m) for m in job.metric_definitions]
    if job.enable_sagemaker_metrics != _metrics_default(job.framework, job.framework_version):
        kwargs["enable_sagemaker_metrics"] = job.enable_sagemaker_metrics
    if job.hyperparameters:
        decode = hyperparameters.decode if job.json_hyperparameters else (lambda v: v)
        kwargs["hyperparameters"] = dict((k, decode(v)) for k, v in job.hyperparameters)
    if job.code is not None:
        kwargs["entry_point"] = job.code.entry_point
        if job.code.source_dir is not None:
            kwargs["source_dir"] = job.code.source_dir
        if job.code.log_level != D.CONTAINER_LOG_LEVEL:
            kwargs["container_log_level"] = job.code.log_level
    if job.distribution is not None:
        distribution = dict(job.distribution.options)
        if job.heterogeneous and job.distribution.group is not None:
            distribution["instance_groups"] = [job.distribution.group]
        kwargs["distribution"] = distribution
    if job.framework == "tensorflow" and job.model_dir is not None:
        kwargs["model_dir"] = job.model_dir
    inputs = {}
    for channel in job.channels:
        if channel.kind == MODEL:
            kwargs["model_uri"] = channel.uri
            if channel.name != D.MODEL_CHANNEL:
                kwargs["model_channel_name"] = channel.name
        elif channel.kind != CODE:
            inputs[channel.name] = _training_input(channel)
    return kwargs, inputs or None


def _training_input(channel):
    return TrainingInput(
        s3_data=channel.uri,
        distribution=channel.distribution,
        compression=channel.compression,
        content_type=channel.content_type,
        record_wrapping=channel.record_wrapping,
        s3_data_type=channel.data_type,
        instance_groups=list(channel.groups) if channel.groups is not None else None,
        input_mode=channel.input_mode,
        attribute_names=list(channel.attribute_names) if channel.attribute_names is not None else None,
        shuffle_config=ShuffleConfig(channel.shuffle_seed) if channel.shuffle_seed is not None else None,
        hub_access_config=channel.hub_access_config,
        model_access_config=channel.model_access_config,
    )
