"""Submitting when AWS answers badly: lost CreateTrainingJob answers, names taken, code archives left
behind or already there (whole and in parts), wrong credentials, an unusable default bucket, waiting
that fails, answers that are no AWS error.

All against the real moto server, faults injected at the HTTP layer by tests._aws.FaultProxy
(``unique_training_job_names`` answers a taken name as SageMaker does; moto itself overwrites).
"""
import email.utils
import hashlib
import io
import json
import os
import socket
import time

import boto3
import botocore.config
import pytest

from sagemaker_hetero import PyTorch, Session
from sagemaker_hetero import exceptions as E
from sagemaker_hetero._aws.code_archive import archive_members
from tests._aws import needs_moto_conditional_writes, needs_moto_head_checksums
from tests.test_session import (DEFAULT_BUCKET, INPUTS, code, code_object, code_uri, data_bucket,  # noqa: F401
                                estimator, s3_object)

PART = 5 * 1024 * 1024  # S3's (and moto's) smallest part


@pytest.fixture
def few_attempts(monkeypatch):
    """Three attempts per call (the user's setting wins over ours), so failures end quickly."""
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "3")


def jobs():
    return sorted(j["TrainingJobName"] for j in boto3.client("sagemaker").list_training_jobs()["TrainingJobSummaries"])


def creates(proxy):
    return len(proxy.calls(operation="CreateTrainingJob"))


def reattach_said(text, name, cls="PyTorch"):
    return "%s.attach(%r)" % (cls, name) in text and "sagemaker-hetero status %s" % name in text


# -- CreateTrainingJob's answer lost -------------------------------------------------------------


def test_every_create_answer_lost_carries_on_with_the_job_the_first_attempt_created(
        fault_proxy, code, data_bucket, few_attempts):
    fault_proxy.unique_training_job_names = True
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="reset_after", times=None)
    est = estimator()
    est.fit(INPUTS, wait=False, job_name="lost")
    assert creates(fault_proxy) == 3  # each reached moto; the first created the job, the others were refused
    assert fault_proxy.operations()[-1] == "DescribeTrainingJob"
    assert est.latest_training_job.name == "lost"
    assert jobs() == ["lost"]


def test_every_create_answer_lost_and_no_description_says_the_job_may_exist(
        fault_proxy, code, data_bucket, few_attempts):
    fault_proxy.unique_training_job_names = True
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="reset_after", times=None)
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="reset_before", times=None)
    with pytest.raises(E.JobMayExistError) as info:
        estimator().fit(INPUTS, wait=False, job_name="maybe")
    assert info.value.job_name == "maybe"
    assert info.value.operation == "CreateTrainingJob"
    text = str(info.value)
    assert "the training job 'maybe' may exist" in text
    assert reattach_said(text, "maybe")
    assert jobs() == ["maybe"]  # it does


def test_a_create_that_never_got_an_answer_and_made_no_job_says_so(fault_proxy, code, data_bucket, few_attempts):
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="reset_before", times=None)
    with pytest.raises(E.AWSError) as info:
        estimator().fit(INPUTS, wait=False, job_name="never")
    assert type(info.value) is E.AWSError and info.value.code == "ConnectionError"
    assert "No training job named 'never' was created: submitting again is safe." in str(info.value)
    assert jobs() == []


def test_a_create_that_could_not_connect_is_not_looked_up(aws, code, data_bucket):
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there: connection refused, the request never left
    client = boto3.client("sagemaker", endpoint_url="http://127.0.0.1:%d" % port,
                          config=botocore.config.Config(retries={"mode": "standard", "total_max_attempts": 2}))
    with pytest.raises(E.AWSError) as info:
        estimator(Session(sagemaker_client=client)).fit(INPUTS, wait=False, job_name="unsent")
    assert type(info.value) is E.AWSError and info.value.code == "ConnectionError"  # not JobMayExistError


def test_a_lost_answer_then_a_job_unlike_the_request_is_a_conflict(fault_proxy, code, data_bucket):
    fault_proxy.unique_training_job_names = True
    estimator(hyperparameters={"lr": 0.1}).fit(INPUTS, wait=False, job_name="other")
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="reset_after", times=1)
    with pytest.raises(E.JobConflictError) as info:
        estimator().fit(INPUTS, wait=False, job_name="other")
    assert info.value.job_name == "other"
    assert "DescribeTrainingJob" in fault_proxy.operations()


