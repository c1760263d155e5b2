"""``_checks.service``: one walker over the service-model snapshot, called directly on request dicts. Each row
changes one part of a valid CreateTrainingJob request and names the violation the service would answer."""
import copy

import pytest

from sagemaker_hetero._checks import service
from sagemaker_hetero._request import plan
from tests._pure import FACTS, PYTORCH, ROUTED, job

SHAPE = "CreateTrainingJobRequest"


def _valid():
    return plan.make_plan(job("pytorch", ROUTED, "a-job", **PYTORCH), FACTS, 0).request


VALID = _valid()
DELETE = object()


def _changed(path, value):
    request = copy.deepcopy(VALID)
    node = request
    for key in path[:-1]:
        node = node[key]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return request


# (id, the path changed, its new value, the violation's path, a fragment of its message, the value it shows)
ROWS = [
    ("a string's type", ("TrainingJobName",), 7, ("TrainingJobName",), "must be a string", 7),
    ("a string's length", ("TrainingJobName",), "a" * 64, ("TrainingJobName",), "must be at most 63 characters", "a" * 64),
    ("a string's pattern", ("TrainingJobName",), "a_job", ("TrainingJobName",), "must match the pattern", "a_job"),
    ("an integer's type", ("ResourceConfig", "VolumeSizeInGB"), "30", ("ResourceConfig", "VolumeSizeInGB"), "must be an integer",
     "30"),
    ("True is not a number", ("ResourceConfig", "VolumeSizeInGB"), True, ("ResourceConfig", "VolumeSizeInGB"), "must be an integer",
     True),
    ("an integer's range", ("StoppingCondition", "MaxRuntimeInSeconds"), 0, ("StoppingCondition", "MaxRuntimeInSeconds"),
     "must be an integer between 1 and", 0),
    ("the wire's 32 bits", ("ResourceConfig", "VolumeSizeInGB"), 2 ** 31, ("ResourceConfig", "VolumeSizeInGB"),
     "must be an integer between", 2 ** 31),
    ("an enum", ("AlgorithmSpecification", "TrainingInputMode"), "Files", ("AlgorithmSpecification", "TrainingInputMode"),
     "must be one of Pipe, File, FastFile", "Files"),
    ("a long enum says the closest", ("ResourceConfig", "InstanceGroups", 0, "InstanceType"), "ml.c5.xlarg",
     ("ResourceConfig", "InstanceGroups", 0, "InstanceType"), "did you mean ml.c5.xlarge", "ml.c5.xlarge"[:-1]),
    ("a required member", ("RoleArn",), DELETE, ("RoleArn",), "is required", None),
    ("a required member set to None", ("RoleArn",), None, ("RoleArn",), "is required", None),
    ("an optional member set to None", ("Environment",), None, ("Environment",), "must be a dict", None),
    ("an unknown member names the closest", ("OutputDataConfig", "S3OutputPth"), "s3://b/o", ("OutputDataConfig", "S3OutputPth"),
     "is not a field of OutputDataConfig; did you mean S3OutputPath?", "s3://b/o"),
    ("a list's type", ("InputDataConfig",), {"ChannelName": "x"}, ("InputDataConfig",), "must be a list", {"ChannelName": "x"}),
    ("a list's least length", ("InputDataConfig",), [], ("InputDataConfig",), "must hold at least 1 item", 0),
    ("a list's most length", ("ResourceConfig", "InstanceGroups"), VALID["ResourceConfig"]["InstanceGroups"] * 3,
     ("ResourceConfig", "InstanceGroups"), "must hold at most 5 items", 6),
    ("a map's key", ("HyperParameters",), {"k" * 257: "v"}, ("HyperParameters", "k" * 257), "key must be at most 256 characters",
     "k" * 257),
    ("a map's value", ("Environment",), {"A": 1}, ("Environment", "A"), "must be a string", 1),
    ("a boolean", ("EnableNetworkIsolation",), "yes", ("EnableNetworkIsolation",), "must be a boolean", "yes"),
    ("a nested structure", ("StoppingCondition",), [], ("StoppingCondition",), "must be a dict", []),
    ("a line break in a .* pattern", ("AlgorithmSpecification", "TrainingImage"), "a\nb",
     ("AlgorithmSpecification", "TrainingImage"), "must match the pattern", "a\nb"),
]


@pytest.mark.parametrize("path, value, at, fragment, shown", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_the_walker_finds_what_the_service_refuses(path, value, at, fragment, shown):
    found = service.check(_changed(path, value), SHAPE)
    assert found and set(v.path for v in found) == set([at]), found
    assert fragment in found[0].message
    if shown is not None:
        assert found[0].has_value and found[0].value == shown


def test_a_valid_request_has_no_violation_and_a_skipped_subtree_is_not_walked():
    assert service.check(VALID, SHAPE) == []
    bad = _changed(("InputDataConfig", 0, "DataSource"), {"FileDataSource": {"FileUri": "file:///x"}})
    assert service.check(bad, SHAPE) != []
    assert service.check(bad, SHAPE, skip=[("InputDataConfig", 0, "DataSource", "FileDataSource")]) == []


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_a_number_must_be_finite(value):
    found = service.check({"TargetObjectiveMetricValue": value}, "TuningJobCompletionCriteria")
    assert [v.message for v in found] == ["must be a finite number"]


def test_a_hostile_value_is_a_violation_never_an_exception():
    class Hostile(str):
        def __len__(self):
            raise RuntimeError("no")

    found = service.check(_changed(("TrainingJobName",), Hostile("a")), SHAPE)
    assert [(v.path, v.message) for v in found] == [(("TrainingJobName",), "could not be checked (RuntimeError)")]


@pytest.mark.parametrize("call, error, fragment", [
    (lambda: service.check({}, "NoSuchShape"), ValueError, "unknown shape 'NoSuchShape'"),
    (lambda: service.input_shape("NoSuchOperation"), ValueError, "unknown operation 'NoSuchOperation'"),
    (lambda: service.check({}, SHAPE, skip=["RoleArn"]), TypeError, "skip must hold path tuples"),
])
def test_a_wrong_question_is_an_error_naming_it(call, error, fragment):
    with pytest.raises(error) as info:
        call()
    assert fragment in str(info.value)


def test_the_snapshot_is_read_shape_by_shape():
    text = '{\n"operations":{"Op":"OpRequest"},\n"shapes":{\n"OpRequest":{"type":"structure","members":{}},\n' \
           '"Other":{"type":"string","max":2}\n}\n}'
    model = service.read_snapshot(text)
    assert model["operations"] == {"Op": "OpRequest"}
    assert sorted(model["shapes"]) == ["OpRequest", "Other"] and model["shapes"]["Other"] == {"type": "string", "max": 2}
    assert service.input_shape("CreateTrainingJob") == SHAPE
    assert service.shape("TrainingJobName")["max"] == 63
