"""The diff against a job created in moto: exactly the changed paths for each kind of change, and
nothing for an unchanged job (its content-addressed code key included), in request terms."""
import json

import boto3
import pytest

from sagemaker_hetero import Estimator, InstanceGroup, Session
from sagemaker_hetero._cost import diff as D
from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.inputs import TrainingInput
from tests.cost._jobs import IMAGE, ROLE

BUCKET = "diff-bucket"


def groups(cpu=2, gpu_type="ml.p3.2xlarge"):
    return [InstanceGroup("cpu", "ml.c5.xlarge", cpu), InstanceGroup("gpu", gpu_type, 1)]


def inputs(train_groups=("cpu",)):
    return {"train": TrainingInput("s3://%s/train" % BUCKET, instance_groups=list(train_groups)),
            "eval": TrainingInput("s3://%s/eval" % BUCKET, instance_groups=["gpu"])}


def estimator(**changes):
    kwargs = dict(image_uri=IMAGE, role=ROLE, instance_groups=groups(), entry_point="train.py", source_dir="src",
                  hyperparameters={"lr": 0.1, "epochs": 3}, max_run=3600, output_path="s3://%s/out" % BUCKET,
                  tags=[{"Key": "team", "Value": "ml"}])
    kwargs.update(changes)
    return Estimator(**kwargs)


@pytest.fixture
def created(aws, workdir):
    """A job created in moto with a default (timestamped) name; its name."""
    boto3.client("s3").create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    est = estimator()
    est.fit(inputs(), wait=False)
    return est.latest_training_job.name


def test_an_unchanged_job_has_no_difference_its_code_key_included(created):
    est = estimator()
    result = est.diff(created, inputs=inputs())
    assert result.equal and result.changes == () and not result
    assert result.text() == ("No difference from job %s (in request terms).\n"
                             "  (tags are not compared: a job's description holds none)" % created)
    old = Session().describe_training_job(created)
    assert "/code/" in old["HyperParameters"]["sagemaker_submit_directory"]  # content-addressed: the same key again
    assert est.fit(inputs(), dry_run=True)["TrainingJobName"] != created  # another timestamp, no difference


@pytest.mark.parametrize("kind, changes, train_groups, paths", [
    ("a hyperparameter", dict(hyperparameters={"lr": 0.2, "epochs": 3}), ("cpu",), ["HyperParameters['lr']"]),
    ("a group's count", dict(instance_groups=groups(cpu=3)), ("cpu",),
     ["ResourceConfig.InstanceGroups['cpu'].InstanceCount"]),
    ("a channel's routing", {}, ("cpu", "gpu"),
     ["InputDataConfig['train'].DataSource.S3DataSource.InstanceGroupNames"]),
    ("a group's instance type", dict(instance_groups=groups(gpu_type="ml.g5.2xlarge")), ("cpu",),
     ["ResourceConfig.InstanceGroups['gpu'].InstanceType"]),
    ("max_run", dict(max_run=7200), ("cpu",), ["StoppingCondition.MaxRuntimeInSeconds"]),
    ("managed spot", dict(use_spot_instances=True, max_wait=7200), ("cpu",),
     ["StoppingCondition.MaxWaitTimeInSeconds", "EnableManagedSpotTraining"]),
])
def test_each_kind_of_change_is_exactly_its_paths(created, kind, changes, train_groups, paths):
    result = estimator(**changes).diff(created, inputs=inputs(train_groups))
    assert result.paths == paths, kind
    assert not result.equal and len(result) == len(paths)


def test_the_changes_old_and_new_values_and_json(created):
    result = estimator(hyperparameters={"lr": 0.2, "epochs": 3}, instance_groups=groups(cpu=3)).diff(
        created, inputs=inputs(("cpu", "gpu")))
    assert result.text().splitlines()[:4] == [  # in the request's order
        "3 differences from job %s (in request terms; path: old -> new):" % created,
        "  ResourceConfig.InstanceGroups['cpu'].InstanceCount: 2 -> 3",
        "  InputDataConfig['train'].DataSource.S3DataSource.InstanceGroupNames: [\"cpu\"] -> [\"cpu\", \"gpu\"]",
        "  HyperParameters['lr']: \"0.1\" -> \"0.2\"",
    ]
    data = json.loads(json.dumps(result.to_dict()))
    assert data["equal"] is False and data["against"] == "job %s" % created
    assert data["changes"][0] == {"path": "ResourceConfig.InstanceGroups['cpu'].InstanceCount", "change": "changed",
                                  "old": 2, "new": 3}


