# The code cells of the published heterogeneous-cluster "hello world" notebook
# (aws/amazon-sagemaker-examples, training/heterogeneous-clusters/hello.world.sagemaker/helloworld-example.ipynb),
# after a setup that gives this process what a SageMaker notebook has: an execution role's
# credentials and the notebook's source_dir.
import os as _os

import boto3 as _boto3

_TRUST = ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", '
          '"Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}]}')
_role = _boto3.client("iam").create_role(RoleName="HelloWorldNotebookRole", Path="/service-role/",
                                         AssumeRolePolicyDocument=_TRUST)["Role"]["Arn"]
_creds = _boto3.client("sts").assume_role(RoleArn=_role, RoleSessionName="SageMaker")["Credentials"]
_os.environ.update(AWS_ACCESS_KEY_ID=_creds["AccessKeyId"], AWS_SECRET_ACCESS_KEY=_creds["SecretAccessKey"],
                   AWS_SESSION_TOKEN=_creds["SessionToken"])
_boto3.DEFAULT_SESSION = None
_os.makedirs("source_dir", exist_ok=True)
with open(_os.path.join("source_dir", "train.py"), "w") as _f:
    _f.write("print('hello from an instance group')\n")

# -- the notebook's cells, as published ------------------------------------------------------------
import os
import json
import datetime

import sagemaker
from sagemaker import get_execution_role
from sagemaker.tensorflow import TensorFlow
from sagemaker.instance_group import InstanceGroup

sess = sagemaker.Session()
role = get_execution_role()

data_group = InstanceGroup("data_group", "ml.c5.xlarge", 1)
dnn_group = InstanceGroup("dnn_group", "ml.m4.xlarge", 1)

estimator = TensorFlow(
    entry_point='train.py',
    source_dir='./source_dir',
    #instance_type='ml.m4.xlarge',
    #instance_count=1,
    instance_groups = [data_group, dnn_group,],
    framework_version='2.9.1',
    py_version='py39',
    role=role,
    volume_size=10,
    max_run=3600,
    disable_profiler=True,
)

estimator.fit(
    job_name='hello-world-heterogenous' +
    '-' + datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ"),
)
