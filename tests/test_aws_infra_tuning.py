"""What moto 5.2.5 does with tuning jobs and pipelines: plain boto3 against the real moto server.

The findings the tuner's and the pipelines' tests rely on, summarised as (h) and (i) in the
docstring of tests/_aws.py:

* CreateHyperParameterTuningJob is stored verbatim (``ResourceConfig.InstanceGroups`` in the
  training job definition included) and described back, ``Completed`` at once, with a stand-in best
  training job; a taken name is HTTP 400 ``ResourceInUse`` (as SageMaker answers), an unknown job
  HTTP 400 ``ResourceNotFound``; StopHyperParameterTuningJob is not implemented (HTTP 500).
* CreatePipeline stores the definition without reading it; a taken name is HTTP 400
  ``ValidationException`` "... already exists." (as SageMaker answers); UpdatePipeline replaces the
  definition; StartPipelineExecution answers an execution that is ``Succeeded`` at once and runs no
  step; ListPipelineExecutionSteps is not implemented (HTTP 500).
"""
import json

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from tests._aws import ACCOUNT_ID, REGION

NO_RETRIES = Config(retries={"mode": "standard", "total_max_attempts": 1})
ROLE_ARN = "arn:aws:iam::%s:role/SageMakerRole" % ACCOUNT_ID


def tuning_request(name="hpo-1"):
    return {
        "HyperParameterTuningJobName": name,
        "HyperParameterTuningJobConfig": {
            "Strategy": "Bayesian",
            "ResourceLimits": {"MaxNumberOfTrainingJobs": 2, "MaxParallelTrainingJobs": 1},
            "HyperParameterTuningJobObjective": {"Type": "Minimize", "MetricName": "loss"},
            "ParameterRanges": {"IntegerParameterRanges": [{"Name": "layers", "MinValue": "1", "MaxValue": "4"}]},
        },
        "TrainingJobDefinition": {
            "StaticHyperParameters": {"epochs": "3"},
            "AlgorithmSpecification": {"TrainingImage": "123456789012.dkr.ecr.us-west-2.amazonaws.com/x:1",
                                       "TrainingInputMode": "File",
                                       "MetricDefinitions": [{"Name": "loss", "Regex": "loss=(.*)"}]},
            "RoleArn": ROLE_ARN,
            "InputDataConfig": [{"ChannelName": "train", "DataSource": {"S3DataSource": {
                "S3DataType": "S3Prefix", "S3Uri": "s3://bucket/train", "InstanceGroupNames": ["data"]}}}],
            "OutputDataConfig": {"S3OutputPath": "s3://bucket/out"},
            "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
            "ResourceConfig": {"VolumeSizeInGB": 30, "InstanceGroups": [
                {"InstanceGroupName": "data", "InstanceType": "ml.c5.xlarge", "InstanceCount": 2},
                {"InstanceGroupName": "dnn", "InstanceType": "ml.p4d.24xlarge", "InstanceCount": 1}]},
        },
    }


def error_of(excinfo):
    response = excinfo.value.response
    return response["Error"]["Code"], response["ResponseMetadata"]["HTTPStatusCode"], response["Error"]["Message"]


def test_moto_stores_and_describes_a_tuning_job_with_instance_groups(aws):
    sagemaker = boto3.client("sagemaker")
    request = tuning_request()
    arn = sagemaker.create_hyper_parameter_tuning_job(**request)["HyperParameterTuningJobArn"]
    assert arn == "arn:aws:sagemaker:%s:%s:hyper-parameter-tuning-job/hpo-1" % (REGION, ACCOUNT_ID)
    assert aws.last_json("CreateHyperParameterTuningJob") == request
    described = sagemaker.describe_hyper_parameter_tuning_job(HyperParameterTuningJobName="hpo-1")
    assert described["TrainingJobDefinition"] == request["TrainingJobDefinition"]
    assert described["HyperParameterTuningJobConfig"] == request["HyperParameterTuningJobConfig"]
    assert described["HyperParameterTuningJobStatus"] == "Completed"  # at once
    assert described["BestTrainingJob"]["TrainingJobName"] == "FakeTrainingJobName"  # a stand-in, no such job
    with pytest.raises(ClientError):
        sagemaker.describe_training_job(TrainingJobName="FakeTrainingJobName")


