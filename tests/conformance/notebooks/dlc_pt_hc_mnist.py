# A published heterogeneous-cluster integration test of the AWS Deep Learning Containers
# (aws/deep-learning-containers): test_hc_mnist_distributed_cpu from
# test/sagemaker_tests/pytorch/training/integration/sagemaker/test_mnist.py (the version calling the
# package helper _test_mnist_distributed; stored file id 9870720524), with that helper from the package's
# __init__.py (same folder, commit 074560c1db2b47a365413418fae1f85f5c70386f), run as pytest runs it.
# The setup stands in for what the test package and pytest provide: the resources/ files and the path
# constants of test/sagemaker_tests/pytorch/training/integration/__init__.py, the role the tests' account
# has (SageMakerRole), the 40-minute timeout guard (a no-op here: moto finishes a job at once), the helper
# invoke_pytorch_helper_function (test/sagemaker_tests/pytorch/__init__.py: it runs the helper with
# get_sagemaker_session(region) for each region, retrying on capacity errors; here once, for the one
# region), and, at the end, the fixtures' values (a CPU image of PyTorch 2.1.0 in us-west-2,
# --instance-type ml.c5.9xlarge, dist_cpu_backend "gloo"). The package-relative imports are left as
# comments and "from __future__ import absolute_import" (first in each file) is left out.
import contextlib as _contextlib
import os as _os

import boto3 as _boto3

_TRUST = ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", '
          '"Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}]}')
_boto3.client("iam").create_role(RoleName="SageMakerRole", AssumeRolePolicyDocument=_TRUST)
_boto3.DEFAULT_SESSION = None
resources_path = _os.path.abspath("resources")
mnist_path = _os.path.join(resources_path, "mnist")
mnist_script = _os.path.join(mnist_path, "mnist.py")
training_dir = _os.path.join(mnist_path, "data", "training")
DEFAULT_TIMEOUT = 40
_os.makedirs(training_dir, exist_ok=True)
with open(mnist_script, "w") as _f:
    _f.write("print('mnist')\n")
for _name in ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"):
    with open(_os.path.join(training_dir, _name), "wb") as _f:
        _f.write(b"not really " + _name.encode())


@_contextlib.contextmanager
def timeout(seconds=0, minutes=0, hours=0):
    yield


def get_sagemaker_session(region, default_bucket=None):  # test/sagemaker_tests/__init__.py
    return sagemaker.Session(boto_session=boto3.Session(region_name=region), default_bucket=default_bucket)


def invoke_pytorch_helper_function(ecr_image, sagemaker_regions, helper_function, helper_function_args):
    helper_function(ecr_image, get_sagemaker_session(sagemaker_regions[0]), **helper_function_args)


# -- test/sagemaker_tests/pytorch/training/integration/sagemaker/__init__.py, as published ---------------
import time

import pytest
import sagemaker

from sagemaker.pytorch import PyTorch
from sagemaker import utils
# from .timeout import timeout
# from ...integration import training_dir, mnist_script, DEFAULT_TIMEOUT
# from ..... import get_ecr_image, get_ecr_image_region, get_sagemaker_session, LOW_AVAILABILITY_INSTANCE_TYPES


def upload_s3_data(estimator, path, key_prefix):

    estimator.sagemaker_session.default_bucket()
    inputs = estimator.sagemaker_session.upload_data(
        path=path,
        key_prefix=key_prefix)
    return inputs


def _test_mnist_distributed(ecr_image, sagemaker_session, framework_version, dist_backend, instance_type=None, instance_groups=None, use_inductor=False):

    est_params = {
        "entry_point": mnist_script,
        "role": 'SageMakerRole',
        "sagemaker_session": sagemaker_session,
        "image_uri": ecr_image,
        "hyperparamters": {'backend': dist_backend, 'epochs': 1, 'inductor': int(use_inductor)},
        "framework_version": framework_version,
        "distribution": {"torch_distributed": {"enabled": True}},
    }
    if not instance_groups:
        est_params["instance_type"] = instance_type
        est_params["instance_count"] = 2
    else:
        est_params["instance_groups"] = instance_groups
    job_name = 'test-pt-hc-mnist-distributed' if instance_groups else "test-pt-mnist-distributed"
    with timeout(minutes=DEFAULT_TIMEOUT):
        pytorch = PyTorch(
            **est_params
        )
        training_input = pytorch.sagemaker_session.upload_data(path=training_dir, key_prefix='pytorch/mnist')
        pytorch.fit({'training': training_input}, job_name=utils.unique_name_from_base(job_name))


# -- test/sagemaker_tests/pytorch/training/integration/sagemaker/test_mnist.py, as published -------------
import pytest
from sagemaker.instance_group import InstanceGroup
from sagemaker.pytorch import PyTorch

# from .... import invoke_pytorch_helper_function
# from . import _test_mnist_distributed


@pytest.mark.processor("cpu")
@pytest.mark.model("mnist")
@pytest.mark.multinode(2)
@pytest.mark.integration("smexperiments")
@pytest.mark.skip_gpu
def test_hc_mnist_distributed_cpu(
    framework_version, ecr_image, sagemaker_regions, instance_type, dist_cpu_backend
):
    instance_type = instance_type or "ml.c4.xlarge"
    training_group = InstanceGroup("train_group", instance_type, 2)
    function_args = {
        "framework_version": framework_version,
        "instance_groups": [training_group],
        "dist_backend": dist_cpu_backend,
    }

    invoke_pytorch_helper_function(
        ecr_image, sagemaker_regions, _test_mnist_distributed, function_args
    )


# -- what pytest does: call the test with the fixtures' values ---------------------------------------------
import boto3

test_hc_mnist_distributed_cpu(
    framework_version="2.1.0",
    ecr_image="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.1.0-cpu-py310-ubuntu20.04-sagemaker",
    sagemaker_regions=["us-west-2"],
    instance_type="ml.c5.9xlarge",
    dist_cpu_backend="gloo",
)
