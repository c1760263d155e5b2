# The code cells of the published heterogeneous-cluster TensorFlow tf.data.service notebook
# (aws/amazon-sagemaker-examples,
# training/heterogeneous-clusters/tf.data.service.sagemaker/hetero-tensorflow-restnet50.ipynb,
# commit 18fa6ea221e83a8ba3052bddd609858382eea0ae), after a setup that gives this process what a SageMaker
# notebook has: an execution role's credentials, the notebook's folder on sys.path (as Jupyter has it)
# holding code/ and start_job_utils.py (the published file, commit bcf6a891006f3bd2f591e2e8b9c424bb556bfcf8,
# written below as the notebook's folder holds it; the import rule applies to it as to the cells).
# Cells not run: "%%bash python3 -m pip install --upgrade boto3 botocore awscli sagemaker",
# "!pip show sagemaker boto3 botocore tensorflow protobuf |egrep 'Name|Version|---'" (not Python), and the
# two that only read the first job's CloudWatch logs: "%%capture homogeneous_logs" (an IPython magic
# around estimator.sagemaker_session.logs_for_job(estimator.latest_training_job.name)) and the cell
# printing the epoch lines of that captured output.
import os as _os
import sys as _sys

import boto3 as _boto3

_TRUST = ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", '
          '"Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}]}')
_role = _boto3.client("iam").create_role(RoleName="HeteroTensorFlowNotebookRole", Path="/service-role/",
                                         AssumeRolePolicyDocument=_TRUST)["Role"]["Arn"]
_creds = _boto3.client("sts").assume_role(RoleArn=_role, RoleSessionName="SageMaker")["Credentials"]
_os.environ.update(AWS_ACCESS_KEY_ID=_creds["AccessKeyId"], AWS_SECRET_ACCESS_KEY=_creds["SecretAccessKey"],
                   AWS_SESSION_TOKEN=_creds["SessionToken"])
_boto3.DEFAULT_SESSION = None
_os.makedirs("code", exist_ok=True)
for _name in ("launcher.py", "train_data.py", "train_dnn.py"):
    with open(_os.path.join("code", _name), "w") as _f:
        _f.write("print('%s')\n" % _name)
with open(_os.path.join("code", "requirements.txt"), "w") as _f:
    _f.write("protobuf==3.20.1\ntensorflow-addons==0.17.0\n")
with open("start_job_utils.py", "w") as _f:
    _f.write('''\
import time
from sagemaker.estimator import EstimatorBase

def fit_with_retries(retries : int, estimator : EstimatorBase, *args, **kwargs):
    """Run estimator fit with retries in case of temporary issues like capacity exception or user exceeded resource usage
    Example invocation: fit_with_retries(5, estimator, job_name="my job name")

    Args:
        retries (int): How many retries in case of exception_to_try is raised
        estimator (EstimatorBase): will call estimator.fit(...)
        *args: list of positioned arguments to pass to fit()
        **kwargs: list of keyword arguments to pass to fit()
    Returns:
        None
    """
    orig_job_name = kwargs['job_name'] if 'job_name' in kwargs and kwargs['job_name'] else None
    for i in range(1, retries+1):
        try:
            # Ensure job_name is unique between retries (if specified)
            if orig_job_name:
                 kwargs['job_name'] = orig_job_name + f'-{i}'
            estimator.fit(*args, **kwargs)
            break
        except Exception as e:
            if not ('CapacityError' in str(e) or 'ResourceLimitExceeded' in str(e)):
                raise e
            print(f'Caught error: {type(e).__name__}: {e}')
            if i == retries:
                print(f'Giving up after {retries} failed attempts.')
                raise e
            else:
                if 'ResourceLimitExceeded' in str(e):
                    seconds = 10
                    print(f'ResourceLimitExceeded: Sleeping {seconds}s before retrying.')
                    time.sleep(seconds)
                print(f'Retrying attempt: {i+1}/{retries}')
                continue''')
_sys.path.insert(0, _os.getcwd())
_sys.modules.pop("start_job_utils", None)

# -- the notebook's cells, as published ------------------------------------------------------------
#import IPython
#IPython.Application.instance().kernel.do_shutdown(True)

import os
import json
import datetime

import sagemaker
from sagemaker import get_execution_role
from sagemaker.instance_group import InstanceGroup

sess = sagemaker.Session()
role = get_execution_role()

import datetime
from sagemaker.tensorflow import TensorFlow
from sagemaker.instance_group import InstanceGroup
import os

hyperparameters = {
    "epochs": 10,
    "steps_per_epoch": 500,
    "batch_size": 1024,
    "tf_data_mode": "local",  # We won't be using tf.data.service ('service') for this homogeneous job
    "num_of_data_workers": 0,  # We won't be using tf.data.service ('service') for this homogeneous job
}

estimator = TensorFlow(
    entry_point="launcher.py",
    source_dir="code",
    framework_version="2.9.1",
    py_version="py39",
    role=role,
    volume_size=10,
    max_run=1800,  # 30 minutes
    disable_profiler=True,
    instance_type="ml.p4d.24xlarge",
    instance_count=1,
    hyperparameters=hyperparameters,
    distribution={
        "mpi": {
            "enabled": True,
            "processes_per_host": 8,  # 8 GPUs per host
            "custom_mpi_options": "--NCCL_DEBUG WARN",
        },
    },
)

from start_job_utils import fit_with_retries
fit_with_retries(5, estimator, 
    job_name="homogeneous-" + datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ"),
)

import datetime
from sagemaker.tensorflow import TensorFlow
from sagemaker.instance_group import InstanceGroup
from sagemaker.inputs import TrainingInput
import os

hyperparameters = {
    "epochs": 10,
    "steps_per_epoch": 500,
    "batch_size": 1024,
    "tf_data_mode": "service",  # Using tf.data.service for this Heterogeneous cluster job
    "num_of_data_workers": 1,  # One tf.data.service worker per node
}

# Group for CPU instances to run tf.data.service dispatcher/workers processes.
data_group = InstanceGroup("data_group", "ml.c5.18xlarge", 2)
# Group for deep neural network (dnn) with accleartors (e.g., GPU, FPGA, etc.)
dnn_group = InstanceGroup("dnn_group", "ml.p4d.24xlarge", 1)

estimator2 = TensorFlow(
    entry_point="launcher.py",
    source_dir="code",
    framework_version="2.9.1",
    py_version="py39",
    role=role,
    volume_size=10,
    max_run=1800,  # 30 minutes
    disable_profiler=True,
    # instance_type='ml.p4d.24xlarge',
    # instance_count=1,
    instance_groups=[data_group, dnn_group],
    hyperparameters=hyperparameters,
    distribution={
        "mpi": {
            "enabled": True,
            "processes_per_host": 8,  # p4d.24xlarge has 8 GPUs per host
            "custom_mpi_options": "--NCCL_DEBUG WARN",
        },
        "instance_groups": [dnn_group],  # Apply distribution strategy to the dnn_group only
    },
)

from start_job_utils import fit_with_retries
fit_with_retries(5, estimator2, 
    job_name="heterogeneous-" + datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ"),
)
