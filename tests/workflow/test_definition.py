"""A pipeline's definition built from its pure parts (``_model.variables``, ``_request.plan``,
``workflow._definition``), with no estimator, session or AWS: the steps' arguments with the parameters written
in, the definition JSON, the CreatePipeline request, and the pipeline's own rules."""
import json
import os
import sys

import pytest

from sagemaker_hetero._model import build, variables
from sagemaker_hetero._request import plan
from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.workflow import _definition as W
from sagemaker_hetero.workflow.parameters import ParameterInteger, ParameterString
from tests._pure import CONFORMANCE, FACTS, ROLE, code_key_as_sdk_v2, expectation, settings

sys.path.insert(0, os.path.join(CONFORMANCE, "tuning"))
from normalize_tuning import normalize_pipeline  # noqa: E402

sys.path.pop(0)

COUNT = ParameterInteger(name="TrainCount", default_value=2)
TYPE = ParameterString(name="TrainType", default_value="ml.p4d.24xlarge")
DATA = ParameterString(name="TrainData", default_value="s3://my-bucket/train")
ESTIMATOR = dict(entry_point="train.py", source_dir="src", framework_version="2.2.0", py_version="py310", role=ROLE,
                 output_path="s3://my-out/out", hyperparameters={"epochs": 3}, disable_profiler=True)


def step_arguments(job_settings, values=None, now=0):
    """A training step's arguments, as ``TrainingStep.arguments`` makes them, from settings alone."""
    with_values, _, problems = variables.with_values(job_settings, values)
    assert problems == []
    job, found = build.build(with_values)
    assert found == []
    return W.step_arguments(plan.make_plan(job, FACTS, now))  # rendered once: the tokens where a value went


def test_the_definition_of_pipeline_homog_is_the_sdk_v2s():
    """tests/conformance/tuning/pipeline_homog: one step whose count, type and data are pipeline parameters."""
    arguments = step_arguments(settings("pytorch", {"train": TrainingInput(DATA)}, instance_type=TYPE, instance_count=COUNT,
                                        **ESTIMATOR))
    definition = W.definition([COUNT, TYPE, DATA], dict(W.DEFAULT_EXPERIMENT_CONFIG), [W.step_request("Train", arguments)])
    request = W.create_request("hetero-pipeline", ROLE, json.dumps(definition), "token")
    expected = expectation("tuning", "pipeline_homog")["CreatePipeline"]
    assert code_key_as_sdk_v2(normalize_pipeline(request)) == code_key_as_sdk_v2(expected)


def test_a_groups_parameters_are_written_where_the_group_is_and_the_image_follows_the_default():
    gpu = InstanceGroup("dnn_group", TYPE, COUNT)
    arguments = step_arguments(settings("pytorch", {"train": TrainingInput(DATA, instance_groups=["data_group"])},
                                        instance_groups=[InstanceGroup("data_group", "ml.c5.xlarge", 1), gpu],
                                        distribution={"torch_distributed": {"enabled": True}, "instance_groups": ["dnn_group"]},
                                        **ESTIMATOR))
    groups = arguments["ResourceConfig"]["InstanceGroups"]
    assert groups[1] == {"InstanceGroupName": "dnn_group", "InstanceType": {"Get": "Parameters.TrainType"},
                         "InstanceCount": {"Get": "Parameters.TrainCount"}}
    assert arguments["AlgorithmSpecification"]["TrainingImage"].endswith("2.2.0-gpu-py310")
    assert arguments["InputDataConfig"][0]["DataSource"]["S3DataSource"]["S3Uri"] == {"Get": "Parameters.TrainData"}
    assert "TrainingJobName" not in arguments and "sagemaker_job_name" not in arguments["HyperParameters"]


def test_a_value_derived_from_a_parameter_is_a_join():
    arguments = step_arguments(settings("pytorch", None, instance_type=TYPE, instance_count=1,
                                        distribution={"smdistributed": {"dataparallel": {"enabled": True}}}, **ESTIMATOR))
    assert arguments["HyperParameters"]["sagemaker_instance_type"] == {
        "Std:Join": {"On": "", "Values": ['"', {"Get": "Parameters.TrainType"}, '"']}}


