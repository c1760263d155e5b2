"""Helpers of the table-driven unit tests of the pure stages (tests/model, request, checks, tuning, cli,
workflow): settings and jobs made directly, with no estimator, no boto3 client and no network.

``settings(framework, inputs=None, fit_job_name=None, **arguments)`` is ``_model.build.settings``;
``job(...)`` builds it and requires no build problem; ``problems(...)`` is every problem of round one's
own rules (the builder's, then ``_checks.rules``'), as ``(path, message)`` pairs. :data:`FACTS` are
what a session with a known account knows (the conformance scenarios' account and region).
"""
import json
import os
import sys

from sagemaker_hetero._checks import rules
from sagemaker_hetero._model import build
from sagemaker_hetero._request import plan
from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup

HERE = os.path.dirname(os.path.abspath(__file__))
CONFORMANCE = os.path.join(HERE, "conformance")
REGION = "us-west-2"
ACCOUNT = "123456789012"
ROLE = "arn:aws:iam::%s:role/SageMakerRole" % ACCOUNT
FACTS = plan.Facts(region=REGION, account_id=ACCOUNT)
CPU = InstanceGroup("cpu", "ml.c5.xlarge", 2)
GPU = InstanceGroup("gpu", "ml.p4d.24xlarge", 2)
#: A valid heterogeneous PyTorch job's arguments, for rows that change one thing.
PYTORCH = dict(entry_point="train.py", framework_version="2.2.0", py_version="py310", role=ROLE,
               instance_groups=[CPU, GPU])
#: ``fit``'s inputs routing one channel to each group of :data:`PYTORCH`.
ROUTED = {"train": TrainingInput("s3://bucket/train", instance_groups=["cpu"]),
          "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["gpu"])}

sys.path.insert(0, CONFORMANCE)
from normalize import code_key_as_sdk_v2, normalize  # noqa: E402,F401

sys.path.pop(0)


def settings(framework="pytorch", inputs=None, fit_job_name=None, **arguments):
    """``_model.build.settings`` of the arguments (``experiment_config`` is ``fit``'s, as there)."""
    experiment_config = arguments.pop("experiment_config", None)
    return build.settings(framework, arguments, inputs, fit_job_name, experiment_config)


def job(framework="pytorch", inputs=None, fit_job_name=None, **arguments):
    """The job of the arguments; the builder must find no problem."""
    built, found = build.build(settings(framework, inputs, fit_job_name, **arguments))
    assert found == [], found
    return built


def problems(framework="pytorch", inputs=None, fit_job_name=None, region=None, path_exists=None, **arguments):
    """``[(path, message)]``: the builder's problems, then our rules' (``_checks.rules``)."""
    built, found = build.build(settings(framework, inputs, fit_job_name, **arguments))
    found = found + rules.problems(built, region=region, path_exists=path_exists)
    return [(p.path, p.message) for p in found]


def expectation(folder, name):
    with open(os.path.join(CONFORMANCE, folder, name + ".json")) as f:
        return json.load(f)

