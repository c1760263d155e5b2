# The code cells of the published heterogeneous-cluster PyTorch gRPC notebook
# (aws/amazon-sagemaker-examples, training/heterogeneous-clusters/pt.grpc.sagemaker/hetero-pytorch-mnist.ipynb,
# commit 12085f3bead2525e6af5224b398e6aab3a4774f2), after a setup that gives this process what a SageMaker
# notebook has: an execution role's credentials, the notebook's code/ folder and the public bucket the
# notebook downloads MNIST from (sagemaker-example-files-prod-REGION, staged on moto with four small files).
# Cells not run (not Python): "%%bash python3 -m pip install --upgrade boto3 botocore awscli sagemaker"
# and "!pip show sagemaker torch boto3 botocore |egrep 'Name|Version|---'".
import os as _os

import boto3 as _boto3

_examples = "sagemaker-example-files-prod-" + _boto3.session.Session().region_name
_s3 = _boto3.client("s3")
_s3.create_bucket(Bucket=_examples, CreateBucketConfiguration={"LocationConstraint": _boto3.session.Session().region_name})
for _name in ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz",
              "t10k-labels-idx1-ubyte.gz"):
    _s3.put_object(Bucket=_examples, Key="datasets/image/MNIST/" + _name, Body=b"not really " + _name.encode())
_TRUST = ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", '
          '"Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}]}')
_role = _boto3.client("iam").create_role(RoleName="HeteroPyTorchNotebookRole", Path="/service-role/",
                                         AssumeRolePolicyDocument=_TRUST)["Role"]["Arn"]
_creds = _boto3.client("sts").assume_role(RoleArn=_role, RoleSessionName="SageMaker")["Credentials"]
_os.environ.update(AWS_ACCESS_KEY_ID=_creds["AccessKeyId"], AWS_SECRET_ACCESS_KEY=_creds["SecretAccessKey"],
                   AWS_SESSION_TOKEN=_creds["SessionToken"])
_boto3.DEFAULT_SESSION = None
_os.makedirs("code", exist_ok=True)
for _name in ("launcher.py", "train_data.py", "train_dnn.py", "train.py"):
    with open(_os.path.join("code", _name), "w") as _f:
        _f.write("print('%s')\n" % _name)
with open(_os.path.join("code", "requirements.txt"), "w") as _f:
    _f.write("grpcio\n")

# -- the notebook's cells, as published ------------------------------------------------------------
# import IPython
# IPython.Application.instance().kernel.do_shutdown(True)

import os
import json
import datetime
import os

import sagemaker
from sagemaker.pytorch import PyTorch
from sagemaker import get_execution_role
from sagemaker.instance_group import InstanceGroup


sess = sagemaker.Session()

role = get_execution_role()

output_path = "s3://" + sess.default_bucket() + "/DEMO-MNIST"
print(role)
print(output_path)

IS_CLOUD_JOB = True
IS_HETERO = True  # if set to false, uses homogeneous cluster
PT_DATA_MODE = "service" if IS_HETERO else "local"  # local | service
IS_DNN_DISTRIBUTION = False  # Distributed Training with DNN nodes not tested, set it to False

data_group = InstanceGroup(
    "data_group", "ml.c5.9xlarge", 1
)  # 36 vCPU #change the instance type if IS_HETERO=True
dnn_group = InstanceGroup(
    "dnn_group", "ml.p3.2xlarge", 1
)  # 8 vCPU #change the instance type if IS_HETERO=True

kwargs = dict()
kwargs["hyperparameters"] = {
    "batch-size": 8192,
    "num-data-workers": 4,  # This number drives the avg. step time. More workers help parallel pre-processing of data. Recommendation: Total no. of cpu 'n' = 'num-data-wokers'+'grpc-workers'+ 2 (reserved)
    "grpc-workers": 4,  # No. of workers serving pre-processed data to DNN group (gRPC client). see above formula.
    "num-dnn-workers": 4,  # Modify this no. to be less than the cpu core of your training instances in dnn group
    "pin-memory": True,  # Pin to GPU memory
    "iterations": 100,  # No. of iterations in an epoch (must be multiple of 10).
    "region": sess.boto_region_name,
}

if IS_HETERO:
    kwargs["instance_groups"] = [data_group, dnn_group]
    entry_point = "launcher.py"
else:
    kwargs["instance_type"] = (
        "ml.p3.2xlarge" if IS_CLOUD_JOB else "local"
    )  # change the instance type if IS_HETERO=False
    kwargs["instance_count"] = 1
    entry_point = "train.py"

if IS_DNN_DISTRIBUTION:
    processes_per_host_dict = {
        "ml.g5.xlarge": 1,
        "ml.g5.12xlarge": 4,
        "ml.p3.8xlarge": 4,
        "ml.p4d.24xlarge": 8,
    }
    kwargs["distribution"] = {
        "mpi": {
            "enabled": True,
            "processes_per_host": processes_per_host_dict[dnn_instance_type],
            "custom_mpi_options": "--NCCL_DEBUG INFO",
        },
    }
    if IS_HETERO:
        kwargs["distribution"]["instance_groups"] = [dnn_group]

    print(f"distribution={kwargs['distribution']}")

estimator = PyTorch(
    framework_version="1.11.0",  # 1.10.0 or later
    py_version="py38",  # Python v3.8
    role=role,
    entry_point=entry_point,
    source_dir="code",
    volume_size=10,
    max_run=4800,
    disable_profiler=True,
    debugger_hook_config=False,
    **kwargs,
)

import logging
import boto3
from botocore.exceptions import ClientError

# Download training and testing data from a public S3 bucket


def download_from_s3(data_dir="./data", train=True):
    """Download MNIST dataset and convert it to numpy array

    Args:
        data_dir (str): directory to save the data
        train (bool): download training set

    Returns:
        None
    """

    if not os.path.exists(data_dir):
        os.makedirs(data_dir)

    if train:
        images_file = "train-images-idx3-ubyte.gz"
        labels_file = "train-labels-idx1-ubyte.gz"
    else:
        images_file = "t10k-images-idx3-ubyte.gz"
        labels_file = "t10k-labels-idx1-ubyte.gz"

    # download objects
    s3 = boto3.client("s3")
    bucket = f"sagemaker-example-files-prod-{sess.boto_region_name}"
    for obj in [images_file, labels_file]:
        key = os.path.join("datasets/image/MNIST", obj)
        dest = os.path.join(data_dir, obj)
        if not os.path.exists(dest):
            s3.download_file(bucket, key, dest)
    return


download_from_s3("./data", True)
download_from_s3("./data", False)

# Upload to the default bucket

prefix = "DEMO-MNIST"
bucket = sess.default_bucket()
loc = sess.upload_data(path="./data", bucket=bucket, key_prefix=prefix)

channels = {"training": loc, "testing": loc}

estimator.fit(
    inputs=channels,
    job_name="pt-hetero"
    + "-"
    + "H-"
    + str(IS_HETERO)[0]
    + "-"
    + datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ"),
)