def test_moto_refuses_a_taken_tuning_job_name_and_knows_no_unknown_one(aws):
    sagemaker = boto3.client("sagemaker")
    sagemaker.create_hyper_parameter_tuning_job(**tuning_request())
    with pytest.raises(ClientError) as excinfo:
        sagemaker.create_hyper_parameter_tuning_job(**tuning_request())
    code, status, message = error_of(excinfo)
    assert (code, status) == ("ResourceInUse", 400) and "already exists" in message
    with pytest.raises(ClientError) as excinfo:
        sagemaker.describe_hyper_parameter_tuning_job(HyperParameterTuningJobName="missing")
    assert error_of(excinfo) == ("ResourceNotFound", 400, "Could not find hyper parameter tuning job 'missing'.")


def test_moto_stop_tuning_job_not_implemented(aws):
    sagemaker = boto3.client("sagemaker", config=NO_RETRIES)
    sagemaker.create_hyper_parameter_tuning_job(**tuning_request())
    with pytest.raises(ClientError) as excinfo:
        sagemaker.stop_hyper_parameter_tuning_job(HyperParameterTuningJobName="hpo-1")
    assert excinfo.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500
    (stop,) = aws.calls(operation="StopHyperParameterTuningJob")
    assert stop.error == "NotImplementedError: The stop_hyper_parameter_tuning_job action has not been implemented"


def test_moto_pipelines_store_definitions_and_start_executions_that_succeed_at_once(aws):
    sagemaker = boto3.client("sagemaker")
    definition = json.dumps({"Version": "2020-12-01", "Steps": [{"Name": "Train", "Type": "Training",
                                                                 "Arguments": {"not": "checked"}}]})
    arn = sagemaker.create_pipeline(PipelineName="p", PipelineDefinition=definition, RoleArn=ROLE_ARN)["PipelineArn"]
    assert arn == "arn:aws:sagemaker:%s:%s:pipeline/p" % (REGION, ACCOUNT_ID)
    assert sagemaker.describe_pipeline(PipelineName="p")["PipelineDefinition"] == definition  # not read
    with pytest.raises(ClientError) as excinfo:
        sagemaker.create_pipeline(PipelineName="p", PipelineDefinition=definition, RoleArn=ROLE_ARN)
    code, status, message = error_of(excinfo)
    assert (code, status) == ("ValidationException", 400) and message.endswith("Pipeline with name (p) already exists.")
    sagemaker.update_pipeline(PipelineName="p", PipelineDefinition='{"Version": "2020-12-01", "Steps": []}',
                              RoleArn=ROLE_ARN)
    assert json.loads(sagemaker.describe_pipeline(PipelineName="p")["PipelineDefinition"])["Steps"] == []
    execution = sagemaker.start_pipeline_execution(PipelineName="p", PipelineParameters=[
        {"Name": "TrainCount", "Value": "3"}])["PipelineExecutionArn"]
    assert execution.startswith(arn + "/execution/")
    described = sagemaker.describe_pipeline_execution(PipelineExecutionArn=execution)
    assert described["PipelineExecutionStatus"] == "Succeeded"
    assert sagemaker.list_pipeline_parameters_for_execution(PipelineExecutionArn=execution)["PipelineParameters"] == [
        {"Name": "TrainCount", "Value": "3"}]
    assert aws.calls(operation="CreateTrainingJob") == []  # no step runs
    with pytest.raises(ClientError) as excinfo:
        sagemaker.start_pipeline_execution(PipelineName="missing")
    assert error_of(excinfo) == ("ValidationException", 400, "Could not find pipeline with PipelineName missing.")
    with pytest.raises(ClientError) as excinfo:
        boto3.client("sagemaker", config=NO_RETRIES).list_pipeline_execution_steps(PipelineExecutionArn=execution)
    assert excinfo.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500
