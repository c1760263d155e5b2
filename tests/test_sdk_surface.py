"""The SDK v2 helpers the heterogeneous-cluster example notebooks use: get_execution_role, the Session's
S3 data methods, sagemaker_hetero.s3 and sagemaker_hetero.utils (docs/migrating.md).

AWS tests talk to the moto server (tests/_aws.py); boto3 is used only to set the scene and look at it.
Expected values were checked against the SDK v2 (2.257.7) run against the same moto server.
"""
import inspect
import json
import os
import random
import re
import subprocess
import sys

import boto3
import pytest

import sagemaker_hetero
from sagemaker_hetero._aws import apps
from sagemaker_hetero import exceptions as E
from sagemaker_hetero.s3 import S3Downloader, S3Uploader, parse_s3_url, s3_path_join
from sagemaker_hetero.session import Session, get_execution_role
from sagemaker_hetero.utils import (
    base_from_name,
    base_name_from_image,
    name_from_base,
    sagemaker_short_timestamp,
    sagemaker_timestamp,
    timestamp,
    unique_name_from_base,
)

ACCOUNT = "123456789012"
DEFAULT_BUCKET = "sagemaker-us-west-2-%s" % ACCOUNT
TRUST = json.dumps({"Version": "2012-10-17", "Statement": []})
PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAMP = r"\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}-\d{3}"


@pytest.fixture
def no_notebook(tmp_path, monkeypatch):
    """Not in a notebook: the metadata file is somewhere that does not exist (whatever this machine has)."""
    path = str(tmp_path / "resource-metadata.json")
    monkeypatch.setattr(apps, "STUDIO_METADATA_FILE", path)
    return path


