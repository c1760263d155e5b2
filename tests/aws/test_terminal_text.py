"""What a service or a training job says reaches the terminal as text, never as terminal control
(issue 28): every C0 control character but tab and newline, DEL and every C1 control character is
written as ``\\xNN`` (``exceptions.shown``), on every path that echoes it: ``fit(logs=True)`` and the
end of its wait, ``TrainingJob.logs``, a tuning job's wait, the errors' messages and the tracebacks
that print them (their botocore causes too), the preflight report's, a job's bill's and an attached
estimator's text. What was stored stays exact (descriptions, attributes, a botocore error's answer).

Log events are put in CloudWatch Logs on the moto server; DescribeTrainingJob answers with hostile
text come from tests._aws.FaultProxy (moto's jobs are Completed at once, and say nothing hostile).
"""
import io
import json
import re
import time

import boto3
import pytest

from sagemaker_hetero import Estimator, InstanceGroup, Session
from sagemaker_hetero._aws.log_labels import LOG_GROUP
from sagemaker_hetero.exceptions import (AWSError, CapacityError, ConfigError, LocalJobError, Problem,
                                         UnexpectedStatusException, shown)
from sagemaker_hetero.training import format_marker

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
FAST = (0.01, 0.02)
#: The characters that must never reach a terminal raw (tab and newline may).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
CLIPBOARD = "\x1b]52;c;ZXZpbCBwYXlsb2Fk\x07"  # OSC 52: write the terminal's clipboard
LINK = "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\"  # OSC 8: a hyperlink
MOVES = "\x1b[2A\x1b[2J\x1bc"  # cursor up 2, clear the screen, reset the terminal
C1 = "\x9b31m\x9d0;title\x9c"  # CSI and OSC as C1 characters
HOSTILE = "job says " + CLIPBOARD + LINK + MOVES + C1 + " del\x7f nul\x00 bell\x07 lone\rcover up"
HOSTILE_GROUP = "cpu\x1b[2J"
ARTIFACTS = "s3://out-bucket/" + CLIPBOARD + "/model.tar.gz"


def assert_text_only(text):
    """No control character but tab and newline in ``text``; the hostile sequences are shown."""
    found = CONTROL.findall(text)
    assert found == [], "control characters reached the output: %r" % (found[:10],)


def assert_shown(text):
    assert_text_only(text)
    assert "\\x1b]52;c;ZXZpbCBwYXlsb2Fk\\x07" in text
    assert "\\x1b[2J" in text


# -- the one function ---------------------------------------------------------------------------


def test_shown_makes_every_control_character_but_tab_and_newline_visible():
    assert shown(CLIPBOARD) == "\\x1b]52;c;ZXZpbCBwYXlsb2Fk\\x07"
    assert shown("\x9b2J\x85\x7f\x00\r\x0b\x0c") == "\\x9b2J\\x85\\x7f\\x00\\x0d\\x0b\\x0c"
    assert shown("a\tb\nc") == "a\tb\nc"
    assert shown("lone \ud800 \udfff") == "lone \\ud800 \\udfff"  # a JSON answer's lone surrogates
    assert shown("") == ""
    assert shown("élan – 日本 \u00a0 \u00ff") == "élan – 日本 \u00a0 \u00ff"  # printable beyond ASCII is kept
    every = "".join(chr(c) for c in range(0xA0))
    assert CONTROL.findall(shown(every)) == []
    assert shown("x\ry\r", updates=True) == "x\ry\r"  # the local relay's ends of progress-bar updates
    assert shown("\x1b[2J\r", updates=True) == "\\x1b[2J\r"
    plain = "nothing to do " * 10
    assert shown(plain) is plain  # the common case: returned as it is


def test_errors_show_what_aws_said_and_keep_it_exact():
    failed = UnexpectedStatusException("job", "Failed", HOSTILE)
    assert_text_only(str(failed))
    assert "\\x1b]52;c;" in str(failed)
    assert failed.failure_reason == HOSTILE  # the attribute is the description's
    capacity = CapacityError("job", "Failed", "CapacityError: " + MOVES, advice="try " + C1)
    assert_text_only(str(capacity))
    assert "\\x1b[2A" in str(capacity) and "\\x9b31m" in str(capacity)
    aws = AWSError(HOSTILE, code="ValidationException", operation="CreateTrainingJob", hint="fix " + LINK)
    assert_text_only(str(aws))
    assert aws.aws_message == HOSTILE and aws.hinted("again").aws_message == HOSTILE
    local = LocalJobError("host algo-1 failed:\n  " + HOSTILE, failure=HOSTILE, last_lines=[HOSTILE])
    assert_text_only(str(local))
    assert local.failure == HOSTILE and local.last_lines == [HOSTILE]
    config = ConfigError([Problem("role", "AWS said " + HOSTILE, HOSTILE)])
    assert_text_only(str(config))


