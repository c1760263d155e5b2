"""``_model.user``: the user's InstanceGroup, TrainingInput and ShuffleConfig, in the SDK v2's names and order;
their values are checked with the job, each problem under the user's path."""
import pytest

from sagemaker_hetero.inputs import ShuffleConfig, TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from tests._pure import PYTORCH, problems


def test_an_instance_group_takes_the_sdk_v2s_order_and_names():
    g = InstanceGroup("data", "ml.c5.xlarge", 2)
    assert (g.instance_group_name, g.instance_type, g.instance_count) == ("data", "ml.c5.xlarge", 2)
    assert (g.name, g.type, g.count) == ("data", "ml.c5.xlarge", 2)
    assert InstanceGroup() == InstanceGroup(None, None, None)
    assert type(g).__module__ == "sagemaker_hetero.instance_group"
    assert TrainingInput.__module__ == ShuffleConfig.__module__ == "sagemaker_hetero.inputs"


CONFIGS = [
    (TrainingInput("s3://b/t"), {"DataSource": {"S3DataSource": {"S3DataType": "S3Prefix", "S3Uri": "s3://b/t",
                                                                  "S3DataDistributionType": "FullyReplicated"}}}),
    (TrainingInput("s3://b/t", instance_groups=["a", InstanceGroup("b", "ml.c5.xlarge", 1)]),
     {"DataSource": {"S3DataSource": {"S3DataType": "S3Prefix", "S3Uri": "s3://b/t", "S3DataDistributionType": "FullyReplicated",
                                      "InstanceGroupNames": ["a", "b"]}}}),
    (TrainingInput("s3://b/t", distribution="ShardedByS3Key", input_mode="Pipe", compression="Gzip", content_type="text/csv",
                   record_wrapping="RecordIO", shuffle_config=ShuffleConfig(3)),
     {"DataSource": {"S3DataSource": {"S3DataType": "S3Prefix", "S3Uri": "s3://b/t", "S3DataDistributionType": "ShardedByS3Key"}},
      "InputMode": "Pipe", "CompressionType": "Gzip", "ContentType": "text/csv", "RecordWrapperType": "RecordIO",
      "ShuffleConfig": {"Seed": 3}}),
]


@pytest.mark.parametrize("value, body", CONFIGS)
def test_a_training_inputs_config_is_its_channel_in_the_request(value, body):
    assert value.config == body


# (id, the groups and inputs, the problem's path, a fragment of its message)
VALUES = [
    ("a count of 0", dict(instance_groups=[InstanceGroup("a", "ml.c5.xlarge", 0)]), None,
     "instance_groups[0].instance_count", "must be an integer >= 1"),
    ("two groups of one name", dict(instance_groups=[InstanceGroup("a", "ml.c5.xlarge", 1), InstanceGroup("a", "ml.g5.xlarge", 1)]),
     None, "instance_groups[1].instance_group_name", "is used by another instance group; names must be unique"),
    ("an input of another group", {}, {"t": TrainingInput("s3://b/t", instance_groups=["nope"])},
     "inputs['t'].instance_groups[0]", "is not an instance group of this job"),
    ("attribute names not a list", {}, {"t": TrainingInput("s3://b/t", attribute_names="a")},
     "inputs['t'].attribute_names", "must be a list of attribute names"),
]


@pytest.mark.parametrize("changes, inputs, path, fragment", [r[1:] for r in VALUES], ids=[r[0] for r in VALUES])
def test_the_user_objects_values_are_checked_with_the_job(changes, inputs, path, fragment):
    found = problems("pytorch", inputs, **dict(PYTORCH, **changes))
    assert [m for p, m in found if p == path and fragment in m], found
