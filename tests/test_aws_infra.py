"""Tests of the AWS test infrastructure (tests/_aws.py, tests/conftest.py).

Plain boto3 against a real moto server over HTTP, optionally through the
fault-injecting proxy.  These tests also pin down the moto behaviour the SDK
relies on; the findings are summarised in the docstring of tests/_aws.py:

* duplicate CreateTrainingJob name -> moto answers HTTP 200 and overwrites
  (real SageMaker: HTTP 400 ResourceInUse, emulated by
  ``FaultProxy.unique_training_job_names``);
* duplicate CreateBucket -> 409 BucketAlreadyOwnedByYou in us-west-2, 200 in
  us-east-1;
* CreateTrainingJob is not validated server-side; InstanceGroups and
  InstanceGroupNames are stored and described back;
* training jobs are "Completed" immediately; StopTrainingJob -> HTTP 500;
* CloudWatch Logs reads work, but moto writes no training-job logs;
* S3 conditional writes: PutObject honours If-None-Match: * and If-Match,
  CompleteMultipartUpload honours If-None-Match: * but ignores If-Match;
  a multipart object's ETag is the MD5 of its parts' MD5s, "-N";
* every moto answer carries a Date header (AWS's clock, as the SDK reads it).
"""

import email.utils
import hashlib
import http.client
import io
import json
import os
import socket
import threading
import time

import boto3
import pytest
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
from botocore.exceptions import ClientError, ConnectionClosedError, HTTPClientError

from tests._aws import (
    ACCOUNT_ID,
    REGION,
    FaultProxy,
    NetworkAccessBlocked,
    describe_request,
    needs_moto_conditional_writes,
    network_guard,
)

NO_RETRIES = Config(retries={"mode": "standard", "total_max_attempts": 1})
STANDARD_RETRIES = Config(retries={"mode": "standard"})  # 3 attempts in all

ROLE_ARN = "arn:aws:iam::%s:role/SageMakerRole" % ACCOUNT_ID


def training_job_request(name="job-1", **overrides):
    request = {
        "TrainingJobName": name,
        "AlgorithmSpecification": {
            "TrainingImage": "763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.1",
            "TrainingInputMode": "File",
        },
        "RoleArn": ROLE_ARN,
        "InputDataConfig": [
            {
                "ChannelName": "train",
                "DataSource": {
                    "S3DataSource": {
                        "S3DataType": "S3Prefix",
                        "S3Uri": "s3://bucket/train/",
                        "S3DataDistributionType": "FullyReplicated",
                        "InstanceGroupNames": ["data"],
                    }
                },
            }
        ],
        "OutputDataConfig": {"S3OutputPath": "s3://bucket/output"},
        "ResourceConfig": {
            "InstanceGroups": [
                {"InstanceGroupName": "data", "InstanceType": "ml.c5.xlarge", "InstanceCount": 2},
                {"InstanceGroupName": "dnn", "InstanceType": "ml.p4d.24xlarge", "InstanceCount": 1},
            ],
            "VolumeSizeInGB": 30,
        },
        "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
        "HyperParameters": {"epochs": "3"},
    }
    request.update(overrides)
    return request


def create_bucket(s3, name="bucket"):
    s3.create_bucket(Bucket=name, CreateBucketConfiguration={"LocationConstraint": REGION})


def error_of(excinfo):
    response = excinfo.value.response
    return (
        response["Error"]["Code"],
        response["ResponseMetadata"]["HTTPStatusCode"],
        response["Error"].get("Message"),
    )


# ---------------------------------------------------------------- fixtures


def test_aws_fixture_environment_is_hermetic(aws):
    assert os.environ["AWS_ENDPOINT_URL"] == aws.url
    assert aws.url.startswith("http://127.0.0.1:")
    assert os.environ["AWS_ACCESS_KEY_ID"] == "testing"
    assert os.environ["AWS_DEFAULT_REGION"] == REGION == os.environ["AWS_REGION"]
    assert os.environ["AWS_EC2_METADATA_DISABLED"] == "true"
    assert "AWS_PROFILE" not in os.environ and "AWS_SESSION_TOKEN" not in os.environ
    assert not os.path.exists(os.environ["AWS_CONFIG_FILE"])
    assert not os.path.exists(os.environ["AWS_SHARED_CREDENTIALS_FILE"])
    assert aws.requests == []  # cleared for each test
    assert boto3.client("sts").get_caller_identity()["Account"] == ACCOUNT_ID


