"""The simulated cluster as plain data, read from the job model (pure: no I/O).

Which ``algo-N`` belongs to which instance group, each host's loopback address, the three config
files SageMaker writes on each host, and which channels (and, for ``ShardedByS3Key``, which files)
each host receives.
"""
import random

import attrs


__all__ = [
    "ASSIGNMENTS",
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


def groups_of(job):
    """``[(group, instance type, count)]`` of the job (one ``homogeneousCluster`` without groups)."""
    return [(g.name, g.instance_type, g.count) for g in job.groups]


def assign_hosts(job, assignment="ordered", seed=None):
    """The :class:`Cluster` of ``job`` with ``algo-N`` names given to its groups.

    ``"ordered"``: the first group gets ``algo-1``..``algo-k``, the next group the following names,
    each group's hosts sorted. ``"shuffled"``: names are drawn at random (``random.Random(seed)``), so
    groups get scattered names and each group's hosts are listed unsorted, as SageMaker may do.
    """
    if assignment not in ASSIGNMENTS:
        raise ValueError("assignment must be one of %s (got %r)" % (", ".join(map(repr, ASSIGNMENTS)), assignment))
    groups = groups_of(job)
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
    kind = attrs.field(default="input")  # or the job model's "model" / "code"


def channels_of(job, code_uri=None):
    """The job's channels as :class:`Channel`, in request order; ``code_uri``: where the code archive
    of a network-isolated job is (its ``code`` channel)."""
    out = []
    for channel in job.channels:
        mode = channel.input_mode or job.input_mode
        config = {
            "TrainingInputMode": mode,
            "S3DistributionType": channel.distribution,
            "RecordWrapperType": channel.record_wrapping or "None",
        }
        if channel.content_type is not None:
            config["ContentType"] = channel.content_type
        out.append(
            Channel(
                name=channel.name,
                uri=code_uri if channel.uri is None else channel.uri,
                groups=channel.groups,
                distribution=channel.distribution,
                config=config,
                data_type=None if channel.is_local else channel.data_type,
                input_mode=mode,
                kind=channel.kind,
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

