from sagemaker.pytorch import PyTorch
from sagemaker.instance_group import InstanceGroup
from sagemaker.inputs import TrainingInput
g = InstanceGroup("gpu", "ml.p4d.24xlarge", 2)
est = PyTorch(entry_point="train.py", framework_version="1.13.1", py_version="py39",
    role="arn:aws:iam::123456789012:role/SageMakerRole", instance_groups=[g],
    distribution={"smdistributed": {"modelparallel": {"enabled": True, "parameters": {"partitions": 2}}}, "mpi": {"enabled": True, "processes_per_host": 8}})
est.fit({"train": TrainingInput("s3://bucket/train")}, job_name="mp-single", wait=False)