@pytest.mark.parametrize("values, problems", [
    ({"TrainCount": 3, "TrainType": "ml.g5.xlarge"}, []),
    ({"TrainCount": "3"}, [("parameters['TrainCount']", "must be an integer (a ParameterInteger)")]),
    ({"TrainType": 3}, [("parameters['TrainType']", "must be a string (a ParameterString)")]),
    ({"Nope": 1}, [("parameters['Nope']", "is not a parameter of the pipeline (parameters: 'TrainCount', 'TrainType', "
                                          "'TrainData')")]),
])
def test_execution_parameters(values, problems):
    out, found = W.execution_parameters([COUNT, TYPE, DATA], values)
    assert [(p.path, p.message) for p in found] == problems
    if not problems:
        assert out == [{"Name": "TrainCount", "Value": "3"}, {"Name": "TrainType", "Value": "ml.g5.xlarge"}]


PIPELINE_RULES = [
    ("a parameter of no kind", ["x"], [("Train", None, [])], "parameters[0]", "must be a ParameterString or ParameterInteger"),
    ("parameters distinct", [COUNT, ParameterInteger(name="TrainCount")], [("Train", None, [])], "parameters[1]",
     "names the same parameter as another one"),
    ("steps distinct", [], [("Train", None, []), ("Train", None, [])], "steps[1]", "step names must be unique"),
    ("a dependency among the steps", [], [("Train", ["Prep"], [])], "steps['Train'].depends_on[0]",
     "is not another step of the pipeline"),
    ("a step's parameter declared", [], [("Train", None, [("instance_count", COUNT)])], "steps['Train'].instance_count",
     "is pipeline parameter 'TrainCount', which is not among the pipeline's parameters"),
    ("a step's parameter the declared one", [ParameterInteger(name="TrainCount", default_value=9)],
     [("Train", None, [("instance_count", COUNT)])], "steps['Train'].instance_count", "unlike the pipeline's of that name"),
]


@pytest.mark.parametrize("parameters, steps, path, fragment", [r[1:] for r in PIPELINE_RULES], ids=[r[0] for r in PIPELINE_RULES])
def test_each_pipeline_rule(parameters, steps, path, fragment):
    found = [(p.path, p.message) for p in W.pipeline_problems(parameters, steps)]
    at = [m for p, m in found if p == path]
    assert len(at) == 1 and fragment in at[0], found


@pytest.mark.parametrize("path, values, problem", [
    ("max_run", None, ("max_run", "a pipeline parameter may stand for an instance count, an instance type or an input URI only")),
    ("instance_count", None, None),
    ("instance_type", {"TrainType": None}, ("instance_type", "needs a default_value")),
])
def test_where_a_parameter_may_stand(path, values, problem):
    parameter = {"max_run": COUNT, "instance_count": COUNT, "instance_type": ParameterString(name="TrainType")}[path]
    arguments = dict(ESTIMATOR, instance_type="ml.c5.xlarge", instance_count=1)
    arguments[path] = parameter
    _, _, found = variables.with_values(settings("pytorch", None, **arguments), values)
    assert [(p.path, problem[1] in p.message) for p in found] == ([(problem[0], True)] if problem else [])


def test_find_names_every_parameter_under_the_users_path():
    found = variables.find(settings("pytorch", {"train": TrainingInput(DATA)}, instance_type=TYPE, instance_count=COUNT,
                                    **ESTIMATOR))
    assert [(p, q.name) for p, q in found] == [("instance_count", "TrainCount"), ("instance_type", "TrainType"),
                                               ("inputs['train'].s3_data", "TrainData")]


def test_the_create_request_and_its_problems_under_the_pipelines_names():
    request = W.create_request("bad name", "R", "{}", "t" * 40, description="d", tags=[{"Key": "k", "Value": "v"}],
                               parallelism_config={"MaxParallelExecutionSteps": 0})
    assert set(request) == {"PipelineName", "ClientRequestToken", "RoleArn", "PipelineDefinition", "PipelineDescription", "Tags",
                            "ParallelismConfiguration"}
    assert sorted(p.path for p in W.request_problems(request)) == ["name", "parallelism_config['MaxParallelExecutionSteps']",
                                                                   "role_arn"]


@pytest.mark.parametrize("name, arguments, display, description, depends_on, request_", [
    ("A", {}, None, None, None, {"Name": "A", "Type": "Training", "Arguments": {}}),
    ("A", {"x": 1}, "Shown", "Says", ["B"], {"Name": "A", "Type": "Training", "Arguments": {"x": 1}, "DependsOn": ["B"],
                                             "DisplayName": "Shown", "Description": "Says"}),
])
def test_step_request(name, arguments, display, description, depends_on, request_):
    assert W.step_request(name, arguments, display, description, depends_on) == request_
