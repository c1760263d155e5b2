"""SageMaker Python SDK v3's configuration classes (``sagemaker.core.training.configs``), without pydantic.

Each class takes its fields as SDK v3 names them, keyword-only and with SDK v3's defaults (a required
field has none: leaving it out is a ``TypeError``, as a misspelt keyword is); ``model_dump()``,
``model_copy(update=...)``, equality and the repr behave as the pydantic models' do for what user code
calls. Nothing is checked here: ``ModelTrainer`` checks every value with the rest of the job, before
anything is sent, and names the argument (``compute.instance_groups[1].instance_count``).
"""
from typing import Any, Dict, List, Optional, Tuple, Union

__all__ = ["BaseConfig", "SourceCode", "Compute", "InstanceGroup", "InputData", "S3DataSource", "FileSystemDataSource",
           "StoppingCondition", "OutputDataConfig", "CheckpointConfig", "Networking", "Tag", "TrainingImageConfig",
           "TrainingRepositoryAuthConfig", "RetryStrategy", "MetricDefinition", "InfraCheckConfig",
           "RemoteDebugConfig", "SessionChainingConfig", "TensorBoardOutputConfig", "ShuffleConfig",
           "InstancePlacementConfig", "Channel", "DataSource", "HubAccessConfig", "ModelAccessConfig", "DatasetSource"]

#: SDK v3's ``SourceCode.ignore_patterns`` default.
IGNORE_PATTERNS = (".env", ".git", "__pycache__", ".DS_Store", ".cache", ".ipynb_checkpoints")


def _dumped(value):
    if isinstance(value, BaseConfig):
        return value.model_dump()
    if isinstance(value, (list, tuple)):
        return [_dumped(v) for v in value]
    if isinstance(value, dict):
        return dict((k, _dumped(v)) for k, v in value.items())
    return value


def parameters_section(function, words=None):
    """A numpydoc ``Parameters`` section of ``function``'s keyword arguments, in order (``words``: name ->
    its description; else SDK v3's name is the description)."""
    import inspect

    lines = ["Parameters", "----------"]
    for name, p in inspect.signature(function).parameters.items():
        if name in ("self", "cls"):
            continue
        shown = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "") + name
        kind = getattr(p.annotation, "__name__", None) or str(p.annotation).replace("typing.", "")
        optional = p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        lines.append("%s : %s%s" % (shown, kind if p.annotation is not p.empty else "object",
                                     ", optional" if optional else ""))
        lines.append("    %s" % ((words or {}).get(name) or "SDK v3's ``%s``." % name))
    return "\n".join(lines) + "\n"


class BaseConfig(object):
    """What every configuration class shares: fields kept as given, ``model_dump``, ``model_copy``."""

    _fields = ()  # type: tuple
    #: this package's own fields (not SDK v3's): left out of ``model_dump`` while not given
    _ours = ()  # type: tuple

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return
        if init.__doc__ is None:
            init.__doc__ = "Make the configuration; the parameters are the class's (keyword-only)."
        if "Parameters\n---" not in (cls.__doc__ or ""):
            import inspect

            cls.__doc__ = "%s\n\n%s" % (inspect.cleandoc(cls.__doc__ or cls.__name__), parameters_section(init))

    def _keep(self, values):
        names = []
        for name, value in values.items():
            if name in ("self", "__class__") or (name in self._ours and value is None):
                continue
            names.append(name)
            object.__setattr__(self, name, list(value) if isinstance(value, tuple) else value)
        object.__setattr__(self, "_fields", tuple(names))

    def model_dump(self):
        # type: () -> Dict[str, Any]
        """The fields as a dict, nested configurations as dicts too (pydantic's ``model_dump``)."""
        return dict((name, _dumped(getattr(self, name))) for name in self._fields)

    def model_copy(self, update=None, deep=False):
        """A copy with the fields in ``update`` changed (pydantic's ``model_copy``).

        Parameters
        ----------
        update : dict, optional
            Field name -> new value.
        deep : bool, default False
            Copy the nested values too.
        """
        import copy

        values = dict((name, getattr(self, name)) for name in self._fields)
        values.update(update or {})
        made = copy.deepcopy(self) if deep else copy.copy(self)
        for name, value in values.items():
            object.__setattr__(made, name, value)
        object.__setattr__(made, "_fields", self._fields + tuple(
            n for n in self._ours if n in (update or {}) and n not in self._fields))
        return made

    def __eq__(self, other):
        return type(other) is type(self) and self.model_dump() == other.model_dump()

    def __ne__(self, other):
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % (n, getattr(self, n)) for n in self._fields))


