"""The seed example, as written for the SageMaker Python SDK v2, rendered as a dry run.

Only the imports changed (``sagemaker`` -> ``sagemaker_hetero``). ``dry_run=True`` returns the
CreateTrainingJob request: no network, no credentials. The account id is unknown offline, so
the default bucket shows as ``sagemaker-us-west-2-<account-id>``.
"""
import json
import os

from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.pytorch import PyTorch

os.environ.setdefault("AWS_REGION", "us-west-2")  # a dry run needs a region, not credentials
HERE = os.path.dirname(os.path.abspath(__file__))

instance_group_1 = InstanceGroup("instance_group_1", "ml.c5.18xlarge", 2)
instance_group_2 = InstanceGroup("instance_group_2", "ml.p3dn.24xlarge", 1)
training_input_channel_1 = TrainingInput(
    s3_data_type="S3Prefix",
    s3_data="s3://your-training-data-storage/folder1",
    distribution="FullyReplicated",
    input_mode="File",
    instance_groups=["instance_group_1"],
)
training_input_channel_2 = TrainingInput(
    s3_data_type="S3Prefix",
    s3_data="s3://your-training-data-storage/folder2",
    distribution="FullyReplicated",
    input_mode="File",
    instance_groups=["instance_group_2"],
)
estimator = PyTorch(
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    source_dir=os.path.join(HERE, "seed_src"),
    entry_point="train.py",
    framework_version="1.10.0",
    py_version="py38",
    job_name="my-training-job-with-heterogeneous-cluster",
    instance_groups=[instance_group_1, instance_group_2],
)
request = estimator.fit(
    inputs={"training": training_input_channel_1, "dummy-input-channel": training_input_channel_2},
    wait=False,
    dry_run=True,
)
print(json.dumps(request, indent=2))
