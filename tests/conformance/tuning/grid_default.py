# The Grid strategy without max_jobs: the SDK v2 sends MaxNumberOfTrainingJobs None.
from sagemaker.estimator import Estimator
from sagemaker.tuner import CategoricalParameter, HyperparameterTuner

est = Estimator(
    image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/my-image:latest",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    instance_type="ml.m5.xlarge",
    instance_count=1,
    output_path="s3://my-out/out",
    disable_profiler=True,
)
tuner = HyperparameterTuner(
    est,
    objective_metric_name="auc",
    hyperparameter_ranges={"mode": CategoricalParameter(["fast", "exact"])},
    metric_definitions=[{"Name": "auc", "Regex": "auc: ([0-9.]+)"}],
    strategy="Grid",
)
tuner.fit("s3://my-bucket/train", wait=False)
