"""Reading and checking the three config files SageMaker writes into every host.

Every problem is raised as :class:`~sagemaker_hetero.exceptions.RuntimeConfigError` naming the file
(or the constructor argument) and what was expected; all problems of one file are reported at once.
"""
import json

from .._defaults import HOMOGENEOUS_GROUP
from ..exceptions import RuntimeConfigError
from ._codec import decode_value, split_hyperparameters

__all__ = [
    "HOMOGENEOUS_GROUP",
    "RESOURCE_CONFIG_FILE",
    "HYPERPARAMETERS_FILE",
    "INPUT_DATA_CONFIG_FILE",
    "DISTRIBUTION_GROUPS_KEY",
    "DISTRIBUTION_FLAGS",
    "Cluster",
    "load_json",
    "parse_resource_config",
    "parse_hyperparameters",
    "parse_input_data_config",
    "distribution_groups",
]

RESOURCE_CONFIG_FILE = "resourceconfig.json"
HYPERPARAMETERS_FILE = "hyperparameters.json"
INPUT_DATA_CONFIG_FILE = "inputdataconfig.json"

DISTRIBUTION_GROUPS_KEY = "sagemaker_distribution_instance_groups"
# Any of these true (and no explicit groups): the current group is the distribution group.
DISTRIBUTION_FLAGS = (
    "sagemaker_mpi_enabled",
    "sagemaker_parameter_server_enabled",
    "sagemaker_distributed_dataparallel_enabled",
    "sagemaker_pytorch_ddp_enabled",
    "sagemaker_pytorch_xla_multi_worker_enabled",
    "sagemaker_multi_worker_mirrored_strategy_enabled",
    "sagemaker_torch_distributed_enabled",
)

_GROUP_KEYS = ("current_group_name", "current_instance_group")


def load_json(path, required):
    """The parsed JSON document at ``path``; ``None`` if it is absent and not ``required``."""
    try:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8")
    except FileNotFoundError:
        if not required:
            return None
        raise RuntimeConfigError(
            path, "file not found; expected SageMaker to write it (is SAGEMAKER_BASE_DIR right?)"
        )
    except OSError as error:
        raise RuntimeConfigError(path, "cannot be read (%s)" % (error.strerror or error,))
    except UnicodeDecodeError as error:
        raise RuntimeConfigError(path, "is not UTF-8 text (%s)" % (error,))
    if not text.strip():
        raise RuntimeConfigError(path, "is empty; expected a JSON object")
    try:
        return json.loads(text)
    except ValueError as error:
        raise RuntimeConfigError(path, "is not valid JSON (%s)" % (error,))


class Cluster(object):
    """The cluster as resourceconfig.json describes it, checked for consistency."""

    __slots__ = (
        "raw",
        "current_host",
        "hosts",
        "current_instance_type",
        "current_group",
        "groups",
        "network_interface_name",
        "topology",
    )

    def __init__(self, raw, current_host, hosts, current_group, groups):
        self.raw = raw
        self.current_host = current_host
        self.hosts = hosts
        self.current_group = current_group
        self.groups = groups  # [(name, dict from the file)], file order; [] for an old file
        self.current_instance_type = _string_or(raw.get("current_instance_type"), "local")
        self.network_interface_name = _string_or(raw.get("network_interface_name"), "eth0")
        self.topology = raw.get("topology", [])

    @property
    def has_groups(self):
        return bool(self.groups)

    def group_names(self):
        """Names of the groups; an old file without groups has one: the current group."""
        return [name for name, _ in self.groups] if self.groups else [self.current_group]

    def hosts_of(self, name):
        """Hosts of group ``name`` in file order, or ``None`` if there is no such group."""
        for group_name, group in self.groups:
            if group_name == name:
                return list(group["hosts"])
        if not self.groups and name == self.current_group:
            return list(self.hosts)
        return None


def _string_or(value, default):
    return value if isinstance(value, str) else default


def _kind(value):
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__
    )


def _is_name(value):
    return isinstance(value, str) and value != ""


def _raise(source, problems):
    if len(problems) == 1:
        raise RuntimeConfigError(source, problems[0])
    lines = ["%d problems:" % len(problems)] + ["  - %s" % p for p in problems]
    raise RuntimeConfigError(source, "\n".join(lines))


def parse_resource_config(data, source):
    """Check a decoded resourceconfig.json and return the :class:`Cluster` it describes."""
    if not isinstance(data, dict):
        raise RuntimeConfigError(source, "expected a JSON object, got %s" % _kind(data))
    problems = []
    current_host = _required_host(data, problems)
    hosts = _host_list(data, problems)
    for key in ("current_instance_type", "network_interface_name") + _GROUP_KEYS:
        if data.get(key) is not None and not isinstance(data[key], str):
            problems.append("'%s' must be a string (got %r)" % (key, data[key]))
    named = _named_group(data, problems)
    groups = _groups(data, problems)
    if problems:
        _raise(source, problems)

    if current_host not in hosts:
        problems.append("current host %r is not in 'hosts' %r" % (current_host, hosts))
    current_group = named or HOMOGENEOUS_GROUP
    if groups is not None:
        owner = _check_membership(hosts, groups, problems)
        current_group = _current_group(current_host, named, groups, owner, problems)
    if problems:
        _raise(source, problems)
    return Cluster(data, current_host, hosts, current_group, groups or [])


def _required_host(data, problems):
    if "current_host" not in data:
        problems.append("'current_host' is missing; expected the name of this host, e.g. 'algo-1'")
    elif not _is_name(data["current_host"]):
        problems.append("'current_host' must be a non-empty string (got %r)" % (data["current_host"],))
    return data.get("current_host")