def test_fault_proxy_fixture_points_endpoint_at_proxy(fault_proxy, aws):
    assert os.environ["AWS_ENDPOINT_URL"] == fault_proxy.url != aws.url
    boto3.client("sts").get_caller_identity()
    assert fault_proxy.operations() == ["GetCallerIdentity"]
    assert aws.operations() == ["GetCallerIdentity"]


def test_moto_state_is_reset_between_tests_part_1(aws):
    create_bucket(boto3.client("s3"), "reset-check")


def test_moto_state_is_reset_between_tests_part_2(aws):
    assert boto3.client("s3").list_buckets()["Buckets"] == []


# ---------------------------------------------------------------- recording


def test_sts_get_caller_identity_recorded(aws):
    identity = boto3.client("sts").get_caller_identity()
    assert identity["Account"] == ACCOUNT_ID
    (call,) = aws.calls(service="sts")
    assert call.operation == "GetCallerIdentity"
    assert call.method == "POST" and call.path == "/"
    assert call.form == {"Action": "GetCallerIdentity", "Version": "2011-06-15"}
    assert call.json is None
    assert call.status == 200
    assert "/%s/sts/aws4_request" % REGION in call.headers["authorization"]


def test_sagemaker_create_training_job_recorded_and_described(aws):
    sagemaker = boto3.client("sagemaker")
    request = training_job_request()
    arn = sagemaker.create_training_job(**request)["TrainingJobArn"]
    assert arn == "arn:aws:sagemaker:%s:%s:training-job/job-1" % (REGION, ACCOUNT_ID)

    assert aws.last_json("CreateTrainingJob") == request
    (call,) = aws.calls(service="sagemaker", operation="CreateTrainingJob")
    assert call.headers["x-amz-target"] == "SageMaker.CreateTrainingJob"
    assert call.headers["content-type"] == "application/x-amz-json-1.1"
    assert json.loads(call.body.decode("utf-8")) == request
    assert call.status == 200

    # (c) heterogeneous-cluster fields are stored and described back.
    described = sagemaker.describe_training_job(TrainingJobName="job-1")
    assert described["ResourceConfig"]["InstanceGroups"] == [
        {"InstanceGroupName": "data", "InstanceType": "ml.c5.xlarge", "InstanceCount": 2},
        {"InstanceGroupName": "dnn", "InstanceType": "ml.p4d.24xlarge", "InstanceCount": 1},
    ]
    s3_source = described["InputDataConfig"][0]["DataSource"]["S3DataSource"]
    assert s3_source["InstanceGroupNames"] == ["data"]
    assert described["RoleArn"] == ROLE_ARN
    assert described["HyperParameters"] == {"epochs": "3"}
    # (d) no status progression: Completed at once.
    assert described["TrainingJobStatus"] == "Completed"
    assert described["SecondaryStatus"] == "Completed"
    assert described["ModelArtifacts"]["S3ModelArtifacts"] == (
        "s3://bucket/output/job-1/output/model.tar.gz"
    )
    assert aws.operations("sagemaker") == ["CreateTrainingJob", "DescribeTrainingJob"]


def test_last_json_without_such_request_raises(aws):
    with pytest.raises(LookupError, match="no CreateTrainingJob request recorded"):
        aws.last_json("CreateTrainingJob")


def test_moto_does_not_validate_training_job_contents(aws):
    """(c): only botocore's client-side validation applies."""
    sagemaker = boto3.client("sagemaker", config=Config(parameter_validation=False))
    odd = training_job_request(
        "odd-job",
        RoleArn="x",
        ResourceConfig={
            "InstanceGroups": [
                {"InstanceGroupName": "a", "InstanceType": "ml.bogus.huge", "InstanceCount": 0}
            ],
            "VolumeSizeInGB": -1,
        },
    )
    odd["InputDataConfig"][0]["DataSource"]["S3DataSource"]["InstanceGroupNames"] = ["nope"]
    sagemaker.create_training_job(**odd)
    described = sagemaker.describe_training_job(TrainingJobName="odd-job")
    assert described["RoleArn"] == "x"
    assert described["ResourceConfig"]["InstanceGroups"][0]["InstanceType"] == "ml.bogus.huge"


def test_moto_duplicate_training_job_name_overwrites(aws):
    """(a): moto answers 200 to a duplicate name and replaces the job."""
    sagemaker = boto3.client("sagemaker")
    sagemaker.create_training_job(**training_job_request("dup"))
    second = training_job_request(
        "dup", ResourceConfig={"InstanceType": "ml.m5.large", "InstanceCount": 3, "VolumeSizeInGB": 5}
    )
    response = sagemaker.create_training_job(**second)
    assert response["ResponseMetadata"]["HTTPStatusCode"] == 200
    described = sagemaker.describe_training_job(TrainingJobName="dup")
    assert described["ResourceConfig"] == second["ResourceConfig"]
    assert len(sagemaker.list_training_jobs()["TrainingJobSummaries"]) == 1


