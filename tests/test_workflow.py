"""Pipelines: a training step's arguments are the estimator's request, pipeline parameters in it and
checked with their defaults, the definition, and upsert/start against the moto server. SDK v2
conformance is in tests/test_tuning_conformance.py."""
import io
import json

import boto3
import pytest

from sagemaker_hetero import ConfigError, InstanceGroup, LocalSession, PyTorch, Session, TrainingInput
from sagemaker_hetero import exceptions as E
from sagemaker_hetero.tuner import HyperparameterTuner, IntegerParameter
from sagemaker_hetero.workflow import ParameterInteger, ParameterString, Pipeline, TrainingStep

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"


def gpu_type(default="ml.p4d.24xlarge"):
    return ParameterString("GpuType", default_value=default)


def gpu_count(default=2):
    return ParameterInteger("GpuCount", default_value=default)


def train_data(default="s3://bucket/train"):
    return ParameterString("TrainData", default_value=default)


def estimator(itype=None, count=None, **overrides):
    kwargs = dict(entry_point="train.py", framework_version="2.2.0", py_version="py310", role=ROLE,
                  output_path="s3://bucket/out", hyperparameters={"epochs": 3},
                  instance_groups=[InstanceGroup("data", "ml.c5.18xlarge", 2),
                                   InstanceGroup("dnn", itype or gpu_type(), count or gpu_count())],
                  distribution={"smdistributed": {"dataparallel": {"enabled": True}}, "instance_groups": ["dnn"]})
    kwargs.update(overrides)
    return PyTorch(**kwargs)


