"""The seed example, run on this machine: every host of both instance groups as a real process.

The same code as ``seed_dry_run.py`` (written for the SageMaker Python SDK v2, imports changed to
``sagemaker_hetero``), with ``sagemaker_session=LocalSession()`` and the two channels read from
folders next to this file. No AWS account, no network, no Docker: the two ``ml.c5.18xlarge``
hosts and the ``ml.p3dn.24xlarge`` host run as three processes, each seeing what it would see on
SageMaker (its group, the cluster, only its group's channels), and each line they print is
prefixed ``[<group>/<host>]``. The model and output archives land under the job's folder.

usage: python examples/seed_local.py [--shuffled]
"""
import os
import sys

from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.local import LocalSession
from sagemaker_hetero.pytorch import PyTorch

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "seed_data")

instance_group_1 = InstanceGroup("instance_group_1", "ml.c5.18xlarge", 2)
instance_group_2 = InstanceGroup("instance_group_2", "ml.p3dn.24xlarge", 1)
training_input_channel_1 = TrainingInput(
    s3_data_type="S3Prefix",
    s3_data="file://" + os.path.join(DATA, "folder1"),
    distribution="FullyReplicated",
    input_mode="File",
    instance_groups=["instance_group_1"],
)
training_input_channel_2 = TrainingInput(
    s3_data_type="S3Prefix",
    s3_data="file://" + os.path.join(DATA, "folder2"),
    distribution="FullyReplicated",
    input_mode="File",
    instance_groups=["instance_group_2"],
)
session = LocalSession(assignment="shuffled" if "--shuffled" in sys.argv[1:] else "ordered")
estimator = PyTorch(
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    source_dir=os.path.join(HERE, "seed_src"),
    entry_point="train.py",
    framework_version="1.10.0",
    py_version="py38",
    job_name="my-training-job-with-heterogeneous-cluster",
    instance_groups=[instance_group_1, instance_group_2],
    sagemaker_session=session,
)
estimator.fit(
    inputs={"training": training_input_channel_1, "dummy-input-channel": training_input_channel_2},
    wait=True,
)
print("model: %s" % estimator.latest_training_job.describe()["ModelArtifacts"]["S3ModelArtifacts"])
