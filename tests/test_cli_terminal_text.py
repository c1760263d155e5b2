"""The command line shows what AWS and a job say as text, never as terminal control (issue 28):
``logs``, ``logs --follow``, ``status``, ``submit --logs``, ``tune status`` and the errors, against
the moto server (hostile descriptions answered by tests._aws.FaultProxy, hostile log events put in
CloudWatch Logs). ``--output json`` stays JSON that decodes to exactly what AWS said, and no raw
control character (C0 or C1) reaches stdout or stderr in any mode.
"""
import json

import pytest

from tests.aws.test_terminal_text import (ARTIFACTS, CLIPBOARD, HOSTILE, HOSTILE_GROUP, assert_shown,
                                          assert_text_only, put_logs)
from tests.test_cli import region, run, small_spec, spec_dir, write_spec  # noqa: F401 (the CLI tests' fixtures)

JOB = "cli-job"
GROUPS = [{"InstanceGroupName": name, "InstanceType": "ml.c5.xlarge", "InstanceCount": 1} for name in ("data", "train")]
FAILED = {"TrainingJobName": JOB, "TrainingJobStatus": "Failed", "SecondaryStatus": "Failed",
          "FailureReason": "AlgorithmError: " + HOSTILE, "ResourceConfig": {"InstanceGroups": GROUPS},
          "SecondaryStatusTransitions": [{"Status": "Failed", "StatusMessage": "failed: " + HOSTILE}]}
BILLED = {"TrainingJobName": JOB, "TrainingJobStatus": "Stopped", "SecondaryStatus": "Stopped",
          "FailureReason": HOSTILE, "TrainingTimeInSeconds": 60, "BillableTimeInSeconds": 60,
          "ModelArtifacts": {"S3ModelArtifacts": ARTIFACTS},
          "ResourceConfig": {"InstanceGroups": [{"InstanceGroupName": HOSTILE_GROUP, "InstanceType": "ml.c5.xlarge",
                                                 "InstanceCount": 1}]},
          "SecondaryStatusTransitions": [{"Status": "Stopped", "StatusMessage": HOSTILE}]}


def describe_as(fault_proxy, description):
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=description, times=None)


def test_logs_shows_log_lines_and_host_names_as_text(capsys, fault_proxy):
    put_logs(JOB)
    groups = [{"InstanceGroupName": name, "InstanceType": "ml.c5.xlarge", "InstanceCount": 1}
              for name in (HOSTILE_GROUP, "gpu")]
    describe_as(fault_proxy, {"TrainingJobName": JOB, "TrainingJobStatus": "Completed", "SecondaryStatus": "Completed",
                              "ResourceConfig": {"InstanceGroups": groups}})
    code, out, err = run(capsys, "logs", JOB)
    assert code == 0, err
    assert_shown(out)
    assert "[cpu\\x1b[2J/algo-1] line of algo-1: job says \\x1b]52;c;" in out
    assert "[gpu/algo-2\\x1b[2J] line of algo-2\\x1b[2J: job says" in out
    assert_text_only(err)


def test_logs_of_a_job_without_lines_shows_its_failure_as_text(capsys, fault_proxy):
    describe_as(fault_proxy, FAILED)
    code, out, err = run(capsys, "logs", JOB)
    assert (code, out) == (0, "")
    assert_shown(err)
    assert "Failure reason: AlgorithmError: job says \\x1b]52;c;" in err


def test_logs_follow_of_a_failed_job(capsys, fault_proxy):
    put_logs(JOB)
    describe_as(fault_proxy, FAILED)
    code, out, err = run(capsys, "logs", JOB, "--follow")
    assert code == 1
    assert_shown(out)  # the status line and the log lines
    assert "line of algo-1: job says \\x1b]52;c;" in out
    assert_shown(err)
    assert err.startswith("sagemaker-hetero: cli-job: Failed - failed: job says \\x1b]52;c;")


def test_status_as_text_and_as_exact_json(capsys, fault_proxy, tmp_path):
    describe_as(fault_proxy, BILLED)
    prices = tmp_path / "prices.json"
    prices.write_text('{"ml.c5.xlarge": 0.204}')
    code, out, err = run(capsys, "status", JOB, "--prices", str(prices))
    assert code == 1
    assert_shown(out)
    assert "Failure reason: job says \\x1b]52;c;" in out and "cpu\\x1b[2J" in out  # the bill names the group
    assert_text_only(err)
    code, out, err = run(capsys, "status", JOB, "--output", "json", "--prices", str(prices))
    assert code == 1
    assert_text_only(out)
    assert_text_only(err)
    status = json.loads(out)
    assert status["failure_reason"] == HOSTILE and status["message"] == HOSTILE
    assert status["model_artifacts"] == ARTIFACTS
    assert [g["name"] for g in status["instance_groups"]] == [HOSTILE_GROUP]