def test_moto_describe_unknown_training_job(aws):
    with pytest.raises(ClientError) as excinfo:
        boto3.client("sagemaker").describe_training_job(TrainingJobName="missing")
    assert error_of(excinfo) == (
        "ValidationException",
        400,
        "Could not find training job 'arn:aws:sagemaker:%s:%s:training-job/missing'."
        % (REGION, ACCOUNT_ID),
    )


def test_moto_stop_training_job_not_implemented(aws):
    sagemaker = boto3.client("sagemaker", config=NO_RETRIES)
    sagemaker.create_training_job(**training_job_request())
    with pytest.raises(ClientError) as excinfo:
        sagemaker.stop_training_job(TrainingJobName="job-1")
    assert excinfo.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500
    (stop,) = aws.calls(operation="StopTrainingJob")
    assert stop.status == 500
    assert stop.error == "NotImplementedError: The stop_training_job action has not been implemented"


@pytest.mark.parametrize(
    "region, expected",
    [("us-west-2", ("BucketAlreadyOwnedByYou", 409)), ("us-east-1", None)],
)
def test_moto_create_existing_bucket(aws, region, expected):
    """(b)"""
    s3 = boto3.client("s3", region_name=region)
    kwargs = {"Bucket": "owned-bucket"}
    if region != "us-east-1":
        kwargs["CreateBucketConfiguration"] = {"LocationConstraint": region}
    s3.create_bucket(**kwargs)
    if expected is None:
        assert s3.create_bucket(**kwargs)["ResponseMetadata"]["HTTPStatusCode"] == 200
    else:
        with pytest.raises(ClientError) as excinfo:
            s3.create_bucket(**kwargs)
        assert error_of(excinfo)[:2] == expected


def test_moto_logs_for_training_jobs(aws):
    """(e): Logs reads are implemented, moto writes no training-job logs."""
    logs = boto3.client("logs")
    group = "/aws/sagemaker/TrainingJobs"
    boto3.client("sagemaker").create_training_job(**training_job_request())
    for call in (
        lambda: logs.describe_log_streams(logGroupName=group, logStreamNamePrefix="job-1/"),
        lambda: logs.get_log_events(logGroupName=group, logStreamName="job-1/algo-1-1"),
        lambda: logs.filter_log_events(logGroupName=group),
    ):
        with pytest.raises(ClientError) as excinfo:
            call()
        assert error_of(excinfo)[0] == "ResourceNotFoundException"

    stream = "job-1/algo-1-1700000000"
    logs.create_log_group(logGroupName=group)
    logs.create_log_stream(logGroupName=group, logStreamName=stream)
    now = int(time.time() * 1000)
    logs.put_log_events(
        logGroupName=group,
        logStreamName=stream,
        logEvents=[{"timestamp": now, "message": "hello"}, {"timestamp": now + 1, "message": "world"}],
    )
    streams = logs.describe_log_streams(
        logGroupName=group, logStreamNamePrefix="job-1/", orderBy="LogStreamName"
    )["logStreams"]
    assert [s["logStreamName"] for s in streams] == [stream]
    page = logs.get_log_events(logGroupName=group, logStreamName=stream, startFromHead=True)
    assert [e["message"] for e in page["events"]] == ["hello", "world"]
    again = logs.get_log_events(
        logGroupName=group, logStreamName=stream, startFromHead=True,
        nextToken=page["nextForwardToken"],
    )
    assert again["events"] == [] and again["nextForwardToken"] == page["nextForwardToken"]
    filtered = logs.filter_log_events(logGroupName=group, logStreamNamePrefix="job-1/")
    assert [e["message"] for e in filtered["events"]] == ["hello", "world"]
    assert aws.calls(service="logs", operation="GetLogEvents")[-1].json == {
        "logGroupName": group,
        "logStreamName": stream,
        "startFromHead": True,
        "nextToken": page["nextForwardToken"],
    }


# ---------------------------------------------------------------- S3 via proxy


