"""The simulated cluster as plain data, read from a CreateTrainingJob request (pure: no I/O).

Which ``algo-N`` belongs to which instance group, each host's loopback address, the three config
files SageMaker writes on each host, and which channels (and, for ``ShardedByS3Key``, which files)
each host receives.
"""
import random

import attrs

__all__ = [
    "ASSIGNMENTS",
    "HOMOGENEOUS_GROUP",
    "NETWORK_INTERFACE",
    "MAX_HOSTS",
    "Host",
    "Cluster",
    "Channel",
    "assign_hosts",
    "groups_of",
    "host_addresses",
    "channels_of",
    "input_data_config",
    "receives",
    "shard",
]

ASSIGNMENTS = ("ordered", "shuffled")
HOMOGENEOUS_GROUP = "homogeneousCluster"
NETWORK_INTERFACE = "eth0"
MAX_HOSTS = 254  # one loopback /24 per job


@attrs.frozen
class Host(object):
    """One simulated instance: ``algo-N``, its group and instance type, its loopback address."""

    name = attrs.field()
    group = attrs.field()
    instance_type = attrs.field()
    address = attrs.field(default="127.0.0.1")


@attrs.frozen
class Cluster(object):
    """Every host (``algo-1``, ``algo-2``, ... in order) and the groups in request order.

    ``groups`` is ``((name, instance_type, (host, ...)), ...)``; hosts inside a group are listed in
    the order SageMaker would write them (not sorted when the assignment is shuffled).
    """

    hosts = attrs.field()
    groups = attrs.field()

    @property
    def host_names(self):
        return [h.name for h in self.hosts]

    def host(self, name):
        for h in self.hosts:
            if h.name == name:
                return h
        raise KeyError(name)

    def hosts_of(self, groups):
        """Host names of ``groups`` (names; ``None`` = every group): group order, then file order."""
        return [h for name, _, hosts in self.groups if groups is None or name in groups for h in hosts]

    def resource_config(self, name):
        """``resourceconfig.json`` as written on host ``name``."""
        host = self.host(name)
        return {
            "current_host": host.name,
            "current_instance_type": host.instance_type,
            "current_group_name": host.group,
            "hosts": self.host_names,
            "instance_groups": [
                {"instance_group_name": group, "instance_type": itype, "hosts": list(hosts)}
                for group, itype, hosts in self.groups
            ],
            "network_interface_name": NETWORK_INTERFACE,
        }

    def with_addresses(self, addresses):
        """The same cluster with ``addresses[i]`` for ``hosts[i]``."""
        return attrs.evolve(self, hosts=tuple(attrs.evolve(h, address=a) for h, a in zip(self.hosts, addresses)))


def groups_of(request):
    """``[(group, instance type, count)]`` of the request (one ``homogeneousCluster`` without groups)."""
    resource = request["ResourceConfig"]
    if "InstanceGroups" in resource:
        return [(g["InstanceGroupName"], g["InstanceType"], g["InstanceCount"]) for g in resource["InstanceGroups"]]
    return [(HOMOGENEOUS_GROUP, resource["InstanceType"], resource["InstanceCount"])]


def assign_hosts(request, assignment="ordered", seed=None):
    """The :class:`Cluster` of ``request`` with ``algo-N`` names given to its groups.

    ``"ordered"``: the first group gets ``algo-1``..``algo-k``, the next group the following names,
    each group's hosts sorted. ``"shuffled"``: names are drawn at random (``random.Random(seed)``), so
    groups get scattered names and each group's hosts are listed unsorted, as SageMaker may do.
    """
    if assignment not in ASSIGNMENTS:
        raise ValueError("assignment must be one of %s (got %r)" % (", ".join(map(repr, ASSIGNMENTS)), assignment))
    groups = groups_of(request)
    total = sum(count for _, _, count in groups)
    names = ["algo-%d" % (i + 1) for i in range(total)]
    order = list(names)
    if assignment == "shuffled":
        random.Random(seed).shuffle(order)
    owner, out, start = {}, [], 0
    for group, itype, count in groups:
        members = order[start:start + count]
        start += count
        for name in members:
            owner[name] = (group, itype)
        out.append((group, itype, tuple(members)))
    hosts = tuple(Host(name, owner[name][0], owner[name][1]) for name in names)
    return Cluster(hosts=hosts, groups=tuple(out))


def host_addresses(count, network=None):
    """Loopback addresses for ``count`` hosts: ``127.A.B.1``, ``127.A.B.2``, ... for ``network=(A, B)``.

    ``network=None``: every host shares ``127.0.0.1`` (where only 127.0.0.1 is routed to loopback).
    """
    if count > MAX_HOSTS:
        raise ValueError("a local job runs at most %d hosts (got %d)" % (MAX_HOSTS, count))
    if network is None:
        return ["127.0.0.1"] * count
    a, b = network
    return ["127.%d.%d.%d" % (a, b, i + 1) for i in range(count)]


@attrs.frozen
class Channel(object):
    """One channel of the request, as the simulator needs it.

    ``uri``: ``file://...`` or ``s3://...``; ``groups``: group names receiving it (``None`` = all);
    ``distribution``: ``FullyReplicated`` or ``ShardedByS3Key``; ``config``: the channel's entry
    in inputdataconfig.json; ``data_type``: ``S3Prefix`` etc. (``None`` for a file channel).
    """

    name = attrs.field()
    uri = attrs.field()
    groups = attrs.field()
    distribution = attrs.field()
    config = attrs.field()
    data_type = attrs.field(default=None)
    input_mode = attrs.field(default="File")


def channels_of(request):
    """The request's channels as :class:`Channel`, in request order (``InstanceGroupNames`` of an
    ``S3DataSource`` or ``FileDataSource`` says which groups receive one; none: every group)."""
    default_mode = request.get("AlgorithmSpecification", {}).get("TrainingInputMode", "File")
    out = []
    for body in request.get("InputDataConfig") or ():
        source = body["DataSource"]
        if "S3DataSource" in source:
            s3 = source["S3DataSource"]
            uri, distribution, data_type = s3["S3Uri"], s3.get("S3DataDistributionType"), s3.get("S3DataType")
            groups = s3.get("InstanceGroupNames")
        else:
            fds = source["FileDataSource"]
            uri, distribution, data_type = fds["FileUri"], fds.get("FileDataDistributionType"), None
            groups = fds.get("InstanceGroupNames")
        distribution = distribution or "FullyReplicated"
        mode = body.get("InputMode") or default_mode
        config = {
            "TrainingInputMode": mode,
            "S3DistributionType": distribution,
            "RecordWrapperType": body.get("RecordWrapperType") or "None",
        }
        if body.get("ContentType") is not None:
            config["ContentType"] = body["ContentType"]
        out.append(
            Channel(
                name=body["ChannelName"],
                uri=uri,
                groups=None if groups is None else tuple(groups),
                distribution=distribution,
                config=config,
                data_type=data_type,
                input_mode=mode,
            )
        )
    return out


def receives(channel, host):
    return channel.groups is None or host.group in channel.groups


def input_data_config(channels, host):
    """``inputdataconfig.json`` on ``host``: the channels of its group only."""
    return {c.name: dict(c.config) for c in channels if receives(c, host)}


def shard(files, hosts, host):
    """The files ``host`` gets of a ``ShardedByS3Key`` channel read by ``hosts`` (sorted, round robin)."""
    files = sorted(files)
    index = list(hosts).index(host)
    return files[index :: len(hosts)]

