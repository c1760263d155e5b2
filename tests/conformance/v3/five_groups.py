# Five instance groups, each channel routed to one or two of them.
from sagemaker.train import ModelTrainer
from sagemaker.core.training.configs import Compute, InputData, InstanceGroup, S3DataSource, SourceCode

groups = [("g5", "ml.g5.xlarge", 2), ("p3", "ml.p3.2xlarge", 1), ("c5", "ml.c5.2xlarge", 3),
          ("m5", "ml.m5.xlarge", 1), ("r5", "ml.r5.large", 2)]
trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-ubuntu22.04",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    base_job_name="hetero-five",
    source_code=SourceCode(source_dir="src", entry_script="train.py"),
    compute=Compute(instance_groups=[InstanceGroup(instance_group_name=n, instance_type=t, instance_count=c)
                                     for n, t, c in groups], volume_size_in_gb=100),
)
inputs = [
    InputData(channel_name="train", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/train", instance_group_names=["g5", "p3"])),
    InputData(channel_name="shards", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/shards", s3_data_distribution_type="ShardedByS3Key",
        instance_group_names=["c5"])),
    InputData(channel_name="lookup", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/lookup", instance_group_names=["m5", "r5"])),
]
trainer.train(input_data_config=inputs, wait=False)
