"""The simulated cluster as plain data: names given to groups, config files, channel routing (no processes)."""
import pytest

from sagemaker_hetero._request.describe import job_from_description as job_of
from sagemaker_hetero.local import _cluster

SEED_REQUEST = {
    "AlgorithmSpecification": {"TrainingInputMode": "File", "TrainingImage": "img"},
    "ResourceConfig": {
        "InstanceGroups": [
            {"InstanceGroupName": "instance_group_1", "InstanceType": "ml.c5.18xlarge", "InstanceCount": 2},
            {"InstanceGroupName": "instance_group_2", "InstanceType": "ml.p3dn.24xlarge", "InstanceCount": 1},
        ],
        "VolumeSizeInGB": 30,
    },
    "InputDataConfig": [
        {
            "ChannelName": "training",
            "DataSource": {
                "S3DataSource": {
                    "S3DataType": "S3Prefix",
                    "S3Uri": "s3://bucket/folder1",
                    "S3DataDistributionType": "FullyReplicated",
                    "InstanceGroupNames": ["instance_group_1"],
                }
            },
            "InputMode": "File",
        },
        {
            "ChannelName": "dummy-input-channel",
            "DataSource": {"FileDataSource": {"FileUri": "file:///data/f2", "FileDataDistributionType": "ShardedByS3Key"}},
            "ContentType": "text/csv",
        },
    ],
}


def test_ordered_assignment_gives_consecutive_sorted_names_in_group_order():
    cluster = _cluster.assign_hosts(job_of(SEED_REQUEST))
    assert cluster.host_names == ["algo-1", "algo-2", "algo-3"]
    assert cluster.groups == (
        ("instance_group_1", "ml.c5.18xlarge", ("algo-1", "algo-2")),
        ("instance_group_2", "ml.p3dn.24xlarge", ("algo-3",)),
    )
    assert [(h.name, h.group, h.instance_type) for h in cluster.hosts] == [
        ("algo-1", "instance_group_1", "ml.c5.18xlarge"),
        ("algo-2", "instance_group_1", "ml.c5.18xlarge"),
        ("algo-3", "instance_group_2", "ml.p3dn.24xlarge"),
    ]


def test_resource_config_has_sagemakers_exact_keys_and_values():
    cluster = _cluster.assign_hosts(job_of(SEED_REQUEST)).with_addresses(["127.9.9.1", "127.9.9.2", "127.9.9.3"])
    assert cluster.resource_config("algo-3") == {
        "current_host": "algo-3",
        "current_instance_type": "ml.p3dn.24xlarge",
        "current_group_name": "instance_group_2",
        "hosts": ["algo-1", "algo-2", "algo-3"],
        "instance_groups": [
            {"instance_group_name": "instance_group_1", "instance_type": "ml.c5.18xlarge", "hosts": ["algo-1", "algo-2"]},
            {"instance_group_name": "instance_group_2", "instance_type": "ml.p3dn.24xlarge", "hosts": ["algo-3"]},
        ],
        "network_interface_name": "eth0",
    }
    assert cluster.host("algo-2").address == "127.9.9.2"


def test_homogeneous_job_is_one_group_named_homogeneous_cluster():
    request = {"ResourceConfig": {"InstanceType": "ml.m5.large", "InstanceCount": 2}}
    config = _cluster.assign_hosts(job_of(request)).resource_config("algo-2")
    assert config["current_group_name"] == "homogeneousCluster"
    assert config["instance_groups"] == [
        {"instance_group_name": "homogeneousCluster", "instance_type": "ml.m5.large", "hosts": ["algo-1", "algo-2"]}
    ]


def test_shuffled_assignment_is_deterministic_for_a_seed():
    first = _cluster.assign_hosts(job_of(SEED_REQUEST), "shuffled", seed=11)
    again = _cluster.assign_hosts(job_of(SEED_REQUEST), "shuffled", seed=11)
    assert first == again
    assert sorted(first.host_names) == first.host_names == ["algo-1", "algo-2", "algo-3"]
    assert sorted(h for _, _, hosts in first.groups for h in hosts) == ["algo-1", "algo-2", "algo-3"]


def test_shuffled_assignment_differs_from_ordered_for_some_seed_and_lists_group_hosts_unsorted():
    ordered = _cluster.assign_hosts(job_of(SEED_REQUEST)).groups
    draws = [_cluster.assign_hosts(job_of(SEED_REQUEST), "shuffled", seed=s).groups for s in range(20)]
    assert any(d != ordered for d in draws)
    assert any(list(hosts) != sorted(hosts) for d in draws for _, _, hosts in d)
    assert len(set(draws)) > 1


def test_unknown_assignment_is_refused():
    with pytest.raises(ValueError, match="'ordered', 'shuffled'"):
        _cluster.assign_hosts(job_of(SEED_REQUEST), "random")


def test_addresses_one_per_host_in_the_jobs_network_or_shared():
    assert _cluster.host_addresses(3, (41, 7)) == ["127.41.7.1", "127.41.7.2", "127.41.7.3"]
    assert _cluster.host_addresses(2) == ["127.0.0.1", "127.0.0.1"]
    with pytest.raises(ValueError, match="at most 254 hosts"):
        _cluster.host_addresses(255, (1, 1))


def _with_file_groups(request, groups):
    """``request`` whose FileDataSource channel names ``groups`` (as the core renders file:// channels)."""
    import copy

    out = copy.deepcopy(request)
    out["InputDataConfig"][1]["DataSource"]["FileDataSource"]["InstanceGroupNames"] = list(groups)
    return out


def test_channels_route_by_instance_group_names_of_s3_and_file_channels():
    channels = _cluster.channels_of(job_of(_with_file_groups(SEED_REQUEST, ["instance_group_2"])))
    assert [(c.name, c.uri, c.groups, c.distribution) for c in channels] == [
        ("training", "s3://bucket/folder1", ("instance_group_1",), "FullyReplicated"),
        ("dummy-input-channel", "file:///data/f2", ("instance_group_2",), "ShardedByS3Key"),
    ]
    cluster = _cluster.assign_hosts(job_of(SEED_REQUEST))
    assert _cluster.input_data_config(channels, cluster.host("algo-1")) == {
        "training": {"TrainingInputMode": "File", "S3DistributionType": "FullyReplicated", "RecordWrapperType": "None"}
    }
    assert _cluster.input_data_config(channels, cluster.host("algo-3")) == {
        "dummy-input-channel": {
            "TrainingInputMode": "File",
            "S3DistributionType": "ShardedByS3Key",
            "RecordWrapperType": "None",
            "ContentType": "text/csv",
        }
    }


def test_a_channel_without_groups_goes_to_every_host():
    channels = _cluster.channels_of(job_of(SEED_REQUEST))  # the file channel names no group
    cluster = _cluster.assign_hosts(job_of(SEED_REQUEST))
    assert [sorted(_cluster.input_data_config(channels, h)) for h in cluster.hosts] == [
        ["dummy-input-channel", "training"],
        ["dummy-input-channel", "training"],
        ["dummy-input-channel"],
    ]


def test_sharding_splits_sorted_files_round_robin_over_the_readers():
    files = ["c.csv", "a.csv", "b.csv", "d.csv", "e.csv"]
    readers = ["algo-3", "algo-1"]
    assert _cluster.shard(files, readers, "algo-3") == ["a.csv", "c.csv", "e.csv"]
    assert _cluster.shard(files, readers, "algo-1") == ["b.csv", "d.csv"]
