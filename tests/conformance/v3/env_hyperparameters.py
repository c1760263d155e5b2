# Environment and hyperparameters of every JSON type; a command in place of an entry script.
from sagemaker.train import ModelTrainer
from sagemaker.core.training.configs import Compute, InputData, InstanceGroup, S3DataSource, SourceCode

trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-cpu-py311-ubuntu22.04",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    source_code=SourceCode(source_dir="src", command="python train.py --verbose"),
    compute=Compute(instance_groups=[
        InstanceGroup(instance_group_name="main", instance_type="ml.m5.2xlarge", instance_count=1),
        InstanceGroup(instance_group_name="side", instance_type="ml.c5.xlarge", instance_count=1),
    ]),
    environment={"MY_FLAG": "1", "LOG_LEVEL": "debug"},
    hyperparameters={"epochs": 10, "lr": 0.01, "name": "run one", "layers": [64, 32], "opts": {"a": 1},
                     "shuffle": True, "dropout": None},
)
inputs = [
    InputData(channel_name="train", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/train", instance_group_names=["main"])),
    InputData(channel_name="side", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://my-bucket/side", instance_group_names=["side"])),
]
trainer.train(input_data_config=inputs, wait=False)
