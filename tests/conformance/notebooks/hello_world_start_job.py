# The published heterogeneous-cluster "hello world" start script
# (aws/amazon-sagemaker-examples, training/heterogeneous-clusters/hello.world.sagemaker/start_job.py,
# commit 6b031e6835f979cf68855b68f344caab6607bb58), run as its README says, from a shell holding an
# AWS user's credentials, SAGEMAKER_ROLE naming an execution role, and the example's source_dir.
# The setup below gives the process those; the script itself is unchanged.
import os as _os

import boto3 as _boto3

_TRUST = ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", '
          '"Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}]}')
_os.environ["SAGEMAKER_ROLE"] = _boto3.client("iam").create_role(
    RoleName="HeteroStartJobRole", Path="/service-role/", AssumeRolePolicyDocument=_TRUST)["Role"]["Arn"]
_os.environ.pop("AWS_REGION", None)  # a developer's shell: boto3's AWS_DEFAULT_REGION only (README)
_boto3.DEFAULT_SESSION = None
_os.makedirs("source_dir", exist_ok=True)
with open(_os.path.join("source_dir", "train.py"), "w") as _f:
    _f.write("print('hello from an instance group')\n")

# -- start_job.py, as published ----------------------------------------------------------------------
import datetime
from sagemaker.tensorflow import TensorFlow
from sagemaker.instance_group import InstanceGroup
import os

REGION = 'us-east-1'
os.environ["AWS_DEFAULT_REGION"] = REGION

# https://aws.amazon.com/sagemaker/pricing/
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
    role=os.environ.get('SAGEMAKER_ROLE'),
    volume_size=10,
    max_run=3600,
    max_wait=3600,
    disable_profiler=True,
    #use_spot_instances=True,
)

estimator.fit(
    job_name='hello-world-heterogenous' + 
    '-' + datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ"),
)
