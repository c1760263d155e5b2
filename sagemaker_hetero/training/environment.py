"""What a host of a SageMaker training job knows about itself, without the ``sagemaker-training`` toolkit.

:class:`Environment` has the toolkit's property names and values (``sagemaker_training.environment``)
and produces the same ``SM_*`` variables; it adds :meth:`Environment.instance_group_hosts` and
:meth:`Environment.announce` for scripts that fork by instance group. Standard library only.

::

    env = Environment()     # reads <$SAGEMAKER_BASE_DIR or /opt/ml>/input/config/*.json
    env.current_instance_group, env.is_hetero      # ('instance_group_2', True)
"""
import copy
import os
import sys

from collections.abc import Mapping

from . import _devices
from ._codec import env_value, to_cmd_args, to_json
from ._config import (
    HOMOGENEOUS_GROUP,
    HYPERPARAMETERS_FILE,
    INPUT_DATA_CONFIG_FILE,
    RESOURCE_CONFIG_FILE,
    distribution_groups,
    load_json,
    parse_hyperparameters,
    parse_input_data_config,
    parse_resource_config,
)
from ._marker import format_marker

__all__ = [
    "Environment",
    "to_cmd_args",
    "validate_smddprun",
    "validate_smddpmprun",
    "HOMOGENEOUS_GROUP",
    "BASE_DIR_ENV",
    "DEFAULT_BASE_DIR",
]

BASE_DIR_ENV = "SAGEMAKER_BASE_DIR"
DEFAULT_BASE_DIR = "/opt/ml"

# Every property, in the toolkit's naming; the mapping keys and the keys of SM_TRAINING_ENV.
PROPERTY_NAMES = (
    "additional_framework_parameters",
    "channel_input_dirs",
    "current_host",
    "current_instance_group",
    "current_instance_group_hosts",
    "current_instance_type",
    "distribution_hosts",
    "distribution_instance_groups",
    "framework_module",
    "hosts",
    "hyperparameters",
    "input_config_dir",
    "input_data_config",
    "input_dir",
    "instance_groups",
    "instance_groups_dict",
    "is_hetero",
    "is_master",
    "is_modelparallel_enabled",
    "is_smddpmprun_installed",
    "is_smddprun_installed",
    "job_name",
    "log_level",
    "master_hostname",
    "model_dir",
    "module_dir",
    "module_name",
    "network_interface_name",
    "num_cpus",
    "num_gpus",
    "num_neurons",
    "output_data_dir",
    "output_dir",
    "output_intermediate_dir",
    "resource_config",
    "topology",
    "user_entry_point",
)
_PROPERTY_SET = frozenset(PROPERTY_NAMES)

# Properties exported as SM_<NAME>; the others only through SM_TRAINING_ENV or under other names.
_EXPORTED = tuple(
    name
    for name in PROPERTY_NAMES
    if name
    not in (
        "additional_framework_parameters",  # SM_FRAMEWORK_PARAMS
        "channel_input_dirs",  # SM_CHANNELS, SM_CHANNEL_<NAME>
        "hyperparameters",  # SM_HPS, SM_HP_<NAME>, SM_USER_ARGS
        "distribution_hosts",
        "is_master",
        "is_modelparallel_enabled",
        "is_smddpmprun_installed",
        "is_smddprun_installed",
        "job_name",
        "master_hostname",
        "topology",  # SM_TOPOLOGY, only when not empty
    )
)
_MACHINE_COUNTS = ("num_cpus", "num_gpus", "num_neurons")

SMDDPRUN = "smddprun"
SMDDPMPRUN = "smddpmprun"


def validate_smddprun():
    """Whether the ``smddprun`` launcher (SageMaker distributed data parallel) is installed.

    The toolkit's function of that name: ``which smddprun`` finds it on ``$PATH``. Looked up
    without running ``which`` (see :func:`~sagemaker_hetero.training._devices.on_path`).
    """
    return _devices.on_path(SMDDPRUN, os.environ.get("PATH"))


def validate_smddpmprun():
    """Whether the ``smddpmprun`` launcher (used with SageMaker model parallel) is installed.

    The toolkit's function of that name: ``which smddpmprun`` finds it on ``$PATH``.
    """
    return _devices.on_path(SMDDPMPRUN, os.environ.get("PATH"))


def _prop(name, doc):
    def getter(self):
        return self._get(name)

    getter.__name__ = name
    return property(getter, doc=doc)


