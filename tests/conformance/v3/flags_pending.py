# Flags given as False, a max pending time, a YAML hyperparameters file, the with_* builders.
from sagemaker.train import ModelTrainer
from sagemaker.core.training.configs import (Compute, InputData, InfraCheckConfig, Networking, SourceCode,
                                             StoppingCondition, TrainingImageConfig)

with open("hyperparameters.yaml", "w") as f:
    f.write("epochs: 3\nlr: 0.01\nmodel: resnet\nlayers: [1, 2]\nflag: true\n")
trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-ubuntu22.04",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    base_job_name="flags",
    source_code=SourceCode(source_dir="src", entry_script="train.py"),
    compute=Compute(instance_type="ml.g5.2xlarge", instance_count=2, enable_managed_spot_training=False),
    networking=Networking(enable_network_isolation=False, enable_inter_container_traffic_encryption=False),
    stopping_condition=StoppingCondition(max_runtime_in_seconds=7200, max_pending_time_in_seconds=7200),
    training_image_config=TrainingImageConfig(training_repository_access_mode="Platform"),
    hyperparameters="hyperparameters.yaml",
).with_infra_check_config(InfraCheckConfig(enable_infra_check=True))
inputs = [InputData(channel_name="train", data_source="s3://my-bucket/train")]
trainer.train(input_data_config=inputs, wait=False)