@pytest.fixture
def bucket(aws):
    boto3.client("s3").create_bucket(Bucket="my-bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    return "my-bucket"


@pytest.fixture
def files(tmp_path):
    """A file and a folder with a subfolder to upload."""
    root = tmp_path / "local"
    (root / "folder" / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("A")
    (root / "folder" / "x.csv").write_text("x,1\n")
    (root / "folder" / "sub" / "y.csv").write_text("y,2\n")
    return root


def keys(bucket):
    response = boto3.client("s3").list_objects_v2(Bucket=bucket)
    return sorted(o["Key"] for o in response.get("Contents", []))


def body(bucket, key):
    return boto3.client("s3").get_object(Bucket=bucket, Key=key)["Body"].read().decode("utf-8")


def assume(monkeypatch, role_arn):
    """Use assumed-role credentials (moto's STS) from now on, as a notebook's are."""
    credentials = boto3.client("sts").assume_role(RoleArn=role_arn, RoleSessionName="SageMaker")["Credentials"]
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", credentials["AccessKeyId"])
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", credentials["SecretAccessKey"])
    monkeypatch.setenv("AWS_SESSION_TOKEN", credentials["SessionToken"])
    monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)


def fresh_python(code):
    env = dict(os.environ, PYTHONPATH=PROJECT_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    result = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


# -- import paths and signatures -------------------------------------------------------------------


def test_get_execution_role_is_exported_like_the_sdk_v2s():
    from sagemaker_hetero import get_execution_role as exported

    assert exported is get_execution_role is sagemaker_hetero.session.get_execution_role
    assert "get_execution_role" in sagemaker_hetero.__all__
    assert "get_execution_role" in sagemaker_hetero.session.__all__


def test_s3_and_utils_are_light_and_reachable_as_attributes_after_import_sagemaker_hetero():
    out = fresh_python(
        "import sys, sagemaker_hetero.s3, sagemaker_hetero.utils\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('boto3', 'botocore')))\n"
    )
    assert out == "[]"
    out = fresh_python(
        "import sagemaker_hetero\n"
        "print(sagemaker_hetero.s3.S3Uploader.__name__, sagemaker_hetero.utils.name_from_base.__name__,"
        " sagemaker_hetero.session.Session.__name__)\n"
    )
    assert out == "S3Uploader name_from_base Session"


def test_the_sdk_v2_module_paths_are_attributes_after_import_sagemaker_hetero_as_sagemaker():
    # The Deep Learning Containers' test helpers catch ``sagemaker.exceptions.UnexpectedStatusException``
    # after a bare ``import sagemaker``; notebooks write ``sagemaker.inputs.TrainingInput(...)``.
    out = fresh_python(
        "import sys\n"
        "import sagemaker_hetero as sagemaker\n"
        "names = [sagemaker.exceptions.UnexpectedStatusException, sagemaker.inputs.TrainingInput,\n"
        "         sagemaker.instance_group.InstanceGroup, sagemaker.estimator.Estimator,\n"
        "         sagemaker.pytorch.PyTorch, sagemaker.tensorflow.TensorFlow]\n"
        "print(' '.join(n.__module__ + '.' + n.__name__ for n in names))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('boto3', 'botocore')))\n"
    )
    assert out.splitlines() == [
        "sagemaker_hetero.exceptions.UnexpectedStatusException sagemaker_hetero.inputs.TrainingInput"
        " sagemaker_hetero.instance_group.InstanceGroup sagemaker_hetero.estimator.Estimator"
        " sagemaker_hetero.pytorch.PyTorch sagemaker_hetero.tensorflow.TensorFlow",
        "[]",
    ]


SIGNATURES = [
    (get_execution_role, [("sagemaker_session", None), ("use_default", False)]),
    (Session.get_caller_identity_arn, [("self", inspect.Parameter.empty)]),
    (Session.upload_data, [("self", inspect.Parameter.empty), ("path", inspect.Parameter.empty), ("bucket", None),
                           ("key_prefix", "data"), ("callback", None), ("extra_args", None)]),
    (Session.upload_string_as_file_body, [("self", inspect.Parameter.empty), ("body", inspect.Parameter.empty),
                                          ("bucket", inspect.Parameter.empty), ("key", inspect.Parameter.empty),
                                          ("kms_key", None)]),
    (Session.download_data, [("self", inspect.Parameter.empty), ("path", inspect.Parameter.empty),
                             ("bucket", inspect.Parameter.empty), ("key_prefix", ""), ("extra_args", None)]),
    (Session.read_s3_file, [("self", inspect.Parameter.empty), ("bucket", inspect.Parameter.empty),
                            ("key_prefix", inspect.Parameter.empty)]),
    (Session.list_s3_files, [("self", inspect.Parameter.empty), ("bucket", inspect.Parameter.empty),
                             ("key_prefix", inspect.Parameter.empty)]),
    (S3Uploader.upload, [("local_path", inspect.Parameter.empty), ("desired_s3_uri", inspect.Parameter.empty),
                         ("kms_key", None), ("sagemaker_session", None), ("callback", None)]),
    (S3Uploader.upload_string_as_file_body, [("body", inspect.Parameter.empty), ("desired_s3_uri", None),
                                             ("kms_key", None), ("sagemaker_session", None)]),
    (S3Downloader.download, [("s3_uri", inspect.Parameter.empty), ("local_path", inspect.Parameter.empty),
                             ("kms_key", None), ("sagemaker_session", None)]),
    (S3Downloader.read_file, [("s3_uri", inspect.Parameter.empty), ("sagemaker_session", None)]),
    (S3Downloader.list, [("s3_uri", inspect.Parameter.empty), ("sagemaker_session", None)]),
    (parse_s3_url, [("url", inspect.Parameter.empty)]),
    (unique_name_from_base, [("base", inspect.Parameter.empty), ("max_length", 63)]),
    (name_from_base, [("base", inspect.Parameter.empty), ("max_length", 63), ("short", False)]),
    (base_name_from_image, [("image", inspect.Parameter.empty), ("default_base_name", None)]),
    (base_from_name, [("name", inspect.Parameter.empty)]),
    (sagemaker_timestamp, []),
    (sagemaker_short_timestamp, []),
]


@pytest.mark.parametrize("function, expected", SIGNATURES, ids=[f.__qualname__ for f, _ in SIGNATURES])
def test_signatures_are_the_sdk_v2s_with_annotations(function, expected):
    signature = inspect.signature(function)
    assert [(p.name, p.default) for p in signature.parameters.values()] == expected
    for p in signature.parameters.values():
        assert p.name == "self" or p.annotation is not inspect.Parameter.empty, p.name
    assert signature.return_annotation is not inspect.Signature.empty


def test_s3_path_join_signature():
    parameters = inspect.signature(s3_path_join).parameters
    assert [(p.name, p.kind, p.default) for p in parameters.values()] == [
        ("args", inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.empty),
        ("with_end_slash", inspect.Parameter.KEYWORD_ONLY, False),
    ]


# -- get_execution_role ------------------------------------------------------------------------------


@pytest.mark.usefixtures("no_notebook")
def test_notebook_cell_with_an_assumed_role(aws, monkeypatch):
    boto3.client("iam").create_role(RoleName="HeteroNotebookRole", Path="/service-role/", AssumeRolePolicyDocument=TRUST)
    assume(monkeypatch, "arn:aws:iam::%s:role/service-role/HeteroNotebookRole" % ACCOUNT)
    aws.clear_requests()

    # the first cell of the hetero-pytorch-mnist example, `sagemaker` changed to `sagemaker_hetero`
    import sagemaker_hetero
    from sagemaker_hetero import get_execution_role
    from sagemaker_hetero.instance_group import InstanceGroup  # noqa: F401
    from sagemaker_hetero.pytorch import PyTorch  # noqa: F401

    sess = sagemaker_hetero.Session()
    role = get_execution_role()
    output_path = "s3://" + sess.default_bucket() + "/DEMO-MNIST"

    # the role's ARN with its path, which only IAM knows
    assert role == "arn:aws:iam::%s:role/service-role/HeteroNotebookRole" % ACCOUNT
    assert output_path == "s3://%s/DEMO-MNIST" % DEFAULT_BUCKET
    assert aws.operations(service="sts")[0] == "GetCallerIdentity"
    assert [r.form["RoleName"] for r in aws.calls(operation="GetRole")] == ["HeteroNotebookRole"]


@pytest.mark.usefixtures("no_notebook")
@pytest.mark.parametrize("role_name, expected", [
    # IAM does not know the role: a console-made role is under service-role/, as the SDK v2 assumes
    ("AmazonSageMaker-ExecutionRole-20240101T000000", "arn:aws:iam::%s:role/service-role/%s"),
    ("SomeRole", "arn:aws:iam::%s:role/%s"),
])
def test_assumed_role_that_iam_cannot_describe(aws, monkeypatch, role_name, expected):
    assume(monkeypatch, "arn:aws:iam::%s:role/%s" % (ACCOUNT, role_name))  # moto's STS does not check the role
    assert get_execution_role() == expected % (ACCOUNT, role_name)
    assert Session().get_caller_identity_arn() == expected % (ACCOUNT, role_name)


@pytest.mark.usefixtures("no_notebook")
def test_a_user_is_not_a_role(aws):
    # moto answers GetCallerIdentity for the test credentials with the user arn:aws:sts::123456789012:user/moto
    with pytest.raises(ValueError) as excinfo:
        get_execution_role()
    assert str(excinfo.value) == (
        "The current AWS identity is not a role: arn:aws:sts::%s:user/moto, therefore it cannot be used as a "
        "SageMaker execution role" % ACCOUNT
    )
    assert Session().get_caller_identity_arn() == "arn:aws:sts::%s:user/moto" % ACCOUNT
    assert aws.operations(service="iam") == []  # a user's name is not looked up as a role's


@pytest.mark.usefixtures("no_notebook")
def test_use_default_creates_the_default_role_once(aws, monkeypatch):
    # AttachRolePolicy needs the AWS managed policy, which moto has only when asked to load them
    monkeypatch.setenv("MOTO_IAM_LOAD_MANAGED_POLICIES", "true")
    aws.reset()
    aws.clear_requests()
    session = Session()
    arn = "arn:aws:iam::%s:role/AmazonSageMaker-DefaultRole" % ACCOUNT
    assert get_execution_role(session, use_default=True) == arn
    iam = [(r.operation, r.form) for r in aws.calls(service="iam")]
    assert [op for op, _ in iam] == ["GetRole", "CreateRole", "AttachRolePolicy", "GetRole"]
    assert json.loads(iam[1][1]["AssumeRolePolicyDocument"]) == {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Principal": {"Service": ["sagemaker.amazonaws.com"]},
                       "Action": "sts:AssumeRole"}],
    }
    assert iam[2][1]["PolicyArn"] == "arn:aws:iam::aws:policy/AmazonSageMakerFullAccess"
    aws.clear_requests()
    assert get_execution_role(session, use_default=True) == arn
    assert "CreateRole" not in aws.operations(service="iam")
    attached = boto3.client("iam").list_attached_role_policies(RoleName="AmazonSageMaker-DefaultRole")
    assert [p["PolicyName"] for p in attached["AttachedPolicies"]] == ["AmazonSageMakerFullAccess"]


