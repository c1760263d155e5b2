# The same estimator and tuner on a heterogeneous cluster: two instance groups, channels routed to
# them, the distribution on the GPU group.
from sagemaker.inputs import TrainingInput
from sagemaker.instance_group import InstanceGroup
from sagemaker.pytorch import PyTorch
from sagemaker.tuner import (
    CategoricalParameter,
    ContinuousParameter,
    HyperparameterTuner,
    IntegerParameter,
    TuningJobCompletionCriteriaConfig,
    WarmStartConfig,
    WarmStartTypes,
)

data = InstanceGroup("data_group", "ml.c5.18xlarge", 2)
dnn = InstanceGroup("dnn_group", "ml.p4d.24xlarge", 2)
est = PyTorch(
    entry_point="train.py",
    source_dir="src",
    framework_version="2.2.0",
    py_version="py310",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    instance_groups=[data, dnn],
    output_path="s3://my-out/out",
    base_job_name="hetero-train",
    hyperparameters={"epochs": 3, "lr": 0.1, "optimizer": "adam", "batch-size": 64},
    distribution={"mpi": {"enabled": True, "processes_per_host": 8}, "instance_groups": [dnn]},
    max_run=7200,
    tags=[{"Key": "team", "Value": "ml"}],
    environment={"MODE": "tune"},
    max_retry_attempts=2,
    disable_profiler=True,
)
tuner = HyperparameterTuner(
    est,
    objective_metric_name="validation:loss",
    hyperparameter_ranges={
        "lr": ContinuousParameter(0.001, 0.1, scaling_type="Logarithmic"),
        "batch-size": IntegerParameter(32, 256),
        "optimizer": CategoricalParameter(["adam", "sgd"]),
    },
    metric_definitions=[{"Name": "validation:loss", "Regex": "val_loss=([0-9\\.]+)"}],
    strategy="Bayesian",
    objective_type="Minimize",
    max_jobs=10,
    max_parallel_jobs=2,
    max_runtime_in_seconds=36000,
    tags=[{"Key": "project", "Value": "hetero"}],
    base_tuning_job_name="hetero-hpo",
    early_stopping_type="Auto",
    warm_start_config=WarmStartConfig(WarmStartTypes.IDENTICAL_DATA_AND_ALGORITHM, parents={"parent-hpo-1"}),
    random_seed=7,
    completion_criteria_config=TuningJobCompletionCriteriaConfig(
        max_number_of_training_jobs_not_improving=5, complete_on_convergence=True, target_objective_metric_value=0.01
    ),
)
tuner.fit(
    {
        "train": TrainingInput("s3://my-bucket/train", instance_groups=["data_group"]),
        "dummy": TrainingInput("s3://my-bucket/dummy", instance_groups=["dnn_group"]),
    },
    wait=False,
)
