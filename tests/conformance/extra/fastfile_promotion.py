from sagemaker.pytorch import PyTorch
from sagemaker.inputs import TrainingInput

# One TrainingInput with an input_mode: the SDK v2 makes it the job's TrainingInputMode.
est = PyTorch(entry_point="train.py", framework_version="2.0.1", py_version="py310",
              role="arn:aws:iam::123456789012:role/SageMakerRole", instance_type="ml.c5.xlarge", instance_count=1)
est.fit(TrainingInput("s3://bucket/train", input_mode="FastFile"), job_name="fastfile-job", wait=False)