def inputs(data=None):
    return {"train": TrainingInput(data or train_data(), instance_groups=["data"]),
            "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["dnn"])}


def problems_of(excinfo):
    return dict((p.path, p) for p in excinfo.value.problems)


# -- a step's arguments ------------------------------------------------------------------------------


@pytest.mark.usefixtures("workdir")
def test_a_steps_arguments_are_the_estimators_request_without_the_job_name():
    plain = {"train": TrainingInput("s3://bucket/train", instance_groups=["data"]),
             "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["dnn"])}
    est = estimator(itype="ml.p4d.24xlarge", count=2, job_name="fixed-name")
    request = est.fit(plain, dry_run=True)
    arguments = TrainingStep("Train", estimator=est, inputs=plain).arguments
    expected = json.loads(json.dumps(request))
    del expected["TrainingJobName"]
    del expected["HyperParameters"]["sagemaker_job_name"]  # each execution names its job (as the SDK v2)
    assert arguments == expected


@pytest.mark.usefixtures("workdir")
def test_parameters_are_written_where_they_stand_and_where_the_sdk_derives_a_value_from_one():
    arguments = TrainingStep("Train", estimator=estimator(), inputs=inputs()).arguments
    assert arguments["ResourceConfig"]["InstanceGroups"][1] == {
        "InstanceGroupName": "dnn", "InstanceType": {"Get": "Parameters.GpuType"},
        "InstanceCount": {"Get": "Parameters.GpuCount"}}
    assert arguments["InputDataConfig"][0]["DataSource"]["S3DataSource"]["S3Uri"] == {"Get": "Parameters.TrainData"}
    # smdistributed's hyperparameter is the group's type, JSON-encoded: joined at run time
    assert arguments["HyperParameters"]["sagemaker_instance_type"] == {
        "Std:Join": {"On": "", "Values": ['"', {"Get": "Parameters.GpuType"}, '"']}}
    # the image is chosen from the default type: a GPU image for the p4d default
    assert arguments["AlgorithmSpecification"]["TrainingImage"].endswith("pytorch-training:2.2.0-gpu-py310")


@pytest.mark.usefixtures("workdir")
def test_parameters_are_checked_with_their_default_values_under_the_users_names():
    with pytest.raises(ConfigError) as excinfo:  # the estimator checks its own arguments with the defaults
        estimator(itype=gpu_type("ml.p4d.huge"), count=gpu_count(0), distribution=None)
    found = problems_of(excinfo)
    assert sorted(found) == ["instance_groups[1].instance_count", "instance_groups[1].instance_type"]
    assert found["instance_groups[1].instance_type"].value == "ml.p4d.huge"
    assert found["instance_groups[1].instance_count"].message == "must be an integer >= 1"
    with pytest.raises(ConfigError) as excinfo:  # the step, its inputs too
        TrainingStep("Train", estimator=estimator(), inputs=inputs(train_data("not-a-uri")))
    assert str(excinfo.value).startswith("1 problem with the training step 'Train':")
    assert problems_of(excinfo)["inputs['train'].s3_data"].value == "not-a-uri"


@pytest.mark.usefixtures("workdir")
def test_a_parameter_without_a_default_is_not_checked_but_a_type_needs_one():
    step = TrainingStep("Train", estimator=estimator(count=ParameterInteger("GpuCount")),
                        inputs=inputs(ParameterString("TrainData")))
    assert step.arguments["ResourceConfig"]["InstanceGroups"][1]["InstanceCount"] == {"Get": "Parameters.GpuCount"}
    assert step.arguments["InputDataConfig"][0]["DataSource"]["S3DataSource"]["S3Uri"] == {"Get": "Parameters.TrainData"}
    with pytest.raises(ConfigError) as excinfo:
        estimator(itype=ParameterString("GpuType"), distribution=None)
    assert list(problems_of(excinfo)) == ["instance_groups[1].instance_type"]
    assert "needs a default_value" in problems_of(excinfo)["instance_groups[1].instance_type"].message


@pytest.mark.usefixtures("workdir")
def test_parameters_stand_for_counts_types_and_input_uris_only():
    with pytest.raises(ConfigError) as excinfo:
        TrainingStep("Train", estimator=estimator(count=ParameterString("GpuCount", "2"),
                                                  volume_size=ParameterInteger("Volume", 30),
                                                  hyperparameters={"epochs": ParameterInteger("Epochs", 3)}),
                     inputs=inputs())
    found = problems_of(excinfo)
    assert found["instance_groups[1].instance_count"].message == "is an instance count: it takes a ParameterInteger"
    assert "may stand for an instance count, an instance type or an input URI only" in found["volume_size"].message
    assert "hyperparameters['epochs']" in found


def test_a_job_started_directly_takes_no_parameters(workdir):
    est = estimator()  # the constructor takes them
    with pytest.raises(ConfigError) as excinfo:
        est.fit(inputs(), dry_run=True)
    assert sorted(problems_of(excinfo)) == ["inputs['train'].s3_data", "instance_groups[1].instance_count",
                                            "instance_groups[1].instance_type"]
    assert "run the estimator as a workflow TrainingStep" in str(excinfo.value)
    tuner = HyperparameterTuner(est, "loss", {"lr": IntegerParameter(1, 2)},
                                metric_definitions=[{"Name": "loss", "Regex": "loss=(.*)"}])
    with pytest.raises(ConfigError) as excinfo:
        tuner.fit(inputs(), dry_run=True)
    assert "estimator.instance_groups[1].instance_type" in problems_of(excinfo)


# -- the pipeline -----------------------------------------------------------------------------------


@pytest.mark.usefixtures("workdir")
def test_the_definition_declares_the_parameters_and_lists_the_steps():
    step = TrainingStep("Train", estimator=estimator(), inputs=inputs(), display_name="Training",
                        description="two groups")
    later = TrainingStep("Again", estimator=estimator(), inputs=inputs(), depends_on=[step])
    pipeline = Pipeline("hetero", parameters=[gpu_type(), gpu_count(), train_data()], steps=[step, later])
    definition = json.loads(pipeline.definition())
    assert definition["Version"] == "2020-12-01"
    assert definition["Parameters"] == [
        {"Name": "GpuType", "Type": "String", "DefaultValue": "ml.p4d.24xlarge"},
        {"Name": "GpuCount", "Type": "Integer", "DefaultValue": 2},
        {"Name": "TrainData", "Type": "String", "DefaultValue": "s3://bucket/train"}]
    assert definition["PipelineExperimentConfig"] == {"ExperimentName": {"Get": "Execution.PipelineName"},
                                                      "TrialName": {"Get": "Execution.PipelineExecutionId"}}
    first, second = definition["Steps"]
    assert (first["Name"], first["Type"], first["DisplayName"], first["Description"]) == (
        "Train", "Training", "Training", "two groups")
    assert first["Arguments"] == json.loads(json.dumps(step.arguments))
    assert second["DependsOn"] == ["Train"]
    assert repr(pipeline) == "Pipeline(name='hetero', steps=['Train', 'Again'], parameters=['GpuType', 'GpuCount', " \
                             "'TrainData'])"


@pytest.mark.usefixtures("workdir")
def test_a_pipeline_reports_every_problem_of_its_own_and_of_its_steps():
    step = TrainingStep("Train", estimator=estimator(), inputs=inputs())
    twin = TrainingStep("Train", estimator=estimator(), inputs=inputs(), depends_on=["Nowhere"])
    step.estimator.instance_groups[0] = InstanceGroup("data", "ml.c5.18xlarge", -1)  # changed after its check
    pipeline = Pipeline("bad_name", parameters=[gpu_type(), gpu_type("ml.g5.xlarge")], steps=[step, twin, "x"])
    with pytest.raises(ConfigError) as excinfo:
        pipeline.upsert()
    found = problems_of(excinfo)
    assert str(excinfo.value).startswith("%d problems with the pipeline:" % len(excinfo.value.problems))
    assert "steps['Train'].instance_groups[0].instance_count" in found
    assert found["steps[2]"].message == "must be a TrainingStep"
    assert found["steps[1]"].message == "has the name of another step; step names must be unique"
    assert found["steps['Train'].depends_on[0]"].value == "Nowhere"
    assert found["parameters[1]"].message == "names the same parameter as another one"
    assert "is not among the pipeline's parameters" in found["steps['Train'].instance_groups[1].instance_count"].message
    assert found["role_arn"].message.startswith("is required")
    assert [p.path for p in excinfo.value.problems].count("role_arn") == 1
    assert found["name"].message.startswith("may hold only letters, digits and hyphens")  # the model's pattern


@pytest.mark.usefixtures("workdir")
def test_a_step_of_a_local_estimator_is_refused():
    with pytest.raises(ConfigError) as excinfo:
        TrainingStep("Train", estimator=estimator(itype="ml.c5.xlarge", count=1, distribution=None,
                                                  sagemaker_session=LocalSession()),
                     inputs={"train": "s3://bucket/train"})
    assert "a pipeline runs its steps in SageMaker" in problems_of(excinfo)["estimator.sagemaker_session"].message


# -- against the moto server -------------------------------------------------------------------------


@pytest.fixture
def code(tmp_path, monkeypatch, aws):
    (tmp_path / "train.py").write_text("print('train')\n")
    monkeypatch.chdir(tmp_path)
    boto3.client("s3").create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    aws.clear_requests()
    return tmp_path


def pipeline_of(session):
    step = TrainingStep("Train", estimator=estimator(sagemaker_session=session), inputs=inputs())
    return Pipeline("hetero-pipeline", parameters=[gpu_type(), gpu_count(), train_data()], steps=[step])


def test_upsert_uploads_the_code_then_creates_and_then_updates_the_pipeline(aws, code):
    pipeline = pipeline_of(Session())
    response = pipeline.upsert(role_arn=ROLE, description="two groups", tags=[{"Key": "team", "Value": "ml"}])
    assert response["PipelineArn"].endswith(":pipeline/hetero-pipeline")
    sent = aws.last_json("CreatePipeline")
    assert (sent["RoleArn"], sent["PipelineDescription"], sent["Tags"]) == (ROLE, "two groups",
                                                                            [{"Key": "team", "Value": "ml"}])
    assert aws.operations("s3")[-1] == "PutObject" and aws.operations("sagemaker") == ["CreatePipeline"]
    arguments = json.loads(sent["PipelineDefinition"])["Steps"][0]["Arguments"]
    code_uri = json.loads(arguments["HyperParameters"]["sagemaker_submit_directory"])
    assert boto3.client("s3").head_object(Bucket="bucket", Key=code_uri[len("s3://bucket/"):])["ContentLength"] > 0
    assert json.loads(pipeline.describe()["PipelineDefinition"]) == json.loads(sent["PipelineDefinition"])
    pipeline.upsert(role_arn=ROLE)  # exists: updated, with the same code place
    assert aws.operations("sagemaker") == ["CreatePipeline", "DescribePipeline", "CreatePipeline", "UpdatePipeline"]
    assert json.loads(aws.last_json("UpdatePipeline")["PipelineDefinition"]) == json.loads(sent["PipelineDefinition"])
    assert "ClientRequestToken" not in aws.last_json("UpdatePipeline")


def test_start_checks_the_executions_values_then_starts_and_waits(aws, code):
    pipeline = pipeline_of(Session())
    pipeline.upsert(role_arn=ROLE)
    with pytest.raises(ConfigError) as excinfo:
        pipeline.start(parameters={"GpuType": "ml.nope.large", "GpuCount": "3"})
    assert list(problems_of(excinfo)) == ["parameters['GpuCount']"]  # first the values themselves
    with pytest.raises(ConfigError) as excinfo:
        pipeline.start(parameters={"GpuType": 5, "Other": 1})
    assert sorted(problems_of(excinfo)) == ["parameters['GpuType']", "parameters['Other']"]
    with pytest.raises(ConfigError) as excinfo:
        pipeline.start(parameters={"GpuType": "ml.nope.large"})
    found = problems_of(excinfo)  # then the step with them (smdistributed needs a GPU type too)
    assert sorted(found) == ["steps['Train'].distribution.instance_groups", "steps['Train'].instance_groups[1].instance_type"]
    assert found["steps['Train'].instance_groups[1].instance_type"].value == "ml.nope.large"
    assert "StartPipelineExecution" not in aws.operations("sagemaker")
    execution = pipeline.start(parameters={"GpuCount": 4, "TrainData": "s3://bucket/other"},
                               execution_display_name="run-1")
    sent = aws.last_json("StartPipelineExecution")
    assert sent["PipelineParameters"] == [{"Name": "GpuCount", "Value": "4"}, {"Name": "TrainData",
                                                                                "Value": "s3://bucket/other"}]
    assert sent["PipelineExecutionDisplayName"] == "run-1"
    out = io.StringIO()
    assert execution.wait(out=out, clock=lambda: 0.0, sleep=lambda s: None)["PipelineExecutionStatus"] == "Succeeded"  # moto: at once
    assert out.getvalue() == "[0:00:00] %s: Succeeded\n" % execution.arn


def test_a_failed_execution_raises_when_waited_for(fault_proxy, code):
    pipeline = pipeline_of(Session())
    pipeline.upsert(role_arn=ROLE)
    execution = pipeline.start()
    fault_proxy.add_fault(operation="DescribePipelineExecution", kind="status", status=200,
                          body={"PipelineExecutionArn": execution.arn, "PipelineExecutionStatus": "Failed",
                                "FailureReason": "Step Train failed"})
    with pytest.raises(E.UnexpectedStatusException) as excinfo:
        execution.wait(out=io.StringIO(), sleep=lambda s: None)
    assert str(excinfo.value) == "Pipeline execution %s ended with status Failed: Step Train failed" % execution.arn


def test_upsert_checks_the_input_buckets_before_uploading_anything(aws, code):
    data = train_data("s3://no-such-bucket/train")
    step = TrainingStep("Train", estimator=estimator(sagemaker_session=Session()), inputs=inputs(data))
    pipeline = Pipeline("hetero-pipeline", parameters=[gpu_type(), gpu_count(), data], steps=[step])
    with pytest.raises(ConfigError) as excinfo:
        pipeline.upsert(role_arn=ROLE)
    assert "does not exist" in problems_of(excinfo)["steps['Train'].inputs['train']"].message
    assert "PutObject" not in aws.operations("s3") and aws.operations("sagemaker") == []


def test_a_pipeline_definition_imports_no_boto3(workdir):
    import subprocess
    import sys

    code = (
        "import json, sys\n"
        "from sagemaker_hetero import Estimator, InstanceGroup\n"
        "from sagemaker_hetero.workflow import ParameterInteger, Pipeline, TrainingStep\n"
        "count = ParameterInteger('Count', 2)\n"
        "est = Estimator(image_uri='123456789012.dkr.ecr.us-west-2.amazonaws.com/x:1', role=%r,\n"
        "                instance_groups=[InstanceGroup('a', 'ml.m5.xlarge', count)], output_path='s3://b/o')\n"
        "text = Pipeline('p', parameters=[count], steps=[TrainingStep('T', estimator=est, inputs='s3://b/t')]).definition()\n"
        "assert json.loads(text)['Steps'][0]['Arguments']['ResourceConfig']['InstanceGroups'][0]['InstanceCount'] == \\\n"
        "    {'Get': 'Parameters.Count'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('boto3', 'botocore')))\n" % ROLE
    )
    result = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.usefixtures("workdir")
def test_the_create_pipeline_request_is_checked_against_the_service_model():
    pipeline = Pipeline("bad_name", parameters=[gpu_type(), gpu_count(), train_data()],
                        steps=[TrainingStep("Train", estimator=estimator(), inputs=inputs())])
    with pytest.raises(ConfigError) as excinfo:
        pipeline.upsert(role_arn="not-an-arn", description="x" * 4000)
    found = problems_of(excinfo)
    assert sorted(found) == ["description", "name", "role_arn"]
    assert found["name"].message.startswith("may hold only letters, digits and hyphens")
