# A PyTorch estimator on one homogeneous cluster, tuned with every HyperparameterTuner setting.
from sagemaker.inputs import TrainingInput
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

est = PyTorch(
    entry_point="train.py",
    source_dir="src",
    framework_version="2.2.0",
    py_version="py310",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    instance_type="ml.p4d.24xlarge",
    instance_count=2,
    output_path="s3://my-out/out",
    base_job_name="hetero-train",
    hyperparameters={"epochs": 3, "lr": 0.1, "optimizer": "adam", "batch-size": 64},
    distribution={"mpi": {"enabled": True, "processes_per_host": 8}},
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
    {"train": TrainingInput("s3://my-bucket/train"), "dummy": TrainingInput("s3://my-bucket/dummy")},
    wait=False,
)