class Environment(Mapping):
    """The training job as seen from this host: cluster, instance groups, hyperparameters, paths.

    Reads ``input/config/{resourceconfig,hyperparameters,inputdataconfig}.json`` under the base
    directory (``base_dir``, else ``$SAGEMAKER_BASE_DIR``, else ``/opt/ml``). resourceconfig.json
    must exist; a missing hyperparameters.json or inputdataconfig.json counts as empty. Anything
    missing, corrupt or contradictory raises :class:`~sagemaker_hetero.exceptions.RuntimeConfigError`.

    Constructing one has no side effects; values are read-only (properties return copies).

    Parameters
    ----------
    resource_config : dict, optional
        In place of resourceconfig.json, as in the toolkit.
    input_data_config : dict, optional
        In place of inputdataconfig.json.
    hyperparameters : dict, optional
        In place of hyperparameters.json (decoded values).
    base_dir : str, optional
        The base directory (default: ``$SAGEMAKER_BASE_DIR``, else ``/opt/ml``).
    environ : dict, optional
        In place of ``os.environ`` (read once, here).
    """

    def __init__(
        self, resource_config=None, input_data_config=None, hyperparameters=None, *, base_dir=None, environ=None
    ):
        """Read the job's files; the parameters are the class's."""
        environ = os.environ if environ is None else environ
        self._base_dir = base_dir or environ.get(BASE_DIR_ENV) or DEFAULT_BASE_DIR
        self._counts = {}
        config_dir = os.path.join(self._base_dir, "input", "config")

        def source(file_name, given, argument):
            if given is not None:
                return given, "%s argument" % argument
            path = os.path.join(config_dir, file_name)
            return load_json(path, required=file_name == RESOURCE_CONFIG_FILE), path

        raw, rc_source = source(RESOURCE_CONFIG_FILE, resource_config, "resource_config")
        cluster = parse_resource_config(raw, rc_source)
        raw, hp_source = source(HYPERPARAMETERS_FILE, hyperparameters, "hyperparameters")
        user, framework, consumed = parse_hyperparameters(
            {} if raw is None else raw, hp_source, decoded=hyperparameters is not None
        )
        raw, idc_source = source(INPUT_DATA_CONFIG_FILE, input_data_config, "input_data_config")
        channels = parse_input_data_config({} if raw is None else raw, idc_source)
        dist_groups = distribution_groups(framework, cluster, hp_source)

        self._cluster = cluster
        self._consumed = consumed
        self._values = self._compute(cluster, user, framework, consumed, channels, dist_groups, environ)

    # -- construction -------------------------------------------------------------------------

    def _compute(self, cluster, user, framework, consumed, channels, dist_groups, environ):
        base = self._base_dir
        input_dir = os.path.join(base, "input")
        output_dir = os.path.join(base, "output")
        if cluster.has_groups:
            dist_hosts = [h for name, g in cluster.groups if name in dist_groups for h in g["hosts"]]
        else:
            dist_hosts = list(cluster.hosts)
        master = dist_hosts[0] if dist_hosts else cluster.hosts[0]
        entry_point = environ.get("SAGEMAKER_PROGRAM") or consumed.get("sagemaker_program")
        entry_point = None if entry_point is None else str(entry_point)
        submit_dir = consumed.get("sagemaker_submit_directory")
        mp_parameters = environ.get("SM_HP_MP_PARAMETERS")
        search_path = environ.get("PATH")
        return {
            "additional_framework_parameters": framework,
            "channel_input_dirs": {name: os.path.join(input_dir, "data", name) for name in channels},
            "current_host": cluster.current_host,
            "current_instance_group": cluster.current_group,
            "current_instance_group_hosts": cluster.hosts_of(cluster.current_group) if cluster.has_groups else [],
            "current_instance_type": cluster.current_instance_type,
            "distribution_hosts": dist_hosts,
            "distribution_instance_groups": dist_groups,
            "framework_module": environ.get("SAGEMAKER_TRAINING_MODULE"),
            "hosts": list(cluster.hosts),
            "hyperparameters": user,
            "input_config_dir": os.path.join(input_dir, "config"),
            "input_data_config": channels,
            "input_dir": input_dir,
            "instance_groups": [name for name, _ in cluster.groups],
            "instance_groups_dict": {name: group for name, group in cluster.groups},
            "is_hetero": len(cluster.groups) > 1,
            "is_master": cluster.current_host == master,
            "is_modelparallel_enabled": None if mp_parameters is None else mp_parameters not in ("", "{}"),
            "is_smddpmprun_installed": _devices.on_path(SMDDPMPRUN, search_path),
            "is_smddprun_installed": _devices.on_path(SMDDPRUN, search_path),
            "job_name": environ.get("TRAINING_JOB_NAME"),
            "log_level": consumed.get("sagemaker_container_log_level", 20),
            "master_hostname": master,
            "model_dir": os.path.join(base, "model"),
            "module_dir": os.path.join(base, "code") if submit_dir is None else str(submit_dir),
            "module_name": _module_name(entry_point),
            "network_interface_name": cluster.network_interface_name,
            "output_data_dir": os.path.join(output_dir, "data"),
            "output_dir": output_dir,
            "output_intermediate_dir": os.path.join(output_dir, "intermediate"),
            "resource_config": cluster.raw,
            "topology": cluster.topology,
            "user_entry_point": entry_point,
        }

    def _get(self, name):
        if name in _MACHINE_COUNTS:
            if name not in self._counts:
                self._counts[name] = self._count(name)
            return self._counts[name]
        return copy.deepcopy(self._values[name])

    def _count(self, name):
        if name == "num_cpus":
            return _devices.cpu_count()
        if name == "num_gpus":
            return _devices.gpu_count()
        return _devices.neuron_core_count(self._cluster.current_instance_type)

    # -- mapping protocol ---------------------------------------------------------------------

    def __getitem__(self, key):
        if key not in _PROPERTY_SET:
            raise KeyError(key)
        return self._get(key)

    def __iter__(self):
        return iter(PROPERTY_NAMES)

    def __len__(self):
        return len(PROPERTY_NAMES)

    def __str__(self):
        """``str(dict(env))``, as the toolkit prints an environment."""
        return str(dict(self))

    def __repr__(self):
        return "Environment(host=%r, group=%r, instance_type=%r, base_dir=%r)" % (
            self._values["current_host"],
            self._values["current_instance_group"],
            self._values["current_instance_type"],
            self._base_dir,
        )

    @staticmethod
    def properties():
        """Names of every property (the mapping keys), sorted."""
        return list(PROPERTY_NAMES)

    # -- outputs ------------------------------------------------------------------------------

    def to_env_vars(self):
        """The ``SM_*`` environment variables the toolkit exports for this host, as ``{str: str}``."""
        values = {name: self._get(name) for name in PROPERTY_NAMES}
        env = {"SM_" + name.upper(): env_value(values[name]) for name in _EXPORTED}
        if values["topology"]:
            env["SM_TOPOLOGY"] = env_value(values["topology"])
        env["SM_FRAMEWORK_PARAMS"] = env_value(values["additional_framework_parameters"])
        hyperparameters = values["hyperparameters"]
        env["SM_HPS"] = to_json(hyperparameters)
        for key, value in hyperparameters.items():
            env["SM_HP_" + key.upper()] = env_value(value)
        env["SM_USER_ARGS"] = to_json(to_cmd_args(hyperparameters))
        channels = values["channel_input_dirs"]
        env["SM_CHANNELS"] = to_json(sorted(channels))
        for channel, path in channels.items():
            env["SM_CHANNEL_" + channel.upper()] = path
        env["SM_TRAINING_ENV"] = to_json(values)
        return env

    def to_cmd_args(self):
        """The entry point's command-line arguments (``SM_USER_ARGS``); see :func:`to_cmd_args`."""
        return to_cmd_args(self._values["hyperparameters"])

    def sagemaker_s3_output(self):
        """The ``sagemaker_s3_output`` hyperparameter, or ``None``."""
        return copy.deepcopy(self._consumed.get("sagemaker_s3_output"))

    # -- instance groups ----------------------------------------------------------------------

    def instance_group_hosts(self, name):
        """The hosts of an instance group, in file order (a file without groups: all hosts).

        Raises ``ValueError`` naming the cluster's groups if ``name`` is not one of them.

        Parameters
        ----------
        name : str
            The instance group.
        """
        hosts = self._cluster.hosts_of(name)
        if hosts is None:
            raise ValueError(
                "unknown instance group %r; this cluster's groups are %r" % (name, self._cluster.group_names())
            )
        return hosts

    def announce(self, stream=None):
        """Print (and flush) ``[sagemaker-hetero] host=... group=... instance_type=...``; return it.

        Parameters
        ----------
        stream : file, optional
            Where to print (default: standard output).
        """
        line = format_marker(self.current_host, self.current_instance_group, self.current_instance_type)
        stream = sys.stdout if stream is None else stream
        stream.write(line + "\n")
        stream.flush()
        return line

    # -- extra read-only attributes (not part of the mapping) ---------------------------------

    @property
    def base_dir(self):
        """The base directory the files were read from (``/opt/ml`` in a job)."""
        return self._base_dir

    @property
    def code_dir(self):
        """``<base>/code``: where SageMaker unpacks the code archive."""
        return os.path.join(self._base_dir, "code")

    # -- properties (toolkit names) -----------------------------------------------------------

    additional_framework_parameters = _prop(
        "additional_framework_parameters", "``sagemaker_*`` hyperparameters the container does not consume, decoded."
    )
    channel_input_dirs = _prop("channel_input_dirs", "``{channel: <base>/input/data/<channel>}``.")
    current_host = _prop("current_host", "This host's name, e.g. ``algo-1``.")
    current_instance_group = _prop(
        "current_instance_group", "This host's instance group (``homogeneousCluster`` without groups)."
    )
    current_instance_group_hosts = _prop(
        "current_instance_group_hosts", "Hosts of this host's group, file order (``[]`` for an old file)."
    )
    current_instance_type = _prop("current_instance_type", "This host's instance type (``local`` if not given).")
    distribution_hosts = _prop(
        "distribution_hosts", "Hosts of the distribution groups, file order; all hosts for an old file."
    )
    distribution_instance_groups = _prop(
        "distribution_instance_groups", "Groups that launch the distributed (MPI, torchrun, ...) processes."
    )
    framework_module = _prop("framework_module", "``$SAGEMAKER_TRAINING_MODULE`` or ``None``.")
    hosts = _prop("hosts", "Every host of the job, as in resourceconfig.json.")
    hyperparameters = _prop("hyperparameters", "User hyperparameters, JSON-decoded where possible.")
    input_config_dir = _prop("input_config_dir", "``<base>/input/config``.")
    input_data_config = _prop("input_data_config", "inputdataconfig.json: ``{channel: config}``.")
    input_dir = _prop("input_dir", "``<base>/input``.")
    instance_groups = _prop("instance_groups", "Group names in file order (``[]`` for an old file).")
    instance_groups_dict = _prop("instance_groups_dict", "``{name: group as in resourceconfig.json}``.")
    is_hetero = _prop("is_hetero", "True if the cluster has more than one instance group.")
    is_master = _prop("is_master", "True if this host is ``master_hostname``.")
    is_modelparallel_enabled = _prop(
        "is_modelparallel_enabled", "From ``$SM_HP_MP_PARAMETERS``: ``None`` if unset, else whether non-empty."
    )
    is_smddpmprun_installed = _prop(
        "is_smddpmprun_installed", "Whether ``smddpmprun`` is on ``$PATH`` (as ``which`` finds it), when built."
    )
    is_smddprun_installed = _prop(
        "is_smddprun_installed", "Whether ``smddprun`` is on ``$PATH`` (as ``which`` finds it), when built."
    )
    job_name = _prop("job_name", "``$TRAINING_JOB_NAME`` or ``None``.")
    log_level = _prop("log_level", "``sagemaker_container_log_level`` (default 20, ``logging.INFO``).")
    master_hostname = _prop("master_hostname", "First distribution host, else the first host.")
    model_dir = _prop("model_dir", "``<base>/model``: saved to model.tar.gz in S3.")
    module_dir = _prop("module_dir", "``sagemaker_submit_directory`` (default ``<base>/code``).")
    module_name = _prop("module_name", "The entry point without a trailing ``.py``, or ``None``.")
    network_interface_name = _prop("network_interface_name", "Network interface (default ``eth0``).")
    num_cpus = _prop("num_cpus", "CPUs of this machine.")
    num_gpus = _prop("num_gpus", "NVIDIA GPUs visible (``/dev/nvidia<N>``); counted on first use.")
    num_neurons = _prop("num_neurons", "Neuron cores visible; counted on first use.")
    output_data_dir = _prop("output_data_dir", "``<base>/output/data``: saved to output.tar.gz in S3.")
    output_dir = _prop("output_dir", "``<base>/output``.")
    output_intermediate_dir = _prop("output_intermediate_dir", "``<base>/output/intermediate``.")
    resource_config = _prop("resource_config", "resourceconfig.json as read.")
    topology = _prop("topology", "The file's ``topology`` (``[]`` if absent, ``None`` if null).")
    user_entry_point = _prop("user_entry_point", "``$SAGEMAKER_PROGRAM`` or ``sagemaker_program``, or ``None``.")


def _module_name(entry_point):
    if entry_point is None:
        return None
    return entry_point[: -len(".py")] if entry_point.endswith(".py") else entry_point