def described_as_sent(proxy, name, created, date=None):
    """A DescribeTrainingJob answer echoing the last request sent, created at ``created`` (epoch);
    with a Date header ``date`` (epoch) when given."""
    sent = proxy.last_json("CreateTrainingJob")
    body = dict(sent, TrainingJobArn="arn:aws:sagemaker:us-west-2:123456789012:training-job/" + name,
                TrainingJobStatus="InProgress", SecondaryStatus="Starting", CreationTime=created)
    headers = {"Date": email.utils.formatdate(date, usegmt=True)} if date is not None else None
    proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=body, headers=headers)


@pytest.mark.parametrize("age, aws_clock, ours", [
    (60, True, False),    # AWS's clock: created a minute before our first attempt: an older job
    (0, True, True),      # created as our first attempt arrived: ours
    (60, False, True),    # no Date header: this machine's clock, 5 minutes of skew allowed
    (600, False, False),  # ... but not 10
])
def test_an_identical_job_is_ours_only_if_created_after_the_first_attempt(
        fault_proxy, code, data_bucket, age, aws_clock, ours):
    fault_proxy.unique_training_job_names = True
    estimator().fit(INPUTS, wait=False, job_name="twin")
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="reset_after", times=1)
    now = time.time()
    described_as_sent(fault_proxy, "twin", now - age, date=now if aws_clock else None)
    est = estimator()
    if ours:
        est.fit(INPUTS, wait=False, job_name="twin")
        assert est.latest_training_job.name == "twin"
    else:
        with pytest.raises(E.JobConflictError):
            est.fit(INPUTS, wait=False, job_name="twin")


# -- a name that is taken --------------------------------------------------------------------------


def test_the_same_request_twice_under_a_fixed_name_is_a_conflict_not_an_attach(fault_proxy, code, data_bucket):
    fault_proxy.unique_training_job_names = True
    estimator().fit(INPUTS, wait=False, job_name="fixed")
    fault_proxy.clear_requests()
    with pytest.raises(E.JobConflictError) as info:
        estimator().fit(INPUTS, wait=False, job_name="fixed")
    assert info.value.code == "ResourceInUse"
    assert info.value.job_name == "fixed"
    assert reattach_said(str(info.value), "fixed")
    assert "DescribeTrainingJob" not in fault_proxy.operations()  # the first attempt's answer is the answer
    assert jobs() == ["fixed"]


def test_resource_in_use_after_a_throttled_attempt_is_a_conflict(fault_proxy, code, data_bucket):
    fault_proxy.unique_training_job_names = True
    estimator().fit(INPUTS, wait=False, job_name="busy")
    fault_proxy.clear_requests()
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="throttle", times=1)
    with pytest.raises(E.JobConflictError):
        estimator().fit(INPUTS, wait=False, job_name="busy")
    assert creates(fault_proxy) == 2
    assert "DescribeTrainingJob" not in fault_proxy.operations()  # a throttled attempt created nothing


# -- the code archive ------------------------------------------------------------------------------


def refuse_create(proxy, code="ResourceLimitExceeded"):
    proxy.add_fault(operation="CreateTrainingJob", kind="status", status=400, code=code,
                    message="The account-level service limit 'ml.p3dn.24xlarge for training job usage' is 0")


def test_a_failed_create_does_not_block_resubmitting_edited_code(fault_proxy, code, data_bucket):
    refuse_create(fault_proxy)
    with pytest.raises(E.AWSError) as info:
        estimator().fit(INPUTS, wait=False, job_name="retry-me")
    assert info.value.code == "ResourceLimitExceeded"
    left_uri = code_uri(fault_proxy)
    left = code_object(fault_proxy)  # the archive stays behind, under its own content address
    (code / "src" / "train.py").write_text("print('fixed')\n")
    fault_proxy.clear_requests()
    estimator().fit(INPUTS, wait=False, job_name="retry-me")
    assert fault_proxy.operations()[-2:] == ["PutObject", "CreateTrainingJob"]
    assert fault_proxy.calls(operation="PutObject")[0].headers.get("if-none-match") == "*"
    assert code_uri(fault_proxy) != left_uri and code_object(fault_proxy) != left
    assert jobs() == ["retry-me"]


