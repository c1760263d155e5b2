"""The sagemaker-hetero command line: through ``main(argv)`` (its exit code) and as a subprocess.

AWS commands talk to the moto server; StopTrainingJob and job states moto does not have are
answered by tests._aws.FaultProxy.
"""
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import time

import boto3
import pytest

from sagemaker_hetero import InstanceGroup, PyTorch, TrainingInput
from sagemaker_hetero.cli import main
from sagemaker_hetero.training import format_marker

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "spec.yaml")
ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"


@pytest.fixture(autouse=True)
def region(monkeypatch):
    monkeypatch.setenv("AWS_REGION", "us-west-2")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_spec(folder, spec, name="spec.json"):
    path = folder / name
    path.write_text(json.dumps(spec) if name.endswith(".json") else spec)
    return str(path)


def small_spec(**overrides):
    spec = {
        "framework": "pytorch",
        "role": ROLE,
        "entry_point": "train.py",
        "framework_version": "2.2.0",
        "py_version": "py310",
        "instance_groups": [{"name": "data", "type": "ml.c5.xlarge", "count": 1},
                            {"name": "train", "type": "ml.g5.xlarge", "count": 1}],
        "inputs": {"raw": {"s3_data": "s3://bucket/raw", "instance_groups": ["data"]},
                   "dummy": {"s3_data": "s3://bucket/dummy", "instance_groups": ["train"]}},
        "distribution": {"torch_distributed": {"enabled": True}, "instance_groups": ["train"]},
        "hyperparameters": {"epochs": 2},
        "job_name": "cli-job",
    }
    spec.update(overrides)
    return spec


@pytest.fixture
def spec_dir(tmp_path):
    (tmp_path / "train.py").write_text("print('train')\n")
    return tmp_path


# -- render and validate: no network ---------------------------------------------------------


def test_render_prints_the_dry_run_of_the_same_estimator(capsys):
    code, out, _ = run(capsys, "render", EXAMPLE)
    assert code == 0
    groups = [InstanceGroup("instance_group_1", "ml.c5.18xlarge", 2), InstanceGroup("instance_group_2", "ml.p3dn.24xlarge", 1)]
    channel = dict(s3_data_type="S3Prefix", distribution="FullyReplicated", input_mode="File")
    estimator = PyTorch(role=ROLE, source_dir=os.path.join(ROOT, "examples", "seed_src"), entry_point="train.py",
                        framework_version="1.10.0", py_version="py38",
                        job_name="my-training-job-with-heterogeneous-cluster", instance_groups=groups)
    dry_run = estimator.fit(
        {"training": TrainingInput(s3_data="s3://your-training-data-storage/folder1", instance_groups=["instance_group_1"], **channel),
         "dummy-input-channel": TrainingInput(s3_data="s3://your-training-data-storage/folder2",
                                              instance_groups=["instance_group_2"], **channel)},
        dry_run=True,
    )
    assert json.loads(out) == dry_run
    assert run(capsys, "render", EXAMPLE[:-4] + "json")[1] == out  # the JSON spec is the same job


