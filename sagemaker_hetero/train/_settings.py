"""A ``ModelTrainer``'s arguments as the SDK v2 estimator's (``Estimator``), so a v3 job takes the one path.

Pure: what SDK v3 would send (its defaults, its hyperparameter and channel encoding, the SDK-managed
channels ``code`` and ``sm_drivers`` routed to every instance group, ``/bin/bash -c sm_train.sh``) is
written as the generic estimator's arguments and ``fit``'s channels; ``_runner`` checks and renders
them as it does any job's. A problem found under an SDK v2 argument's name is told under the v3
argument's (:func:`renamed`).
"""
import datetime
import json
import re

from sagemaker_hetero._defaults import CODE_CHANNEL
from sagemaker_hetero._model import instance_types, record
from sagemaker_hetero._model.arguments import ARGUMENTS
from sagemaker_hetero.core.training.configs import (BaseConfig, Channel, CheckpointConfig, Compute, DataSource,
                                                    DatasetSource, FileSystemDataSource, InputData, OutputDataConfig,
                                                    S3DataSource, StoppingCondition)
from sagemaker_hetero.exceptions import Problem
from sagemaker_hetero.inputs import ShuffleConfig, TrainingInput
from sagemaker_hetero.train import _driver
from sagemaker_hetero.instance_group import InstanceGroup

__all__ = ["DRIVERS_CHANNEL", "MANAGED", "V3_PACKAGE", "DEFAULT_MAX_RUNTIME",
           "base_job_name", "job_name", "serialised", "merged", "channels", "values", "renamed", "renamed_report",
           "not_carried"]

DRIVERS_CHANNEL = _driver.CHANNEL
#: The channels SDK v3 adds for the code and its driver, routed to every instance group.
MANAGED = (CODE_CHANNEL, DRIVERS_CHANNEL)
#: What a refusal names: where what the facade does not carry lives.
V3_PACKAGE = "the SageMaker Python SDK v3 (pip install 'sagemaker>=3', from sagemaker.train import ModelTrainer)"
DEFAULT_MAX_RUNTIME = 3600
_GZIP = "GZIP"

#: SDK v2 argument (as the checks name it) -> the ModelTrainer argument it comes from.
_V3_NAMES = (
    ("image_uri", "training_image"), ("instance_groups", "compute.instance_groups"),
    ("instance_type", "compute.instance_type"), ("instance_count", "compute.instance_count"),
    ("volume_size", "compute.volume_size_in_gb"), ("volume_kms_key", "compute.volume_kms_key_id"),
    ("keep_alive_period_in_seconds", "compute.keep_alive_period_in_seconds"),
    ("use_spot_instances", "compute.enable_managed_spot_training"),
    ("max_run", "stopping_condition.max_runtime_in_seconds"),
    ("max_wait", "stopping_condition.max_wait_time_in_seconds"),
    ("max_pending_time", "stopping_condition.max_pending_time_in_seconds"),
    ("output_path", "output_data_config.s3_output_path"), ("output_kms_key", "output_data_config.kms_key_id"),
    ("subnets", "networking.subnets"), ("security_group_ids", "networking.security_group_ids"),
    ("enable_network_isolation", "networking.enable_network_isolation"),
    ("encrypt_inter_container_traffic", "networking.enable_inter_container_traffic_encryption"),
    ("checkpoint_s3_uri", "checkpoint_config.s3_uri"), ("checkpoint_local_path", "checkpoint_config.local_path"),
    ("input_mode", "training_input_mode"), ("inputs", "input_data_config"),
    ("max_retry_attempts", "with_retry_strategy"), ("capacity_wait", "compute.capacity_wait"),
    ("capacity_attempts", "compute.capacity_attempts"), ("metric_definitions", "with_metric_definitions"),
)


def renamed(problem):
    """``problem`` under the ModelTrainer argument its SDK v2 argument comes from, and an SDK v2 argument its
    message names (``is required with use_spot_instances``) under the v3 name too."""
    message = _V2_WORDS.sub(lambda m: _V3_OF[m.group(0)], problem.message)
    if message != problem.message:
        problem = Problem(problem.path, message, problem.value) if problem.has_value else Problem(problem.path,
                                                                                                   message)
    for old, new in _V3_NAMES:
        if problem.path == old or problem.path.startswith((old + "[", old + ".")):
            return problem.renamed(new + problem.path[len(old):])
    return problem