# -- a training job's wait and logs, against the moto server -------------------------------------


def estimator():
    return Estimator(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/my-trainer:latest",
        role=ROLE,
        instance_groups=[InstanceGroup("cpu", "ml.m5.2xlarge", 1), InstanceGroup("gpu", "ml.p3.2xlarge", 1)],
        output_path="s3://out-bucket/",
    )


def describe(status, secondary, message=HOSTILE, **fields):
    body = dict(fields, **{
        "TrainingJobName": "hostile",
        "TrainingJobArn": "arn:aws:sagemaker:us-west-2:123456789012:training-job/hostile",
        "TrainingJobStatus": status,
        "SecondaryStatus": secondary,
        "CreationTime": 1700000000,
        "ResourceConfig": {"InstanceGroups": [
            {"InstanceGroupName": HOSTILE_GROUP, "InstanceType": "ml.m5.2xlarge", "InstanceCount": 1},
            {"InstanceGroupName": "gpu", "InstanceType": "ml.p3.2xlarge", "InstanceCount": 1}]},
        "SecondaryStatusTransitions": [{"Status": secondary, "StartTime": 1700000000, "StatusMessage": message}],
    })
    return body


COMPLETED = describe("Completed", "Completed", TrainingTimeInSeconds=120, BillableTimeInSeconds=100,
                     ModelArtifacts={"S3ModelArtifacts": ARTIFACTS})
FAILED = describe("Failed", "Failed", FailureReason="AlgorithmError: " + HOSTILE)


def put_logs(name="hostile"):
    """Two hosts' streams of the job ``name``: a marker naming the hostile group, then hostile lines."""
    logs = boto3.client("logs")
    logs.create_log_group(logGroupName=LOG_GROUP)
    now = int(time.time() * 1000)  # CloudWatch Logs keeps no event older than 14 days
    for i, host in enumerate(("algo-1", "algo-2\x1b[2J")):
        stream = "%s/%s-1700000000" % (name, host)
        logs.create_log_stream(logGroupName=LOG_GROUP, logStreamName=stream)
        logs.put_log_events(logGroupName=LOG_GROUP, logStreamName=stream, logEvents=[
            {"timestamp": now + i, "message": format_marker(host, HOSTILE_GROUP if i == 0 else "gpu", "t")},
            {"timestamp": now + 10 + i, "message": "line of %s: %s" % (host, HOSTILE)},
        ])


def scripted(proxy, *answers):
    for answer in answers:
        proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=answer, times=1)


@pytest.fixture
def job(fault_proxy):
    est = estimator()
    est.fit(wait=False, job_name="hostile")
    put_logs()
    return est


def test_fit_with_logs_shows_lines_status_messages_and_the_summary_as_text(fault_proxy, job, capsys):
    scripted(fault_proxy, describe("InProgress", "Training"), COMPLETED)
    desc = job.latest_training_job.wait(logs=True, poll=FAST)
    out = capsys.readouterr().out
    assert_shown(out)
    assert "Training - job says \\x1b]52;c;" in out  # the status line
    assert "] line of algo-1: job says \\x1b]52;c;" in out  # a log line
    assert "Model artifacts: s3://out-bucket/\\x1b]52;c;ZXZpbCBwYXlsb2Fk\\x07/model.tar.gz" in out  # the summary
    assert "lone\\x0dcover up" in out
    assert desc["ModelArtifacts"]["S3ModelArtifacts"] == ARTIFACTS  # the description is what AWS said