def _host_list(data, problems):
    hosts = data.get("hosts")
    if "hosts" not in data:
        problems.append("'hosts' is missing; expected the list of every host of the job")
        return []
    if not isinstance(hosts, list) or not all(_is_name(h) for h in hosts):
        problems.append("'hosts' must be a list of host names (got %r)" % (hosts,))
        return []
    if not hosts:
        problems.append("'hosts' is empty; expected at least the current host")
    for host in sorted(set(h for h in hosts if hosts.count(h) > 1)):
        problems.append("'hosts' lists %r %d times; expected each host once" % (host, hosts.count(host)))
    return list(hosts)


def _named_group(data, problems):
    names = [data[k] for k in _GROUP_KEYS if isinstance(data.get(k), str)]
    if len(names) == 2 and names[0] != names[1]:
        problems.append(
            "'current_group_name' is %r but 'current_instance_group' is %r; expected the same group"
            % tuple(names)
        )
    return names[0] if names else None


def _groups(data, problems):
    """[(name, group)] in file order, or None when the file has no (or a null) 'instance_groups'."""
    raw = data.get("instance_groups")
    if raw is None:
        return None
    if not isinstance(raw, list):
        problems.append("'instance_groups' must be a list of groups (got %s)" % _kind(raw))
        return None
    groups, seen = [], set()
    for index, group in enumerate(raw):
        where = "instance_groups[%d]" % index
        if not isinstance(group, dict):
            problems.append("%s must be an object (got %s)" % (where, _kind(group)))
            continue
        name, hosts = group.get("instance_group_name"), group.get("hosts")
        if not _is_name(name):
            problems.append("%s.instance_group_name must be a non-empty string (got %r)" % (where, name))
            continue
        if name in seen:
            problems.append("instance group %r is listed twice; expected unique group names" % name)
            continue
        seen.add(name)
        if not isinstance(hosts, list) or not all(_is_name(h) for h in hosts):
            problems.append("%s (%r).hosts must be a list of host names (got %r)" % (where, name, hosts))
            continue
        if group.get("instance_type") is not None and not isinstance(group["instance_type"], str):
            problems.append("%s (%r).instance_type must be a string (got %r)" % (where, name, group["instance_type"]))
        groups.append((name, group))
    return groups


def _check_membership(hosts, groups, problems):
    """Each host in exactly one group, each group host in 'hosts'. Returns {host: group}."""
    owner = {}
    for name, group in groups:
        for host in group["hosts"]:
            if host not in hosts:
                problems.append("instance group %r lists host %r, which is not in 'hosts' %r" % (name, host, hosts))
            elif host not in owner:
                owner[host] = name
            elif owner[host] == name:
                problems.append("instance group %r lists host %r twice; expected each host once" % (name, host))
            else:
                problems.append("host %r is in two instance groups, %r and %r; expected one" % (host, owner[host], name))
    for host in hosts:
        if host not in owner:
            problems.append(
                "host %r is in no instance group; expected every host of 'hosts' in one of %r"
                % (host, [n for n, _ in groups])
            )
    return owner


def _current_group(current_host, named, groups, owner, problems):
    names = [n for n, _ in groups]
    actual = owner.get(current_host)
    if named is None:
        return actual or HOMOGENEOUS_GROUP
    if named not in names:
        problems.append("current group %r is not one of the instance groups %r" % (named, names))
    elif actual is not None and actual != named:
        problems.append(
            "current host %r is in instance group %r, but the current group is %r" % (current_host, actual, named)
        )
    return named


def parse_hyperparameters(data, source, decoded=False):
    """Check hyperparameters and return ``(user, framework, consumed)`` (see ``split_hyperparameters``).

    ``decoded``: the values are already decoded (constructor argument), not JSON strings.
    """
    if not isinstance(data, dict):
        raise RuntimeConfigError(source, "expected a JSON object of name: value, got %s" % _kind(data))
    bad = [key for key in data if not isinstance(key, str)]
    if bad:
        raise RuntimeConfigError(source, "hyperparameter names must be strings (got %r)" % (bad,))
    values = data if decoded else {key: decode_value(raw) for key, raw in data.items()}
    return split_hyperparameters(values)


def parse_input_data_config(data, source):
    """Check inputdataconfig.json: an object with one entry per channel."""
    if not isinstance(data, dict):
        raise RuntimeConfigError(source, "expected a JSON object of channel: config, got %s" % _kind(data))
    bad = [n for n in data if not isinstance(n, str) or n in ("", ".", "..") or "/" in n]
    if bad:
        raise RuntimeConfigError(
            source, "channel names must be folder names, without '/' (got %s)" % ", ".join(repr(n) for n in bad)
        )
    return data


def distribution_groups(framework, cluster, source):
    """The groups that launch the distributed processes (``distribution_instance_groups``)."""
    if DISTRIBUTION_GROUPS_KEY not in framework:
        if any(framework.get(flag) for flag in DISTRIBUTION_FLAGS):
            return [cluster.current_group]
        return []
    value = framework[DISTRIBUTION_GROUPS_KEY]
    if not isinstance(value, list) or not all(isinstance(g, str) for g in value):
        raise RuntimeConfigError(
            source, "'%s' must be a list of instance group names (got %r)" % (DISTRIBUTION_GROUPS_KEY, value)
        )
    known = cluster.group_names()
    unknown = [g for g in value if g not in known]
    if unknown:
        raise RuntimeConfigError(
            source,
            "'%s' names %s, not an instance group of this cluster; the cluster's groups are %r"
            % (DISTRIBUTION_GROUPS_KEY, ", ".join(repr(g) for g in unknown), known),
        )
    return list(value)