def write_metadata(path, **metadata):
    with open(path, "w") as handle:
        json.dump(metadata, handle)


def test_studio_metadata_execution_role_arn_needs_no_call(aws, no_notebook):
    write_metadata(no_notebook, ExecutionRoleArn="arn:aws:iam::%s:role/FromMetadata" % ACCOUNT,
                   DomainId="d-1", UserProfileName="me")
    aws.clear_requests()
    assert get_execution_role() == "arn:aws:iam::%s:role/FromMetadata" % ACCOUNT
    assert aws.operations() == []


def test_notebook_instance_metadata_asks_for_the_instance_role(aws, no_notebook):
    boto3.client("sagemaker").create_notebook_instance(
        NotebookInstanceName="hetero-nb", InstanceType="ml.t3.medium", RoleArn="arn:aws:iam::%s:role/NbRole" % ACCOUNT)
    write_metadata(no_notebook, ResourceName="hetero-nb")
    aws.clear_requests()
    assert get_execution_role() == "arn:aws:iam::%s:role/NbRole" % ACCOUNT
    assert aws.operations() == ["DescribeNotebookInstance"]


def test_studio_user_profile_role_else_the_domain_default(fault_proxy, aws, no_notebook):
    domain = boto3.client("sagemaker").create_domain(
        DomainName="hetero", AuthMode="IAM", SubnetIds=["subnet-1"], VpcId="vpc-1",
        DefaultUserSettings={"ExecutionRole": "arn:aws:iam::%s:role/DomainRole" % ACCOUNT})
    domain_id = domain["DomainArn"].split("/")[-1]
    write_metadata(no_notebook, DomainId=domain_id, UserProfileName="me", ResourceName="default")
    # moto has no user profiles: the proxy answers DescribeUserProfile
    fault_proxy.add_fault(operation="DescribeUserProfile", kind="status", status=200,
                          body={"UserSettings": {"ExecutionRole": "arn:aws:iam::%s:role/ProfileRole" % ACCOUNT}})
    assert get_execution_role() == "arn:aws:iam::%s:role/ProfileRole" % ACCOUNT
    fault_proxy.add_fault(operation="DescribeUserProfile", kind="status", status=200, body={"UserSettings": {}})
    aws.clear_requests()
    assert get_execution_role() == "arn:aws:iam::%s:role/DomainRole" % ACCOUNT
    assert aws.operations() == ["DescribeDomain"]