def test_fit_logs_true_of_a_failed_job_raises_with_the_reason_shown(fault_proxy, capsys):
    put_logs()
    scripted(fault_proxy, describe("InProgress", "Training"))
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=FAILED, times=None)
    est = estimator()
    with pytest.raises(UnexpectedStatusException) as info:
        est.fit(job_name="hostile", logs=True, preflight=False)
    out = capsys.readouterr().out
    assert_shown(out)
    assert_text_only(str(info.value))
    assert "AlgorithmError: job says \\x1b]52;c;" in str(info.value)
    assert info.value.failure_reason == "AlgorithmError: " + HOSTILE


def test_logs_without_follow_and_into_a_stream(job):
    out = io.StringIO()
    job.latest_training_job.logs(out=out)
    text = out.getvalue()
    assert_shown(text)
    assert "/algo-2\\x1b[2J] line of algo-2\\x1b[2J: job says \\x1b]52;c;" in text  # the host: the stream's


def test_a_tuning_jobs_wait_shows_its_status_lines_as_text(fault_proxy):
    from sagemaker_hetero.tuner import TuningJob

    failed = {"HyperParameterTuningJobName": "tuning", "HyperParameterTuningJobStatus": "Failed",
              "FailureReason": HOSTILE, "TrainingJobStatusCounters": {"Completed": 1},
              "BestTrainingJob": {"TrainingJobName": "best" + MOVES, "FinalHyperParameterTuningJobObjectiveMetric": {
                  "MetricName": "loss" + CLIPBOARD, "Value": 0.5}},
              "CreationTime": 1.0}
    fault_proxy.add_fault(operation="DescribeHyperParameterTuningJob", kind="status", status=200, body=failed)
    out = io.StringIO()
    with pytest.raises(UnexpectedStatusException) as info:
        TuningJob(Session(), "tuning").wait(out=out, sleep=lambda s: None)
    assert_shown(out.getvalue())
    assert_text_only(str(info.value))


def test_the_preflight_reports_text_shows_what_aws_said(aws):
    from sagemaker_hetero._preflight.report import Finding, PreflightReport

    finding = Finding("role", "role " + MOVES, "unknown", "AWS said " + HOSTILE, fix="ask " + CLIPBOARD)
    report = PreflightReport(findings=[finding], region="us-west-2", account="123456789012")
    assert_shown(report.text())
    assert_text_only(str(report))
    assert_text_only(report.to_json())
    assert json.loads(report.to_json())["findings"][0]["detail"] == "AWS said " + HOSTILE


def test_an_attached_estimator_shows_the_groups_aws_names_as_text(fault_proxy):
    sm = boto3.client("sagemaker")
    sm.create_training_job(
        TrainingJobName="attached", RoleArn=ROLE,
        AlgorithmSpecification={"TrainingImage": "123456789012.dkr.ecr.us-west-2.amazonaws.com/t:1",
                                "TrainingInputMode": "File"},
        OutputDataConfig={"S3OutputPath": "s3://out-bucket/"},
        ResourceConfig={"InstanceGroups": [{"InstanceGroupName": HOSTILE_GROUP, "InstanceType": "ml.m5.xlarge",
                                            "InstanceCount": 1}], "VolumeSizeInGB": 30},
        StoppingCondition={"MaxRuntimeInSeconds": 3600},
    )
    est = Estimator.attach("attached")
    assert est.instance_groups[0].instance_group_name == HOSTILE_GROUP  # kept as described
    assert_text_only(str(est))
    assert "cpu\\x1b[2J" in str(est)


def test_a_jobs_bill_shows_its_groups_as_text(fault_proxy, job):
    scripted(fault_proxy, COMPLETED)
    bill = job.latest_training_job.cost(prices={"ml.m5.2xlarge": 0.46, "ml.p3.2xlarge": 3.825}, fetch=False)
    assert_text_only(str(bill))
    assert "cpu\\x1b[2J" in str(bill)
    assert [group["name"] for group in bill.to_dict()["groups"]] == [HOSTILE_GROUP, "gpu"]  # the data: exact


# -- what reaches a terminal besides the SDK's own lines: tracebacks, log records, notebook views ------


def test_a_traceback_of_an_aws_error_shows_what_aws_said_in_its_cause(fault_proxy):
    import traceback

    denied = {"__type": "AccessDeniedException", "message": "not allowed: " + HOSTILE}
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=400, body=denied, times=None)
    with pytest.raises(AWSError) as info:
        Session().describe_training_job("hostile")
    printed = "".join(traceback.format_exception(info.type, info.value, info.tb))  # what Python prints, causes too
    assert "botocore.exceptions.ClientError" in printed
    assert_shown(printed)
    assert info.value.__cause__.response["Error"]["Message"] == "not allowed: " + HOSTILE  # the answer: exact
    assert info.value.aws_message == "not allowed: " + HOSTILE


