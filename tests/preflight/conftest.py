"""Jobs and plans for the pure preflight tests, made by the estimators' own dry run (no AWS)."""
import pytest

from sagemaker_hetero import Estimator, InstanceGroup, PyTorch, TrainingInput
from sagemaker_hetero._request import plan as _plan

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
FACTS = _plan.Facts(region="us-west-2", account_id="123456789012")


def plan_of(estimator, inputs=None, facts=FACTS):
    """The plan ``estimator.fit(inputs)`` would submit with ``facts``."""
    dry = estimator.fit(inputs, dry_run=True, job_name="planned")
    return _plan.make_plan(dry.plan.job, facts, 0.0)


@pytest.fixture
def seed(workdir):
    """The seed job: two groups, a channel for each, framework image from the table."""
    est = PyTorch(entry_point="train.py", framework_version="1.10.0", py_version="py38", role=ROLE,
                  instance_groups=[InstanceGroup("cpu", "ml.c5.18xlarge", 2),
                                   InstanceGroup("gpu", "ml.p3dn.24xlarge", 1)])
    return est, {"train": TrainingInput("s3://bucket/train", instance_groups=["cpu"]),
                 "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["gpu"])}


@pytest.fixture
def generic(workdir):
    """A factory of generic-image jobs (``Estimator`` keyword arguments override the defaults)."""

    def make(**overrides):
        kwargs = dict(image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/trainer:v1", role=ROLE,
                      instance_count=2, instance_type="ml.m5.xlarge", output_path="s3://out/results")
        kwargs.update(overrides)
        return Estimator(**kwargs)

    return make