class SourceCode(BaseConfig):
    """The code the job runs: ``source_dir`` (a local folder or S3 URI) with ``entry_script`` (a ``.py``
    or ``.sh`` in it) or a ``command`` (with ``args``), and a ``requirements`` file to install first."""

    def __init__(self, *, source_dir: Optional[str] = None, requirements: Optional[str] = None,
                 entry_script: Optional[str] = None, command: Optional[str] = None,
                 args: Optional[List[Union[str, int, float]]] = None,
                 ignore_patterns: Optional[List[str]] = list(IGNORE_PATTERNS)) -> None:
        self._keep(locals())


class InstanceGroup(BaseConfig):
    """One instance group of a heterogeneous cluster; ``alternatives`` (this package's, never sent): the
    group's other choices when SageMaker has no capacity or quota for the first, each an instance type
    (the same count) or an ``(instance type, count)`` pair (docs/capacity.md)."""

    _ours = ("alternatives",)

    def __init__(self, *, instance_type: str, instance_count: int, instance_group_name: str,
                 alternatives: Optional[List[Union[str, Tuple[str, int]]]] = None) -> None:
        self._keep(locals())


class InstancePlacementConfig(BaseConfig):
    """How the instances are placed on UltraServers."""

    def __init__(self, *, enable_multiple_jobs: Optional[bool] = None,
                 placement_specifications: Optional[List[Dict[str, Any]]] = None) -> None:
        self._keep(locals())


class Compute(BaseConfig):
    """The instances: ``instance_type`` and ``instance_count``, or ``instance_groups`` for a
    heterogeneous cluster; the volume, a warm pool, managed spot. This package's own, never sent
    (docs/capacity.md): ``capacity_wait``, the seconds to wait when every instance group's choice has
    failed for capacity before the first choices are tried again, and ``capacity_attempts``, the most
    jobs a submission makes for capacity reasons."""

    _ours = ("capacity_wait", "capacity_attempts")

    def __init__(self, *, instance_type: Optional[str] = None, instance_count: Optional[int] = None,
                 volume_size_in_gb: Optional[int] = 30, volume_kms_key_id: Optional[str] = None,
                 keep_alive_period_in_seconds: Optional[int] = None,
                 instance_groups: Optional[List[InstanceGroup]] = None, training_plan_arn: Optional[str] = None,
                 instance_placement_config: Optional[InstancePlacementConfig] = None,
                 instance_preferences: Optional[List[Dict[str, Any]]] = None,
                 enable_managed_spot_training: Optional[bool] = None, capacity_wait: Optional[float] = None,
                 capacity_attempts: Optional[int] = None) -> None:
        self._keep(locals())


class ShuffleConfig(BaseConfig):
    """How a channel's S3 objects are shuffled."""

    def __init__(self, *, seed: int) -> None:
        self._keep(locals())


class S3DataSource(BaseConfig):
    """A channel's S3 data; ``instance_group_names``: the groups that receive it (default: every group)."""

    def __init__(self, *, s3_data_type: str, s3_uri: str, s3_data_distribution_type: Optional[str] = None,
                 attribute_names: Optional[List[str]] = None, instance_group_names: Optional[List[str]] = None,
                 model_access_config: Optional[Dict[str, Any]] = None,
                 hub_access_config: Optional[Dict[str, Any]] = None) -> None:
        self._keep(locals())


class FileSystemDataSource(BaseConfig):
    """A channel's data on EFS or FSx for Lustre."""

    def __init__(self, *, file_system_id: str, file_system_access_mode: str, file_system_type: str,
                 directory_path: str) -> None:
        self._keep(locals())


class HubAccessConfig(BaseConfig):
    """A private hub's model reference to a JumpStart public hub model (an S3DataSource's)."""

    def __init__(self, *, hub_content_arn: str) -> None:
        self._keep(locals())


class ModelAccessConfig(BaseConfig):
    """The model's end-user license agreement, accepted (an S3DataSource's)."""

    def __init__(self, *, accept_eula: bool) -> None:
        self._keep(locals())


class DatasetSource(BaseConfig):
    """A channel's data from a SageMaker dataset (not carried by this package: refused, naming SDK v3)."""

    def __init__(self, *, dataset_arn: str) -> None:
        self._keep(locals())


