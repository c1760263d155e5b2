# A published heterogeneous-cluster integration test of the AWS Deep Learning Containers
# (aws/deep-learning-containers): test_hc_smdataparallel_mnist from
# test/sagemaker_tests/pytorch/training/integration/sagemaker/test_smdataparallel.py (commit
# 0ae7f9012b4512d5daf20e6a7cdc3bf175a70b28), with the helper invoke_pytorch_estimator from the package's
# __init__.py (same folder, commit 074560c1db2b47a365413418fae1f85f5c70386f), run as pytest runs it.
# The setup stands in for what the test package and pytest provide: the resources/ files and the path
# constants of test/sagemaker_tests/pytorch/training/integration/__init__.py, the role the tests' account
# has (SageMakerRole), the 40-minute timeout guard (a no-op here: moto finishes a job at once), the
# helpers of test/sagemaker_tests/__init__.py (get_sagemaker_session as published; the image's region
# read from its URI; no image copy to another region; LOW_AVAILABILITY_INSTANCE_TYPES, read only after
# capacity errors), the tag readers of test.test_utils (framework version and CUDA version from the image
# tag), and, at the end, the fixtures' values (a GPU image of PyTorch 2.1.0 with CUDA 12.1 in us-west-2,
# one region, the parametrized instance_types "ml.p3.16xlarge"). The package-relative imports are left as
# comments and "from __future__ import absolute_import" (first in each file) is left out.
import contextlib as _contextlib
import os as _os
import re as _re

import boto3 as _boto3

_TRUST = ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", '
          '"Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}]}')
_boto3.client("iam").create_role(RoleName="SageMakerRole", AssumeRolePolicyDocument=_TRUST)
_boto3.DEFAULT_SESSION = None
resources_path = _os.path.abspath("resources")
mnist_path = _os.path.join(resources_path, "mnist")
throughput_path = _os.path.join(resources_path, "smdataparallel")
training_dir = _os.path.join(mnist_path, "data", "training")
DEFAULT_TIMEOUT = 40
_os.makedirs(mnist_path, exist_ok=True)
for _name in ("smdataparallel_mnist.py", "mnist.py"):
    with open(_os.path.join(mnist_path, _name), "w") as _f:
        _f.write("print('%s')\n" % _name)
LOW_AVAILABILITY_INSTANCE_TYPES = ["ml.p4de.24xlarge"]


@_contextlib.contextmanager
def timeout(seconds=0, minutes=0, hours=0):
    yield


def get_sagemaker_session(region, default_bucket=None):  # test/sagemaker_tests/__init__.py
    return sagemaker.Session(boto_session=boto3.Session(region_name=region), default_bucket=default_bucket)


def get_ecr_image_region(ecr_image):
    return ecr_image.split(".")[3]


def get_ecr_image(ecr_image, region):
    raise AssertionError("the image is in the test region: nothing to copy")


def get_framework_and_version_from_tag(image_uri):
    return "pytorch", _re.search(r":(\d+(\.\d+){1,2})", image_uri).group(1)


def get_cuda_version_from_tag(image_uri):
    return _re.search(r"-(cu\d+)-", image_uri).group(1)


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


