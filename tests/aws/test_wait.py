"""Waiting for a job: one line per new status, Failed/Stopped raise, Ctrl-C stops only the waiting;
the SDK v2's seconds lines and the model artifacts at the end; a heartbeat while nothing is printed.

DescribeTrainingJob answers are shaped at the HTTP layer by tests._aws.FaultProxy in front of the
moto server (moto itself completes a job at once). Time is a :class:`FakeTime`: ``sleep`` moves the
``clock`` on, so nothing really sleeps and no assertion depends on the wall clock.
"""
import io
import re
import time

import boto3
import pytest

from sagemaker_hetero import Estimator, InstanceGroup, Session
from sagemaker_hetero._aws import poller
from sagemaker_hetero._aws.training_job import end_of_job_lines
from sagemaker_hetero._aws.log_labels import LOG_GROUP
from sagemaker_hetero.exceptions import AWSError, ThrottlingError, UnexpectedStatusException

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
FAST = (0.01, 0.02)
MODEL = "s3://out-bucket/waiting/output/model.tar.gz"  # where moto puts the job's model
MODEL_LINE = "Model artifacts: " + MODEL
GROUPS = {"InstanceGroups": [
    {"InstanceGroupName": "cpu", "InstanceType": "ml.m5.2xlarge", "InstanceCount": 2},
    {"InstanceGroupName": "gpu", "InstanceType": "ml.p3.2xlarge", "InstanceCount": 1},
]}


def estimator():
    return Estimator(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/my-trainer:latest",
        role=ROLE,
        instance_groups=[InstanceGroup("cpu", "ml.m5.2xlarge", 1), InstanceGroup("gpu", "ml.p3.2xlarge", 1)],
        output_path="s3://out-bucket/",
    )


def describe(status, secondary, message="", reason=None, **fields):
    body = dict(fields, **{
        "TrainingJobName": "waiting",
        "TrainingJobArn": "arn:aws:sagemaker:us-west-2:123456789012:training-job/waiting",
        "TrainingJobStatus": status,
        "SecondaryStatus": secondary,
        "CreationTime": 1700000000,
        "SecondaryStatusTransitions": [{"Status": secondary, "StartTime": 1700000000, "StatusMessage": message}],
    })
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
    assert len(lines) == 4
    assert re.match(r"^\[0:00:0\d\] waiting: InProgress/Starting - Launching requested ML instances$", lines[0])
    assert lines[1].endswith("waiting: InProgress/Training - Training in progress")
    assert "waiting: Completed" in lines[2]  # moto's own answer: no seconds, a model
    assert lines[3] == MODEL_LINE
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
    assert "Completed" in printed[-2]
    assert printed[-1] == MODEL_LINE


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