class DataSource(BaseConfig):
    """Where a ``Channel``'s data is: ``s3_data_source`` (or a file system, or a dataset)."""

    def __init__(self, *, s3_data_source: Optional[S3DataSource] = None,
                 file_system_data_source: Optional[FileSystemDataSource] = None,
                 dataset_source: Optional[DatasetSource] = None) -> None:
        self._keep(locals())


class Channel(BaseConfig):
    """One channel as the request writes it (``input_data_config`` takes it beside ``InputData``)."""

    def __init__(self, *, channel_name: str, data_source: DataSource, content_type: Optional[str] = None,
                 compression_type: Optional[str] = None, record_wrapper_type: Optional[str] = None,
                 input_mode: Optional[str] = None, shuffle_config: Optional[ShuffleConfig] = None) -> None:
        self._keep(locals())


class InputData(BaseConfig):
    """One channel: its name and its data (an S3 URI, an ``S3DataSource`` or a ``FileSystemDataSource``)."""

    def __init__(self, *, channel_name: Optional[str] = None,
                 data_source: Union[str, S3DataSource, FileSystemDataSource, None] = None,
                 content_type: Optional[str] = None) -> None:
        self._keep(locals())


class StoppingCondition(BaseConfig):
    """How long the job may run (default 3600 seconds), wait for spot capacity, and stay pending."""

    def __init__(self, *, max_runtime_in_seconds: Optional[int] = None, max_wait_time_in_seconds: Optional[int] = None,
                 max_pending_time_in_seconds: Optional[int] = None) -> None:
        self._keep(locals())


class OutputDataConfig(BaseConfig):
    """Where the model artifacts go (default ``s3://<default bucket>/<base job name>``), with which key."""

    def __init__(self, *, s3_output_path: Optional[str] = None, kms_key_id: Optional[str] = None,
                 compression_type: Optional[str] = None) -> None:
        self._keep(locals())


class CheckpointConfig(BaseConfig):
    """Where checkpoints are kept in S3 and on the hosts."""

    def __init__(self, *, s3_uri: Optional[str] = None, local_path: Optional[str] = "/opt/ml/checkpoints") -> None:
        self._keep(locals())


class TensorBoardOutputConfig(BaseConfig):
    """Where TensorBoard output is kept in S3 and on the hosts."""

    def __init__(self, *, s3_output_path: Optional[str] = None,
                 local_path: Optional[str] = "/opt/ml/output/tensorboard") -> None:
        self._keep(locals())


class Networking(BaseConfig):
    """The VPC, network isolation and the encryption of traffic between the hosts."""

    def __init__(self, *, security_group_ids: Optional[List[str]] = None, subnets: Optional[List[str]] = None,
                 enable_network_isolation: Optional[bool] = None,
                 enable_inter_container_traffic_encryption: Optional[bool] = None) -> None:
        self._keep(locals())


class Tag(BaseConfig):
    """A tag of the training job."""

    def __init__(self, *, key: str, value: str) -> None:
        self._keep(locals())


class TrainingRepositoryAuthConfig(BaseConfig):
    """The Lambda function that gives a private registry's credentials."""

    def __init__(self, *, training_repository_credentials_provider_arn: str) -> None:
        self._keep(locals())


class TrainingImageConfig(BaseConfig):
    """An image from a private Docker registry (``training_repository_access_mode="Vpc"``)."""

    def __init__(self, *, training_repository_access_mode: str,
                 training_repository_auth_config: Optional[TrainingRepositoryAuthConfig] = None) -> None:
        self._keep(locals())


class RetryStrategy(BaseConfig):
    """How many times the job is retried after an internal error (``with_retry_strategy``)."""

    def __init__(self, *, maximum_retry_attempts: int) -> None:
        self._keep(locals())


class MetricDefinition(BaseConfig):
    """A metric read from the logs (``with_metric_definitions``)."""

    def __init__(self, *, name: str, regex: str) -> None:
        self._keep(locals())


class InfraCheckConfig(BaseConfig):
    """The service's infrastructure checks before the job (``with_infra_check_config``)."""

    def __init__(self, *, enable_infra_check: Optional[bool] = None) -> None:
        self._keep(locals())


class RemoteDebugConfig(BaseConfig):
    """Remote debugging of the job's containers (``with_remote_debug_config``)."""

    def __init__(self, *, enable_remote_debug: Optional[bool] = None) -> None:
        self._keep(locals())


class SessionChainingConfig(BaseConfig):
    """Session tag chaining for the job's role (``with_session_chaining_config``)."""

    def __init__(self, *, enable_session_tag_chaining: Optional[bool] = None) -> None:
        self._keep(locals())
