"""S3 listings (``Session.list_s3_files``, ``download_data``, a local job's S3 channels) against an
endpoint whose ListObjectsV2 pages never end: each listing stops at its cap and says so, as an
``AWSError`` naming the call (a part of a listing is never taken for the whole), and nothing is
downloaded from a listing cut short."""
import boto3
import pytest

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._aws import s3_data
from sagemaker_hetero.session import Session
from tests.test_sdk_surface import list_page

XML = {"Content-Type": "application/xml"}


@pytest.fixture
def bucket(aws):
    boto3.client("s3").create_bucket(Bucket="my-bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    return "my-bucket"


def endless(proxy, keys):
    """Every ListObjectsV2 from now on lists ``keys`` with a continuation token never given before."""
    rule = proxy.add_fault(operation="ListObjectsV2", kind="status", status=200, headers=XML, body=None, times=None)
    count = [0]

    def next_page(record):
        count[0] += 1
        rule.body = list_page(keys, token="token-%d" % count[0])
        return True

    rule.match = next_page
    return rule


def test_a_listing_whose_pages_never_end_stops_at_the_cap_and_says_so(fault_proxy, bucket, tmp_path, monkeypatch):
    monkeypatch.setattr(s3_data, "MAX_LIST_PAGES", 6)
    boto3.client("s3").put_object(Bucket=bucket, Key="many/0", Body=b"0")
    endless(fault_proxy, ["many/0"])
    session = Session()
    with pytest.raises(E.AWSError) as excinfo:
        session.list_s3_files(bucket, "many/")
    assert excinfo.value.code == "TooManyPages" and excinfo.value.operation == "ListObjectsV2"
    assert "ListObjectsV2 of s3://my-bucket/many/ kept giving a next page after 6 pages (6 objects" in str(excinfo.value)
    assert fault_proxy.hits == 6
    with pytest.raises(E.AWSError):
        session.download_data(str(tmp_path / "out"), bucket, "many/")
    assert not (tmp_path / "out").exists()  # nothing downloaded from a listing cut short


def test_empty_pages_without_end_stop_at_their_own_cap(fault_proxy, bucket, monkeypatch):
    monkeypatch.setattr(s3_data, "MAX_EMPTY_LIST_PAGES", 4)
    endless(fault_proxy, [])
    with pytest.raises(E.AWSError) as excinfo:
        Session().list_s3_files(bucket, "many/")
    assert "after 4 pages (0 objects, the last 4 pages empty)" in str(excinfo.value)
    assert fault_proxy.hits == 4


def test_a_local_jobs_s3_channel_listing_stops_at_the_cap_too(fault_proxy, bucket, tmp_path, monkeypatch):
    from sagemaker_hetero.local._storage import Storage

    monkeypatch.setattr(s3_data, "MAX_LIST_PAGES", 3)
    endless(fault_proxy, ["many/0"])
    with pytest.raises(E.AWSError):
        Storage(str(tmp_path / "root"), "us-west-2").fetch_prefix("s3://my-bucket/many/", str(tmp_path / "channel"))
    assert fault_proxy.hits == 3 and not (tmp_path / "channel").exists()
