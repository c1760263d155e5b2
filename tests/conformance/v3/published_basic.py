# The SDK v3 documentation's first ModelTrainer example (a PyTorch script, one instance, one S3 channel).
from sagemaker.train import ModelTrainer
from sagemaker.core.training.configs import Compute, InputData, SourceCode

pytorch_image = "763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.0.0-cpu-py310"
source_code = SourceCode(source_dir="src", entry_script="train.py")
compute = Compute(instance_type="ml.m5.xlarge", instance_count=1, volume_size_in_gb=30)
trainer = ModelTrainer(
    training_image=pytorch_image,
    source_code=source_code,
    compute=compute,
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    base_job_name="pytorch-basic",
    hyperparameters={"epochs": 1},
)
inputs = [InputData(channel_name="train", data_source="s3://my-bucket/mnist/train")]
trainer.train(input_data_config=inputs, wait=False)