#: GetCallerIdentity's answer (XML: C1 characters and DEL may be in it, ESC may not).
STS_ANSWER = ('<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult>'
              '<Arn>%s</Arn><UserId>AIDEXAMPLE</UserId><Account>123456789012</Account></GetCallerIdentityResult>'
              '<ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></GetCallerIdentityResponse>')


def caller_is(proxy, arn):
    proxy.add_fault(operation="GetCallerIdentity", kind="status", status=200, body=STS_ANSWER % arn,
                    headers={"Content-Type": "text/xml"})


def test_the_packages_log_records_and_errors_show_the_names_aws_said(fault_proxy, caplog):
    from sagemaker_hetero import get_execution_role

    caller_is(fault_proxy, "arn:aws:sts::123456789012:assumed-role/role" + C1 + "\x7f/session")
    fault_proxy.add_fault(operation="GetRole", kind="status", status=403, code="AccessDenied", message="denied")
    with caplog.at_level("INFO", logger="sagemaker_hetero"):
        arn = get_execution_role(Session())
    assert arn == "arn:aws:iam::123456789012:role/role" + C1 + "\x7f"  # what the caller uses: exact
    assert "role name role\\x9b31m\\x9d0;title\\x9c\\x7f" in caplog.text  # a warning: what a handler writes
    assert_text_only(caplog.text)
    caller_is(fault_proxy, "arn:aws:iam::123456789012:user/bob" + C1)
    with pytest.raises(ValueError) as info:
        get_execution_role(Session())
    assert_text_only(str(info.value))
    assert "user/bob\\x9b31m" in str(info.value)


def test_the_notebook_views_show_what_aws_said_as_text(fault_proxy):
    sm = boto3.client("sagemaker")
    sm.create_training_job(
        TrainingJobName="attached", RoleArn=ROLE,
        AlgorithmSpecification={"TrainingImage": "123456789012.dkr.ecr.us-west-2.amazonaws.com/t:1" + MOVES,
                                "TrainingInputMode": "File"},
        OutputDataConfig={"S3OutputPath": "s3://out-bucket/" + CLIPBOARD},
        ResourceConfig={"InstanceGroups": [{"InstanceGroupName": HOSTILE_GROUP, "InstanceType": "ml.m5.xlarge",
                                            "InstanceCount": 1}], "VolumeSizeInGB": 30},
        StoppingCondition={"MaxRuntimeInSeconds": 3600},
    )
    html = Estimator.attach("attached")._repr_html_()
    assert_shown(html)
    assert "<td style=\"text-align:left\">cpu\\x1b[2J</td>" in html
    denied = {"__type": "AccessDeniedException", "message": "denied " + HOSTILE}
    fault_proxy.add_fault(operation="GetProducts", kind="status", status=400, body=denied, times=None)
    html = estimator().estimate_cost()._repr_html_()
    assert_shown(html)  # the reason a price is unknown quotes what the Price List said


def test_s3_keys_and_messages_in_errors_are_text(fault_proxy, tmp_path):
    import traceback

    from sagemaker_hetero.s3 import S3Downloader, S3Uploader

    s3 = boto3.client("s3")
    s3.create_bucket(Bucket="data", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    s3.put_object(Bucket="data", Key="in/../../up" + C1 + "\x7f", Body=b"x")
    with pytest.raises(ValueError) as info:  # a key that leads out of the folder: named, as text
        S3Downloader.download("s3://data/in", str(tmp_path / "down"))
    assert_text_only(str(info.value))
    assert "up\\x9b31m\\x9d0;title\\x9c\\x7f" in str(info.value)
    fault_proxy.add_fault(operation="PutObject", kind="status", status=403, code="AccessDenied",
                          message="denied " + C1, times=None)
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(AWSError) as info:
        S3Uploader.upload(str(tmp_path / "file.txt"), "s3://data/out")
    printed = "".join(traceback.format_exception(info.type, info.value, info.tb))  # boto3's wrapper is a cause
    assert "S3UploadFailedError" in printed and "denied \\x9b31m" in printed
    assert_text_only(printed)
