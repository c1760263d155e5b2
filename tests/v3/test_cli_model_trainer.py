"""``framework: model_trainer`` specs: SDK v3's ModelTrainer arguments on the command line (docs/cli.md)."""
import json

import pytest

from sagemaker_hetero.cli import main
from sagemaker_hetero.core.training.configs import Compute, InputData, InstanceGroup, S3DataSource, SourceCode
from sagemaker_hetero.train import ModelTrainer
from sagemaker_hetero.train.distributed import Torchrun

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
IMAGE = "763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-ubuntu22.04"
SPEC = {
    "framework": "model_trainer", "training_image": IMAGE, "role": ROLE, "base_job_name": "hetero",
    "source_code": {"source_dir": "src", "entry_script": "train.py"},
    "distributed": {"type": "torchrun", "instance_group_names": ["gpu"]},
    "compute": {"instance_groups": [
        {"instance_group_name": "gpu", "instance_type": "ml.g5.xlarge", "instance_count": 2},
        {"instance_group_name": "cpu", "instance_type": "ml.c5.xlarge", "instance_count": 1}]},
    "hyperparameters": {"epochs": 3},
    "input_data_config": [
        {"channel_name": "train", "data_source": {"s3_data_type": "S3Prefix", "s3_uri": "s3://bucket/train",
                                                  "instance_group_names": ["gpu"]}},
        {"channel_name": "prep", "data_source": "s3://bucket/prep"}],
}


