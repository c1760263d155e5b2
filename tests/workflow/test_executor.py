"""A pipeline's upsert goes through the runner's one executor (``_runner.execute``), as a fit, a tuner
and the CLI do: its steps' plans provisioned and their code uploaded, then its one create call,
CreatePipeline; what the executor finds wrong is told under the step's argument."""
import boto3
import pytest

from sagemaker_hetero import InstanceGroup, PyTorch, Session, TrainingInput, _runner
from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.workflow import Pipeline, TrainingStep

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"


def _pipeline(session, train="s3://bucket/train"):
    estimator = PyTorch(entry_point="train.py", source_dir="src", framework_version="2.2.0", py_version="py310",
                        role=ROLE, sagemaker_session=session,
                        instance_groups=[InstanceGroup("data", "ml.c5.xlarge", 1),
                                         InstanceGroup("dnn", "ml.g5.xlarge", 1)])
    inputs = {"train": TrainingInput(train, instance_groups=["data"]),
              "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["dnn"])}
    return Pipeline("executor", steps=[TrainingStep("Train", estimator=estimator, inputs=inputs)])


@pytest.fixture
def executed(monkeypatch):
    """The plans each call of ``_runner.execute`` was handed."""
    calls = []
    real = _runner.execute

    def counting(session, made, *args, **kwargs):
        calls.append(made)
        return real(session, made, *args, **kwargs)

    monkeypatch.setattr(_runner, "execute", counting)
    return calls


@pytest.mark.usefixtures("workdir")
def test_an_upsert_runs_its_steps_plans_through_the_executor(aws, executed):
    boto3.client("s3").create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    answer = _pipeline(Session()).upsert(role_arn=ROLE)
    assert answer["PipelineArn"].endswith(":pipeline/executor")
    assert len(executed) == 1 and [p.operation for p in executed[0]] == ["CreateTrainingJob"]
    assert aws.operations("sagemaker") == ["CreatePipeline"]


@pytest.mark.usefixtures("workdir")
def test_an_upserts_missing_input_bucket_is_told_under_the_steps_argument(aws, executed):
    boto3.client("s3").create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    with pytest.raises(ConfigError) as caught:
        _pipeline(Session(), train="s3://no-such-bucket/train").upsert(role_arn=ROLE)
    assert [p.path for p in caught.value.problems] == ["steps['Train'].inputs['train']"], str(caught.value)
    assert "no-such-bucket" in str(caught.value) and len(executed) == 1
    assert aws.operations("sagemaker") == []