def test_changed_code_changes_its_key_and_nothing_else(created, workdir):
    (workdir / "src" / "train.py").write_text("print('changed')\n")
    result = estimator().diff(created, inputs=inputs())
    assert result.paths == ["HyperParameters['sagemaker_submit_directory']"]
    old, new = result.changes[0].old, result.changes[0].new
    assert old != new and old.startswith('"s3://%s/code/' % BUCKET) and new.startswith('"s3://%s/code/' % BUCKET)


def test_against_a_saved_request_added_and_removed_fields(aws, workdir):
    boto3.client("s3").create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    saved = dict(estimator().fit(inputs(), dry_run=True))
    result = estimator(environment={"MODE": "fast"}, tags=None).diff(saved, inputs=inputs())
    assert [(c.path, c.kind) for c in result] == [("Environment", "added"), ("Tags", "removed")]
    assert result.changes[0].to_dict() == {"path": "Environment", "change": "added", "old": None,
                                           "new": {"MODE": "fast"}}
    assert estimator().diff(saved, inputs=inputs()).equal
    assert aws.calls(operation="DescribeTrainingJob") == []


def test_what_the_service_adds_and_the_job_name_are_no_difference():
    new = {"TrainingJobName": "job-2", "RoleArn": ROLE,
           "HyperParameters": {"sagemaker_job_name": '"job-2"', "model_dir": '"s3://b/job-2/model"', "x": "job-20"},
           "OutputDataConfig": {"S3OutputPath": "s3://b/"},
           "InputDataConfig": [{"ChannelName": "a", "DataSource": {"S3DataSource": {"S3Uri": "s3://b/a"}}},
                               {"ChannelName": "b", "DataSource": {"S3DataSource": {"S3Uri": "s3://b/b"}}}]}
    old = {"TrainingJobName": "job-1", "RoleArn": ROLE, "EnableManagedSpotTraining": False, "Environment": {},
           "InfraCheckConfig": {"EnableInfraCheck": False}, "ResourceConfig": {"KeepAlivePeriodInSeconds": 0},
           "HyperParameters": {"sagemaker_job_name": '"job-1"', "model_dir": '"s3://b/job-1/model"', "x": "job-20"},
           "OutputDataConfig": {"S3OutputPath": "s3://b/", "CompressionType": "GZIP", "KmsKeyId": ""},
           "InputDataConfig": [{"ChannelName": "b", "DataSource": {"S3DataSource": {"S3Uri": "s3://b/b"}},
                                "CompressionType": "None", "RecordWrapperType": "None"},
                               {"ChannelName": "a", "DataSource": {"S3DataSource": {"S3Uri": "s3://b/a"}}}]}
    assert D.diff(old, new, "the request given").equal  # channels matched by name; defaults; the names
    old["HyperParameters"]["x"] = "job-1"  # a value that IS the old job's name reads {job_name} ...
    assert D.diff(old, new, "x").paths == ["HyperParameters['x']"]  # ... and "job-20" is another value
    old["InfraCheckConfig"]["EnableInfraCheck"] = True  # not the default: a difference
    assert D.diff(old, new, "x").paths == ["HyperParameters['x']", "InfraCheckConfig"]


