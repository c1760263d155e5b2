"""The fit path against a real moto server: bucket, code upload, CreateTrainingJob, waiting, faults.

Faults are injected at the HTTP layer by tests._aws.FaultProxy; no SDK or boto3 function is patched.
"""
import hashlib
import io
import json
import os
import re
import tarfile
import threading

import boto3
import pytest

from sagemaker_hetero import InstanceGroup, PyTorch, Session, TrainingInput
from sagemaker_hetero import exceptions as E
from sagemaker_hetero._aws.code_archive import archive_members
from tests._answers import SAGEMAKER_TRUST

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
DEFAULT_BUCKET = "sagemaker-us-west-2-123456789012"


@pytest.fixture
def code(tmp_path, monkeypatch):
    src = tmp_path / "src"
    (src / "pkg").mkdir(parents=True)
    (src / "train.py").write_text("print('train')\n")
    (src / "pkg" / "util.py").write_text("X = 1\n")
    (tmp_path / "extra.py").write_text("Y = 2\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def data_bucket(aws):
    boto3.client("s3").create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    aws.clear_requests()
    return "bucket"


def estimator(session=None, **overrides):
    kwargs = dict(
        entry_point="train.py",
        source_dir="src",
        framework_version="1.12.1",
        py_version="py38",
        role=ROLE,
        instance_groups=[InstanceGroup("cpu", "ml.c5.18xlarge", 2), InstanceGroup("gpu", "ml.p3dn.24xlarge", 1)],
        sagemaker_session=session,
    )
    kwargs.update(overrides)
    return PyTorch(**kwargs)


INPUTS = {
    "train": TrainingInput("s3://bucket/train", instance_groups=["cpu"]),
    "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["gpu"]),
}


def s3_object(bucket, key):
    return boto3.client("s3").get_object(Bucket=bucket, Key=key)["Body"].read()


def code_uri(log):
    """Where the last CreateTrainingJob that reached ``log`` (the moto server or a proxy) put its code."""
    return json.loads(log.last_json("CreateTrainingJob")["HyperParameters"]["sagemaker_submit_directory"])


def code_object(log):
    """The code archive of the last CreateTrainingJob, as stored."""
    bucket, _, key = code_uri(log)[len("s3://"):].partition("/")
    return s3_object(bucket, key)


def content_key(archive, prefix=""):
    """The key of ``archive`` (bytes) under ``prefix``: its content address."""
    return "%scode/%s/sourcedir.tar.gz" % (prefix, hashlib.sha256(archive).hexdigest())


def test_fit_creates_the_default_bucket_uploads_the_archive_and_creates_the_job(aws, code, data_bucket):
    est = estimator()
    assert est.fit(INPUTS, wait=False, job_name="job-one") is None
    ops = aws.operations()
    assert ops[-3:] == ["CreateBucket", "PutObject", "CreateTrainingJob"]
    create_bucket = aws.calls(operation="CreateBucket")[0]
    assert b"<LocationConstraint>us-west-2</LocationConstraint>" in create_bucket.body
    archive = code_object(aws)
    assert sorted(archive_members(archive)) == ["pkg", "pkg/util.py", "train.py"]
    # The key is the archive's content address (D6 in docs/migrating.md)
    assert code_uri(aws) == "s3://%s/%s" % (DEFAULT_BUCKET, content_key(archive))
    assert est.latest_training_job.name == "job-one"
    assert est.latest_training_job.describe()["TrainingJobStatus"] in ("InProgress", "Completed")


def test_us_east_1_creates_the_bucket_without_a_location_constraint(aws, code, monkeypatch):
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    boto3.client("s3", region_name="us-east-1").create_bucket(Bucket="bucket")
    estimator().fit(INPUTS, wait=False, job_name="east")
    create_bucket = aws.calls(operation="CreateBucket")[-1]
    assert create_bucket.path == "/sagemaker-us-east-1-123456789012"
    assert b"LocationConstraint" not in (create_bucket.body or b"")


def test_an_existing_default_bucket_is_used_as_is(aws, code, data_bucket):
    boto3.client("s3").create_bucket(Bucket=DEFAULT_BUCKET, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    aws.clear_requests()
    estimator().fit(INPUTS, wait=False, job_name="reuse")
    assert "CreateBucket" not in aws.operations()
    assert aws.operations()[-1] == "CreateTrainingJob"


def test_bucket_already_owned_by_you_while_creating_is_fine(fault_proxy, code, data_bucket):
    # HeadBucket says 404, then another process creates it first: CreateBucket answers
    # BucketAlreadyOwnedByYou, which means the bucket is ours.
    boto3.client("s3").create_bucket(Bucket=DEFAULT_BUCKET, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    fault_proxy.add_fault(operation="HeadBucket", kind="status", status=404, body=b"",
                          match=lambda r: r.path == "/" + DEFAULT_BUCKET)
    estimator().fit(INPUTS, wait=False, job_name="owned")
    assert fault_proxy.operations()[-1] == "CreateTrainingJob"


def test_a_default_bucket_owned_by_another_account_is_a_clear_error(fault_proxy, code, data_bucket):
    fault_proxy.add_fault(operation="HeadBucket", kind="status", status=404, body=b"",
                          match=lambda r: r.path == "/" + DEFAULT_BUCKET)
    fault_proxy.add_fault(
        operation="CreateBucket",
        kind="status",
        status=409,
        body=b"<Error><Code>BucketAlreadyExists</Code><Message>The requested bucket name is not available."
        b"</Message></Error>",
        headers={"Content-Type": "application/xml"},
    )
    with pytest.raises(E.BucketOwnedByOtherAccountError) as info:
        estimator().fit(INPUTS, wait=False, job_name="taken")
    assert info.value.code == "BucketAlreadyExists"
    assert "default_bucket" in str(info.value)
    assert "CreateTrainingJob" not in fault_proxy.operations()
    assert "PutObject" not in fault_proxy.operations()


def test_the_default_bucket_is_checked_to_be_this_accounts_before_the_code_goes_in(aws, code, data_bucket):
    # sagemaker-{region}-{account} is a name anyone can guess; S3 refuses the calls with 403 if
    # another account holds it (the SDK v2 sends the same header).
    boto3.client("s3").create_bucket(Bucket=DEFAULT_BUCKET, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    aws.clear_requests()
    estimator().fit(INPUTS, wait=False, job_name="owner")
    owner = {r.operation: r.headers.get("x-amz-expected-bucket-owner")
             for r in aws.calls(service="s3") if r.path.startswith("/" + DEFAULT_BUCKET)}
    assert owner == {"HeadBucket": "123456789012", "PutObject": "123456789012"}
    # the input bucket, and a default bucket named by the user, may be another account's: not checked
    boto3.client("s3").create_bucket(Bucket="mine", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    aws.clear_requests()
    estimator(Session(default_bucket="mine")).fit(INPUTS, wait=False, job_name="mine-owner")
    assert [r.headers.get("x-amz-expected-bucket-owner") for r in aws.calls(service="s3")] == [None] * len(
        aws.calls(service="s3"))


def test_a_squatted_default_bucket_is_refused_before_the_code_is_uploaded(fault_proxy, code, data_bucket):
    fault_proxy.add_fault(operation="HeadBucket", kind="status", status=403, body=b"",
                          match=lambda r: r.path == "/" + DEFAULT_BUCKET
                          and r.headers.get("x-amz-expected-bucket-owner") == "123456789012")
    with pytest.raises(E.BucketOwnedByOtherAccountError) as info:
        estimator().fit(INPUTS, wait=False, job_name="squatted")
    assert "default_bucket" in str(info.value)
    assert "PutObject" not in fault_proxy.operations()
    assert "CreateTrainingJob" not in fault_proxy.operations()


def test_the_archive_is_reproducible_and_follows_symlinks_and_adds_dependencies(aws, code, data_bucket):
    os.symlink(str(code / "extra.py"), str(code / "src" / "linked.py"))
    est = estimator(dependencies=["extra.py"])
    est.fit(INPUTS, wait=False, job_name="first")
    first_uri, first = code_uri(aws), code_object(aws)
    os.utime(str(code / "src" / "train.py"), (1, 1))  # times do not change the bytes
    aws.clear_requests()
    estimator(dependencies=["extra.py"]).fit(INPUTS, wait=False, job_name="second")  # another session
    second = code_object(aws)
    assert first == second and code_uri(aws) == first_uri
    with tarfile.open(fileobj=io.BytesIO(first), mode="r:gz") as tar:
        linked = tar.getmember("linked.py")
        assert linked.isfile()
        assert tar.extractfile(linked).read() == b"Y = 2\n"
        assert sorted(tar.getnames()) == ["extra.py", "linked.py", "pkg", "pkg/util.py", "train.py"]
        assert {m.mtime for m in tar.getmembers()} == {0}


def test_entry_point_without_source_dir_ships_the_file_alone(aws, code, data_bucket):
    est = estimator(entry_point="src/train.py", source_dir=None)
    est.fit(INPUTS, wait=False, job_name="alone")
    assert archive_members(code_object(aws)) == ["train.py"]
    assert aws.last_json("CreateTrainingJob")["HyperParameters"]["sagemaker_program"] == '"train.py"'


def test_code_location_and_output_path_choose_the_code_bucket(aws, code, data_bucket):
    s3 = boto3.client("s3")
    for b in ("code-bucket", "out-bucket"):
        s3.create_bucket(Bucket=b, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    aws.clear_requests()
    estimator(output_path="s3://out-bucket/results", code_location="s3://code-bucket/prefix").fit(
        INPUTS, wait=False, job_name="located", preflight=False)  # its role check asks who the caller is
    assert code_uri(aws) == "s3://code-bucket/" + content_key(code_object(aws), "prefix/")
    # Neither the account nor the default bucket was needed.
    assert "GetCallerIdentity" not in aws.operations()
    assert "CreateBucket" not in aws.operations()
    estimator(output_path="s3://out-bucket/results").fit(INPUTS, wait=False, job_name="by-output")
    assert code_uri(aws) == "s3://out-bucket/" + content_key(code_object(aws))


def test_network_isolation_sends_the_code_as_the_code_channel(aws, code, data_bucket):
    estimator(enable_network_isolation=True).fit(INPUTS, wait=False, job_name="isolated")
    sent = aws.last_json("CreateTrainingJob")
    code_channel = sent["InputDataConfig"][-1]
    assert code_channel["ChannelName"] == "code"
    uri = code_channel["DataSource"]["S3DataSource"]["S3Uri"]
    assert uri.startswith("s3://%s/code/" % DEFAULT_BUCKET) and uri.endswith("/sourcedir.tar.gz")
    assert archive_members(s3_object(DEFAULT_BUCKET, uri.split("/", 3)[3])) == ["pkg", "pkg/util.py", "train.py"]
    assert code_channel["DataSource"]["S3DataSource"]["InstanceGroupNames"] == ["cpu", "gpu"]
    assert sent["EnableNetworkIsolation"] is True


def test_a_session_launching_many_jobs_makes_one_call_per_job_after_the_first(aws, code, data_bucket):
    session = Session()
    est = estimator(session)
    est.fit(INPUTS, wait=False)
    for _ in range(5):
        aws.clear_requests()
        est.fit(INPUTS, wait=False)
        assert aws.operations() == ["CreateTrainingJob"]  # the code is where the session put it
    names = boto3.client("sagemaker").list_training_jobs(MaxResults=100)["TrainingJobSummaries"]
    assert len(names) == 6


def test_the_account_is_looked_up_once_per_session(aws, code, data_bucket):
    session = Session()
    estimator(session).fit(INPUTS, wait=False)
    estimator(session).fit(INPUTS, wait=False)
    assert aws.operations().count("GetCallerIdentity") == 1


def test_throttling_is_retried(fault_proxy, code, data_bucket):
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="throttle", times=2)
    fault_proxy.add_fault(operation="PutObject", kind="throttle", times=1)
    estimator().fit(INPUTS, wait=False, job_name="throttled")
    assert fault_proxy.hits == 3
    assert boto3.client("sagemaker").describe_training_job(TrainingJobName="throttled")["TrainingJobName"] == "throttled"


def test_persistent_throttling_becomes_a_throttling_error_with_the_code(fault_proxy, code, data_bucket, monkeypatch):
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "3")  # the user's retry setting wins over ours
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="throttle", times=None)
    with pytest.raises(E.ThrottlingError) as info:
        estimator().fit(INPUTS, wait=False, job_name="throttled")
    assert info.value.code == "ThrottlingException"
    assert info.value.operation == "CreateTrainingJob"
    assert len(fault_proxy.calls(operation="CreateTrainingJob")) == 3


def test_a_lost_answer_to_create_is_recovered_without_a_second_job(fault_proxy, code, data_bucket):
    fault_proxy.unique_training_job_names = True  # answer a taken name as SageMaker does
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="reset_after", times=1)
    est = estimator()
    est.fit(INPUTS, wait=False, job_name="ambiguous")
    assert est.latest_training_job.name == "ambiguous"
    creates = fault_proxy.calls(operation="CreateTrainingJob")
    assert len(creates) == 2  # the lost one, then botocore's retry that found the name taken
    jobs = boto3.client("sagemaker").list_training_jobs()["TrainingJobSummaries"]
    assert [j["TrainingJobName"] for j in jobs] == ["ambiguous"]


def test_a_name_taken_by_another_job_is_a_conflict(fault_proxy, code, data_bucket):
    fault_proxy.unique_training_job_names = True
    other = estimator(hyperparameters={"lr": 0.1}, code_location="s3://bucket/elsewhere")
    other.fit(INPUTS, wait=False, job_name="taken")
    with pytest.raises(E.JobConflictError) as info:
        estimator().fit(INPUTS, wait=False, job_name="taken")
    assert "taken" in str(info.value)
    assert info.value.code == "ResourceInUse"


def test_existing_code_of_another_job_is_never_overwritten(fault_proxy, code, data_bucket):
    fault_proxy.unique_training_job_names = True  # SageMaker's ResourceInUse (moto would overwrite the job)
    estimator().fit(INPUTS, wait=False, job_name="first")
    first_uri, before = code_uri(fault_proxy), code_object(fault_proxy)
    (code / "src" / "train.py").write_text("print('changed')\n")
    fault_proxy.clear_requests()
    with pytest.raises(E.JobConflictError):
        estimator().fit(INPUTS, wait=False, job_name="first")
    bucket, _, key = first_uri[len("s3://"):].partition("/")
    assert s3_object(bucket, key) == before
    assert code_uri(fault_proxy) != first_uri  # the changed code went to its own key


def test_an_upload_failure_leaves_no_job_behind(fault_proxy, code, data_bucket):
    fault_proxy.add_fault(
        operation="PutObject",
        kind="status",
        status=403,
        body=b"<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>",
        headers={"Content-Type": "application/xml"},
    )
    with pytest.raises(E.AccessDeniedError) as info:
        estimator().fit(INPUTS, wait=False, job_name="no-upload")
    assert info.value.code == "AccessDenied"
    assert "PutObject" in str(info.value)
    assert "CreateTrainingJob" not in fault_proxy.operations()


def test_a_connection_error_on_the_first_create_is_retried(fault_proxy, code, data_bucket):
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="reset_before", times=1)
    estimator().fit(INPUTS, wait=False, job_name="reconnected")
    assert len(fault_proxy.calls(operation="CreateTrainingJob")) == 2
    assert boto3.client("sagemaker").describe_training_job(TrainingJobName="reconnected")


def test_access_denied_on_create_keeps_the_code(fault_proxy, code, data_bucket):
    fault_proxy.add_fault(
        operation="CreateTrainingJob",
        kind="status",
        status=400,
        body={"__type": "AccessDeniedException", "message": "User is not authorized to perform: sagemaker:CreateTrainingJob"},
    )
    with pytest.raises(E.AccessDeniedError) as info:
        estimator().fit(INPUTS, wait=False, job_name="denied")
    assert info.value.code == "AccessDeniedException"
    assert "CreateTrainingJob" in str(info.value)


def test_no_credentials_says_what_to_do_before_anything_is_sent(aws, code, data_bucket, monkeypatch):
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    aws.clear_requests()
    with pytest.raises(E.NoCredentialsError) as info:
        estimator().fit(INPUTS, wait=False, job_name="anonymous")
    assert "aws configure" in str(info.value)
    assert aws.requests == []


def test_an_unknown_role_name_says_what_to_do(aws, code, data_bucket):
    with pytest.raises(E.PreflightError) as info:  # the preflight's role check finds it
        estimator(role="NoSuchRole").fit(INPUTS, wait=False, job_name="roleless")
    assert [p.path for p in info.value.problems] == ["role"] and "no IAM role named NoSuchRole" in str(info.value)
    with pytest.raises(E.ResourceNotFoundError) as info:  # and so does the submission without it
        estimator(role="NoSuchRole").fit(INPUTS, wait=False, job_name="roleless", preflight=False)
    assert info.value.code == "NoSuchEntity"
    assert "NoSuchRole" in str(info.value)
    assert "CreateTrainingJob" not in aws.operations()
    assert "PutObject" not in aws.operations()


def test_a_role_name_is_expanded_through_iam_once(aws, code, data_bucket):
    iam = boto3.client("iam")
    arn = iam.create_role(RoleName="Trainer", AssumeRolePolicyDocument=json.dumps(SAGEMAKER_TRUST),
                          Path="/service-role/")["Role"]["Arn"]
    session = Session()
    estimator(session, role="Trainer").fit(INPUTS, wait=False)
    estimator(session, role="Trainer").fit(INPUTS, wait=False)
    assert aws.last_json("CreateTrainingJob")["RoleArn"] == arn
    assert aws.operations().count("GetRole") == 1


def test_a_missing_input_bucket_is_refused_before_any_upload(aws, code):
    with pytest.raises(E.ConfigError) as info:
        estimator().fit({"train": TrainingInput("s3://no-such-bucket/x", instance_groups=["cpu"]),
                         "dummy": TrainingInput("s3://no-such-bucket/y", instance_groups=["gpu"])},
                        wait=False, job_name="nodata")
    assert [p.path for p in info.value.problems] == ["inputs['train']", "inputs['dummy']"]
    assert "no-such-bucket" in str(info.value)
    assert "PutObject" not in aws.operations()
    assert "CreateTrainingJob" not in aws.operations()


def test_invalid_jobs_touch_no_aws(aws, code):
    with pytest.raises(E.ConfigError):
        estimator().fit({"train": TrainingInput("s3://bucket/x", instance_groups=["nope"])}, wait=False)
    assert aws.requests == []


def test_session_honours_the_endpoint_and_region_from_the_environment(aws):
    session = Session()
    assert session.boto_region_name == "us-west-2"
    assert session.account_id() == "123456789012"
    assert session.default_bucket() == DEFAULT_BUCKET
    assert aws.calls(operation="GetCallerIdentity")


def test_explicit_default_bucket_is_used(aws, code, data_bucket):
    boto3.client("s3").create_bucket(Bucket="mine", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    session = Session(default_bucket="mine")
    request = estimator(session).fit(INPUTS, dry_run=True, job_name="dry")
    assert request["OutputDataConfig"]["S3OutputPath"] == "s3://mine/"
    estimator(session).fit(INPUTS, wait=False, job_name="mine-job", preflight=False)  # (its role check asks STS)
    assert code_uri(aws).startswith("s3://mine/code/") and code_object(aws)
    assert "GetCallerIdentity" not in aws.operations()


def test_aws_region_alone_is_enough_from_fit_to_attach_and_the_cli(aws, code, data_bucket, monkeypatch, capsys):
    """One region rule for everything: boto3 alone does not read AWS_REGION, the SDK does."""
    from sagemaker_hetero.cli import main

    monkeypatch.delenv("AWS_DEFAULT_REGION")
    assert Session().boto_region_name == "us-west-2"
    est = estimator()  # no session: fit makes one
    est.fit(INPUTS, wait=False, job_name="region-job")
    assert est.sagemaker_session.boto_region_name == "us-west-2"
    attached = PyTorch.attach("region-job")
    assert attached.latest_training_job.describe()["TrainingJobName"] == "region-job"
    assert main(["status", "region-job"]) == 0
    assert "region-job" in capsys.readouterr().out


def test_an_explicit_boto_session_region_wins_over_the_environment(aws, monkeypatch):
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-central-1")
    assert Session(boto_session=boto3.Session(region_name="ap-south-1")).boto_region_name == "ap-south-1"
    assert Session().boto_region_name == "eu-central-1"  # AWS_DEFAULT_REGION wins, as in boto3 and the SDK v2
    monkeypatch.delenv("AWS_DEFAULT_REGION")
    assert Session().boto_region_name == "eu-west-1"  # AWS_REGION alone, which boto3 ignores


def test_no_region_anywhere_is_one_clear_problem(aws, monkeypatch, tmp_path):
    """A problem of making a session (Session(), get_execution_role()) is said as one: there is no
    training job yet, and the advice is what Session() takes."""
    from sagemaker_hetero.session import get_execution_role

    monkeypatch.delenv("AWS_DEFAULT_REGION")
    monkeypatch.delenv("AWS_REGION")
    for make in (Session, get_execution_role):
        with pytest.raises(E.ConfigError) as caught:
            make()
        assert str(caught.value) == (
            "1 problem with the SageMaker session:\n  - boto_session: no AWS region is configured: set AWS_REGION "
            "(or AWS_DEFAULT_REGION), a region in your AWS profile, or pass boto_session=boto3.Session(region_name=...)")
    monkeypatch.setenv("AWS_REGION", "us-west-2")
    monkeypatch.setenv("SAGEMAKER_USER_CONFIG_OVERRIDE", str(tmp_path / "config.yaml"))
    (tmp_path / "config.yaml").write_text("SchemaVersion: '9.9'\n")  # a defaults configuration it cannot read
    with pytest.raises(E.ConfigError) as caught:
        Session()
    assert str(caught.value).startswith("1 problem with the SageMaker session:")
    assert "training job" not in str(caught.value)


def test_model_data_is_the_latest_jobs_model_artifacts(aws, code, data_bucket):
    est = estimator()
    with pytest.raises(ValueError, match="no training job yet"):
        est.model_data
    est.fit(INPUTS, wait=False, job_name="model-data-job")
    desc = est.latest_training_job.describe()
    assert est.model_data == desc["ModelArtifacts"]["S3ModelArtifacts"]


def test_sixty_fits_from_six_threads_of_one_session_make_sixty_jobs_each_its_own(fault_proxy, code, data_bucket):
    fault_proxy.unique_training_job_names = True  # a duplicate name is refused, as SageMaker does
    session = Session()
    estimators = [estimator(session, base_job_name="burst") for _ in range(60)]
    errors = []

    def fit_some(batch):
        for est in batch:
            try:
                est.fit(INPUTS, wait=False)
            except Exception as exc:  # noqa: BLE001 - every failure is reported below
                errors.append(exc)

    threads = [threading.Thread(target=fit_some, args=(estimators[i::6],)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    names = [est.latest_training_job.name for est in estimators]
    assert len(set(names)) == 60
    assert all(re.match(r"^burst-\d{4}(-\d{2}){5}-\d{3}$", n) for n in names)  # the SDK v2's shape
    created = [json.loads(c.body)["TrainingJobName"] for c in fault_proxy.calls(operation="CreateTrainingJob")
               if c.status == 200]
    assert sorted(created) == sorted(names)
    listed = boto3.client("sagemaker").list_training_jobs(MaxResults=100)["TrainingJobSummaries"]
    assert sorted(j["TrainingJobName"] for j in listed) == sorted(names)
    assert len(fault_proxy.calls(operation="PutObject")) == 1  # one upload of the one archive
    assert len(fault_proxy.calls(operation="HeadBucket")) <= 2  # the default bucket and the input bucket, once


def test_a_taken_default_name_moves_on_to_the_next_stamp(fault_proxy, code, data_bucket):
    fault_proxy.unique_training_job_names = True
    fault_proxy.add_fault(operation="CreateTrainingJob", kind="status", status=400, code="ResourceInUse",
                          message="Training job names must be unique within an AWS account and region, and a "
                                  "training job with this name already exists", times=2)
    est = estimator(base_job_name="taken")
    est.fit(INPUTS, wait=False)  # another process's names, twice
    attempts = [json.loads(c.body)["TrainingJobName"] for c in fault_proxy.calls(operation="CreateTrainingJob")]
    assert len(attempts) == 3 and len(set(attempts)) == 3
    assert est.latest_training_job.name == attempts[-1]
    with pytest.raises(E.JobConflictError):  # a name the user gave is never changed
        fault_proxy.add_fault(operation="CreateTrainingJob", kind="status", status=400, code="ResourceInUse",
                              message="a training job with this name already exists", times=1)
        estimator().fit(INPUTS, wait=False, job_name="given")


def test_the_archive_leaves_out_vcs_environments_and_caches_unless_told_otherwise(aws, code, data_bucket):
    for folder in (".git", ".venv/lib", "pkg/__pycache__", ".ipynb_checkpoints"):
        (code / "src" / folder).mkdir(parents=True, exist_ok=True)
    for name in (".git/HEAD", ".venv/lib/site.py", "pkg/__pycache__/util.cpython-38.pyc",
                 ".ipynb_checkpoints/train-checkpoint.py", ".gitignore"):
        (code / "src" / name).write_text("x\n")
    estimator().fit(INPUTS, wait=False, job_name="lean")
    assert sorted(archive_members(code_object(aws))) == [".gitignore", "pkg", "pkg/util.py", "train.py"]
    session = Session()
    session.code_ignore = ("pkg",)  # the list is the session's to change
    estimator(session).fit(INPUTS, wait=False, job_name="custom")
    assert ".git/HEAD" in archive_members(code_object(aws)) and "pkg/util.py" not in archive_members(code_object(aws))


@pytest.mark.parametrize("dep", ["..", ".", "../"])
def test_a_dependency_without_a_name_of_its_own_is_refused_before_any_call(aws, code, data_bucket, dep):
    with pytest.raises(E.ConfigError) as info:
        estimator(dependencies=[dep]).fit(INPUTS, wait=False)
    assert "dependencies[0]" in str(info.value) and "'../mylib'" in str(info.value)
    assert aws.operations() == []


def test_an_edited_file_is_archived_and_uploaded_again_in_the_same_session(aws, code, data_bucket):
    session = Session()
    estimator(session).fit(INPUTS, wait=False, job_name="before")
    before = code_uri(aws)
    (code / "src" / "train.py").write_text("print('edited, same session')\n")
    aws.clear_requests()
    estimator(session).fit(INPUTS, wait=False, job_name="after")
    assert aws.operations() == ["PutObject", "CreateTrainingJob"] and code_uri(aws) != before
    assert b"edited" in tarfile.open(fileobj=io.BytesIO(code_object(aws)), mode="r:gz").extractfile("train.py").read()


def test_a_session_shows_what_it_was_given_without_asking_aws(monkeypatch):
    def no_call(*args, **kwargs):
        raise AssertionError("a repr makes no AWS call")

    monkeypatch.setattr(Session, "_client", no_call)
    boto = boto3.Session(region_name="eu-west-1", aws_access_key_id="x", aws_secret_access_key="y")
    assert repr(Session(boto_session=boto)) == "Session(region='eu-west-1')"
    assert repr(Session(boto_session=boto, default_bucket="my-team-bucket", default_bucket_prefix="team")) == (
        "Session(region='eu-west-1', default_bucket='my-team-bucket', default_bucket_prefix='team')")


def test_the_archive_hashed_as_written_is_the_archive_s_digest(tmp_path):
    """What a dry run shows (the archive hashed as it is written) is the content address of the archive a
    session uploads: plain and PAX headers (a non-ASCII name, a long name), ignored names by equality and by
    wildcard alike."""
    from sagemaker_hetero._aws import code_archive
    from sagemaker_hetero._defaults import CODE_IGNORE
    from sagemaker_hetero._model import archive
    from sagemaker_hetero._model.job import Code

    src = tmp_path / "src"
    (src / "pkg" / ("d" * 90)).mkdir(parents=True)
    (src / "train.py").write_text("print(1)\n")
    (src / "pkg" / "caf\u00e9.txt").write_text("x")
    (src / "pkg" / ("d" * 90) / ("f" * 80 + ".py")).write_text("y")
    (src / ".venv").mkdir()
    (src / ".venv" / "skip.py").write_text("")
    (src / "notes.tmp").write_text("")
    code = Code("train.py", source_dir=str(src))
    for ignore in (CODE_IGNORE, CODE_IGNORE + ("*.tmp",)):
        body, _ = code_archive.build_archive(code, ignore)
        with body:
            assert code_archive.archive_digest(code, ignore) == archive.digest(body)
            names = code_archive.archive_members(body.read())
        assert "pkg/caf\u00e9.txt" in names and not any(".venv" in n for n in names)
        assert ("notes.tmp" in names) == ("*.tmp" not in ignore)