def test_render_as_a_subprocess_imports_no_boto3():
    env = dict(os.environ, PYTHONPATH=ROOT)
    result = subprocess.run([sys.executable, "-m", "sagemaker_hetero", "render", "examples/spec.yaml"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["TrainingJobName"] == "my-training-job-with-heterogeneous-cluster"
    code = (
        "import sys, io, contextlib\n"
        "from sagemaker_hetero.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    codes = [main(['render', %r]), main(['validate', %r])]\n"
        "print(codes, sorted(m for m in sys.modules if m.split('.')[0] in ('boto3', 'botocore')))\n" % (EXAMPLE, EXAMPLE)
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
    assert result.stdout.strip() == "[0, 0] []", result.stderr


def test_cli_input_json_is_a_valid_create_training_job_input_or_refused_with_placeholders(capsys, tmp_path):
    code, out, err = run(capsys, "render", EXAMPLE, "--format", "cli-input-json")
    assert code == 2 and out == ""
    assert "<account-id>" in err and "--account-id" in err
    archive = str(tmp_path / "sourcedir.tar.gz")
    code, out, err = run(capsys, "render", EXAMPLE, "--format", "cli-input-json", "--account-id", "123456789012",
                         "--archive", archive)
    assert code == 0
    request = json.loads(out)
    assert request["OutputDataConfig"]["S3OutputPath"] == "s3://sagemaker-us-west-2-123456789012/"
    import botocore.session
    from botocore.validate import ParamValidator

    model = botocore.session.get_session().get_service_model("sagemaker").operation_model("CreateTrainingJob")
    assert not ParamValidator().validate(request, model.input_shape).has_errors()
    with tarfile.open(archive) as tar:
        assert tar.getnames() == ["train.py"]
    with open(archive, "rb") as f:  # the key is the archive's content address, the one the request names
        uri = "s3://sagemaker-us-west-2-123456789012/code/%s/sourcedir.tar.gz" % hashlib.sha256(f.read()).hexdigest()
    assert uri in err and json.loads(request["HyperParameters"]["sagemaker_submit_directory"]) == uri


def test_validate_a_good_spec(capsys):
    code, out, _ = run(capsys, "validate", EXAMPLE)
    assert code == 0
    assert out.startswith(EXAMPLE + ": valid (PyTorch, 3 instances in groups instance_group_1, instance_group_2")
    code, out, _ = run(capsys, "validate", EXAMPLE, "--output", "json")
    assert json.loads(out)["channels"] == ["training", "dummy-input-channel"]


def test_validate_lists_every_problem_with_paths_into_the_spec(capsys, spec_dir):
    spec = small_spec(framework_version=1.1, distribuion={}, instance_groups=[
        {"name": "data", "tpye": "ml.c5.xlarge", "count": 1},
        {"name": "train", "type": "ml.g5.xlarge", "count": 0},
    ])
    spec["inputs"]["raw"]["instance_group"] = ["data"]
    code, out, err = run(capsys, "validate", write_spec(spec_dir, spec), "--output", "json")
    assert code == 2
    problems = {(p["path"], p["message"]) for p in json.loads(out)["problems"]}
    assert ("distribuion", "is not a spec key; did you mean 'distribution'?") in problems
    assert ("instance_groups[0].tpye", "is not a spec key; did you mean 'type'?") in problems
    assert not any(path == "instance_groups[0].type" for path, _ in problems)  # the wrong key's one problem
    assert ("instance_groups[1].count", "must be an integer >= 1") in problems
    assert ("inputs['raw'].instance_group", "is not a spec key; did you mean 'instance_groups'?") in problems
    assert any(path == "framework_version" and "quote it" in message for path, message in problems)
    assert not any(path == "framework_version" and "image" in message for path, message in problems)
    assert "5 problems with the training job" in err  # the validator's findings about the same keys are not repeated


@pytest.mark.parametrize(
    "content, name, expected",
    [
        ("{not json", "spec.json", "is not valid JSON"),
        ("[1, 2]", "spec.json", "must be a mapping"),
        ('{"role": "x"}', "spec.json", "framework: is required"),
        ('{"framework": "mxnet"}', "spec.json", "framework: must be one of pytorch, tensorflow, generic"),
        ('{"framework": ["pytorch"]}', "spec.json", "framework: must be one of pytorch, tensorflow, generic"),
        ("framework: [unclosed", "spec.yaml", "is not valid YAML"),
    ],
)
def test_a_broken_spec_file_exits_2(capsys, tmp_path, content, name, expected):
    path = tmp_path / name
    path.write_text(content)
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2
    assert expected in err


def test_a_missing_spec_file_and_usage_errors_exit_2(capsys, tmp_path):
    assert run(capsys, "validate", str(tmp_path / "nope.yaml"))[0] == 2
    assert run(capsys)[0] == 2
    assert run(capsys, "frobnicate")[0] == 2
    assert run(capsys, "render")[0] == 2
    assert run(capsys, "--help")[0] == 0


def test_yaml_without_pyyaml_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "yaml", None)  # import yaml now raises ImportError
    code, _, err = run(capsys, "validate", EXAMPLE)
    assert code == 2
    assert "pip install 'sagemaker-hetero[yaml]'" in err and "JSON" in err
    assert run(capsys, "validate", EXAMPLE[:-4] + "json")[0] == 0


def test_setup_cfg_declares_the_console_script_and_the_yaml_extra():
    import configparser

    config = configparser.ConfigParser()
    config.read(os.path.join(ROOT, "setup.cfg"))
    assert "sagemaker-hetero = sagemaker_hetero.cli:main" in config["options.entry_points"]["console_scripts"]
    assert "pyyaml" in config["options.extras_require"]["yaml"]
    assert "boto3" in config["options"]["install_requires"] and "yaml" not in config["options"]["install_requires"]


# -- submit, status, logs, stop: against the moto server ---------------------------------------


@pytest.fixture
def data_bucket(aws):
    """The bucket of small_spec's channels, with data in them (submit's preflight looks)."""
    s3 = boto3.client("s3")
    s3.create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    for prefix in ("raw", "dummy"):
        s3.put_object(Bucket="bucket", Key="%s/part-0" % prefix, Body=b"x")


def test_submit_creates_the_job_of_the_spec(capsys, spec_dir, aws, data_bucket):
    path = write_spec(spec_dir, small_spec())
    code, out, _ = run(capsys, "submit", path)
    assert code == 0
    assert out.startswith("Created training job cli-job in us-west-2")
    sent = aws.last_json("CreateTrainingJob")
    rendered = json.loads(run(capsys, "render", path, "--account-id", "123456789012")[1])
    assert sent == rendered
    code, out, err = run(capsys, "submit", path, "--wait", "--output", "json")
    assert code == 0 and json.loads(out)["status"] == "Completed"
    assert "cli-job: Completed" in err  # progress goes to stderr when stdout is JSON


def test_preflight_prints_a_row_per_check_and_exits_0_2_or_5(capsys, spec_dir, aws, data_bucket, monkeypatch):
    path = write_spec(spec_dir, small_spec())
    code, out, _ = run(capsys, "preflight", path)  # moto's caller is no IAM user: PassRole cannot be simulated
    assert code == 5 and "iam:PassRole" in out and " problem " not in out
    assert out.splitlines()[0].split() == ["check", "subject", "result", "detail"]
    iam = boto3.client("iam")
    iam.create_user(UserName="ci")
    key = iam.create_access_key(UserName="ci")["AccessKey"]
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", key["AccessKeyId"])
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", key["SecretAccessKey"])
    code, out, _ = run(capsys, "preflight", path, "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"] and report["unknowns"] == 0
    assert set(f["check"] for f in report["findings"]) == {"quotas", "role", "image", "s3"}
    empty = small_spec(inputs={"raw": {"s3_data": "s3://bucket/empty", "instance_groups": ["data"]}})
    code, out, _ = run(capsys, "preflight", write_spec(spec_dir, empty, "empty.json"))
    assert code == 2 and "no S3 objects found under s3://bucket/empty" in out


def test_submit_runs_the_preflight_first_unless_told_not_to(capsys, spec_dir, aws, data_bucket):
    path = write_spec(spec_dir, small_spec(inputs={"raw": {"s3_data": "s3://bucket/empty",
                                                           "instance_groups": ["data"]}}))
    aws.clear_requests()
    code, out, err = run(capsys, "submit", path, "--output", "json")
    assert code == 2 and "inputs['raw'].s3_data: s3://bucket/empty: no S3 objects found" in err
    assert json.loads(out)["problems"][0]["path"] == "inputs['raw'].s3_data"
    assert not {"PutObject", "CreateBucket", "CreateTrainingJob"} & set(aws.operations())
    assert run(capsys, "submit", path, "--no-preflight")[0] == 0
    assert aws.operations()[-1] == "CreateTrainingJob"


@pytest.mark.parametrize("operation", ["GetCallerIdentity", "GetRole"])
def test_an_answer_of_another_shape_is_an_aws_error_not_an_unexpected_one(capsys, spec_dir, fault_proxy, data_bucket,
                                                                          operation):
    # a web page botocore's XML parser reads, then fails on (KeyError: 'GetCallerIdentityResult')
    page = "<html><head><title>Sign in</title></head><body><p>Welcome</p></body></html>"
    fault_proxy.add_fault(operation, kind="status", status=200, body=page, headers={"Content-Type": "text/html"},
                          times=None)
    code, _, err = run(capsys, "submit", write_spec(spec_dir, small_spec(role="SageMakerRole")))
    assert code == 3, err
    assert "%s failed with ResponseParserError: botocore could not read the answer" % operation in err, err


def test_preflight_asks_an_endpoint_that_fails_without_the_sessions_retries(capsys, spec_dir, fault_proxy, data_bucket):
    fault_proxy.add_fault("GetCallerIdentity", kind="status", status=500, code="InternalFailure", times=None)
    code, out, _ = run(capsys, "preflight", write_spec(spec_dir, small_spec()))
    assert code == 5 and "1 unknown" in out
    assert len(fault_proxy.calls(operation="GetCallerIdentity")) <= 2  # the command's look-up, the preflight's


FAILED = {"TrainingJobName": "cli-job", "TrainingJobStatus": "Failed", "SecondaryStatus": "Failed",
          "FailureReason": "AlgorithmError: boom",
          "SecondaryStatusTransitions": [{"Status": "Failed", "StatusMessage": "Training job failed"}]}
STOPPED = {"TrainingJobName": "cli-job", "TrainingJobStatus": "Stopped", "SecondaryStatus": "Stopped",
           "SecondaryStatusTransitions": [{"Status": "Stopped", "StatusMessage": "Training job stopped by user"}]}


def describe_as(fault_proxy, description):
    """Every DescribeTrainingJob from now on answers ``description`` (moto's jobs are Completed)."""
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=description, times=None)


@pytest.mark.parametrize("flags", [["--wait"], ["--logs"], ["--logs", "--group", "train"]])
def test_submit_wait_exits_1_and_says_why_when_the_job_fails(capsys, spec_dir, fault_proxy, data_bucket, flags):
    path = write_spec(spec_dir, small_spec())
    groups = [{"InstanceGroupName": name, "InstanceType": "ml.c5.xlarge", "InstanceCount": 1} for name in ("data", "train")]
    describe_as(fault_proxy, dict(FAILED, ResourceConfig={"InstanceGroups": groups}))
    code, out, err = run(capsys, "submit", path, *flags)
    assert code == 1
    assert "cli-job: Failed - Training job failed" in out  # the waiter's last status line
    assert err == "sagemaker-hetero: cli-job: Failed - Training job failed\nFailure reason: AlgorithmError: boom\n"


def test_submit_wait_on_a_stopped_job_and_with_json_output(capsys, spec_dir, fault_proxy, data_bucket):
    path = write_spec(spec_dir, small_spec())
    describe_as(fault_proxy, STOPPED)
    code, out, err = run(capsys, "submit", path, "--wait", "--output", "json")
    assert code == 1
    assert json.loads(out)["status"] == "Stopped"  # stdout holds only the status object
    assert err.endswith("sagemaker-hetero: cli-job: Stopped - Training job stopped by user\n")


def test_logs_follow_on_a_failed_job_says_why(capsys, fault_proxy):
    describe_as(fault_proxy, FAILED)
    code, out, err = run(capsys, "logs", "cli-job", "--follow")
    assert code == 1
    assert "cli-job: Failed" in out
    assert err == "sagemaker-hetero: cli-job: Failed - Training job failed\nFailure reason: AlgorithmError: boom\n"


def test_the_failure_is_told_even_when_describing_it_again_fails(capsys, fault_proxy):
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=FAILED, times=1)
    denied = {"__type": "AccessDeniedException", "message": "not allowed"}
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=400, body=denied, times=None)
    code, _, err = run(capsys, "logs", "cli-job", "--follow")
    assert code == 1  # the job failed; the second look at it is not an AWS error to report
    assert err == "sagemaker-hetero: cli-job: Failed\nFailure reason: AlgorithmError: boom\n"


