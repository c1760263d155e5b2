# Published code, reproduced call for call in our own words (not copied): aws/deep-learning-containers,
# test/sagemaker_tests/pytorch/training/integration/sagemaker/test_mnist_inductor.py,
# test_hc_mnist_distributed_gpu (stored file id 9888440388; parametrized over three instance types, marked xfail
# there), which builds its estimator in the package's _test_mnist_distributed with use_inductor=True (its
# __init__.py @ 074560c1). What pytest gives it here: a PyTorch 2.1.0 GPU image (CUDA 12.1), each parametrized
# instance type (ml.p3.2xlarge, ml.g5.4xlarge, ml.g4dn.4xlarge: three jobs, in that order), dist_gpu_backend
# "nccl"; one region (us-west-2), whose session is a sagemaker.Session over a boto3 session of that region, as the
# suite's get_sagemaker_session makes it. The test uploads its MNIST folder with
# upload_data(key_prefix="pytorch/mnist") and fits it as the channel "training" under
# unique_name_from_base("test-pt-hc-mnist-distributed"). As published, the helper passes the hyperparameters as
# "hyperparamters": the SDK v2 takes the misspelt keyword through **kwargs and sends a job without them; we refuse
# it (the replacement makes both send them).

# -- what the test package and pytest give the code (setup, not the published calls) --------------------------
import os as _os

import boto3 as _boto3

_TRUST = ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", '
          '"Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}]}')
_boto3.client("iam").create_role(RoleName="SageMakerRole", AssumeRolePolicyDocument=_TRUST)  # the tests' account role
_boto3.DEFAULT_SESSION = None
_mnist = _os.path.abspath(_os.path.join("resources", "mnist"))  # the integration package's resources/mnist
_training = _os.path.join(_mnist, "data", "training")
_os.makedirs(_training, exist_ok=True)
for _script in ('mnist.py',):
    with open(_os.path.join(_mnist, _script), "w") as _f:
        _f.write("print(%r)\n" % _script)
for _data in ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"):
    with open(_os.path.join(_training, _data), "wb") as _f:
        _f.write(b"stand-in " + _data.encode())

# -- the published calls ---------------------------------------------------------------------------------------
import boto3
import sagemaker
from sagemaker import utils
from sagemaker.instance_group import InstanceGroup
from sagemaker.pytorch import PyTorch


def run(image, instance_type, backend):
    session = sagemaker.Session(boto_session=boto3.Session(region_name="us-west-2"))
    train_group = InstanceGroup("train_group", instance_type, 2)
    estimator = PyTorch(
        entry_point=_os.path.join(_mnist, "mnist.py"),
        role="SageMakerRole",
        sagemaker_session=session,
        image_uri=image,
        hyperparamters={"backend": backend, "epochs": 1, "inductor": int(True)},
        framework_version="2.1.0",
        distribution={"torch_distributed": {"enabled": True}},
        instance_groups=[train_group],
    )
    channel = estimator.sagemaker_session.upload_data(path=_training, key_prefix="pytorch/mnist")
    estimator.fit({"training": channel}, job_name=utils.unique_name_from_base("test-pt-hc-mnist-distributed"))


IMAGE = '763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.1.0-gpu-py310-cu121-ubuntu20.04-sagemaker'
for _type in ("ml.p3.2xlarge", "ml.g5.4xlarge", "ml.g4dn.4xlarge"):
    run(IMAGE, _type, "nccl")
