# SDK issues 5225 and 6089: one channel routed to a group, another (a plain URI) to every group.
from sagemaker.train import ModelTrainer
from sagemaker.core.training.configs import Compute, InputData, InstanceGroup, S3DataSource, SourceCode

trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-ubuntu22.04",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    base_job_name="mixed-routing",
    source_code=SourceCode(source_dir="src", entry_script="train.py"),
    compute=Compute(instance_groups=[
        InstanceGroup(instance_group_name="gpu", instance_type="ml.g5.xlarge", instance_count=1),
        InstanceGroup(instance_group_name="cpu", instance_type="ml.c5.xlarge", instance_count=1),
    ]),
)
inputs = [
    InputData(channel_name="train", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/train", instance_group_names=["gpu"])),
    InputData(channel_name="shared", data_source="s3://my-bucket/shared"),
]
trainer.train(input_data_config=inputs, wait=False)