def test_when_sagemaker_cannot_say_sts_is_asked(aws, no_notebook):
    write_metadata(no_notebook, ResourceName="no-such-notebook")
    assert Session().get_caller_identity_arn() == "arn:aws:sts::%s:user/moto" % ACCOUNT
    with open(no_notebook, "w") as handle:
        handle.write("{not json")
    assert Session().get_caller_identity_arn() == "arn:aws:sts::%s:user/moto" % ACCOUNT


# -- Session: S3 data --------------------------------------------------------------------------------


def test_upload_data_file_and_folder_to_the_default_bucket_then_back(aws, files, tmp_path):
    session = Session()
    assert session.upload_data(str(files / "a.txt")) == "s3://%s/data/a.txt" % DEFAULT_BUCKET
    assert session.upload_data(str(files / "folder"), key_prefix="train") == "s3://%s/train" % DEFAULT_BUCKET
    assert keys(DEFAULT_BUCKET) == ["data/a.txt", "train/sub/y.csv", "train/x.csv"]
    assert session.list_s3_files(DEFAULT_BUCKET, "train") == ["train/sub/y.csv", "train/x.csv"]
    assert session.read_s3_file(DEFAULT_BUCKET, "train/sub/y.csv") == "y,2\n"
    out = tmp_path / "out"
    downloaded = session.download_data(str(out), DEFAULT_BUCKET, "train")
    assert sorted(downloaded) == [str(out / "sub" / "y.csv"), str(out / "x.csv")]
    assert (out / "sub" / "y.csv").read_text() == "y,2\n" and (out / "x.csv").read_text() == "x,1\n"
    # one object: lands under its file name
    assert session.download_data(str(tmp_path / "one"), DEFAULT_BUCKET, "data/a.txt") == [str(tmp_path / "one" / "a.txt")]
    assert session.download_data(str(tmp_path / "none"), DEFAULT_BUCKET, "nothing/") == []


