"""``sagemaker-hetero tune render|submit|status``: a spec's tuning job, through ``main(argv)`` and as a
subprocess, against the moto server (states moto does not have are answered by the FaultProxy)."""
import json
import os
import subprocess
import sys

import boto3
import pytest

from sagemaker_hetero import InstanceGroup, PyTorch, TrainingInput
from sagemaker_hetero.tuner import CategoricalParameter, ContinuousParameter, HyperparameterTuner, IntegerParameter

from tests.test_cli import ROLE, ROOT, region, run  # noqa: F401 (region: the same autouse fixture)

EXAMPLE = os.path.join(ROOT, "examples", "tune_spec.yaml")


def spec(**tuning):
    section = {"objective_metric_name": "loss", "metric_definitions": [{"Name": "loss", "Regex": "loss=(.*)"}],
               "hyperparameter_ranges": {"lr": {"type": "continuous", "min_value": 0.01, "max_value": 0.1}},
               "job_name": "cli-hpo"}
    section.update(tuning)
    return {"framework": "pytorch", "role": ROLE, "entry_point": "train.py", "framework_version": "2.2.0",
            "py_version": "py310", "output_path": "s3://bucket/out",
            "instance_groups": [{"name": "data", "type": "ml.c5.xlarge", "count": 1},
                                {"name": "train", "type": "ml.g5.xlarge", "count": 1}],
            "inputs": {"raw": {"s3_data": "s3://bucket/raw", "instance_groups": ["data"]},
                       "dummy": {"s3_data": "s3://bucket/dummy", "instance_groups": ["train"]}},
            "tuning": section}


@pytest.fixture
def spec_file(tmp_path):
    (tmp_path / "train.py").write_text("print('train')\n")

    def write(data):
        path = tmp_path / "spec.json"
        path.write_text(json.dumps(data))
        return str(path)

    return write


def test_tune_render_prints_the_tuners_dry_run_of_the_same_job(capsys):
    code, out, _ = run(capsys, "tune", "render", EXAMPLE)
    assert code == 0
    estimator = PyTorch(role=ROLE, entry_point="train.py", source_dir=os.path.join(ROOT, "examples", "seed_src"),
                        framework_version="2.2.0", py_version="py310", output_path="s3://your-training-data-storage/output",
                        hyperparameters={"epochs": 3},
                        instance_groups=[InstanceGroup("data_group", "ml.c5.18xlarge", 2),
                                         InstanceGroup("dnn_group", "ml.p4d.24xlarge", 1)],
                        distribution={"torch_distributed": {"enabled": True}, "instance_groups": ["dnn_group"]})
    tuner = HyperparameterTuner(
        estimator, "validation:loss",
        {"lr": ContinuousParameter(0.0001, 0.1, "Logarithmic"), "batch-size": IntegerParameter(32, 256),
         "optimizer": CategoricalParameter(["adam", "sgd"])},
        metric_definitions=[{"Name": "validation:loss", "Regex": "val_loss=([0-9.]+)"}], objective_type="Minimize",
        max_jobs=12, max_parallel_jobs=3, base_tuning_job_name="hetero-hpo")
    rendered = json.loads(out)
    name = rendered["HyperParameterTuningJobName"]
    assert name.startswith("hetero-hpo-")
    inputs = {"train": TrainingInput("s3://your-training-data-storage/folder1", instance_groups=["data_group"]),
              "dummy": TrainingInput("s3://your-training-data-storage/folder2", instance_groups=["dnn_group"])}
    dry_run = tuner.fit(inputs, dry_run=True)
    assert dry_run["HyperParameterTuningJobConfig"] == rendered["HyperParameterTuningJobConfig"]
    # the training job's name has the time in it: the rest of the definition is the same, the code key too
    ours, theirs = rendered["TrainingJobDefinition"], json.loads(json.dumps(dry_run["TrainingJobDefinition"]))
    for static in (ours["StaticHyperParameters"], theirs["StaticHyperParameters"]):
        del static["sagemaker_job_name"]
    assert ours == theirs