def test_s3_small_and_multi_megabyte_put_through_proxy(fault_proxy, aws):
    s3 = boto3.client("s3")
    create_bucket(s3)
    big = os.urandom(6 * 1024 * 1024 + 123)
    s3.put_object(Bucket="bucket", Key="small.txt", Body=b"hello")
    s3.put_object(Bucket="bucket", Key="dir/big.bin", Body=big)

    assert s3.get_object(Bucket="bucket", Key="small.txt")["Body"].read() == b"hello"
    assert s3.get_object(Bucket="bucket", Key="dir/big.bin")["Body"].read() == big
    assert s3.head_object(Bucket="bucket", Key="dir/big.bin")["ContentLength"] == len(big)

    expected = ["CreateBucket", "PutObject", "PutObject", "GetObject", "GetObject", "HeadObject"]
    assert aws.operations("s3") == expected
    assert fault_proxy.operations("s3") == expected
    create, small, large = aws.requests[:3]
    assert create.description == "PUT /bucket"
    assert small.description == "PUT /bucket/small.txt" and small.body == b"hello"
    assert large.description == "PUT /bucket/dir/big.bin"
    assert large.body == big and large.payload == big
    assert int(large.headers["content-length"]) == len(big)
    assert [r.status for r in aws.requests] == [200] * 6


def test_s3_multipart_upload_through_proxy(fault_proxy, aws):
    s3 = boto3.client("s3")
    create_bucket(s3)
    data = os.urandom(11 * 1024 * 1024)
    config = TransferConfig(
        multipart_threshold=5 * 1024 * 1024, multipart_chunksize=5 * 1024 * 1024, use_threads=False
    )
    s3.upload_fileobj(io.BytesIO(data), "bucket", "model.tar.gz", Config=config)
    assert s3.get_object(Bucket="bucket", Key="model.tar.gz")["Body"].read() == data

    ops = aws.operations("s3")
    assert ops == [
        "CreateBucket",
        "CreateMultipartUpload",
        "UploadPart",
        "UploadPart",
        "UploadPart",
        "CompleteMultipartUpload",
        "GetObject",
    ]
    parts = aws.calls(operation="UploadPart")
    assert b"".join(p.body for p in sorted(parts, key=lambda p: int(p.query["partNumber"]))) == data
    assert all("uploadId" in p.query for p in parts)


def _multipart(s3, key, data, part, **complete):
    upload = s3.create_multipart_upload(Bucket="bucket", Key=key)["UploadId"]
    parts = []
    for number, start in enumerate(range(0, len(data), part), 1):
        answer = s3.upload_part(Bucket="bucket", Key=key, UploadId=upload, PartNumber=number,
                                Body=data[start:start + part])
        parts.append({"PartNumber": number, "ETag": answer["ETag"]})
    return s3.complete_multipart_upload(Bucket="bucket", Key=key, UploadId=upload,
                                        MultipartUpload={"Parts": parts}, **complete)


@needs_moto_conditional_writes
def test_moto_conditional_writes(aws):
    """What the SDK's never-overwrite rule for code archives can be tested against (real S3 honours
    all four; moto ignores If-Match on CompleteMultipartUpload)."""
    s3 = boto3.client("s3", config=NO_RETRIES)
    create_bucket(s3)
    first = s3.put_object(Bucket="bucket", Key="k", Body=b"one", IfNoneMatch="*")["ETag"]
    with pytest.raises(ClientError) as excinfo:
        s3.put_object(Bucket="bucket", Key="k", Body=b"two", IfNoneMatch="*")
    assert error_of(excinfo)[:2] == ("PreconditionFailed", 412)
    with pytest.raises(ClientError) as excinfo:
        s3.put_object(Bucket="bucket", Key="k", Body=b"two", IfMatch='"0123456789abcdef0123456789abcdef"')
    assert error_of(excinfo)[:2] == ("PreconditionFailed", 412)
    s3.put_object(Bucket="bucket", Key="k", Body=b"two", IfMatch=first)
    assert s3.get_object(Bucket="bucket", Key="k")["Body"].read() == b"two"

    part = 5 * 1024 * 1024
    data = os.urandom(2 * part + 7)
    etag = _multipart(s3, "big", data, part, IfNoneMatch="*")["ETag"].strip('"')
    digests = b"".join(hashlib.md5(data[i:i + part]).digest() for i in range(0, len(data), part))
    assert etag == "%s-3" % hashlib.md5(digests).hexdigest()
    with pytest.raises(ClientError) as excinfo:
        _multipart(s3, "big", b"x" * (part + 1), part, IfNoneMatch="*")
    assert error_of(excinfo)[:2] == ("PreconditionFailed", 412)
    _multipart(s3, "big", b"y" * (part + 1), part, IfMatch='"0123456789abcdef0123456789abcdef-2"')
    assert s3.get_object(Bucket="bucket", Key="big")["Body"].read() == b"y" * (part + 1)  # If-Match ignored


def test_moto_answers_carry_a_date_header(aws):
    answer = boto3.client("sagemaker").list_training_jobs()
    assert abs(email.utils.parsedate_to_datetime(answer["ResponseMetadata"]["HTTPHeaders"]["date"]).timestamp()
               - time.time()) < 60