def test_the_default_bucket_is_checked_to_be_ours(aws, files, bucket, tmp_path):
    session = Session()
    session.upload_data(str(files / "a.txt"))
    session.upload_data(str(files / "a.txt"), bucket=bucket)
    puts = aws.calls(operation="PutObject")
    owners = [(r.path.split("/")[1], r.headers.get("x-amz-expected-bucket-owner")) for r in puts]
    assert owners == [(DEFAULT_BUCKET, ACCOUNT), (bucket, None)]
    aws.clear_requests()
    session.read_s3_file(DEFAULT_BUCKET, "data/a.txt")
    session.download_data(str(tmp_path / "out"), DEFAULT_BUCKET, "data")
    session.upload_string_as_file_body("s", DEFAULT_BUCKET, "s.txt")
    assert set(r.headers.get("x-amz-expected-bucket-owner") for r in aws.calls()) == {ACCOUNT}
    # a default bucket named by the user may be another account's: not checked
    aws.clear_requests()
    Session(default_bucket=bucket).upload_data(str(files / "a.txt"))
    assert [r.headers.get("x-amz-expected-bucket-owner") for r in aws.calls(operation="PutObject")] == [None]


def test_default_bucket_prefix_goes_before_the_key_prefix_only_without_a_bucket(aws, files):
    session = Session(default_bucket_prefix="team/hetero")
    assert session.upload_data(str(files / "a.txt"), key_prefix="in") == "s3://%s/team/hetero/in/a.txt" % DEFAULT_BUCKET
    assert session.upload_data(str(files / "folder")) == "s3://%s/team/hetero/data" % DEFAULT_BUCKET
    # the default bucket given by name: the key prefix as given (the SDK v2's rule)
    assert session.upload_data(str(files / "a.txt"), bucket=DEFAULT_BUCKET) == "s3://%s/data/a.txt" % DEFAULT_BUCKET
    assert keys(DEFAULT_BUCKET) == ["data/a.txt", "team/hetero/data/sub/y.csv", "team/hetero/data/x.csv",
                                    "team/hetero/in/a.txt"]


def test_upload_data_callback_and_extra_args(aws, files, bucket):
    sent = []
    uri = Session().upload_data(str(files / "folder" / "x.csv"), bucket=bucket, key_prefix="cb", callback=sent.append,
                                extra_args={"ContentType": "text/csv"})
    assert uri == "s3://my-bucket/cb/x.csv"
    assert sum(sent) == len("x,1\n")
    assert boto3.client("s3").head_object(Bucket=bucket, Key="cb/x.csv")["ContentType"] == "text/csv"


