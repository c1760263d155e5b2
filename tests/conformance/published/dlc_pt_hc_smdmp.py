# Published code, reproduced call for call in our own words (not copied): aws/deep-learning-containers,
# test/sagemaker_tests/pytorch/training/integration/sagemaker/test_distributed_operations.py,
# test_hc_smmodelparallel_mnist_multigpu_multinode (stored file id 10043182448), which starts its job with
# invoke_pytorch_estimator of that folder's __init__.py (@ 074560c1db2b47a365413418fae1f85f5c70386f): the
# estimator gets the image and a session of the region, environment={"AWS_REGION": region}, and fit(inputs=None,
# job_name=..., logs=True). What pytest gives it here: a PyTorch 2.1.0 GPU image (CUDA 12.1, so the test's
# model-parallel guard lets it run), one region (us-west-2), the parametrized test_script
# "smmodelparallel_pt_mnist.py" and num_processes 8. The test itself sets ml.p3.16xlarge x 2 as one instance group
# that runs model parallelism under MPI (SMP v1: smdistributed modelparallel with mpi).

# -- what the test package and pytest give the code (setup, not the published calls) --------------------------
import os as _os

import boto3 as _boto3

_TRUST = ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", '
          '"Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}]}')
_boto3.client("iam").create_role(RoleName="SageMakerRole", AssumeRolePolicyDocument=_TRUST)  # the tests' account role
_boto3.DEFAULT_SESSION = None
_mnist = _os.path.abspath(_os.path.join("resources", "mnist"))  # the integration package's mnist_path
_os.makedirs(_mnist, exist_ok=True)
with open(_os.path.join(_mnist, "smmodelparallel_pt_mnist.py"), "w") as _f:
    _f.write("print('smp')\n")

# -- the published calls ---------------------------------------------------------------------------------------
import boto3
import sagemaker
from sagemaker import utils
from sagemaker.instance_group import InstanceGroup
from sagemaker.pytorch import PyTorch

train_group = InstanceGroup("train_group", "ml.p3.16xlarge", 2)
parameters = {
    "entry_point": "smmodelparallel_pt_mnist.py",
    "role": "SageMakerRole",
    "source_dir": _mnist,
    "instance_groups": [train_group],
    "hyperparameters": {"assert-losses": 1, "amp": 1, "ddp": 1, "data-dir": "data/training", "epochs": 5},
    "distribution": {
        "smdistributed": {"modelparallel": {"enabled": True, "parameters": {
            "partitions": 2, "microbatches": 4, "optimize": "speed", "pipeline": "interleaved", "ddp": True}}},
        "mpi": {"enabled": True, "processes_per_host": 8, "custom_mpi_options":
                "-verbose --mca orte_base_help_aggregate 0 -x SMDEBUG_LOG_LEVEL=error "
                "-x OMPI_MCA_btl_vader_single_copy_mechanism=none "},
        "instance_groups": [train_group],
    },
    "environment": {"AWS_REGION": "us-west-2"},
}
session = sagemaker.Session(boto_session=boto3.Session(region_name="us-west-2"))
IMAGE = '763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.1.0-gpu-py310-cu121-ubuntu20.04-sagemaker'
estimator = PyTorch(image_uri=IMAGE, sagemaker_session=session, **parameters)
estimator.fit(inputs=None, job_name=utils.unique_name_from_base("test-pt-hc-smdmp-multinode"), logs=True)
