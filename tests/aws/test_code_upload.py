"""The code archive at its content address (sagemaker_hetero._aws.code_upload): it goes up with a SHA-256
checksum S3 keeps, and an object at its key is reused only by that checksum; against the real moto
server behind tests._aws.FaultProxy. Other bytes at the key, planted with this code's ``sha256``
metadata, and an unreadable object are in tests/test_submission_faults.py.
"""
import base64
import hashlib
import io

import boto3
import botocore.config
from sagemaker_hetero import Session
from sagemaker_hetero._model.archive import s3_checksum
from tests._aws import needs_moto_head_checksums
from tests.test_session import DEFAULT_BUCKET, INPUTS, code, code_object, code_uri, data_bucket  # noqa: F401
from tests.test_submission_faults import PART, big_code, estimator, in_parts, jobs  # noqa: F401


def checksum_of(data):
    return base64.b64encode(hashlib.sha256(data).digest()).decode("ascii")


def stored_checksum(key):
    """The SHA-256 checksum S3 (moto) keeps for the object at ``key``, or None."""
    return boto3.client("s3").head_object(Bucket=DEFAULT_BUCKET, Key=key, ChecksumMode="ENABLED").get("ChecksumSHA256")


def code_key(log):
    return code_uri(log).split("/", 3)[3]


@needs_moto_head_checksums
def test_the_archive_goes_up_with_its_sha256_checksum_and_is_reused_by_it(fault_proxy, code, data_bucket):
    estimator().fit(INPUTS, wait=False, job_name="one")
    archive, key = code_object(fault_proxy), code_key(fault_proxy)
    put = fault_proxy.calls(operation="PutObject")[0]
    assert put.headers["x-amz-checksum-sha256"] == checksum_of(archive) and put.headers["if-none-match"] == "*"
    assert "x-amz-meta-sha256" not in put.headers  # caller metadata proves nothing: none is sent
    assert stored_checksum(key) == checksum_of(archive)
    fault_proxy.clear_requests()
    estimator().fit(INPUTS, wait=False, job_name="two")  # a new session: S3's checksum says it is there
    assert fault_proxy.operations("s3")[-2:] == ["PutObject", "HeadObject"]
    assert fault_proxy.calls(operation="HeadObject")[0].headers["x-amz-checksum-mode"] == "ENABLED"
    assert code_key(fault_proxy) == key and jobs() == ["one", "two"]


@needs_moto_head_checksums
def test_this_archive_stored_without_a_checksum_is_put_again_with_one(fault_proxy, code, data_bucket):
    estimator().fit(INPUTS, wait=False, job_name="one")
    archive, key = code_object(fault_proxy), code_key(fault_proxy)
    # As an older version stored it: the same bytes, their SHA-256 as metadata, no checksum.
    plain = boto3.client("s3", config=botocore.config.Config(request_checksum_calculation="when_required"))
    etag = plain.put_object(Bucket=DEFAULT_BUCKET, Key=key, Body=archive, Metadata={"sha256": key.split("/")[-2]})["ETag"]
    assert stored_checksum(key) is None
    fault_proxy.clear_requests()
    estimator().fit(INPUTS, wait=False, job_name="two")
    assert fault_proxy.operations("s3")[-3:] == ["PutObject", "HeadObject", "PutObject"]
    again = fault_proxy.calls(operation="PutObject")[-1]
    assert again.headers["if-match"] == etag and again.status == 200  # only over the object that was looked at
    assert stored_checksum(key) == checksum_of(archive) and code_object(fault_proxy) == archive
    assert jobs() == ["one", "two"]


@needs_moto_head_checksums
def test_a_large_archive_goes_up_with_part_checksums_and_is_reused_whatever_the_part_size(
        fault_proxy, big_code, data_bucket):
    in_parts().fit(INPUTS, wait=False, job_name="big")
    archive, key = code_object(fault_proxy), code_key(fault_proxy)
    assert fault_proxy.calls(operation="CreateMultipartUpload")[0].headers["x-amz-checksum-algorithm"] == "SHA256"
    sent = [call.headers["x-amz-checksum-sha256"] for call in fault_proxy.calls(operation="UploadPart")]
    assert sent == [checksum_of(archive[i:i + PART]) for i in range(0, len(archive), PART)]
    composite = s3_checksum(io.BytesIO(archive), PART)
    assert composite.endswith("-3") and stored_checksum(key) in (composite, composite.rpartition("-")[0])
    fault_proxy.clear_requests()
    in_parts().fit(INPUTS, wait=False, job_name="same-parts")  # its own part size gives S3's checksum
    assert [op for op in fault_proxy.operations("s3") if "Bucket" not in op] == ["HeadObject"]
    fault_proxy.clear_requests()
    other = Session()
    other.multipart_threshold, other.multipart_chunksize = PART, 2 * PART
    estimator(other).fit(INPUTS, wait=False, job_name="other-parts")  # the stored part size is asked for
    heads = fault_proxy.calls(operation="HeadObject")
    assert [op for op in fault_proxy.operations("s3") if "Bucket" not in op] == ["HeadObject", "HeadObject"]
    assert heads[1].query.get("partNumber") == "1"
    assert "UploadPart" not in fault_proxy.operations() and code_key(fault_proxy) == key
    assert jobs() == ["big", "other-parts", "same-parts"]


def test_s3_checksum_is_the_sha256_s3_keeps_whole_or_composite():
    data = bytes(range(256)) * 10
    assert s3_checksum(io.BytesIO(data)) == checksum_of(data)
    digests = b"".join(hashlib.sha256(data[i:i + 1000]).digest() for i in range(0, len(data), 1000))
    assert s3_checksum(io.BytesIO(data), 1000) == checksum_of(digests) + "-3"
