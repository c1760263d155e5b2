# Managed spot with checkpoints and a stopping condition, on two groups.
from sagemaker.train import ModelTrainer
from sagemaker.core.training.configs import (CheckpointConfig, Compute, InputData, InstanceGroup, S3DataSource,
                                             SourceCode, StoppingCondition)

trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-ubuntu22.04",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    base_job_name="spot-job",
    source_code=SourceCode(source_dir="src", entry_script="train.py"),
    compute=Compute(instance_groups=[
        InstanceGroup(instance_group_name="gpu", instance_type="ml.g5.2xlarge", instance_count=1),
        InstanceGroup(instance_group_name="cpu", instance_type="ml.c5.xlarge", instance_count=1),
    ], enable_managed_spot_training=True, keep_alive_period_in_seconds=600),
    stopping_condition=StoppingCondition(max_runtime_in_seconds=7200, max_wait_time_in_seconds=10800),
    checkpoint_config=CheckpointConfig(s3_uri="s3://my-bucket/checkpoints", local_path="/opt/ml/checkpoints"),
)
inputs = [
    InputData(channel_name="train", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/train", instance_group_names=["gpu", "cpu"])),
]
trainer.train(input_data_config=inputs, wait=False)