def _raw_s3_put(url, path, chunks, content_sha256="UNSIGNED-PAYLOAD", extra_headers=()):
    """PUT with ``Transfer-Encoding: chunked`` (moto does not check signatures)."""
    host, port = url[len("http://"):].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        conn.putrequest("PUT", path)
        conn.putheader(
            "Authorization",
            "AWS4-HMAC-SHA256 Credential=testing/20240101/%s/s3/aws4_request, "
            "SignedHeaders=host, Signature=00" % REGION,
        )
        conn.putheader("x-amz-content-sha256", content_sha256)
        for name, value in extra_headers:
            conn.putheader(name, value)
        conn.putheader("Transfer-Encoding", "chunked")
        conn.endheaders()
        for chunk in chunks:
            conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        conn.send(b"0\r\n\r\n")
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_s3_chunked_transfer_encoding_through_proxy(fault_proxy, aws):
    s3 = boto3.client("s3")
    create_bucket(s3)
    chunks = [os.urandom(64 * 1024) for _ in range(20)] + [b"tail"]
    status, _ = _raw_s3_put(fault_proxy.url, "/bucket/chunked.bin", chunks)
    assert status == 200
    assert s3.get_object(Bucket="bucket", Key="chunked.bin")["Body"].read() == b"".join(chunks)
    (put,) = aws.calls(operation="PutObject")
    assert put.headers["transfer-encoding"] == "chunked"  # still chunked at the server
    assert put.body == b"".join(chunks)


def test_s3_aws_chunked_payload_through_proxy(fault_proxy, aws):
    s3 = boto3.client("s3")
    create_bucket(s3)
    data = os.urandom(100 * 1024)
    sig = ";chunk-signature=" + "0" * 64
    framed = (
        ("%x%s\r\n" % (len(data), sig)).encode() + data + b"\r\n" + ("0%s\r\n\r\n" % sig).encode()
    )
    status, _ = _raw_s3_put(
        fault_proxy.url,
        "/bucket/aws-chunked.bin",
        [framed[:1000], framed[1000:]],
        content_sha256="STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
        extra_headers=[
            ("Content-Encoding", "aws-chunked"),
            ("x-amz-decoded-content-length", str(len(data))),
        ],
    )
    assert status == 200
    assert s3.get_object(Bucket="bucket", Key="aws-chunked.bin")["Body"].read() == data
    (put,) = aws.calls(operation="PutObject")
    assert put.body == framed and put.payload == data


# ---------------------------------------------------------------- faults


def test_throttle_is_retried_by_standard_mode(fault_proxy, aws):
    rule = fault_proxy.add_fault(operation="CreateTrainingJob", kind="throttle", times=2)
    sagemaker = boto3.client("sagemaker", config=STANDARD_RETRIES)
    response = sagemaker.create_training_job(**training_job_request())
    assert response["ResponseMetadata"]["RetryAttempts"] == 2
    assert rule.hits == 2 and fault_proxy.hits == 2
    assert [r.status for r in fault_proxy.calls(operation="CreateTrainingJob")] == [400, 400, 200]
    assert len(aws.calls(operation="CreateTrainingJob")) == 1  # faults never reached moto


def test_throttle_error_shapes(fault_proxy, aws):
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="throttle")
    fault_proxy.add_fault(service="s3", operation="PutObject", kind="throttle")
    fault_proxy.add_fault(service="sts", kind="throttle")
    with pytest.raises(ClientError) as excinfo:
        boto3.client("sagemaker", config=NO_RETRIES).create_training_job(**training_job_request())
    assert error_of(excinfo) == ("ThrottlingException", 400, "Rate exceeded")
    s3 = boto3.client("s3", config=NO_RETRIES)
    create_bucket(s3)
    with pytest.raises(ClientError) as excinfo:
        s3.put_object(Bucket="bucket", Key="k", Body=b"x")
    assert error_of(excinfo)[:2] == ("SlowDown", 503)
    with pytest.raises(ClientError) as excinfo:
        boto3.client("sts", config=NO_RETRIES).get_caller_identity()
    assert error_of(excinfo) == ("Throttling", 400, "Rate exceeded")
    assert fault_proxy.hits == 3
    assert aws.operations() == ["CreateBucket"]


def test_s3_throttle_retried(fault_proxy, aws):
    s3 = boto3.client("s3", config=STANDARD_RETRIES)
    create_bucket(s3)
    fault_proxy.add_fault(service="s3", operation="PutObject", kind="throttle", times=1)
    response = s3.put_object(Bucket="bucket", Key="k", Body=b"payload")
    assert response["ResponseMetadata"]["RetryAttempts"] == 1
    assert s3.get_object(Bucket="bucket", Key="k")["Body"].read() == b"payload"