#: the SDK v2 argument names a message may hold (those with a ``_``: no plain word is taken for one)
_V3_OF = dict((old, new) for old, new in _V3_NAMES if "_" in old)
_V2_WORDS = re.compile(r"(?<![\w.\[])(%s)(?![\w(])" % "|".join(sorted(map(re.escape, _V3_OF), key=len, reverse=True)))


def renamed_report(report):
    """A preflight ``report`` with each finding's argument under the ModelTrainer argument it comes from, and
    an SDK v2 argument its detail or fix names (``or correct output_path``) under the v3 name too."""
    import attrs

    def finding(f):
        if f.argument is None:
            return f
        new = renamed(Problem(f.argument, "")).path

        def words(text):
            return text if not isinstance(text, str) else _V2_WORDS.sub(lambda m: _V3_OF[m.group(0)],
                                                                       text.replace(f.argument, new))
        return attrs.evolve(f, argument=new, detail=words(f.detail), fix=words(f.fix))
    return attrs.evolve(report, findings=[finding(f) for f in report.findings])


def not_carried(path, what, value):
    """The problem of what the facade does not carry, naming the SDK v3 package."""
    return Problem(path, "%s is not carried by sagemaker_hetero: use %s" % (what, V3_PACKAGE), value)


def base_job_name(base, image):
    """SDK v3's base job name: the one given, else the image's repository name and ``-job``."""
    if base is not None or not isinstance(image, str) or not image:
        return base
    return image.split("/")[-1].split(":")[0].split("@")[0] + "-job"


def job_name(base, now):
    """SDK v3's job name: ``<base>-YYYYmmddHHMMSS`` (local time), ``_`` as ``-``, at most 63 characters."""
    stamp = datetime.datetime.fromtimestamp(now).strftime("%Y%m%d%H%M%S")
    return ("%s-%s" % (str(base).replace("_", "-"), stamp))[:63]


def serialised(hyperparameters):
    """SDK v3's hyperparameters: a string as it is, anything else as JSON (else ``str``)."""
    out = {}
    for key, value in (hyperparameters or {}).items():
        if isinstance(value, str):
            out[key] = value
            continue
        try:
            out[key] = json.dumps(value)
        except (TypeError, ValueError):
            out[key] = str(value)
    return out


def merged(given, called):
    """The channels of the constructor and of ``train``: ``train``'s replace those of the same name."""
    existing = dict((getattr(c, "channel_name", None), c) for c in (given or []))
    order = [getattr(c, "channel_name", None) for c in (given or [])]
    for channel in called or []:
        name = getattr(channel, "channel_name", None)
        if name not in existing:
            order.append(name)
        existing[name] = channel
    return [existing[name] for name in order]


def _s3_input(source, content_type, every_group):
    return TrainingInput(s3_data=source.s3_uri, s3_data_type=source.s3_data_type,
                         distribution=source.s3_data_distribution_type, attribute_names=source.attribute_names,
                         instance_groups=source.instance_group_names or every_group, content_type=content_type,
                         model_access_config=_request_form(_dump(source.model_access_config)),
                         hub_access_config=_request_form(_dump(source.hub_access_config)))


def _dump(value):
    return value.model_dump() if isinstance(value, BaseConfig) else value


def _channel_input(channel, path, every_group):
    """``(TrainingInput, problems)`` of a v3 ``Channel``: its fields as given (SDK v3 sends it as it is)."""
    source = channel.data_source.s3_data_source if isinstance(channel.data_source, DataSource) else None
    if not isinstance(source, S3DataSource):
        other = getattr(channel.data_source, "file_system_data_source", None) or \
            getattr(channel.data_source, "dataset_source", None)
        if other is not None:
            return None, [not_carried(path + ".data_source", "a %s channel" % type(other).__name__, other)]
        return None, [Problem(path + ".data_source", "must be DataSource(s3_data_source=S3DataSource(...))",
                              channel.data_source)]
    made = _s3_input(source, channel.content_type, every_group)
    shuffle = channel.shuffle_config
    return record.evolve(made, compression=channel.compression_type, record_wrapping=channel.record_wrapper_type,
                         input_mode=channel.input_mode,
                         shuffle_config=None if shuffle is None else ShuffleConfig(shuffle.seed)), []


def _uri_input(uri, content_type, groups=None):
    return TrainingInput(s3_data=uri, s3_data_type="S3Prefix", distribution="FullyReplicated", input_mode="File",
                         content_type=content_type, instance_groups=groups)