def test_tune_status_shows_the_failure_as_text(capsys, fault_proxy):
    failed = {"HyperParameterTuningJobName": "tuning", "HyperParameterTuningJobStatus": "Failed",
              "FailureReason": HOSTILE, "CreationTime": 1.0}
    fault_proxy.add_fault(operation="DescribeHyperParameterTuningJob", kind="status", status=200, body=failed,
                          times=None)
    code, out, err = run(capsys, "tune", "status", "tuning")
    assert code == 1
    assert_shown(out)
    code, out, err = run(capsys, "tune", "status", "tuning", "--output", "json")
    assert_text_only(out)
    assert json.loads(out)["failure_reason"] == HOSTILE


@pytest.fixture
def data_bucket(aws):
    import boto3

    s3 = boto3.client("s3")
    s3.create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    for prefix in ("raw", "dummy"):
        s3.put_object(Bucket="bucket", Key="%s/part-0" % prefix, Body=b"x")


@pytest.mark.parametrize("output", ["text", "json"])
def test_submit_logs_of_a_failing_job(capsys, spec_dir, fault_proxy, data_bucket, output):
    put_logs(JOB)
    describe_as(fault_proxy, FAILED)
    code, out, err = run(capsys, "submit", write_spec(spec_dir, small_spec()), "--logs", "--no-preflight",
                         "--output", output)
    assert code == 1
    assert_text_only(out)
    assert_shown(err)
    if output == "json":  # stdout is the status object alone; the log lines went to stderr
        status = json.loads(out)
        assert status["failure_reason"] == "AlgorithmError: " + HOSTILE
        assert "line of algo-1: job says \\x1b]52;c;" in err
    else:
        assert_shown(out)
        assert "line of algo-1: job says \\x1b]52;c;" in out


def test_an_aws_error_message_is_shown_as_text(capsys, fault_proxy):
    denied = {"__type": "AccessDeniedException", "message": "not allowed: " + CLIPBOARD}
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=400, body=denied, times=None)
    code, out, err = run(capsys, "status", JOB)
    assert code == 3
    assert_text_only(err)
    assert "not allowed: \\x1b]52;c;" in err



def test_cost_shows_what_the_price_list_said_as_text(capsys, spec_dir, fault_proxy):
    denied = {"__type": "AccessDeniedException", "message": "denied " + CLIPBOARD}
    fault_proxy.add_fault(operation="GetProducts", kind="status", status=400, body=denied, times=None)
    code, out, err = run(capsys, "cost", write_spec(spec_dir, small_spec()))
    assert code == 0, err
    assert_text_only(out)
    assert "denied \\x1b]52;c;ZXZpbCBwYXlsb2Fk\\x07" in out  # the reason a price is unknown


def test_a_lone_surrogate_aws_said_is_shown_not_a_crash(capsys, fault_proxy):
    """A JSON answer may hold a lone surrogate (``\\ud800``), which no encoding can write: shown as those
    six characters in the text, kept in JSON output (exit 0, never 4 "unexpected error")."""
    groups = [{"InstanceGroupName": "g\udfff", "InstanceType": "ml.c5.xlarge", "InstanceCount": 1}]
    describe_as(fault_proxy, {"TrainingJobName": JOB, "TrainingJobStatus": "Completed", "SecondaryStatus": "Completed",
                              "FailureReason": "bad \ud800 reason", "ResourceConfig": {"InstanceGroups": groups}})
    events = {"events": [{"timestamp": 1, "message": "lone \ud800 line", "ingestionTime": 1}],
              "nextForwardToken": "f/1", "nextBackwardToken": "b/1"}
    fault_proxy.add_fault(operation="GetLogEvents", kind="status", status=200, body=events, times=None)
    put_logs(JOB)
    code, out, err = run(capsys, "logs", JOB)
    assert (code, err) == (0, "")
    assert "lone \\ud800 line" in out and "[g\\udfff/" in out
    code, out, err = run(capsys, "status", JOB)
    assert (code, err) == (0, "")
    assert "Failure reason: bad \\ud800 reason" in out
    code, out, err = run(capsys, "status", JOB, "--output", "json")
    assert code == 0
    assert json.loads(out)["failure_reason"] == "bad \ud800 reason"