def test_upload_string_as_file_body_with_a_kms_key(aws, bucket):
    uri = Session().upload_string_as_file_body("hello", bucket, "s/hello.txt", kms_key="alias/my-key")
    assert uri == "s3://my-bucket/s/hello.txt"
    put = aws.calls(operation="PutObject")[-1]
    assert put.headers["x-amz-server-side-encryption"] == "aws:kms"
    assert put.headers["x-amz-server-side-encryption-aws-kms-key-id"] == "alias/my-key"
    assert body(bucket, "s/hello.txt") == "hello"


def list_page(keys, token=None):
    """A ListObjectsV2 answer (S3's XML) listing ``keys``, truncated with ``token`` when given."""
    contents = "".join("<Contents><Key>%s</Key><Size>1</Size></Contents>" % k for k in keys)
    more = "<IsTruncated>true</IsTruncated><NextContinuationToken>%s</NextContinuationToken>" % token if token else (
        "<IsTruncated>false</IsTruncated>")
    return ('<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">'
            "<Name>my-bucket</Name><Prefix>many/</Prefix><KeyCount>%d</KeyCount><MaxKeys>1000</MaxKeys>%s%s"
            "</ListBucketResult>" % (len(keys), more, contents))


def test_list_s3_files_and_download_data_page_through_everything(fault_proxy, bucket, tmp_path):
    # S3 lists 1000 keys a page: the proxy answers the first page (and its continuation) for moto
    xml = {"Content-Type": "application/xml"}
    for _ in range(2):
        fault_proxy.add_fault(operation="ListObjectsV2", kind="status", status=200, headers=xml,
                              body=list_page(["many/0", "many/1"], token="page-2"),
                              match=lambda r: "continuation-token" not in r.query)
        fault_proxy.add_fault(operation="ListObjectsV2", kind="status", status=200, headers=xml,
                              body=list_page(["many/2"]), match=lambda r: r.query.get("continuation-token") == "page-2")
    s3 = boto3.client("s3")
    for i in range(3):
        s3.put_object(Bucket=bucket, Key="many/%d" % i, Body=b"%d" % i)
    session = Session()
    assert session.list_s3_files(bucket, "many/") == ["many/0", "many/1", "many/2"]
    downloaded = session.download_data(str(tmp_path), bucket, "many/")
    assert [os.path.basename(p) for p in downloaded] == ["0", "1", "2"]
    assert fault_proxy.hits == 4


def test_a_missing_local_path_is_refused_before_any_call(aws, tmp_path):
    aws.clear_requests()
    with pytest.raises(FileNotFoundError):
        Session().upload_data(str(tmp_path / "missing.txt"))
    assert aws.operations() == []


def test_aws_errors_are_translated(aws, files, bucket):
    session = Session()
    with pytest.raises(E.ResourceNotFoundError) as excinfo:
        session.upload_data(str(files / "a.txt"), bucket="no-such-bucket-here")
    assert excinfo.value.code == "NoSuchBucket"
    with pytest.raises(E.ResourceNotFoundError):
        session.read_s3_file(bucket, "no/such/key")
    with pytest.raises(E.ResourceNotFoundError):
        session.list_s3_files("no-such-bucket-here", "")


def test_download_refuses_a_key_outside_the_folder_before_downloading_anything(aws, bucket, tmp_path):
    s3 = boto3.client("s3")
    s3.put_object(Bucket=bucket, Key="model/weights.bin", Body=b"w")
    s3.put_object(Bucket=bucket, Key="model.tar.gz", Body=b"t")  # under the prefix "model", beside the folder
    aws.clear_requests()
    with pytest.raises(ValueError, match="Path traversal detected: 'model.tar.gz' resolves to"):
        Session().download_data(str(tmp_path / "out"), bucket, "model")
    assert aws.operations() == ["ListObjectsV2"]
    assert not (tmp_path / "out").exists()


def test_download_folder_markers_an_extensionless_object_and_a_whole_bucket(aws, bucket, tmp_path):
    s3 = boto3.client("s3")
    s3.put_object(Bucket=bucket, Key="d/empty/", Body=b"")  # a "folder" the S3 console made
    s3.put_object(Bucket=bucket, Key="d/README", Body=b"r")
    session = Session()
    assert session.download_data(str(tmp_path / "1"), bucket, "d") == [str(tmp_path / "1" / "README")]
    assert (tmp_path / "1" / "empty").is_dir()
    assert session.download_data(str(tmp_path / "2"), bucket, "d/README") == [str(tmp_path / "2" / "README")]
    assert session.download_data(str(tmp_path / "3"), bucket) == [str(tmp_path / "3" / "d" / "README")]