def test_an_existing_jobs_code_is_kept_and_the_conflict_names_the_job(fault_proxy, code, data_bucket):
    fault_proxy.unique_training_job_names = True
    estimator().fit(INPUTS, wait=False, job_name="kept")
    kept_uri, before = code_uri(fault_proxy), code_object(fault_proxy)
    (code / "src" / "train.py").write_text("print('changed')\n")
    with pytest.raises(E.JobConflictError) as info:
        estimator().fit(INPUTS, wait=False, job_name="kept")
    assert info.value.job_name == "kept"
    assert reattach_said(str(info.value), "kept")
    assert s3_object(DEFAULT_BUCKET, kept_uri.split("/", 3)[3]) == before


@needs_moto_head_checksums
def test_the_same_code_from_another_session_is_found_not_sent(fault_proxy, code, data_bucket):
    estimator().fit(INPUTS, wait=False, job_name="one")
    fault_proxy.clear_requests()
    estimator().fit(INPUTS, wait=False, job_name="two")  # a new session: it does not know the key is there
    assert fault_proxy.operations("s3")[-2:] == ["PutObject", "HeadObject"]
    assert fault_proxy.calls(operation="PutObject")[-1].status == 412  # If-None-Match: never overwritten
    assert jobs() == ["one", "two"]