def invoke_pytorch_estimator(
    ecr_image,
    sagemaker_regions,
    estimator_parameter,
    inputs=None,
    disable_sm_profiler=False,
    upload_s3_data_args=None,
    job_name=None,
):
    """
    Used to invoke PyTorch training job. The ECR image and the sagemaker session are used depending on the AWS region.
    This function will rerun for all SM regions after a defined wait time if capacity issues are seen.

    :param ecr_image: ECR image in us-west-2 region
    :param sagemaker_regions: List of SageMaker regions
    :param estimator_parameter: Estimator paramerters for SM job.
    :param inputs: Inputs for fit estimator call
    :param disable_sm_profiler: Flag to disable SM profiler
    :param upload_s3_data_args: Data to be uploded to S3 for training job
    :param job_name: Training job name

    :return: None
    """

    num_retries = 3
    retry_delay = 600
    ecr_image_region = get_ecr_image_region(ecr_image)
    error = None
    for _ in range(num_retries):
        for test_region in sagemaker_regions:
            sagemaker_session = get_sagemaker_session(test_region)
            # Reupload the image to test region if needed
            tested_ecr_image = get_ecr_image(ecr_image, test_region) if test_region != ecr_image_region else ecr_image
            if "environment" not in estimator_parameter:
                estimator_parameter["environment"] = {"AWS_REGION": test_region}
            else:
                estimator_parameter["environment"]["AWS_REGION"] = test_region
            try:
                pytorch = PyTorch(
                    image_uri=tested_ecr_image,
                    sagemaker_session=sagemaker_session,
                    **estimator_parameter,
                )

                if disable_sm_profiler:
                    if sagemaker_session.boto_region_name in ('cn-north-1', 'cn-northwest-1'):
                        pytorch.disable_profiler = True

                if upload_s3_data_args:
                    training_input = upload_s3_data(pytorch, **upload_s3_data_args)
                    inputs = {'training': training_input}

                pytorch.fit(inputs=inputs, job_name=job_name, logs=True)
                return pytorch, sagemaker_session

            except sagemaker.exceptions.UnexpectedStatusException as e:
                error = e
                if "CapacityError" in str(e) and _ != len(num_retries):
                    time.sleep(retry_delay)
                    continue
                else:
                    raise e

    instance_types = []
    if "instance_type" in estimator_parameter:
        instance_types = [estimator_parameter["instance_type"]]
    elif "instance_groups" in estimator_parameter:
        instance_types = [instance_group.instance_type for instance_group in estimator_parameter["instance_groups"]]
    # It is possible to have such low capacity on certain instance types that the test is never able to run due to
    # ICE errors. In these cases, we are forced to xfail/skip the test, or end up causing pipelines to fail forever.
    # We have approval to skip the test when this type of ICE error occurs for p4de. Will need approval for each new
    # instance type to be added to this list.
    if "CapacityError" in str(error) and any(
        instance_type in LOW_AVAILABILITY_INSTANCE_TYPES for instance_type in instance_types
    ):
        # TODO: xfailed tests do not show up on CodeBuild Test Case Reports. Therefore using "skip" instead of xfail.
        pytest.skip(f"Failed to launch job due to low capacity on {instance_types}")
    raise error


# -- test/sagemaker_tests/pytorch/training/integration/sagemaker/test_smdataparallel.py, as published ----
import pytest
import os
from sagemaker import utils
from sagemaker.instance_group import InstanceGroup
from sagemaker.pytorch import PyTorch

from packaging.version import Version
from packaging.specifiers import SpecifierSet
# from ...integration import DEFAULT_TIMEOUT, mnist_path, throughput_path
# from ...integration.sagemaker.timeout import timeout
# from ...integration.sagemaker.test_distributed_operations import can_run_smmodelparallel, _disable_sm_profiler
# from test.test_utils import get_framework_and_version_from_tag, get_cuda_version_from_tag
# from . import invoke_pytorch_estimator


def validate_or_skip_smdataparallel_efa(ecr_image):
    if not can_run_smdataparallel_efa(ecr_image):
        pytest.skip("EFA is only supported on CUDA 11, and on PyTorch 1.8.1 or higher")


def can_run_smdataparallel_efa(ecr_image):
    _, image_framework_version = get_framework_and_version_from_tag(ecr_image)
    image_cuda_version = get_cuda_version_from_tag(ecr_image)
    return Version(image_framework_version) in SpecifierSet(">=1.8.1") and Version(image_cuda_version.strip("cu")) >= Version("110")


@pytest.mark.processor("gpu")
@pytest.mark.skip_cpu
@pytest.mark.multinode(2)
@pytest.mark.integration("smdataparallel")
@pytest.mark.model("mnist")
@pytest.mark.skip_py2_containers
@pytest.mark.flaky(reruns=2)
@pytest.mark.efa()
@pytest.mark.parametrize("instance_types", ["ml.p3.16xlarge"])
def test_hc_smdataparallel_mnist(ecr_image, sagemaker_regions, instance_types, tmpdir):
    """
    Tests smddprun command via Estimator API distribution parameter
    """
    with timeout(minutes=DEFAULT_TIMEOUT):
        validate_or_skip_smdataparallel_efa(ecr_image)
        instance_count = 2
        training_group = InstanceGroup("train_group", instance_types, instance_count)
        distribution = {"smdistributed": {"dataparallel": {"enabled": True}}, "instance_groups": [training_group]}
        estimator_parameter = {
            'entry_point': 'smdataparallel_mnist.py',
            'role': 'SageMakerRole',
            'source_dir': mnist_path,
            'instance_groups': [training_group],
            'distribution': distribution,
        }

        job_name = utils.unique_name_from_base("test-pt-hc-smddp-mnist")
        invoke_pytorch_estimator(ecr_image, sagemaker_regions, estimator_parameter, job_name=job_name)


# -- what pytest does: call the test with the fixtures' values ---------------------------------------------
import boto3

test_hc_smdataparallel_mnist(
    ecr_image="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.1.0-gpu-py310-cu121-ubuntu20.04-sagemaker",
    sagemaker_regions=["us-west-2"],
    instance_types="ml.p3.16xlarge",
    tmpdir=_os.path.abspath("tmpdir"),
)