class FakeTime(object):
    """The waiter's clock and sleep: sleeping moves the clock on at once."""

    def __init__(self):
        self.now = 0.0
        self.sleeps = []

    def clock(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds

    def timing(self):
        """``clock`` and ``sleep`` for a wait: elapsed times that do not depend on the machine's speed."""
        return {"clock": self.clock, "sleep": self.sleep}


def ended(status="Completed", **fields):
    """A heterogeneous job's last description: 2 + 1 instances, a model unless it failed."""
    fields.setdefault("ResourceConfig", GROUPS)
    if status != "Failed":
        fields.setdefault("ModelArtifacts", {"S3ModelArtifacts": MODEL})
    return describe(status, status, "Training job completed" if status == "Completed" else "", **fields)


# -- the end of the job: the SDK v2's lines (pure) ---------------------------------------------
# Expected figures are what the SDK v2 (2.257.7, sagemaker.session._logs_for_job) prints for the
# same descriptions: it multiplies by the sum of the groups' InstanceCount.


def test_seconds_are_per_instance_figures_times_the_sum_of_the_groups_counts():
    desc = ended(TrainingTimeInSeconds=400, BillableTimeInSeconds=390)
    assert end_of_job_lines(desc) == ["Training seconds: 1200", "Billable seconds: 1170", MODEL_LINE]


def test_managed_spot_savings_are_computed_from_the_per_instance_figures():
    desc = ended(TrainingTimeInSeconds=1000, BillableTimeInSeconds=350, EnableManagedSpotTraining=True)
    assert end_of_job_lines(desc) == [
        "Training seconds: 3000", "Billable seconds: 1050", "Managed Spot Training savings: 65.0%", MODEL_LINE]
    desc = ended(TrainingTimeInSeconds=3, BillableTimeInSeconds=1, EnableManagedSpotTraining=True)
    assert end_of_job_lines(desc)[2] == "Managed Spot Training savings: 66.7%"


def test_a_cluster_without_groups_counts_its_instance_count():
    desc = ended(ResourceConfig={"InstanceType": "ml.m5.xlarge", "InstanceCount": 4},
                 TrainingTimeInSeconds=10, BillableTimeInSeconds=10)
    assert end_of_job_lines(desc)[:2] == ["Training seconds: 40", "Billable seconds: 40"]


def test_only_the_lines_whose_figures_are_known():
    # the SDK v2 would fail on the last two (no count; a spot saving divided by zero)
    assert end_of_job_lines(ended()) == [MODEL_LINE]
    assert end_of_job_lines(ended(TrainingStartTime=1700000000, TrainingEndTime=1700000600)) == [MODEL_LINE]
    assert end_of_job_lines(ended(ResourceConfig={}, TrainingTimeInSeconds=5, BillableTimeInSeconds=5)) == [MODEL_LINE]
    spot = ended(TrainingTimeInSeconds=0, BillableTimeInSeconds=0, EnableManagedSpotTraining=True, ModelArtifacts={})
    assert end_of_job_lines(spot) == ["Training seconds: 0", "Billable seconds: 0"]


def test_a_failed_job_shows_its_seconds_but_no_model():
    failed = ended("Failed", TrainingTimeInSeconds=60, BillableTimeInSeconds=60,
                   ModelArtifacts={"S3ModelArtifacts": MODEL})
    assert end_of_job_lines(failed) == ["Training seconds: 180", "Billable seconds: 180"]
    stopped = ended("Stopped", TrainingTimeInSeconds=60, BillableTimeInSeconds=60)
    assert end_of_job_lines(stopped) == ["Training seconds: 180", "Billable seconds: 180", MODEL_LINE]


# -- the end of the job, waited for ------------------------------------------------------------


@pytest.mark.parametrize("logs", ["All", "None"])
def test_the_seconds_the_bill_and_the_model_follow_the_last_status_line(fault_proxy, logs, tmp_path, monkeypatch):
    prices = tmp_path / "prices.csv"
    prices.write_text("instance_type,usd_per_hour\nml.m5.2xlarge,0.461\nml.p3.2xlarge,3.825\n")
    monkeypatch.setenv("SAGEMAKER_HETERO_PRICES", str(prices))  # the wait reads no price list: a file or the cache
    job = start(fault_proxy)
    script(fault_proxy, describe("InProgress", "Training"),
           ended(TrainingTimeInSeconds=1000, BillableTimeInSeconds=350, EnableManagedSpotTraining=True))
    out = io.StringIO()
    t = FakeTime()
    desc = job.wait(logs=logs, poll=(30, 30), out=out, clock=t.clock, sleep=t.sleep)
    assert desc["BillableTimeInSeconds"] == 350
    assert out.getvalue().splitlines() == [
        "[0:00:00] waiting: InProgress/Training",
        "[0:00:30] waiting: Completed - Training job completed",
        "Training seconds: 3000",
        "Billable seconds: 1050",
        "Managed Spot Training savings: 65.0%",
        "Billed cost (us-west-2, on-demand USD): $0.46",  # 350 s x (2 x 0.461 + 3.825) / 3600 = 0.4615...
        "  cpu: 2 x ml.m5.2xlarge x 350 s at $0.461/h = $0.09",  # 0.0896...
        "  gpu: 1 x ml.p3.2xlarge x 350 s at $3.825/h = $0.37",  # 0.371875
        "  ml.m5.2xlarge, ml.p3.2xlarge: prices file %s" % prices,
        MODEL_LINE,
    ]
    assert not fault_proxy.calls(service="pricing")


@pytest.mark.parametrize("status", ["Failed", "Stopped"])
def test_a_job_that_did_not_complete_shows_its_seconds_then_raises(fault_proxy, status):
    job = start(fault_proxy)
    script(fault_proxy, ended(status, reason="AlgorithmError: boom" if status == "Failed" else None,
                              TrainingTimeInSeconds=60, BillableTimeInSeconds=60))
    out = io.StringIO()
    with pytest.raises(UnexpectedStatusException) as info:
        job.wait(poll=FAST, out=out, **FakeTime().timing())
    assert info.value.status == status
    lines = out.getvalue().splitlines()
    unknown = ["Billed cost (us-west-2, on-demand USD): unknown",  # no price file, an empty cache
               "  ml.m5.2xlarge, ml.p3.2xlarge: unknown: no price in us-west-2 is given (prices=, --prices or "
               "SAGEMAKER_HETERO_PRICES) or cached from the AWS Price List this week (estimate_cost(), "
               "TrainingJob.cost() and sagemaker-hetero cost read and cache it)"]
    assert lines[1:] == ["Training seconds: 180", "Billable seconds: 180"] + unknown + (
        [MODEL_LINE] if status == "Stopped" else [])


def test_ctrl_c_prints_no_end_of_job_lines(fault_proxy):
    job = start(fault_proxy)
    script(fault_proxy, describe("InProgress", "Training"))

    def interrupted_sleep(seconds):
        raise KeyboardInterrupt

    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        job.wait(poll=FAST, out=out, sleep=interrupted_sleep)
    assert "Training seconds" not in out.getvalue() and "Model artifacts" not in out.getvalue()


# -- the heartbeat -----------------------------------------------------------------------------


@pytest.mark.parametrize("logs", ["All", "None"])
def test_a_quiet_wait_prints_a_still_line_every_five_minutes(fault_proxy, logs):
    job = start(fault_proxy)
    training = describe("InProgress", "Training", "Training in progress")
    script(fault_proxy, describe("InProgress", "Starting"), *[training] * 24)  # polls at 0:00, 0:30, ... 12:00
    out = io.StringIO()
    t = FakeTime()
    job.wait(logs=logs, poll=(30, 30), out=out, clock=t.clock, sleep=t.sleep)
    lines = out.getvalue().splitlines()
    assert lines[:4] == [
        "[0:00:00] waiting: InProgress/Starting",
        "[0:00:30] waiting: InProgress/Training - Training in progress",
        "[0:05:30] waiting: still InProgress/Training (since 0:00:30)",
        "[0:10:30] waiting: still InProgress/Training (since 0:00:30)",
    ]
    assert lines[4].startswith("[0:12:30] waiting: Completed")  # moto's answer
    assert lines[5:] == [MODEL_LINE]


def test_log_lines_are_not_silence(fault_proxy):
    cw = boto3.client("logs", endpoint_url=fault_proxy.upstream_url)
    cw.create_log_group(logGroupName=LOG_GROUP)
    stream = "waiting/algo-1-1700000000"
    cw.create_log_stream(logGroupName=LOG_GROUP, logStreamName=stream)
    job = start(fault_proxy)
    script(fault_proxy, *[describe("InProgress", "Training", ResourceConfig=GROUPS)] * 8)  # polls at 0:00 ... 3:30
    t = FakeTime()

    def sleep(seconds):
        t.sleep(seconds)
        if t.now == 60:  # a line, read by the poll at 1:00
            event = {"timestamp": int(time.time() * 1000), "message": "epoch 1"}
            cw.put_log_events(logGroupName=LOG_GROUP, logStreamName=stream, logEvents=[event])

    out = io.StringIO()
    job.wait(logs="All", poll=(30, 30), out=out, clock=t.clock, sleep=sleep, heartbeat=120)
    lines = out.getvalue().splitlines()
    assert lines[:3] == [
        "[0:00:00] waiting: InProgress/Training",
        "[?/algo-1] epoch 1",
        "[0:03:00] waiting: still InProgress/Training (since 0:00:00)",  # two minutes after the log line
    ]
    assert lines[3].startswith("[0:04:00] waiting: Completed")


def test_the_heartbeat_can_be_set_or_turned_off(fault_proxy):
    job = start(fault_proxy)
    training = describe("InProgress", "Training")
    script(fault_proxy, *[training] * 5)  # polls at 0:00 ... 2:00
    t = FakeTime()
    out = io.StringIO()
    job.wait(logs="None", poll=(30, 30), out=out, clock=t.clock, sleep=t.sleep, heartbeat=60)
    assert [line for line in out.getvalue().splitlines() if "still" in line] == [
        "[0:01:00] waiting: still InProgress/Training (since 0:00:00)",
        "[0:02:00] waiting: still InProgress/Training (since 0:00:00)",
    ]
    script(fault_proxy, *[training] * 12)  # 6 minutes
    t = FakeTime()
    out = io.StringIO()
    job.wait(logs="None", poll=(30, 30), out=out, clock=t.clock, sleep=t.sleep, heartbeat=None)
    assert t.now == 360 and "still" not in out.getvalue()


# -- waiting that fails --------------------------------------------------------------------------


def test_a_throttled_describe_while_waiting_backs_off_and_asks_again(fault_proxy, monkeypatch):
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    monkeypatch.setattr(poller, "WAIT_THROTTLED_POLLS", 2)  # botocore's adaptive rate limiter sleeps for real
    job = start(fault_proxy)
    script(fault_proxy, describe("InProgress", "Training"))
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="throttle", times=poller.WAIT_THROTTLED_POLLS)
    t = FakeTime()
    out = io.StringIO()
    job.wait(logs="None", poll=(30, 120), out=out, clock=t.clock, sleep=t.sleep)
    assert out.getvalue().splitlines()[0] == "[0:00:00] waiting: InProgress/Training"
    assert "Completed" in out.getvalue()
    assert t.now >= poller.WAIT_THROTTLED_POLLS * 120  # the longest interval after each throttled poll