# -- sagemaker_hetero.s3 ------------------------------------------------------------------------------


def test_s3_uploader_and_downloader_round_trip(aws, files, bucket, tmp_path):
    session = Session()
    assert S3Uploader.upload(str(files / "folder"), "s3://my-bucket/run/1", sagemaker_session=session) == \
        "s3://my-bucket/run/1"
    assert S3Uploader.upload(str(files / "a.txt"), "s3://my-bucket/run/1", sagemaker_session=session) == \
        "s3://my-bucket/run/1/a.txt"
    assert S3Uploader.upload_string_as_file_body("{}", "s3://my-bucket/run/1/config.json", sagemaker_session=session) \
        == "s3://my-bucket/run/1/config.json"
    assert S3Downloader.list("s3://my-bucket/run/1", sagemaker_session=session) == [
        "s3://my-bucket/run/1/a.txt",
        "s3://my-bucket/run/1/config.json",
        "s3://my-bucket/run/1/sub/y.csv",
        "s3://my-bucket/run/1/x.csv",
    ]
    assert S3Downloader.read_file("s3://my-bucket/run/1/config.json", sagemaker_session=session) == "{}"
    downloaded = S3Downloader.download("s3://my-bucket/run/1/", str(tmp_path / "back"), sagemaker_session=session)
    assert sorted(os.path.relpath(p, str(tmp_path / "back")) for p in downloaded) == [
        "a.txt", "config.json", os.path.join("sub", "y.csv"), "x.csv"]
    assert (tmp_path / "back" / "sub" / "y.csv").read_text() == "y,2\n"


def test_s3_uploader_without_a_session_makes_one(aws, files, bucket):
    assert S3Uploader.upload(str(files / "a.txt"), "s3://my-bucket/x") == "s3://my-bucket/x/a.txt"
    assert S3Downloader.read_file("s3://my-bucket/x/a.txt") == "A"


def test_kms_keys(aws, files, bucket, tmp_path):
    S3Uploader.upload(str(files / "a.txt"), "s3://my-bucket/k", kms_key="alias/my-key")
    put = aws.calls(operation="PutObject")[-1]
    assert put.headers["x-amz-server-side-encryption"] == "aws:kms"
    assert put.headers["x-amz-server-side-encryption-aws-kms-key-id"] == "alias/my-key"
    aws.clear_requests()
    # S3 decrypts for the reader: no key is sent (the SDK v2 sends it as an SSE-C key, which S3 refuses)
    S3Downloader.download("s3://my-bucket/k/a.txt", str(tmp_path / "k"), kms_key="alias/my-key")
    assert not [h for r in aws.calls() for h in r.headers if "server-side-encryption" in h]
    assert (tmp_path / "k" / "a.txt").read_text() == "A"


def test_a_prefix_ending_with_a_slash_makes_no_double_slash(aws, files, bucket):
    # the SDK v2 writes the keys "q//a.txt" and "/a.txt" here, which S3Downloader.list then names wrongly
    assert S3Uploader.upload(str(files / "a.txt"), "s3://my-bucket/q/") == "s3://my-bucket/q/a.txt"
    assert S3Uploader.upload(str(files / "folder"), "s3://my-bucket/r/") == "s3://my-bucket/r/"
    assert S3Uploader.upload(str(files / "a.txt"), "s3://my-bucket") == "s3://my-bucket/a.txt"
    assert keys(bucket) == ["a.txt", "q/a.txt", "r/sub/y.csv", "r/x.csv"]


