# A pipeline with one training step, its instance count, type and training data pipeline parameters.
from sagemaker.inputs import TrainingInput
from sagemaker.pytorch import PyTorch
from sagemaker.workflow.parameters import ParameterInteger, ParameterString
from sagemaker.workflow.pipeline import Pipeline
from sagemaker.workflow.steps import TrainingStep

count = ParameterInteger(name="TrainCount", default_value=2)
itype = ParameterString(name="TrainType", default_value="ml.p4d.24xlarge")
data = ParameterString(name="TrainData", default_value="s3://my-bucket/train")
est = PyTorch(
    entry_point="train.py",
    source_dir="src",
    framework_version="2.2.0",
    py_version="py310",
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    instance_type=itype,
    instance_count=count,
    output_path="s3://my-out/out",
    hyperparameters={"epochs": 3},
    disable_profiler=True,
)
step = TrainingStep(name="Train", estimator=est, inputs={"train": TrainingInput(data)})
pipeline = Pipeline(name="hetero-pipeline", parameters=[count, itype, data], steps=[step])
pipeline.upsert(role_arn="arn:aws:iam::123456789012:role/SageMakerRole")
pipeline.start()
