# MPI on one homogeneous cluster, channels given as plain S3 URIs (InputMode File on each).
from sagemaker.train import ModelTrainer
from sagemaker.train.distributed import MPI
from sagemaker.core.training.configs import Compute, InputData, SourceCode

trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-ubuntu22.04",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    base_job_name="mpi-job",
    source_code=SourceCode(source_dir="src", entry_script="train.py"),
    distributed=MPI(process_count_per_node=8, mpi_additional_options=["-x", "NCCL_DEBUG=INFO"]),
    compute=Compute(instance_type="ml.p4d.24xlarge", instance_count=2),
)
inputs = [
    InputData(channel_name="train", data_source="s3://my-bucket/train"),
    InputData(channel_name="test", data_source="s3://my-bucket/test", content_type="text/csv"),
]
trainer.train(input_data_config=inputs, wait=False)
