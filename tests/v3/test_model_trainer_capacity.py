"""ModelTrainer's capacity alternatives (docs/capacity.md, docs/v3.md): an ``InstanceGroup``'s
``alternatives`` and ``Compute``'s ``capacity_wait`` and ``capacity_attempts`` take the v2 estimator's
path: checked as whole jobs under the v3 names, never sent, shown by the dry run, and a job that fails
for capacity followed by one with the next choice against the moto server over HTTP (one
CreateTrainingJob per attempt, the code and driver channels uploaded once)."""
import json

import boto3
import pytest

from sagemaker_hetero.core.helper.session_helper import Session
from sagemaker_hetero.core.training.configs import Compute, InputData, InstanceGroup, S3DataSource, SourceCode
from sagemaker_hetero.core.utils.exceptions import FailedStatusError
from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.train import ModelTrainer
from sagemaker_hetero.train.distributed import Torchrun
from tests._answers import json_answer

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
IMAGE = "763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-ubuntu22.04"
PROVISION = "CapacityError: Unable to provision requested ML compute capacity. Please retry using a different ML " \
            "instance type."


def _trainer(alternatives=("ml.g5.2xlarge", ("ml.g5.4xlarge", 2)), session=None, **compute):
    groups = [InstanceGroup(instance_group_name="cpu", instance_type="ml.c5.xlarge", instance_count=2),
              InstanceGroup(instance_group_name="gpu", instance_type="ml.g5.xlarge", instance_count=1,
                            alternatives=list(alternatives))]
    return ModelTrainer(training_image=IMAGE, role=ROLE, base_job_name="v3-cap", sagemaker_session=session,
                        source_code=SourceCode(source_dir="src", entry_script="train.py"),
                        distributed=Torchrun(instance_group_names=["gpu"]),
                        compute=Compute(instance_groups=groups, **compute),
                        input_data_config=[InputData(channel_name="train", data_source=S3DataSource(
                            s3_data_type="S3Prefix", s3_uri="s3://data-bucket/train", instance_group_names=["gpu"]))])


def test_the_dry_run_sends_the_first_choice_and_shows_every_choice(workdir):
    request = _trainer().train(dry_run=True)
    groups = request["ResourceConfig"]["InstanceGroups"]
    assert [(g["InstanceGroupName"], g["InstanceType"], g["InstanceCount"]) for g in groups] == [
        ("cpu", "ml.c5.xlarge", 2), ("gpu", "ml.g5.xlarge", 1)]
    assert "lternative" not in json.dumps(request) and "ml.g5.4xlarge" not in json.dumps(request)
    assert "choices of gpu: ml.g5.xlarge x 1, then ml.g5.2xlarge x 1, ml.g5.4xlarge x 2" in request.describe_cluster(
        prices={"ml.c5.xlarge": 0.204, "ml.g5.xlarge": 1.408})


def test_an_instance_group_without_alternatives_dumps_as_sdk_v3s():
    group = InstanceGroup(instance_group_name="gpu", instance_type="ml.g5.xlarge", instance_count=1)
    assert group.model_dump() == {"instance_type": "ml.g5.xlarge", "instance_count": 1, "instance_group_name": "gpu"}
    assert "capacity_wait" not in Compute(instance_type="ml.g5.xlarge").model_dump()
    assert group.model_copy(update={"alternatives": ["ml.g5.2xlarge"]}).model_dump()["alternatives"] == [
        "ml.g5.2xlarge"]


def test_a_choice_the_job_could_never_run_is_a_problem_under_the_v3_name(workdir):
    with pytest.raises(ConfigError) as info:
        _trainer(alternatives=["ml.g5.2xlarge", ("ml.g5.xlarge", 0)], capacity_attempts=0)
    paths = [p.path for p in info.value.problems]
    assert "compute.instance_groups[1].alternatives[1]" in paths and "compute.capacity_attempts" in paths, paths


def _fail_first(aws, failing=1):
    """DescribeTrainingJob answers the first ``failing`` jobs made as Failed for capacity (moto the others)."""

    def answer(record):
        name = json.loads(record.body)["TrainingJobName"]
        made = [c.json for c in aws.calls("sagemaker", "CreateTrainingJob")]
        names = [m["TrainingJobName"] for m in made]
        if name not in names[:failing]:
            return None
        groups = [(g["InstanceGroupName"], g["InstanceType"], g["InstanceCount"])
                  for g in made[names.index(name)]["ResourceConfig"]["InstanceGroups"]]
        return json_answer(dict(aws.answers.in_progress_description(name, groups), TrainingJobStatus="Failed",
                                SecondaryStatus="Failed", FailureReason=PROVISION))

    aws.answers.add("sagemaker", "DescribeTrainingJob", answer)


def _bucket():
    boto3.client("s3").create_bucket(Bucket="data-bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})


def test_a_job_failing_for_capacity_is_followed_by_one_with_the_next_choice(aws, workdir, capsys):
    _bucket()
    _fail_first(aws)
    trainer = _trainer(session=Session())
    assert trainer.train(wait=True, logs=False, preflight=False) is None
    made = [c.json for c in aws.calls("sagemaker", "CreateTrainingJob")]
    first = made[0]["TrainingJobName"]
    assert [m["TrainingJobName"] for m in made] == [first, first + "-c2"]
    assert [g["InstanceType"] for g in made[1]["ResourceConfig"]["InstanceGroups"]] == ["ml.c5.xlarge", "ml.g5.2xlarge"]
    assert made[1]["InputDataConfig"] == made[0]["InputDataConfig"]  # the code and drivers uploaded once, used by both
    assert trainer.latest_training_job.name == first + "-c2"
    assert [a.outcome for a in trainer.latest_training_job.attempts] == ["Failed", "Completed"]
    assert "failed for capacity; trying gpu as ml.g5.2xlarge x 1" in capsys.readouterr().out
    keys = [o["Key"] for o in boto3.client("s3").list_objects_v2(Bucket="sagemaker-us-west-2-123456789012",
                                                                 Prefix="v3-cap/")["Contents"]]
    assert "v3-cap/%s/input/sm_drivers/sm_train.sh" % first in keys


def test_capacity_attempts_bounds_the_jobs_and_the_last_failure_is_failed_status_error(aws, workdir):
    _bucket()
    _fail_first(aws, failing=2)
    with pytest.raises(FailedStatusError) as info:
        _trainer(session=Session(), capacity_attempts=2).train(logs=False, preflight=False)
    assert len(aws.calls("sagemaker", "CreateTrainingJob")) == 2
    assert [a.outcome for a in info.value.attempts] == ["Failed", "Failed"]
    assert "Every choice was tried: 2 attempts" in str(info.value)


def test_the_cost_estimate_prices_each_alternative(workdir):
    estimate = _trainer().estimate_cost(prices={"ml.c5.xlarge": 0.204, "ml.g5.xlarge": 1.408,
                                                "ml.g5.2xlarge": 1.515, "ml.g5.4xlarge": 2.03}, fetch=False)
    assert [(a.name, a.instance_type, a.count) for a in estimate.alternatives] == [
        ("gpu", "ml.g5.2xlarge", 1), ("gpu", "ml.g5.4xlarge", 2)]
    assert "gpu (alternative)" in estimate.text()
