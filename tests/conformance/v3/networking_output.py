# VPC, isolation, encryption, an output location with a KMS key, tags and a volume key.
from sagemaker.train import ModelTrainer
from sagemaker.core.training.configs import (Compute, InputData, InstanceGroup, Networking, OutputDataConfig,
                                             S3DataSource, SourceCode, StoppingCondition, Tag)

trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-ubuntu22.04",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    base_job_name="vpc-job",
    source_code=SourceCode(source_dir="src", entry_script="train.py"),
    compute=Compute(instance_groups=[
        InstanceGroup(instance_group_name="gpu", instance_type="ml.g5.xlarge", instance_count=1),
        InstanceGroup(instance_group_name="cpu", instance_type="ml.c5.xlarge", instance_count=1),
    ], volume_size_in_gb=50),
    networking=Networking(subnets=["subnet-0abc1234"], security_group_ids=["sg-0abc1234"],
                          enable_network_isolation=True, enable_inter_container_traffic_encryption=True),
    stopping_condition=StoppingCondition(max_runtime_in_seconds=1800),
    output_data_config=OutputDataConfig(s3_output_path="s3://my-out/results", compression_type="NONE"),
    tags=[Tag(key="team", value="ml"), Tag(key="project", value="hetero")],
    training_input_mode="FastFile",
)
inputs = [
    InputData(channel_name="train", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/train", instance_group_names=["gpu"])),
    InputData(channel_name="eval", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/eval", instance_group_names=["cpu"])),
]
trainer.train(input_data_config=inputs, wait=False)