def test_throttling_that_lasts_while_waiting_gives_up_naming_the_job(fault_proxy, monkeypatch):
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    monkeypatch.setattr(poller, "WAIT_THROTTLED_POLLS", 2)  # botocore's adaptive rate limiter sleeps for real
    job = start(fault_proxy)
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="throttle", times=None)
    with pytest.raises(ThrottlingError) as info:
        job.wait(logs="None", poll=(30, 120), out=io.StringIO(), **FakeTime().timing())
    assert info.value.job_name == "waiting" and "sagemaker-hetero status waiting" in str(info.value)


def test_a_describe_that_fails_while_waiting_names_the_job_and_how_to_follow_it_again(fault_proxy, monkeypatch):
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    job = start(fault_proxy)
    script(fault_proxy, describe("InProgress", "Training"))
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="reset_before", times=None)
    out = io.StringIO()
    with pytest.raises(AWSError) as info:
        job.wait(poll=FAST, out=out, **FakeTime().timing())
    assert info.value.code == "ConnectionError"
    assert info.value.job_name == "waiting"
    text = str(info.value)
    assert text.startswith("DescribeTrainingJob failed with ConnectionError")
    assert ("The waiting stopped; the training job waiting goes on in SageMaker. Once the cause is fixed, follow it "
            "again with Estimator.attach('waiting').latest_training_job.wait(), or see it with: "
            "sagemaker-hetero status waiting") in text
    assert out.getvalue().splitlines() == ["[0:00:00] waiting: InProgress/Training"]  # no end-of-job lines