@pytest.fixture
def spec_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("AWS_REGION", "us-west-2")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text("print('hello')\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # a spec's paths are its folder's
    return tmp_path


def _write(folder, spec):
    path = folder / "job.json"
    path.write_text(json.dumps(spec))
    return str(path)


def _without_name(request):
    request = json.loads(json.dumps(dict(request)))
    name = request.pop("TrainingJobName")
    return json.loads(json.dumps(request).replace(name, "<job>"))


def test_render_prints_the_same_request_as_the_python_dry_run(capsys, spec_dir):
    assert main(["render", _write(spec_dir, SPEC)]) == 0
    rendered = json.loads(capsys.readouterr().out)
    trainer = ModelTrainer(
        training_image=IMAGE, role=ROLE, base_job_name="hetero",
        source_code=SourceCode(source_dir=str(spec_dir / "src"), entry_script="train.py"),
        distributed=Torchrun(instance_group_names=["gpu"]), hyperparameters={"epochs": 3},
        compute=Compute(instance_groups=[
            InstanceGroup(instance_group_name="gpu", instance_type="ml.g5.xlarge", instance_count=2),
            InstanceGroup(instance_group_name="cpu", instance_type="ml.c5.xlarge", instance_count=1)]))
    request = trainer.train([
        InputData(channel_name="train", data_source=S3DataSource(s3_data_type="S3Prefix", s3_uri="s3://bucket/train",
                                                                 instance_group_names=["gpu"])),
        InputData(channel_name="prep", data_source="s3://bucket/prep")], dry_run=True)
    assert _without_name(rendered) == _without_name(request)
    assert main(["validate", _write(spec_dir, SPEC)]) == 0
    assert "valid (ModelTrainer, 3 instances in groups gpu, cpu, 4 channels)" in capsys.readouterr().out


def test_validate_names_every_problem_by_its_path_in_the_spec(capsys, spec_dir):
    spec = json.loads(json.dumps(SPEC))
    spec["compute"]["instance_groups"][1]["instance_count"] = 0
    spec["distributed"] = {"type": "torchrun", "instance_group_names": ["gpus"]}
    spec["source_code"]["entry_script"] = "missing.py"
    spec["stoping_condition"] = {"max_runtime_in_seconds": 60}
    assert main(["validate", _write(spec_dir, spec), "--output", "json"]) == 2
    problems = dict((p["path"], p["message"]) for p in json.loads(capsys.readouterr().out)["problems"])
    assert problems["stoping_condition"] == "is not a model_trainer spec key; did you mean 'stopping_condition'?"
    assert "distributed.instance_group_names" in problems and "source_code.entry_script" in problems
    assert any(path.startswith("compute.instance_groups[1]") for path in problems), problems


def test_a_field_a_configuration_does_not_take_is_a_problem(capsys, spec_dir):
    spec = dict(SPEC, compute={"instance_type": "ml.c5.xlarge", "instanse_count": 1}, distributed=None)
    assert main(["validate", _write(spec_dir, spec), "--output", "json"]) == 2
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert problems[0]["path"] == "compute" and "instanse_count" in problems[0]["message"]


def test_render_with_cost_and_cost_itself_read_a_model_trainer_specs_groups(spec_dir, capsys):
    path = _write(spec_dir, SPEC)
    prices = spec_dir / "prices.json"
    prices.write_text(json.dumps({"us-west-2": {"ml.g5.xlarge": 1.5, "ml.c5.xlarge": 0.25}}))
    assert main(["render", str(path), "--cost", "--prices", str(prices)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["ResourceConfig"]["InstanceGroups"][0]["InstanceGroupName"] == "gpu" and "gpu" in err
    assert main(["cost", str(path), "--prices", str(prices), "--offline", "--output", "json"]) == 0
    out, _ = capsys.readouterr()
    assert json.loads(out)


def test_cost_of_a_model_trainer_spec_is_its_dry_runs_with_each_alternative(capsys, spec_dir):
    prices = spec_dir / "prices.json"
    prices.write_text(json.dumps({"us-west-2": {"ml.g5.xlarge": 1.408, "ml.c5.xlarge": 0.204, "ml.g5.2xlarge": 1.515}}))
    assert main(["cost", _write(spec_dir, SPEC), "--offline", "--prices", str(prices), "--output", "json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["alternatives"] == [] and [g["instance_type"] for g in plain["groups"]] == ["ml.g5.xlarge",
                                                                                               "ml.c5.xlarge"]
    spec = json.loads(json.dumps(SPEC))
    spec["compute"]["instance_groups"][0]["alternatives"] = ["ml.g5.2xlarge"]
    spec["compute"]["capacity_wait"] = 60
    assert main(["cost", _write(spec_dir, spec), "--offline", "--prices", str(prices), "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["alternatives"]
    assert [(r["name"], r["instance_type"]) for r in rows] == [("gpu", "ml.g5.2xlarge")], rows
    assert main(["render", _write(spec_dir, spec), "--cost", "--prices", str(prices)]) == 0
    out, err = capsys.readouterr()
    assert "ml.g5.2xlarge" not in out and "gpu (alternative)" in err


@pytest.mark.parametrize("alternatives", [None, ["ml.g5.2xlarge"]], ids=["one choice", "alternatives"])
def test_submit_wait_of_a_model_trainer_spec_waits_for_the_job(capsys, spec_dir, aws, alternatives):
    """Every preflight check first (the code and driver channels, uploaded after it, not looked for)."""
    import boto3

    s3 = boto3.client("s3")
    s3.create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    for key in ("train/a.csv", "prep/b.csv"):
        s3.put_object(Bucket="bucket", Key=key, Body=b"1\n")
    spec = json.loads(json.dumps(SPEC))
    if alternatives:
        spec["compute"]["instance_groups"][0]["alternatives"] = alternatives
    assert main(["submit", _write(spec_dir, spec), "--wait", "--output", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "Completed" and len(aws.calls("sagemaker", "CreateTrainingJob")) == 1, report


def test_submit_of_a_model_trainer_spec_with_a_problem_makes_no_aws_call(capsys, spec_dir, aws):
    spec = json.loads(json.dumps(SPEC))
    spec["distributed"]["instance_group_names"] = ["nope"]
    before = len(aws.operations())
    assert main(["submit", _write(spec_dir, spec)]) == 2
    assert "distributed.instance_group_names" in capsys.readouterr().err
    assert aws.operations()[before:] == []  # the job's own problems before any call (no caller look-up either)


def test_submit_wait_of_a_model_trainer_spec_fails_over_to_its_next_choice(capsys, spec_dir, aws):
    """docs/cli.md: a spec whose groups name ``alternatives:`` goes through the failover with ``--wait``, a
    model_trainer spec's as an estimator's: a job failed for capacity is followed by ``<job>-c2``."""
    import boto3

    from tests._answers import json_answer
    from tests.capacity.test_failover import PROVISION, creates

    s3 = boto3.client("s3")
    s3.create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    for key in ("train/a.csv", "prep/b.csv"):
        s3.put_object(Bucket="bucket", Key=key, Body=b"1\n")

    def first_fails(record):  # the first job made (its name is timestamped) fails for capacity
        name = (record.json or {}).get("TrainingJobName")
        made = creates(aws)
        if not made or name != made[0][0]:
            return None
        groups = [(g, t, c) for g, (t, c) in made[0][1].items()]
        return json_answer(dict(aws.answers.in_progress_description(name, groups), TrainingJobStatus="Failed",
                                SecondaryStatus="Failed", FailureReason=PROVISION))

    aws.answers.add("sagemaker", "DescribeTrainingJob", first_fails)
    spec = json.loads(json.dumps(SPEC))
    spec["compute"]["instance_groups"][0]["alternatives"] = ["ml.g5.2xlarge"]
    assert main(["submit", _write(spec_dir, spec), "--wait", "--output", "json"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    first = creates(aws)[0][0]
    assert creates(aws) == [(first, {"gpu": ("ml.g5.xlarge", 2), "cpu": ("ml.c5.xlarge", 1)}),
                            (first + "-c2", {"gpu": ("ml.g5.2xlarge", 2), "cpu": ("ml.c5.xlarge", 1)})], err
    assert report["job_name"] == first + "-c2" and report["status"] == "Completed"
    assert [(a["job_name"], a["outcome"]) for a in report["attempts"]] == [(first, "Failed"),
                                                                           (first + "-c2", "Completed")]
    assert "Capacity: 2 attempts:" in err


def test_preflight_of_a_model_trainer_spec_in_an_account_without_the_default_bucket_finds_no_problem(
        capsys, spec_dir, aws):
    """train() makes the default bucket, as SDK v3 does, so its absence is no problem (it was one: 'the bucket
    does not exist ... or correct output_path', and preflight exited 2 where submit would have run)."""
    import boto3

    s3 = boto3.client("s3")
    s3.create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    for key in ("train/a.csv", "prep/b.csv"):
        s3.put_object(Bucket="bucket", Key=key, Body=b"1\n")
    code = main(["preflight", _write(spec_dir, SPEC), "--output", "json"])
    out = capsys.readouterr().out
    rows = [r for r in json.loads(out)["findings"] if r["subject"] == "s3://sagemaker-us-west-2-123456789012"]
    assert [r["result"] for r in rows] == ["ok"] and code != 2, out
