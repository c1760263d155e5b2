from sagemaker.pytorch import PyTorch
from sagemaker.inputs import TrainingInput
est = PyTorch(entry_point="train.py", source_dir="src", framework_version="2.0.1", py_version="py310",
    role="arn:aws:iam::123456789012:role/SageMakerRole", instance_type="ml.p3.16xlarge", instance_count=2,
    hyperparameters={"lr": 0.001, "name": "abc", "flag": True, "layers": [1, 2], "none": None, "cfg": {"a": 1}},
    distribution={"smdistributed": {"dataparallel": {"enabled": True}}},
    output_path="s3://my-out/path", output_kms_key="kms-out", volume_kms_key="kms-vol", volume_size=100,
    max_run=7200, use_spot_instances=True, max_wait=10000, checkpoint_s3_uri="s3://my-out/ckpt", checkpoint_local_path="/opt/ml/checkpoints",
    subnets=["subnet-1"], security_group_ids=["sg-1"], tags=[{"Key": "team", "Value": "ml"}], environment={"A": "1"},
    metric_definitions=[{"Name": "loss", "Regex": "loss=(.*)"}], encrypt_inter_container_traffic=True, max_retry_attempts=3,
    keep_alive_period_in_seconds=600, container_log_level=10, base_job_name="my-base", model_uri="s3://my-out/model.tar.gz",
    code_location="s3://my-bucket/code-prefix", dependencies=["train.py"])
est.fit({"train": "s3://bucket/train", "val": TrainingInput("s3://bucket/val", distribution="ShardedByS3Key")}, job_name="homog-full", wait=False)