def _routed(source):
    if isinstance(source, DataSource):
        source = source.s3_data_source
    return isinstance(source, S3DataSource) and bool(source.instance_group_names)


def channels(inputs, managed_uri, every_group, managed):
    """``(channels, uploads, problems)``: ``fit``'s channels (name -> TrainingInput) of the ``InputData``
    list; ``uploads`` (channel -> local path) are the local folders SDK v3 uploads, at
    ``managed_uri(channel)``. ``every_group``: a heterogeneous job's group names; when a channel is
    routed to groups (``managed``: the SDK-managed channels are), a channel routed to none goes to
    every group (SDK v3 leaves it unrouted, a request the service refuses: its issues 5225, 6089)."""
    out, uploads, problems = [], {}, []
    if not (managed or any(_routed(getattr(data, "data_source", None)) for data in inputs)):
        every_group = None
    for i, data in enumerate(inputs):
        path = "input_data_config[%d]" % i
        if isinstance(data, Channel):
            made, problem = _channel_input(data, path, every_group)
            problems.extend(problem)
            if made is not None:
                out.append((data.channel_name, made))
            continue
        if not isinstance(data, InputData):
            problems.append(Problem(path, "must be an InputData(channel_name=..., data_source=...) or a Channel",
                                    data))
            continue
        source, name = data.data_source, data.channel_name
        if isinstance(source, S3DataSource):
            out.append((name, _s3_input(source, data.content_type, every_group)))
        elif isinstance(source, (FileSystemDataSource, DatasetSource)):
            problems.append(not_carried(path + ".data_source", "a %s channel" % type(source).__name__, source))
        elif isinstance(source, str) and source.startswith("s3://"):
            out.append((name, _uri_input(source, data.content_type, every_group)))
        elif isinstance(source, str) and source.startswith("file://"):
            out.append((name, _uri_input(source, data.content_type, every_group)))
        elif isinstance(source, str) and source:
            uploads[name] = source
            out.append((name, _uri_input(managed_uri(name, source), data.content_type, every_group)))
        else:
            problems.append(Problem(path + ".data_source", "must be an S3 URI, a local folder, or an "
                                    "S3DataSource", source))
    return out, uploads, problems


def managed_channels(source_code, managed_uri, every_group):
    """The ``code`` (unless the source is in S3 already) and ``sm_drivers`` channels, routed to every group."""
    out = []
    source_dir = source_code.source_dir
    if source_dir:
        uri = source_dir if str(source_dir).startswith("s3://") else managed_uri(CODE_CHANNEL, source_dir)
        out.append((CODE_CHANNEL, _uri_input(uri, None, every_group)))
    out.append((DRIVERS_CHANNEL, _uri_input(managed_uri(DRIVERS_CHANNEL), None, every_group)))
    return out


def _camel(name):
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def _request_form(value):
    """A configuration's ``model_dump()`` as the request writes it (CamelCase keys)."""
    if isinstance(value, dict):
        return dict((_camel(k), _request_form(v)) for k, v in value.items() if v is not None)
    if isinstance(value, list):
        return [_request_form(v) for v in value]
    return value


def by_request_path(prefix, config, out):
    """Each field of the SDK v3 ``config`` (named after the request's shape at ``prefix``) as the SDK v2
    argument whose request path it is (``_model.arguments``): a new pass-through field needs no line here."""
    for field, value in (config.model_dump() if config is not None else {}).items():
        path = prefix + (_camel(field),)
        if value is None or path in _SKIPPED:
            continue
        if path in _ARGUMENT_AT:
            out[_ARGUMENT_AT[path]] = _request_form(value)
        elif isinstance(value, dict):
            by_request_path(path, _Dumped(value), out)
    return out


class _Dumped(object):
    def __init__(self, values):
        self.values = values

    def model_dump(self):
        return self.values


_ARGUMENT_AT = dict((a.path, a.name) for a in ARGUMENTS if a.path is not None and a.setting)
#: what ``_compute_values`` writes itself (the groups, type, count and volume: SDK v3's defaults)
_SKIPPED = tuple(("ResourceConfig", _camel(f)) for f in ("instance_groups", "instance_type", "instance_count",
                                                          "volume_size_in_gb", "enable_managed_spot_training",
                                                          "instance_preferences", "capacity_wait",
                                                          "capacity_attempts"))


