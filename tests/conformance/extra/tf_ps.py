from sagemaker.tensorflow import TensorFlow
est = TensorFlow(entry_point="train.py", framework_version="2.11", py_version="py39",
    role="arn:aws:iam::123456789012:role/SageMakerRole", instance_type="ml.c5.xlarge", instance_count=2,
    distribution={"parameter_server": {"enabled": True}}, hyperparameters={"epochs": 2})
est.fit("s3://bucket/train", job_name="tf-ps", wait=False)