def test_tune_render_with_a_job_name_is_exactly_the_tuners_dry_run(capsys, spec_file, tmp_path):
    code, out, _ = run(capsys, "tune", "render", spec_file(spec()))
    assert code == 0
    rendered = json.loads(out)
    assert rendered["HyperParameterTuningJobName"] == "cli-hpo"
    definition = rendered["TrainingJobDefinition"]
    assert [g["InstanceGroupName"] for g in definition["ResourceConfig"]["InstanceGroups"]] == ["data", "train"]
    assert json.loads(definition["StaticHyperParameters"]["sagemaker_job_name"]) == "cli-hpo"
    assert rendered["HyperParameterTuningJobConfig"]["ParameterRanges"]["ContinuousParameterRanges"] == [
        {"Name": "lr", "MinValue": "0.01", "MaxValue": "0.1", "ScalingType": "Auto"}]
    estimator = PyTorch(role=ROLE, entry_point=str(tmp_path / "train.py"), framework_version="2.2.0",
                        py_version="py310", output_path="s3://bucket/out",
                        instance_groups=[InstanceGroup("data", "ml.c5.xlarge", 1), InstanceGroup("train", "ml.g5.xlarge", 1)])
    tuner = HyperparameterTuner(estimator, "loss", {"lr": ContinuousParameter(0.01, 0.1)},
                                metric_definitions=[{"Name": "loss", "Regex": "loss=(.*)"}])
    inputs = {"raw": TrainingInput("s3://bucket/raw", instance_groups=["data"]),
              "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["train"])}
    # one path through for both (_runner.planned, with the code key): the same code key, the archive's content address
    assert rendered == json.loads(json.dumps(tuner.fit(inputs, job_name="cli-hpo", dry_run=True)))
    assert "/code/" in json.loads(definition["StaticHyperParameters"]["sagemaker_submit_directory"])


def test_tune_render_as_a_subprocess_imports_no_boto3():
    code = (
        "import sys, io, contextlib\n"
        "from sagemaker_hetero.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    rc = main(['tune', 'render', %r])\n"
        "print(rc, sorted(m for m in sys.modules if m.split('.')[0] in ('boto3', 'botocore')))\n" % EXAMPLE
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0 []"


def test_every_problem_of_a_tuning_spec_is_named_by_its_path_in_the_spec(capsys, spec_file):
    bad = spec(hyperparameter_ranges={"lr": {"type": "continuous", "min_value": 0.5, "max_value": 0.1},
                                      "mode": {"type": "categorial", "values": ["a"]},
                                      "depth": {"type": "integer", "min_value": 1}},
               max_job=3, objective_metric_name="accuracy", warm_start_config={"type": "Sometimes", "parents": ["p"]})
    bad["instance_groups"][1]["count"] = 0
    code, _, err = run(capsys, "tune", "render", spec_file(bad))
    assert code == 2
    assert err.startswith("sagemaker-hetero: %s: 7 problems with the tuning job:" % spec_file(bad))
    for path in ("tuning.hyperparameter_ranges['lr'].min_value", "tuning.hyperparameter_ranges['mode'].type",
                 "tuning.hyperparameter_ranges['depth'].max_value", "tuning.max_job", "tuning.objective_metric_name",
                 "tuning.warm_start_config.type", "instance_groups[1].count"):
        assert "  - %s: " % path in err, path
    assert "did you mean 'max_jobs'?" in err


def test_a_spec_without_a_tuning_section_cannot_be_tuned(capsys, spec_file):
    data = spec()
    del data["tuning"]
    code, _, err = run(capsys, "tune", "render", spec_file(data))
    assert code == 2 and "  - tuning: is required" in err


@pytest.fixture
def bucket(aws):
    boto3.client("s3").create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    aws.clear_requests()


def test_tune_submit_creates_the_tuning_job_and_status_reads_it(capsys, aws, bucket, spec_file):
    code, out, _ = run(capsys, "tune", "submit", spec_file(spec()), "--wait")
    assert code == 0
    assert out.splitlines()[0] == "Created tuning job cli-hpo in us-west-2"
    assert "cli-hpo: Completed" in out  # moto's tuning jobs are Completed at once
    sent = aws.last_json("CreateHyperParameterTuningJob")
    assert sent["TrainingJobDefinition"]["ResourceConfig"]["InstanceGroups"][1]["InstanceGroupName"] == "train"
    code, out, _ = run(capsys, "tune", "status", "cli-hpo", "--output", "json")
    summary = json.loads(out)
    assert code == 0 and (summary["tuning_job_name"], summary["status"], summary["terminal"]) == ("cli-hpo", "Completed",
                                                                                                    True)


def test_tune_status_of_a_failed_tuning_job_exits_1(capsys, fault_proxy, bucket):
    fault_proxy.add_fault(operation="DescribeHyperParameterTuningJob", kind="status", status=200, body={
        "HyperParameterTuningJobName": "gone", "HyperParameterTuningJobStatus": "Failed", "FailureReason": "no capacity"})
    code, out, _ = run(capsys, "tune", "status", "gone")
    assert code == 1
    assert out == "gone: Failed\nFailure reason: no capacity\n"


def test_tune_status_of_an_unknown_tuning_job_is_an_aws_error(capsys, aws):
    code, _, err = run(capsys, "tune", "status", "missing")
    assert code == 3 and "ResourceNotFound" in err
