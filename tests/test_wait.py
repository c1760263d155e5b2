"""Waiting for a job: one line per new status, Failed/Stopped raise, Ctrl-C stops only the waiting.

DescribeTrainingJob answers are shaped at the HTTP layer by tests._aws.FaultProxy in front of the
moto server (moto itself completes a job at once).
"""
import io
import re

import pytest

from sagemaker_hetero import Estimator, InstanceGroup, Session
from sagemaker_hetero.exceptions import UnexpectedStatusException

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
FAST = (0.01, 0.02)


def estimator():
    return Estimator(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/my-trainer:latest",
        role=ROLE,
        instance_groups=[InstanceGroup("cpu", "ml.m5.2xlarge", 1), InstanceGroup("gpu", "ml.p3.2xlarge", 1)],
        output_path="s3://out-bucket/",
    )


def describe(status, secondary, message="", reason=None):
    body = {
        "TrainingJobName": "waiting",
        "TrainingJobArn": "arn:aws:sagemaker:us-west-2:123456789012:training-job/waiting",
        "TrainingJobStatus": status,
        "SecondaryStatus": secondary,
        "CreationTime": 1700000000,
        "SecondaryStatusTransitions": [{"Status": secondary, "StartTime": 1700000000, "StatusMessage": message}],
    }
    if reason:
        body["FailureReason"] = reason
    return body


def script(proxy, *answers):
    for answer in answers:
        proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=answer, times=1)


def start(proxy):
    est = estimator()
    est.fit(wait=False, job_name="waiting")
    return est.latest_training_job


def test_wait_prints_each_new_status_once_with_elapsed_time(fault_proxy):
    job = start(fault_proxy)
    starting = describe("InProgress", "Starting", "Launching requested ML instances")
    script(fault_proxy, starting, starting, describe("InProgress", "Training", "Training in progress"))
    out = io.StringIO()
    result = job.wait(poll=FAST, out=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 3
    assert re.match(r"^\[0:00:0\d\] waiting: InProgress/Starting - Launching requested ML instances$", lines[0])
    assert lines[1].endswith("waiting: InProgress/Training - Training in progress")
    assert "waiting: Completed" in lines[2]  # moto's own answer
    assert result["TrainingJobStatus"] == "Completed"


@pytest.mark.parametrize("status", ["Failed", "Stopped"])
def test_failed_or_stopped_raises_with_the_reason(fault_proxy, status):
    job = start(fault_proxy)
    script(fault_proxy, describe(status, status, reason="AlgorithmError: boom" if status == "Failed" else None))
    with pytest.raises(UnexpectedStatusException) as info:
        job.wait(poll=FAST, out=io.StringIO())
    assert info.value.job_name == "waiting"
    assert info.value.status == status
    if status == "Failed":
        assert info.value.failure_reason == "AlgorithmError: boom"
        assert "AlgorithmError: boom" in str(info.value)


def test_fit_waits_by_default_and_prints(fault_proxy, capsys):
    script(fault_proxy, describe("InProgress", "Downloading"))
    session = Session()
    session.poll_interval = FAST
    est = estimator()
    est.sagemaker_session = session
    est.fit(job_name="waiting")  # wait=True is the default
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].endswith("waiting: InProgress/Downloading")
    assert "Completed" in printed[-1]


def test_ctrl_c_stops_waiting_not_the_job(fault_proxy):
    job = start(fault_proxy)
    script(fault_proxy, describe("InProgress", "Training"))

    def interrupted_sleep(seconds):
        raise KeyboardInterrupt

    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        job.wait(poll=FAST, out=out, sleep=interrupted_sleep)
    assert "keeps running" in out.getvalue()
    assert "stop-training-job --training-job-name waiting" in out.getvalue()
    assert "StopTrainingJob" not in fault_proxy.operations()


def test_backoff_doubles_up_to_the_longest_and_resets_on_change(fault_proxy):
    job = start(fault_proxy)
    same = describe("InProgress", "Training")
    script(fault_proxy, same, same, same, same, describe("InProgress", "Uploading"))
    delays = []
    job.wait(poll=(1, 4), out=io.StringIO(), sleep=delays.append)
    assert delays == [1, 2, 4, 4, 1]