def test_s3_upload_reset_after_is_retried(fault_proxy, aws):
    s3 = boto3.client("s3", config=STANDARD_RETRIES)
    create_bucket(s3)
    fault_proxy.add_fault(service="s3", operation="PutObject", kind="reset_after", times=1)
    fault_proxy.add_fault(service="s3", operation="GetObject", kind="reset_before", times=1)
    data = os.urandom(3 * 1024 * 1024)
    response = s3.put_object(Bucket="bucket", Key="k", Body=data)
    assert response["ResponseMetadata"]["RetryAttempts"] == 1
    assert s3.get_object(Bucket="bucket", Key="k")["Body"].read() == data
    puts = aws.calls(operation="PutObject")
    assert [p.status for p in puts] == [200, 200] and all(p.body == data for p in puts)
    assert len(aws.calls(operation="GetObject")) == 1
    assert fault_proxy.hits == 2


def test_custom_status_fault(fault_proxy, aws):
    fault_proxy.add_fault(
        operation="DescribeTrainingJob",
        kind="status",
        status=500,
        body={"__type": "InternalFailure", "message": "boom"},
    )
    fault_proxy.add_fault(operation="ListTrainingJobs", kind="status", status=503)
    sagemaker = boto3.client("sagemaker", config=NO_RETRIES)
    with pytest.raises(ClientError) as excinfo:
        sagemaker.describe_training_job(TrainingJobName="x")
    assert error_of(excinfo) == ("InternalFailure", 500, "boom")
    with pytest.raises(ClientError) as excinfo:
        sagemaker.list_training_jobs()
    assert error_of(excinfo) == ("InternalFailure", 503, "Injected HTTP 503")
    # times=1 each: afterwards requests pass through to moto.
    assert sagemaker.list_training_jobs()["TrainingJobSummaries"] == []
    assert aws.operations() == ["ListTrainingJobs"]


def test_status_fault_with_an_error_code_answers_in_the_protocol(fault_proxy, aws):
    fault_proxy.add_fault(operation="ListTrainingJobs", kind="status", status=400,
                          code="InvalidSignatureException", message="signature mismatch")
    fault_proxy.add_fault(operation="ListBuckets", kind="status", status=403,
                          code="SignatureDoesNotMatch", message="signature mismatch")
    with pytest.raises(ClientError) as excinfo:
        boto3.client("sagemaker", config=NO_RETRIES).list_training_jobs()
    assert error_of(excinfo) == ("InvalidSignatureException", 400, "signature mismatch")
    with pytest.raises(ClientError) as excinfo:
        boto3.client("s3", config=NO_RETRIES).list_buckets()
    assert error_of(excinfo) == ("SignatureDoesNotMatch", 403, "signature mismatch")


def test_reset_before_is_a_connection_error_and_nothing_reaches_moto(fault_proxy, aws):
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="reset_before")
    sagemaker = boto3.client("sagemaker", config=NO_RETRIES)
    with pytest.raises(ConnectionClosedError):
        sagemaker.create_training_job(**training_job_request())
    assert aws.calls(operation="CreateTrainingJob") == []
    with pytest.raises(ClientError) as excinfo:
        sagemaker.describe_training_job(TrainingJobName="job-1")
    assert error_of(excinfo)[0] == "ValidationException"
    (faulted,) = fault_proxy.calls(operation="CreateTrainingJob")
    assert faulted.status is None  # never answered


def test_reset_before_is_retried(fault_proxy, aws):
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="reset_before", times=1)
    sagemaker = boto3.client("sagemaker", config=STANDARD_RETRIES)
    response = sagemaker.create_training_job(**training_job_request())
    assert response["ResponseMetadata"]["RetryAttempts"] == 1
    assert len(aws.calls(operation="CreateTrainingJob")) == 1


def test_reset_after_job_exists_although_client_saw_an_error(fault_proxy, aws):
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="reset_after")
    sagemaker = boto3.client("sagemaker", config=NO_RETRIES)
    with pytest.raises(ConnectionClosedError):
        sagemaker.create_training_job(**training_job_request())
    (created,) = aws.calls(operation="CreateTrainingJob")
    assert created.status == 200  # moto answered; the proxy dropped it
    described = sagemaker.describe_training_job(TrainingJobName="job-1")
    assert described["TrainingJobStatus"] == "Completed"