def enabled(config_class):
    """SDK v3's default of a ``with_*`` builder called without a configuration: its one flag on."""
    import inspect

    (flag,) = [name for name in inspect.signature(config_class.__init__).parameters if name != "self"]
    return {flag: True}


def _compute_values(compute, local=False):
    values = by_request_path(("ResourceConfig",), compute, {})
    for name in ("capacity_wait", "capacity_attempts"):  # this package's (docs/capacity.md), never sent
        if getattr(compute, name, None) is not None:
            values[name] = getattr(compute, name)
    values.update(volume_size=30 if compute.volume_size_in_gb is None else compute.volume_size_in_gb,
                  use_spot_instances=bool(compute.enable_managed_spot_training))
    if compute.instance_groups:
        values["instance_groups"] = [
            InstanceGroup(g.instance_group_name, g.instance_type, g.instance_count,
                          alternatives=getattr(g, "alternatives", None))
            if hasattr(g, "instance_group_name") else g for g in compute.instance_groups]
        for name in ("instance_type", "instance_count"):  # given too: the service refuses both, so do the checks
            if getattr(compute, name) is not None:
                values[name] = getattr(compute, name)
    else:
        values["instance_type"] = compute.instance_type or instance_types.V3_DEFAULT_TYPE
        if local:
            values["instance_type"] = instance_types.V3_LOCAL_TYPES.get(values["instance_type"], values["instance_type"])
        values["instance_count"] = 1 if compute.instance_count is None else compute.instance_count
    return values


def _network_values(networking):
    if networking is None:
        return {}
    return dict(subnets=networking.subnets, security_group_ids=networking.security_group_ids,
                enable_network_isolation=networking.enable_network_isolation,
                encrypt_inter_container_traffic=networking.enable_inter_container_traffic_encryption)


def _sent_false(compute, networking):
    """The flags given as False, which SDK v3 sends as false (the SDK v2 sends a flag when true only)."""
    given = (("EnableManagedSpotTraining", "use_spot_instances", compute.enable_managed_spot_training),
             ("EnableNetworkIsolation", "enable_network_isolation",
              getattr(networking, "enable_network_isolation", None)),
             ("EnableInterContainerTrafficEncryption", "encrypt_inter_container_traffic",
              getattr(networking, "enable_inter_container_traffic_encryption", None)))
    return tuple((key, argument) for key, argument, value in given if value is False)


def values(t, default_output, checkpoint_default, local=False):
    """The ``Estimator`` arguments of the ModelTrainer ``t`` (what ``train`` adds: channels, job name).

    ``default_output``: SDK v3's ``s3://<default bucket>/<base job name>``; ``checkpoint_default``: its
    ``.../<base>/<job>/checkpoints`` for a CheckpointConfig without an S3 URI; ``local``: a local run's
    (SDK v3's ``local_cpu`` and ``local_gpu`` instance types stand for ML types, :data:`~sagemaker_hetero._model.instance_types.V3_LOCAL_TYPES`)."""
    compute = t.compute if t.compute is not None else Compute()
    stopping = t.stopping_condition if t.stopping_condition is not None else StoppingCondition()
    output = t.output_data_config if t.output_data_config is not None else OutputDataConfig()
    out = dict(image_uri=t.training_image, role=t.role, input_mode=t.training_input_mode,
               max_run=DEFAULT_MAX_RUNTIME if stopping.max_runtime_in_seconds is None
               else stopping.max_runtime_in_seconds,
               max_wait=stopping.max_wait_time_in_seconds, max_pending_time=stopping.max_pending_time_in_seconds,
               output_path=output.s3_output_path or default_output,
               output_kms_key=output.kms_key_id, output_compression=output.compression_type or _GZIP,
               hyperparameters=serialised(t.hyperparameters) or None, environment=t.environment or None,
               tags=[{"Key": tag.key, "Value": tag.value} if hasattr(tag, "key") else tag for tag in t.tags or []]
               or None)
    out.update(_compute_values(compute, local))
    out.update(_network_values(t.networking))
    out["sent_false"] = _sent_false(compute, t.networking)
    out["makes_default_bucket"] = not local  # train() makes it, if missing, before anything is sent
    checkpoint = t.checkpoint_config
    if isinstance(checkpoint, CheckpointConfig):
        out.update(checkpoint_s3_uri=checkpoint.s3_uri or checkpoint_default,
                   checkpoint_local_path=checkpoint.local_path)
    by_request_path(("AlgorithmSpecification", "TrainingImageConfig"), t.training_image_config, out)
    return out