@pytest.mark.parametrize("args, with_end_slash, expected", [
    (("s3://", "bucket", "key"), False, "s3://bucket/key"),
    (("s3://", "//foo/", "/bar///baz"), False, "s3://foo/bar/baz"),
    (("/foo", "bar/"), False, "foo/bar"),
    (("foo", "bar"), True, "foo/bar/"),
    (("foo", "", None, "bar"), False, "foo/bar"),
    (("s3://",), False, "s3://"),
    (("s3://", "bucket/"), True, "s3://bucket/"),
    ((), True, ""),
    (("a//b",), False, "a/b"),
])
def test_s3_path_join(args, with_end_slash, expected):
    assert s3_path_join(*args, with_end_slash=with_end_slash) == expected


@pytest.mark.parametrize("url, expected", [
    ("s3://bucket/key/prefix", ("bucket", "key/prefix")),
    ("s3://bucket", ("bucket", "")),
    ("s3://bucket//key/", ("bucket", "key/")),
    ("S3://bucket/key", ("bucket", "key")),
    ("s3://bucket/key?versionId=1", ("bucket", "key")),
])
def test_parse_s3_url(url, expected):
    assert parse_s3_url(url) == expected


def test_parse_s3_url_refuses_another_scheme():
    with pytest.raises(ValueError, match=re.escape("Expecting 's3' scheme, got: https in https://bucket/key.")):
        parse_s3_url("https://bucket/key")


# -- sagemaker_hetero.utils ---------------------------------------------------------------------------


def test_name_from_base():
    assert re.match(r"^my-job-%s$" % STAMP, name_from_base("my-job"))
    long_name = name_from_base("x" * 100)
    assert len(long_name) == 63 and re.match(r"^x{39}-%s$" % STAMP, long_name)
    assert len(name_from_base("x" * 100, max_length=32)) == 32
    assert re.match(r"^my-job-\d{6}-\d{4}$", name_from_base("my-job", short=True))


def test_unique_name_from_base():
    name = unique_name_from_base("my-job")
    assert re.match(r"^my-job-\d{10}-[0-9a-f]{4}$", name)
    assert len(unique_name_from_base("x" * 100)) == 63
    assert len(unique_name_from_base("x" * 100, max_length=20)) == 20
    assert len(set(unique_name_from_base("same") for _ in range(50))) > 40


def test_unique_name_from_base_leaves_the_global_random_alone():
    random.seed(7)
    expected = random.random()
    random.seed(7)
    unique_name_from_base("my-job")
    assert random.random() == expected


def test_timestamps():
    assert re.match(r"^%s$" % STAMP, sagemaker_timestamp())
    assert re.match(r"^\d{6}-\d{4}$", sagemaker_short_timestamp())


@pytest.mark.parametrize("now, stamp", [
    (1767225599.9996, "2025-12-31-23-59-59-999"),  # cut, not rounded up to the next second's 000
    (1767225600.5, "2026-01-01-00-00-00-500"),  # three digits where the SDK v2 prints '-5'
    (1767225600.123, "2026-01-01-00-00-00-123"),  # the digits as printed, not 122.99999...
    (1767225600.0, "2026-01-01-00-00-00-000"),
    (1767225600, "2026-01-01-00-00-00-000"),
])
def test_job_name_timestamp_cuts_milliseconds_as_the_sdk_v2_does(now, stamp):
    assert timestamp(now) == stamp


@pytest.mark.parametrize("name, base", [
    ("my-job-2024-01-31-12-00-00-123", "my-job"),
    ("my-job-240131-1200", "my-job"),
    ("my-job-2024-01-31-12-00-00-123-1", "my-job"),
    ("my-job", "my-job"),
    ("-2024-01-31-12-00-00-123", "-2024-01-31-12-00-00-123"),
])
def test_base_from_name(name, base):
    assert base_from_name(name) == base
    assert base_from_name(name_from_base(base)) == base


@pytest.mark.parametrize("image, base", [
    ("763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.2.0-gpu-py310", "pytorch-training"),
    ("my-trainer", "my-trainer"),
    ("registry:5000/team/trainer:latest", "trainer"),
    ("repo:tag:extra", "repo:tag:extra"),
])
def test_base_name_from_image(image, base):
    assert base_name_from_image(image) == base