def test_a_request_or_description_of_wrong_types_is_a_config_error_naming_every_field():
    new = {"TrainingJobName": "job-2", "RoleArn": ROLE, "OutputDataConfig": {"S3OutputPath": "s3://b/"}}
    wrong = {"TrainingJobName": "job-1", "RoleArn": ROLE, "OutputDataConfig": {"S3OutputPath": "s3://b/"},
             "InputDataConfig": "s3://b/train", "ResourceConfig": {"InstanceGroups": {"cpu": 2}},
             "AlgorithmSpecification": {"TrainingImage": 7, "MetricDefinitions": [{"Name": "a", "Regex": []}]},
             "HyperParameters": {"lr": 0.1}, "EnableNetworkIsolation": "yes", "StoppingCondition": []}
    expected = [("InputDataConfig", "must be a list", "s3://b/train"),
                ("ResourceConfig.InstanceGroups", "must be a list", {"cpu": 2}),
                ("AlgorithmSpecification.TrainingImage", "must be a string", 7),
                ("AlgorithmSpecification.MetricDefinitions[0].Regex", "must be a string", []),
                ("HyperParameters['lr']", "must be a string", 0.1),
                ("EnableNetworkIsolation", "must be a boolean", "yes"),
                ("StoppingCondition", "must be a dict", [])]
    for old, extra in ((wrong, []), (dict(wrong, TrainingJobArn=12, TrainingJobStatus="Completed"),
                                     [("TrainingJobArn", "must be a string", 12)])):
        with pytest.raises(ConfigError) as raised:
            D.diff(old, new, "file old.json")
        assert sorted((p.path, p.message, p.value) for p in raised.value.problems) == sorted(expected + extra)
        assert str(raised.value).startswith("%d problems with file old.json:\n" % len(expected + extra))
    # what is no type problem stays a difference: a placeholder, a value out of its enum, a field unknown
    odd = dict(new, RoleArn="arn:aws:iam::<account-id>:role/R", Unknown=1,
               InputDataConfig=[{"ChannelName": "c", "InputMode": "Sometimes"}])
    assert sorted(D.diff(odd, new, "x").paths) == ["InputDataConfig", "RoleArn", "Unknown"]


def test_a_description_nested_deeper_than_a_request_may_is_a_config_error():
    deep = value = {}
    for _ in range(5000):
        value["x"] = {}
        value = value["x"]
    with pytest.raises(ConfigError) as raised:
        D.diff({"TrainingJobArn": "arn", "Environment": {"A": "b"}, "Other": deep}, {}, "job j")
    assert [p.message for p in raised.value.problems] == ["nests deeper than 32 levels, more than a request may"]
    assert raised.value.problems[0].path.startswith("Other.x.x.")


def test_the_facts_a_saved_render_was_made_in():
    request = {"HyperParameters": {"sagemaker_region": '"<region>"'},
               "OutputDataConfig": {"S3OutputPath": "s3://sagemaker-<region>-<account-id>/"}}
    assert D.facts_of(request) == ("<region>", "<account-id>")
    assert D.facts_of({"OutputDataConfig": {"S3OutputPath": "s3://sagemaker-eu-west-1-123456789012/out"}}) == (
        "eu-west-1", "123456789012")
    assert D.facts_of({"AlgorithmSpecification": {"TrainingImage": IMAGE}, "RoleArn": ROLE}) == (
        "us-west-2", "123456789012")
    assert D.facts_of({"OutputDataConfig": {"S3OutputPath": "s3://mine/"}}) == (None, None)
    described = {"TrainingJobArn": "arn:aws:sagemaker:ap-south-1:210987654321:training-job/j", "TrainingJobStatus": "x"}
    assert D.facts_of(described) == ("ap-south-1", "210987654321")
    assert D.facts_of({"TrainingJobArn": 5, "TrainingJobStatus": "x"}) == (None, None)


@pytest.fixture
def render_callers(monkeypatch):
    """The modules on the stack of each CreateTrainingJob render: a list per render."""
    import sys

    from sagemaker_hetero._request import render

    callers, real = [], render.render

    def recording(*args, **kwargs):
        frame, modules = sys._getframe(1), []
        while frame is not None:
            modules.append(frame.f_globals.get("__name__"))
            frame = frame.f_back
        callers.append(modules)
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "render", recording)
    return callers


def test_a_diff_renders_each_side_once_and_the_diff_itself_renders_nothing(created, render_callers):
    # the estimator's request and the job's description read back are rendered by the runner; _cost.diff compares
    est = estimator()
    del render_callers[:]  # the constructor's check is not the diff's
    assert est.diff(created, inputs=inputs()).equal
    assert len(render_callers) == 2
    assert [m for modules in render_callers for m in modules if m.startswith("sagemaker_hetero._cost")] == []
    assert all("sagemaker_hetero._runner" in modules for modules in render_callers)
    saved = dict(est.fit(inputs(), dry_run=True))
    del render_callers[:]
    assert est.diff(saved, inputs=inputs()).equal and len(render_callers) == 1
    with pytest.raises(ValueError):  # a description without the request it reads back as: never rendered here
        D.diff({"TrainingJobArn": "arn:aws:sagemaker:us-west-2:123456789012:training-job/j"}, saved, "job j")
