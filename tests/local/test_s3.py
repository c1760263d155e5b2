"""s3:// inputs and outputs of a local run, against the moto server (boto3 configured by AWS_ENDPOINT_URL)."""
import io
import tarfile

import boto3

from sagemaker_hetero.inputs import TrainingInput

from ._helpers import estimator_for

LISTING = """
import os
for channel in sorted(os.listdir(os.path.join(os.environ["SAGEMAKER_BASE_DIR"], "input", "data"))):
    folder = os.path.join(os.environ["SAGEMAKER_BASE_DIR"], "input", "data", channel)
    for parent, _, names in sorted(os.walk(folder, followlinks=True)):
        for name in sorted(names):
            path = os.path.join(parent, name)
            print(channel, os.path.relpath(path, folder), open(path).read())
open(os.path.join(os.environ["SM_MODEL_DIR"], "model.txt"), "w").write(os.environ["SM_CURRENT_HOST"])
"""


def test_s3_inputs_are_downloaded_and_outputs_uploaded_with_the_sessions_boto_configuration(
    aws, session_factory, write_code, tmp_path
):
    s3 = boto3.client("s3")
    s3.create_bucket(Bucket="bkt", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    for key, body in (("data/train/a.csv", "1"), ("data/train/sub/b.csv", "2"), ("data/other/c.csv", "3")):
        s3.put_object(Bucket="bkt", Key=key, Body=body.encode())
    (tmp_path / "val").mkdir()
    (tmp_path / "val" / "v.csv").write_text("4")
    session = session_factory()
    estimator = estimator_for(session, write_code(LISTING), job_name="from-s3", output_path="s3://bkt/out")
    estimator.fit({
        "train": TrainingInput("s3://bkt/data/train", instance_groups=["cpu"]),
        "val": TrainingInput("file://%s" % (tmp_path / "val"), instance_groups=["gpu"]),
    })
    out = session.out.getvalue()
    for host in ("algo-1", "algo-2"):
        assert "[cpu/%s] train a.csv 1\n" % host in out
        assert "[cpu/%s] train sub/b.csv 2\n" % host in out
    assert "[gpu/algo-3] val v.csv 4\n" in out
    assert "c.csv" not in out
    operations = [r.operation for r in aws.requests if r.service == "s3"]
    assert operations.count("GetObject") == 2  # each object once, then linked into both cpu hosts
    assert operations.count("PutObject") == 3 + 2  # the test's three objects, then the two archives
    desc = estimator.latest_training_job.describe()
    assert desc["ModelArtifacts"]["S3ModelArtifacts"] == "s3://bkt/out/from-s3/output/model.tar.gz"
    body = s3.get_object(Bucket="bkt", Key="out/from-s3/output/model.tar.gz")["Body"].read()
    with tarfile.open(fileobj=io.BytesIO(body)) as tar:
        assert sorted(tar.getnames()) == ["algo-2/model.txt", "algo-3/model.txt", "model.txt"]
    assert s3.head_object(Bucket="bkt", Key="out/from-s3/output/output.tar.gz")["ContentLength"] > 0
