# The same pipeline with a two-group training step: the GPU group's count and type and the training
# data are pipeline parameters; the channels are routed to the groups.
from sagemaker.inputs import TrainingInput
from sagemaker.instance_group import InstanceGroup
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
    instance_groups=[InstanceGroup("data_group", "ml.c5.18xlarge", 2), InstanceGroup("dnn_group", itype, count)],
    output_path="s3://my-out/out",
    hyperparameters={"epochs": 3},
    disable_profiler=True,
)
step = TrainingStep(
    name="Train",
    estimator=est,
    inputs={
        "train": TrainingInput(data, instance_groups=["data_group"]),
        "dummy": TrainingInput("s3://my-bucket/dummy", instance_groups=["dnn_group"]),
    },
)
pipeline = Pipeline(name="hetero-pipeline", parameters=[count, itype, data], steps=[step])
pipeline.upsert(role_arn="arn:aws:iam::123456789012:role/SageMakerRole")
pipeline.start()
