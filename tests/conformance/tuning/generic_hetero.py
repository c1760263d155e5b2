# The same generic Estimator and tuner on two instance groups, the channel routed to one of them.
from sagemaker.estimator import Estimator
from sagemaker.inputs import TrainingInput
from sagemaker.instance_group import InstanceGroup
from sagemaker.tuner import CategoricalParameter, HyperparameterTuner, IntegerParameter

est = Estimator(
    image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/my-image:latest",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    instance_groups=[InstanceGroup("reader", "ml.m5.xlarge", 1), InstanceGroup("learner", "ml.m5.2xlarge", 1)],
    output_path="s3://my-out/out",
    hyperparameters={"depth": 6, "mode": "fast"},
    disable_profiler=True,
)
tuner = HyperparameterTuner(
    est,
    objective_metric_name="auc",
    hyperparameter_ranges={"depth": IntegerParameter(2, 10), "mode": CategoricalParameter(["fast", "exact"])},
    metric_definitions=[{"Name": "auc", "Regex": "auc: ([0-9.]+)"}],
    max_jobs=4,
)
tuner.fit(TrainingInput("s3://my-bucket/train", instance_groups=["reader", "learner"]), wait=False)