def test_reset_after_retried_against_plain_moto_silently_overwrites(fault_proxy, aws):
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="reset_after", times=1)
    sagemaker = boto3.client("sagemaker", config=STANDARD_RETRIES)
    response = sagemaker.create_training_job(**training_job_request())
    assert response["ResponseMetadata"]["RetryAttempts"] == 1
    assert [r.status for r in aws.calls(operation="CreateTrainingJob")] == [200, 200]


def test_reset_after_retried_with_unique_names_gets_resource_in_use(fault_proxy, aws):
    fault_proxy.unique_training_job_names = True
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="reset_after", times=1)
    sagemaker = boto3.client("sagemaker", config=STANDARD_RETRIES)
    with pytest.raises(ClientError) as excinfo:
        sagemaker.create_training_job(**training_job_request())
    code, status, message = error_of(excinfo)
    assert (code, status) == ("ResourceInUse", 400)
    assert message == (
        "Training job names must be unique within an AWS account and region, and a "
        "training job with this name already exists "
        "(arn:aws:sagemaker:%s:%s:training-job/job-1)" % (REGION, ACCOUNT_ID)
    )
    assert excinfo.value.response["ResponseMetadata"]["RetryAttempts"] == 1
    assert [r.status for r in aws.calls(operation="CreateTrainingJob")] == [200]
    # the proxy's own DescribeTrainingJob look-ups are not recorded
    assert aws.operations("sagemaker") == ["CreateTrainingJob"]
    # a fresh name still goes through
    sagemaker.create_training_job(**training_job_request("job-2"))


def test_delay_fault_and_match_predicate(fault_proxy, aws):
    release = threading.Event()
    rule = fault_proxy.add_fault(
        operation="CreateTrainingJob",
        kind="delay",
        delay=release,
        match=lambda r: r.json["TrainingJobName"] == "slow",
    )
    sagemaker = boto3.client("sagemaker", config=NO_RETRIES)
    # not matched: goes straight through (were it held, nothing releases it and the call fails)
    sagemaker.create_training_job(**training_job_request("fast"))
    assert rule.held == [] and [r.json["TrainingJobName"] for r in aws.calls(operation="CreateTrainingJob")] == ["fast"]
    answers = []
    slow = threading.Thread(
        target=lambda: answers.append(sagemaker.create_training_job(**training_job_request("slow")))
    )
    slow.start()
    deadline = time.monotonic() + 30  # guards against a hang only
    while not rule.held and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [r.json["TrainingJobName"] for r in rule.held] == ["slow"]
    assert answers == [] and len(aws.calls(operation="CreateTrainingJob")) == 1  # held: moto has not seen it
    release.set()
    slow.join(30)
    assert [a["TrainingJobArn"].rsplit("/", 1)[1] for a in answers] == ["slow"]
    assert [r.json["TrainingJobName"] for r in aws.calls(operation="CreateTrainingJob")] == ["fast", "slow"]
    assert fault_proxy.hits == 1


def test_delay_fault_for_a_time_forwards_afterwards(fault_proxy, aws):
    fault_proxy.add_fault(operation="ListTrainingJobs", kind="delay", delay=0.01)
    assert boto3.client("sagemaker", config=NO_RETRIES).list_training_jobs()["TrainingJobSummaries"] == []
    assert fault_proxy.hits == 1 and [r.status for r in aws.calls(operation="ListTrainingJobs")] == [200]


def test_fault_rule_validation(aws):
    proxy = FaultProxy(aws)
    try:
        with pytest.raises(ValueError):
            proxy.add_fault(operation="X", kind="explode")
        with pytest.raises(ValueError):
            proxy.add_fault(operation="X", kind="status")
        with pytest.raises(ValueError):
            proxy.add_fault(operation="X", kind="throttle", code="Nope")
        with pytest.raises(ValueError):
            proxy.add_fault(operation="X", kind="status", status=400, body=b"x", code="Nope")
    finally:
        proxy.stop()  # never started: just closes the socket


# ---------------------------------------------------------------- describe_request


def _auth(service):
    return {
        "authorization": "AWS4-HMAC-SHA256 Credential=AKID/20240101/us-west-2/%s/aws4_request, "
        "SignedHeaders=host, Signature=abc" % service
    }


