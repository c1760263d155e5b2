from sagemaker.pytorch import PyTorch
from sagemaker.instance_group import InstanceGroup
from sagemaker.inputs import TrainingInput

# A framework estimator with its own image and no framework_version: the SDK v2 leaves
# EnableSageMakerMetricsTimeSeries out (it sets it only for a framework version it knows).
cpu = InstanceGroup("cpu", "ml.c5.xlarge", 1)
gpu = InstanceGroup("gpu", "ml.g5.xlarge", 1)
est = PyTorch(entry_point="train.py", image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/my-torch:1.0",
              role="arn:aws:iam::123456789012:role/SageMakerRole", instance_groups=[cpu, gpu])
est.fit({"a": TrainingInput("s3://bucket/a", instance_groups=["cpu"]),
         "b": TrainingInput("s3://bucket/b", instance_groups=["gpu"])}, job_name="metrics-job", wait=False)