def other_bytes_at_the_code_key(code_key_of, **put):
    """Plant other bytes where ``code_key_of``'s code would go, with the code's SHA-256 as their
    ``sha256`` metadata (what this package once trusted), and ``put`` (more PutObject parameters);
    return its key and those bytes."""
    uri = json.loads(code_key_of.fit(INPUTS, dry_run=True, job_name="dry")["HyperParameters"]
                     ["sagemaker_submit_directory"])
    key, junk = uri.split("/", 3)[3], b"not the archive"
    boto3.client("s3").create_bucket(Bucket=DEFAULT_BUCKET, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    boto3.client("s3").put_object(Bucket=DEFAULT_BUCKET, Key=key, Body=junk, Metadata={"sha256": key.split("/")[-2]},
                                  **put)
    return key, junk


@pytest.mark.parametrize("checksum", [
    pytest.param({}, id="no-checksum"),
    pytest.param({"ChecksumAlgorithm": "SHA256"}, id="its-checksum", marks=needs_moto_head_checksums)])
def test_other_bytes_at_the_code_key_are_never_run_nor_overwritten(fault_proxy, code, data_bucket, checksum):
    est = estimator()
    key, junk = other_bytes_at_the_code_key(est, **checksum)
    fault_proxy.clear_requests()
    with pytest.raises(E.AWSError) as info:
        est.fit(INPUTS, wait=False, job_name="junked")
    text = str(info.value)
    assert "s3://%s/%s holds other bytes" % (DEFAULT_BUCKET, key) in text and "never overwritten" in text
    assert ("no SHA-256 checksum" in text) == (not checksum) and "delete it" in text
    assert s3_object(DEFAULT_BUCKET, key) == junk
    assert "CreateTrainingJob" not in fault_proxy.operations() and jobs() == []


def test_an_archive_at_the_code_key_that_cannot_be_read_is_not_run(fault_proxy, code, data_bucket):
    estimator().fit(INPUTS, wait=False, job_name="one")
    stored = code_object(fault_proxy)
    fault_proxy.add_fault(operation="HeadObject", kind="status", status=403, body=b"", times=None)
    with pytest.raises(E.AccessDeniedError) as info:
        estimator().fit(INPUTS, wait=False, job_name="two")  # PutObject: 412, HeadObject: 403
    assert code_uri(fault_proxy).split("/", 3)[3] in str(info.value)
    assert "cannot be compared" in str(info.value) and "s3:GetObject" in str(info.value)
    assert code_object(fault_proxy) == stored
    assert jobs() == ["one"]


@pytest.fixture
def big_code(code):
    """Code whose archive (about 11 MiB: 3 parts of 5 MiB) is compressed no smaller."""
    (code / "src" / "weights.bin").write_bytes(os.urandom(2 * PART + 512 * 1024))
    return code


def in_parts():
    session = Session()
    session.multipart_threshold = PART
    session.multipart_chunksize = PART
    return estimator(session)


def test_a_large_archive_goes_up_in_parts_that_never_overwrite(fault_proxy, big_code, data_bucket):
    in_parts().fit(INPUTS, wait=False, job_name="big")
    assert fault_proxy.operations()[-1] == "CreateTrainingJob"
    s3_ops = [op for op in fault_proxy.operations("s3") if "Bucket" not in op]
    assert s3_ops == ["HeadObject", "CreateMultipartUpload", "UploadPart", "UploadPart", "UploadPart",
                      "CompleteMultipartUpload"]
    assert fault_proxy.calls(operation="CompleteMultipartUpload")[0].headers["if-none-match"] == "*"
    archive = code_object(fault_proxy)
    assert "weights.bin" in archive_members(archive)
    assert code_uri(fault_proxy).endswith("/code/%s/sourcedir.tar.gz" % hashlib.sha256(archive).hexdigest())


def test_a_large_archive_with_other_bytes_at_its_key_sends_no_part(fault_proxy, big_code, data_bucket):
    est = in_parts()
    key, junk = other_bytes_at_the_code_key(est)
    fault_proxy.clear_requests()
    with pytest.raises(E.AWSError) as info:
        est.fit(INPUTS, wait=False, job_name="big")
    assert "holds other bytes" in str(info.value) and "never overwritten" in str(info.value)
    assert "UploadPart" not in fault_proxy.operations()  # seen first: no part sent
    assert "CreateTrainingJob" not in fault_proxy.operations()
    assert s3_object(DEFAULT_BUCKET, key) == junk


@needs_moto_conditional_writes
def test_a_large_archive_that_lands_meanwhile_is_kept_by_if_none_match(fault_proxy, big_code, data_bucket):
    in_parts().fit(INPUTS, wait=False, job_name="big")
    before = code_object(fault_proxy)
    # The look finds nothing (as if the same archive landed just after it): the complete must refuse.
    fault_proxy.add_fault(operation="HeadObject", kind="status", status=404, body=b"", times=1)
    fault_proxy.clear_requests()
    in_parts().fit(INPUTS, wait=False, job_name="big-again")
    complete = fault_proxy.calls(operation="CompleteMultipartUpload")[0]
    assert complete.status == 412  # moto honours If-None-Match on CompleteMultipartUpload
    assert "AbortMultipartUpload" in fault_proxy.operations()
    assert code_object(fault_proxy) == before
    assert jobs() == ["big", "big-again"]


def test_a_failed_part_is_translated_and_the_upload_aborted(fault_proxy, big_code, data_bucket):
    fault_proxy.add_fault(operation="UploadPart", kind="status", status=403, code="AccessDenied",
                          message="Access Denied")
    with pytest.raises(E.AccessDeniedError) as info:
        in_parts().fit(INPUTS, wait=False, job_name="denied")
    assert info.value.operation == "UploadPart"
    assert "AbortMultipartUpload" in fault_proxy.operations()
    assert "CreateTrainingJob" not in fault_proxy.operations()
    assert boto3.client("s3").list_multipart_uploads(Bucket=DEFAULT_BUCKET).get("Uploads", []) == []


@needs_moto_head_checksums
def test_the_same_large_archive_is_not_sent_twice(fault_proxy, big_code, data_bucket):
    refuse_create(fault_proxy)
    with pytest.raises(E.AWSError):
        in_parts().fit(INPUTS, wait=False, job_name="again")
    fault_proxy.clear_requests()
    in_parts().fit(INPUTS, wait=False, job_name="again")  # same bytes: S3's checksum of the same parts
    assert "UploadPart" not in fault_proxy.operations()
    assert jobs() == ["again"]


# -- credentials, the default bucket, answers that are no AWS error ----------------------------------


@pytest.mark.parametrize("operation, status, error", [
    ("CreateTrainingJob", 400, "InvalidSignatureException"),
    ("PutObject", 403, "SignatureDoesNotMatch"),
])
def test_a_wrong_secret_key_is_a_credentials_problem(fault_proxy, code, data_bucket, operation, status, error):
    fault_proxy.add_fault(operation=operation, kind="status", status=status, code=error, times=None,
                          message="The request signature we calculated does not match the signature you provided.")
    with pytest.raises(E.NoCredentialsError) as info:
        estimator().fit(INPUTS, wait=False, job_name="signed")
    assert info.value.code == error
    assert "secret access key does not match the access key ID" in str(info.value)


def deny_head_bucket(proxy):
    proxy.add_fault(operation="HeadBucket", kind="status", status=403, body=b"",
                    match=lambda r: r.path == "/" + DEFAULT_BUCKET)


def test_a_403_on_the_accounts_own_default_bucket_is_a_permission_problem(fault_proxy, code, data_bucket):
    boto3.client("s3").create_bucket(Bucket=DEFAULT_BUCKET, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    deny_head_bucket(fault_proxy)
    with pytest.raises(E.AccessDeniedError) as info:
        estimator().fit(INPUTS, wait=False, job_name="mine")
    assert not isinstance(info.value, E.BucketOwnedByOtherAccountError)
    assert "is this account's" in str(info.value) and "s3:ListBucket" in str(info.value)
    assert "ListBuckets" in fault_proxy.operations()
    assert "PutObject" not in fault_proxy.operations()


def test_a_403_that_cannot_be_told_apart_says_both(fault_proxy, code, data_bucket):
    deny_head_bucket(fault_proxy)
    fault_proxy.add_fault(operation="ListBuckets", kind="status", status=403, code="AccessDenied",
                          message="Access Denied")
    with pytest.raises(E.AccessDeniedError) as info:
        estimator().fit(INPUTS, wait=False, job_name="unclear")
    assert "either another account owns the name, or this identity lacks s3:ListBucket" in str(info.value)


def test_a_failing_describe_while_waiting_names_the_job_and_how_to_follow_it_again(fault_proxy, code, data_bucket):
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=400, code="AccessDeniedException",
                          message="not authorized to perform: sagemaker:DescribeTrainingJob")
    with pytest.raises(E.AccessDeniedError) as info:
        estimator().fit(INPUTS, job_name="followed")  # waits
    assert info.value.job_name == "followed"
    text = str(info.value)
    assert "DescribeTrainingJob failed with AccessDeniedException" in text
    assert "the training job followed goes on in SageMaker" in text
    assert reattach_said(text, "followed")


def test_an_attached_jobs_failed_wait_names_its_estimator_class(fault_proxy, code, data_bucket):
    estimator().fit(INPUTS, wait=False, job_name="attached")
    attached = PyTorch.attach("attached")
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=400, code="ExpiredTokenException",
                          message="The security token included in the request is expired")
    with pytest.raises(E.NoCredentialsError) as info:
        attached.latest_training_job.wait(poll=(0.01, 0.01), out=io.StringIO())
    assert info.value.job_name == "attached"
    assert "The credentials have expired" in str(info.value)
    assert reattach_said(str(info.value), "attached")


def test_an_html_500_is_one_line_naming_the_operation_and_status(aws, monkeypatch):
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    with pytest.raises(E.AWSError) as info:
        Session().stop_training_job("anything")  # moto does not implement it: its crash page, HTTP 500
    head, hint = str(info.value).split("\n")
    assert head.startswith("StopTrainingJob failed with 500: HTTP 500, an HTML page ('500 Internal Server Error')")
    assert "does not implement StopTrainingJob" in head and aws.url in head
    assert "<" not in str(info.value)


def test_an_unknown_operation_says_the_endpoint_lacks_it(fault_proxy, code, data_bucket):
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="status", status=400, code="UnknownOperationException",
                          message="")
    with pytest.raises(E.AWSError) as info:
        estimator().fit(INPUTS, wait=False, job_name="unknown")
    assert "HTTP 400: the endpoint %s does not implement CreateTrainingJob" % fault_proxy.url in str(info.value)