def test_status_text_json_and_exit_codes(capsys, spec_dir, fault_proxy, data_bucket):
    assert run(capsys, "submit", write_spec(spec_dir, small_spec()))[0] == 0
    code, out, _ = run(capsys, "status", "cli-job")
    assert code == 0 and out.startswith("cli-job: Completed")
    code, out, _ = run(capsys, "status", "cli-job", "--output", "json")
    status = json.loads(out)
    assert (status["status"], status["terminal"]) == ("Completed", True)
    assert status["instance_groups"] == [{"name": "data", "type": "ml.c5.xlarge", "count": 1},
                                         {"name": "train", "type": "ml.g5.xlarge", "count": 1}]
    stopped = {"TrainingJobName": "cli-job", "TrainingJobStatus": "Stopped", "SecondaryStatus": "Stopped"}
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=stopped, times=1)
    assert run(capsys, "status", "cli-job")[0] == 1


def test_logs_prints_lines_labelled_by_group_and_filters(capsys, spec_dir, aws, data_bucket):
    assert run(capsys, "submit", write_spec(spec_dir, small_spec()))[0] == 0
    logs = boto3.client("logs")
    logs.create_log_group(logGroupName="/aws/sagemaker/TrainingJobs")
    now = int(time.time() * 1000)
    for i, (host, group) in enumerate((("algo-1", "train"), ("algo-2", "data"))):
        stream = "cli-job/%s-1700000000" % host
        logs.create_log_stream(logGroupName="/aws/sagemaker/TrainingJobs", logStreamName=stream)
        logs.put_log_events(logGroupName="/aws/sagemaker/TrainingJobs", logStreamName=stream, logEvents=[
            {"timestamp": now + i, "message": format_marker(host, group, "t")},
            {"timestamp": now + 10 + i, "message": "work on " + host},
        ])
    code, out, _ = run(capsys, "logs", "cli-job")
    assert code == 0
    assert out.splitlines()[-2:] == ["[train/algo-1] work on algo-1", "[data/algo-2] work on algo-2"]
    code, out, _ = run(capsys, "logs", "cli-job", "--group", "data")
    assert code == 0
    assert [line for line in out.splitlines() if "algo-" in line] == [
        "[data/algo-2] " + format_marker("algo-2", "data", "t"), "[data/algo-2] work on algo-2"]
    code, _, err = run(capsys, "logs", "cli-job", "--group", "gpu")
    assert code == 2 and "is not an instance group of job 'cli-job'" in err