@pytest.mark.parametrize(
    "method, path, query, extra, expected",
    [
        ("PUT", "/b", {}, {}, "CreateBucket"),
        ("HEAD", "/b", {}, {}, "HeadBucket"),
        ("GET", "/b", {"location": ""}, {}, "GetBucketLocation"),
        ("GET", "/b", {"list-type": "2", "prefix": "x/"}, {}, "ListObjectsV2"),
        ("GET", "/b/", {}, {}, "ListObjects"),
        ("GET", "/", {}, {}, "ListBuckets"),
        ("PUT", "/b", {"versioning": ""}, {}, "PutBucketVersioning"),
        ("POST", "/b", {"delete": ""}, {}, "DeleteObjects"),
        ("DELETE", "/b", {}, {}, "DeleteBucket"),
        ("PUT", "/b/k/x.bin", {}, {}, "PutObject"),
        ("PUT", "/b/k", {}, {"x-amz-copy-source": "/b/j"}, "CopyObject"),
        ("GET", "/b/k", {}, {}, "GetObject"),
        ("HEAD", "/b/k", {}, {}, "HeadObject"),
        ("DELETE", "/b/k", {}, {}, "DeleteObject"),
        ("POST", "/b/k", {"uploads": ""}, {}, "CreateMultipartUpload"),
        ("PUT", "/b/k", {"partNumber": "1", "uploadId": "u"}, {}, "UploadPart"),
        ("POST", "/b/k", {"uploadId": "u"}, {}, "CompleteMultipartUpload"),
        ("DELETE", "/b/k", {"uploadId": "u"}, {}, "AbortMultipartUpload"),
        ("GET", "/b/k", {"uploadId": "u"}, {}, "ListParts"),
        ("PUT", "/b/k", {"tagging": ""}, {}, "PutObjectTagging"),
    ],
)
def test_describe_s3_request(method, path, query, extra, expected):
    headers = dict(_auth("s3"), **extra)
    assert describe_request(method, path, query, headers) == ("s3", expected)


def test_describe_json_query_and_unsigned_requests():
    sm = dict(_auth("sagemaker"), **{"x-amz-target": "SageMaker.CreateTrainingJob"})
    assert describe_request("POST", "/", {}, sm, b"{}") == ("sagemaker", "CreateTrainingJob")
    logs = dict(_auth("logs"), **{"x-amz-target": "Logs_20140328.GetLogEvents"})
    assert describe_request("POST", "/", {}, logs) == ("logs", "GetLogEvents")
    form = dict(_auth("sts"), **{"content-type": "application/x-www-form-urlencoded; charset=utf-8"})
    assert describe_request("POST", "/", {}, form, b"Action=GetCallerIdentity&Version=2011-06-15") == (
        "sts",
        "GetCallerIdentity",
    )
    assert describe_request("GET", "/", {"Action": "GetCallerIdentity"}, _auth("sts")) == (
        "sts",
        "GetCallerIdentity",
    )
    presigned = {"X-Amz-Credential": "AKID/20240101/us-west-2/s3/aws4_request"}
    assert describe_request("GET", "/b/k", presigned, {}) == ("s3", "GetObject")
    assert describe_request("GET", "/health", {}, {}) == (None, "GET /health")


# ---------------------------------------------------------------- network guard


def test_network_guard_is_installed_for_the_session():
    assert network_guard.installed


def test_network_guard_refuses_non_loopback_connect():
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    with pytest.raises(NetworkAccessBlocked, match="93.184.216.34"):  # raised before any connection attempt
        sock.connect(("93.184.216.34", 80))
    assert ("connect", ("93.184.216.34", 80)) in network_guard.blocked
    assert sock.fileno() == -1  # the guard closed it: nothing can be sent
    for attempt in (
        lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).connect_ex(("93.184.216.34", 80)),
        lambda: socket.create_connection(("93.184.216.34", 80), timeout=5),
        lambda: socket.socket(socket.AF_INET6, socket.SOCK_STREAM).connect(("2606:2800:220:1::", 80)),
        lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("8.8.8.8", 53)),
    ):
        with pytest.raises(NetworkAccessBlocked):
            attempt()


def test_network_guard_refuses_name_lookups():
    with pytest.raises(NetworkAccessBlocked, match="example.com"):
        socket.getaddrinfo("example.com", 443)
    assert socket.getaddrinfo("localhost", 80)
    assert socket.getaddrinfo("127.0.0.1", 80)


def test_network_guard_allows_loopback_and_unix(aws):
    host, port = aws.host, aws.port
    socket.create_connection((host, port), timeout=5).close()
    socket.create_connection(("localhost", port), timeout=5).close()
    a, b = socket.socketpair()  # AF_UNIX
    a.close()
    b.close()


def test_boto3_without_endpoint_cannot_reach_aws(monkeypatch, tmp_path):
    for name in ("AWS_ENDPOINT_URL", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    client = boto3.session.Session(
        aws_access_key_id="testing", aws_secret_access_key="testing", region_name=REGION
    ).client("sts", config=NO_RETRIES)
    with pytest.raises(HTTPClientError, match="NetworkAccessBlocked|tests must not use the network"):
        client.get_caller_identity()
