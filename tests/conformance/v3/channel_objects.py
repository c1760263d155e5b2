# Channels written as the request's shapes (Channel, DataSource, S3DataSource), beside an InputData.
from sagemaker.train import ModelTrainer
from sagemaker.core.training.configs import (Channel, Compute, DataSource, InputData, InstanceGroup, S3DataSource,
                                             ShuffleConfig, SourceCode)

trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-ubuntu22.04",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    base_job_name="channel-objects",
    source_code=SourceCode(source_dir="src", entry_script="train.py"),
    compute=Compute(instance_groups=[
        InstanceGroup(instance_group_name="gpu", instance_type="ml.g5.xlarge", instance_count=1),
        InstanceGroup(instance_group_name="cpu", instance_type="ml.c5.xlarge", instance_count=1),
    ]),
)
inputs = [
    Channel(channel_name="train", data_source=DataSource(s3_data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/train", s3_data_distribution_type="ShardedByS3Key",
        instance_group_names=["gpu"])), content_type="application/x-recordio", input_mode="FastFile",
        shuffle_config=ShuffleConfig(seed=7)),
    InputData(channel_name="eval", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/eval", instance_group_names=["cpu"])),
]
trainer.train(input_data_config=inputs, wait=False)