def test_logs_of_a_job_without_log_lines_says_so(capsys, spec_dir, fault_proxy, data_bucket):
    assert run(capsys, "submit", write_spec(spec_dir, small_spec()))[0] == 0
    code, out, err = run(capsys, "logs", "cli-job")  # moto writes no logs: no log group, no streams
    assert (code, out) == (0, "")
    # moto keeps one "Starting" transition: its message is the last one
    assert err == "sagemaker-hetero: job cli-job has no log lines (Completed - Preparing the instances for training)\n"
    code, out, err = run(capsys, "logs", "cli-job", "--group", "data")
    assert (code, out) == (0, "")
    assert err.startswith("sagemaker-hetero: instance group data of job cli-job has no log lines (Completed")
    running = {"TrainingJobName": "cli-job", "TrainingJobStatus": "InProgress", "SecondaryStatus": "Starting",
               "SecondaryStatusTransitions": [{"Status": "Starting",
                                               "StatusMessage": "Preparing the instances for training"}]}
    describe_as(fault_proxy, running)
    code, out, err = run(capsys, "logs", "cli-job")
    assert (code, out) == (0, "")
    assert err == ("sagemaker-hetero: job cli-job has no log lines yet "
                   "(InProgress/Starting - Preparing the instances for training)\n")
    fault_proxy.clear_faults()
    describe_as(fault_proxy, FAILED)
    code, out, err = run(capsys, "logs", "cli-job")
    assert (code, out) == (0, "")  # the logs were read; `status` or `logs --follow` exit 1 for the failure
    assert err == ("sagemaker-hetero: job cli-job has no log lines (Failed - Training job failed)\n"
                   "Failure reason: AlgorithmError: boom\n")


