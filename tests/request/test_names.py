"""``_request.names``: the names a dry run knows without a call: region (the one region rule), partition,
default bucket, role ARN and job names."""
import pytest

from sagemaker_hetero._request import names
from tests._pure import CPU, PYTORCH, job

ENVIRONMENTS = [
    ({"AWS_DEFAULT_REGION": "eu-west-1", "AWS_REGION": "us-east-1"}, "eu-west-1"),  # boto3's variable wins, as in boto3
    ({"AWS_REGION": "us-east-1"}, "us-east-1"),
    ({"AWS_DEFAULT_REGION": "", "AWS_REGION": "us-east-2"}, "us-east-2"),
]


@pytest.mark.parametrize("environ, region", ENVIRONMENTS)
def test_the_region_from_the_environments_variables(environ, region, tmp_path):
    environ = dict(environ, AWS_CONFIG_FILE=str(tmp_path / "none"))
    assert names.configured_region(environ) == region


@pytest.mark.parametrize("profile, region", [(None, "ap-south-1"), ("work", "sa-east-1"), ("other", None)])
def test_the_region_from_the_profile_in_the_config_file(profile, region, tmp_path):
    config = tmp_path / "config"
    config.write_text("[default]\nregion = ap-south-1\n[profile work]\nregion = sa-east-1\n")
    environ = {"AWS_CONFIG_FILE": str(config)}
    if profile:
        environ["AWS_PROFILE"] = profile
    assert names.configured_region(environ) == region


@pytest.mark.parametrize("given, dry_run, known", [("eu-west-1", "eu-west-1", "eu-west-1"), (None, "<region>", None),
                                                   ("", "<region>", None), ("<region>", "<region>", None)])
def test_a_dry_run_renders_a_placeholder_a_submission_needs_a_region(given, dry_run, known):
    assert names.dry_run_region(given) == dry_run
    assert names.known_region(given) == known


@pytest.mark.parametrize("region, partition", [("us-west-2", "aws"), ("cn-north-1", "aws-cn"), ("us-gov-west-1", "aws-us-gov"),
                                               ("", "aws")])
def test_partition_for(region, partition):
    assert names.partition_for(region) == partition


@pytest.mark.parametrize("role, region, account, arn", [
    ("MyRole", "us-west-2", "123456789012", "arn:aws:iam::123456789012:role/MyRole"),
    ("MyRole", "cn-north-1", "123456789012", "arn:aws-cn:iam::123456789012:role/MyRole"),
    ("MyRole", "us-west-2", None, "arn:aws:iam::<account-id>:role/MyRole"),
    ("arn:aws:iam::1:role/x", "us-west-2", "123456789012", "arn:aws:iam::1:role/x"),
    (None, "us-west-2", None, None),
])
def test_role_arn_for(role, region, account, arn):
    assert names.role_arn_for(role, region, account) == arn


def test_the_default_bucket():
    assert names.default_bucket_name("eu-west-1", "123456789012") == "sagemaker-eu-west-1-123456789012"


@pytest.mark.parametrize("image, base", [
    ("763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.2.0-gpu-py310", "pytorch-training"),
    ("123456789012.dkr.ecr.us-west-2.amazonaws.com/my_trainer:latest", "my-trainer"),
    ("repo/__:1", "training-job"),
    (None, "training-job"),
])
def test_image_base_name(image, base):
    assert names.image_base_name(image) == base


@pytest.mark.parametrize("changes, now, name", [
    ({"base_job_name": "base"}, 0, "base-1970-01-01-00-00-00-000"),
    ({}, 1.5, "pytorch-training-1970-01-01-00-00-01-500"),
    ({"base_job_name": "b" * 70}, 0, "b" * 39 + "-1970-01-01-00-00-00-000"),
    ({"framework_version": "0.1", "instance_groups": [CPU]}, 0, "training-job-1970-01-01-00-00-00-000"),
])
def test_a_default_job_name(changes, now, name):
    assert names.default_job_name(job("pytorch", **dict(PYTORCH, **changes)), "us-west-2", now) == name
