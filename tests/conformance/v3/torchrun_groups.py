# Torchrun on a GPU + CPU job (v3 runs it on every host), channels routed per group.
from sagemaker.train import ModelTrainer
from sagemaker.train.distributed import Torchrun
from sagemaker.core.training.configs import Compute, InputData, InstanceGroup, S3DataSource, SourceCode

trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-ubuntu22.04",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    base_job_name="hetero-torchrun",
    source_code=SourceCode(source_dir="src", entry_script="train.py"),
    distributed=Torchrun(process_count_per_node=4),
    compute=Compute(instance_groups=[
        InstanceGroup(instance_group_name="gpu", instance_type="ml.g5.12xlarge", instance_count=2),
        InstanceGroup(instance_group_name="cpu", instance_type="ml.c5.4xlarge", instance_count=1),
    ]),
    hyperparameters={"epochs": 3, "lr": 0.001},
)
inputs = [
    InputData(channel_name="train", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/train", instance_group_names=["gpu"])),
    InputData(channel_name="prep", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/prep", instance_group_names=["cpu"])),
]
trainer.train(input_data_config=inputs, wait=False)