def test_stop_sends_stop_training_job(capsys, fault_proxy):
    fault_proxy.add_fault(operation="StopTrainingJob", kind="status", status=200, body={}, times=1)
    code, out, _ = run(capsys, "stop", "some-job")
    assert code == 0 and out == "Stopping training job some-job\n"
    assert fault_proxy.last_json("StopTrainingJob") == {"TrainingJobName": "some-job"}


def test_aws_errors_exit_3(capsys, aws, monkeypatch):
    code, _, err = run(capsys, "status", "no-such-job")
    assert code == 3 and "DescribeTrainingJob" in err
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    assert run(capsys, "stop", "no-such-job")[0] == 3
    assert run(capsys, "status", "x", "--profile", "no-such-profile")[0] == 3


# -- local ---------------------------------------------------------------------------------------


def test_local_runs_the_spec_on_this_machine(capsys, spec_dir):
    pytest.importorskip("sagemaker_hetero.local")
    data = spec_dir / "data"
    data.mkdir()
    (data / "part-0.txt").write_text("x\n")
    (spec_dir / "train.py").write_text(
        "import os, sys\nprint('host', os.environ.get('SM_CURRENT_HOST'))\n"
        "sys.exit(3 if os.environ.get('FAIL') else 0)\n"
    )
    spec = small_spec(inputs={"raw": {"s3_data": "file://%s" % data, "instance_groups": ["data", "train"]}},
                      job_name="cli-local")
    del spec["distribution"]  # torch_distributed runs torchrun locally, which needs torch
    path = write_spec(spec_dir, spec)
    code, out, err = run(capsys, "local", path, "--root", str(spec_dir / "jobs"))
    assert code == 0, err
    assert "host algo-1" in out and "host algo-2" in out
    failing = write_spec(spec_dir, dict(spec, job_name="cli-local-fails", environment={"FAIL": "1"}), "failing.json")
    assert run(capsys, "local", failing, "--root", str(spec_dir / "jobs"))[0] == 1


def test_local_refuses_what_no_host_process_can_take_before_anything_runs(capsys, spec_dir):
    (spec_dir / "train.py").write_text("print('ran')\n")
    spec = small_spec(job_name="cli-local-nul", hyperparameters={"a=b": 1}, environment={"E": "x\u0000"})
    del spec["distribution"]
    path = write_spec(spec_dir, spec)
    assert run(capsys, "validate", path)[0] == 0  # AWS takes both
    code, out, err = run(capsys, "local", path, "--root", str(spec_dir / "jobs"))
    assert code == 2 and "2 problems" in err
    assert "hyperparameters['a=b']: holds '='" in err and "environment['E']: holds a NUL character" in err
    assert not (spec_dir / "jobs" / "cli-local-nul").exists()


def test_a_spec_whose_tag_key_is_a_list_is_a_problem_not_a_crash(capsys, spec_dir):
    code, _, err = run(capsys, "validate", write_spec(spec_dir, small_spec(tags=[{"Key": ["x"], "Value": "v"}])))
    assert code == 2
    assert "tags[0].Key: must be a string (got ['x'])" in err


# -- the exit-code contract at its edges -----------------------------------------------------------


def test_an_unexpected_error_exits_4_with_one_line_and_the_traceback_on_demand(capsys, monkeypatch):
    from sagemaker_hetero._checks import text

    def broken(*args, **kwargs):
        raise RuntimeError("the spec reader broke\nsecond line")

    monkeypatch.setattr(text, "loads", broken)
    monkeypatch.delenv("SAGEMAKER_HETERO_DEBUG", raising=False)
    code, out, err = run(capsys, "validate", EXAMPLE)
    assert (code, out) == (4, "")
    assert err == ("sagemaker-hetero: unexpected error: RuntimeError: the spec reader broke "
                   "(run again with --debug to see the traceback)\n")
    code, _, err = run(capsys, "validate", EXAMPLE, "--debug")
    assert code == 4
    assert err.startswith("Traceback (most recent call last):") and "in broken" in err
    assert err.endswith("unexpected error: RuntimeError: the spec reader broke (the traceback is above)\n")
    monkeypatch.setenv("SAGEMAKER_HETERO_DEBUG", "1")
    code, _, err = run(capsys, "validate", EXAMPLE)
    assert code == 4 and err.startswith("Traceback")


def test_a_closed_stdout_exits_141_without_a_traceback():
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written (`| head -0`)
    try:
        result = subprocess.run([sys.executable, "-m", "sagemaker_hetero", "render", "examples/spec.yaml"], cwd=ROOT,
                                env=dict(os.environ, PYTHONPATH=ROOT), stdout=write_end, stderr=subprocess.PIPE,
                                universal_newlines=True, timeout=60)
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (141, "")


def test_an_archive_that_cannot_be_written_is_a_usage_error(capsys, tmp_path):
    code, out, err = run(capsys, "render", EXAMPLE, "--archive", str(tmp_path / "no-such-folder" / "code.tar.gz"))
    assert (code, out) == (2, "")
    assert "--archive: cannot be written: [Errno 2] No such file or directory" in err


def test_docs_state_the_limits_and_exit_codes_the_code_has():
    from sagemaker_hetero import cli
    from sagemaker_hetero._checks import text

    with open(os.path.join(ROOT, "docs", "cli.md")) as f:
        doc = f.read()
    assert "1 MiB" in doc and text.MAX_SPEC_BYTES == 1 << 20
    assert "%d levels" % text.MAX_SPEC_DEPTH in doc
    assert "{:,} values".format(text.MAX_SPEC_VALUES) in doc
    assert "{:,} characters".format(text.MAX_SPEC_CHARS) in doc
    for code in (cli.EXIT_OK, cli.EXIT_JOB_FAILED, cli.EXIT_USAGE, cli.EXIT_AWS, cli.EXIT_UNEXPECTED,
                 cli.EXIT_UNKNOWN, cli.EXIT_INTERRUPTED, cli.EXIT_BROKEN_PIPE):
        assert "\n| %d |" % code in doc
    assert cli.DEBUG_VARIABLE in doc
