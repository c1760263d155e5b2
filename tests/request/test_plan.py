"""``_request.plan.make_plan``: the job, its name, the request, where the code goes, from the facts a session knows."""
import pytest

from sagemaker_hetero._request import plan
from tests._pure import FACTS, PYTORCH, job

DIGEST = "ab" * 32

CODE_PLACES = [
    ("the default bucket, the SDK v2's key", {}, FACTS, None,
     "s3://sagemaker-us-west-2-123456789012/a-job/source/sourcedir.tar.gz", True),
    ("the content address", {}, FACTS, DIGEST, "s3://sagemaker-us-west-2-123456789012/code/%s/sourcedir.tar.gz" % DIGEST, True),
    ("under the default bucket's prefix", {}, plan.Facts(region="us-west-2", account_id="1", default_bucket="mine",
                                                          default_bucket_prefix="team/x"), None,
     "s3://mine/team/x/a-job/source/sourcedir.tar.gz", True),
    ("beside an S3 output path", dict(output_path="s3://out/path"), FACTS, None, "s3://out/a-job/source/sourcedir.tar.gz", True),
    ("under code_location", dict(code_location="s3://code/pre/"), FACTS, DIGEST, "s3://code/pre/code/%s/sourcedir.tar.gz" % DIGEST,
     True),
    ("an S3 archive as it is", dict(source_dir="s3://b/src.tar.gz"), FACTS, DIGEST, "s3://b/src.tar.gz", False),
]


@pytest.mark.parametrize("changes, facts, digest, uri, upload", [r[1:] for r in CODE_PLACES], ids=[r[0] for r in CODE_PLACES])
def test_where_the_code_archive_goes(changes, facts, digest, uri, upload):
    p = plan.make_plan(job("pytorch", None, "a-job", **dict(PYTORCH, **changes)), facts, 0, code_digest=digest)
    assert (p.code.s3_uri, p.code.upload) == (uri, upload)
    if upload:
        assert '"%s"' % uri == p.request["HyperParameters"]["sagemaker_submit_directory"]


@pytest.mark.parametrize("changes, facts, output", [
    ({}, FACTS, "s3://sagemaker-us-west-2-123456789012/"),
    ({}, plan.Facts(region="eu-west-1"), "s3://sagemaker-eu-west-1-<account-id>/"),
    ({}, plan.Facts(region="eu-west-1", default_bucket="mine", default_bucket_prefix="p"), "s3://mine/p/"),
    (dict(output_path="s3://out/x"), FACTS, "s3://out/x"),
])
def test_the_output_path(changes, facts, output):
    assert plan.make_plan(job("pytorch", None, "a-job", **dict(PYTORCH, **changes)), facts, 0).request["OutputDataConfig"] == {
        "S3OutputPath": output}


@pytest.mark.parametrize("changes, needs", [
    ({}, True), (dict(output_path="s3://o/x"), False), (dict(output_path="file:///o", code_location="s3://c/"), False),
    (dict(output_path="file:///o"), True), (dict(output_path="file:///o", entry_point=None, image_uri="i"), False),
])
def test_needs_default_bucket(changes, needs):
    arguments = dict((k, v) for k, v in dict(PYTORCH, **changes).items() if v is not None)
    framework = None if "image_uri" in changes else "pytorch"
    assert plan.needs_default_bucket(job(framework, **arguments)) is needs


def test_facts_stand_in_for_an_unknown_account_and_know_role_arns():
    unknown = plan.Facts(region="us-west-2", role_arns={"R": "arn:aws:iam::9:role/path/R"})
    assert unknown.stand_in().account_id == "000000000000" and FACTS.stand_in() is FACTS
    assert unknown.role_arn("R") == "arn:aws:iam::9:role/path/R"
    assert unknown.role_arn("S") == "arn:aws:iam::<account-id>:role/S"
    assert unknown.bucket() == "sagemaker-us-west-2-<account-id>"


def test_a_plan_without_code_or_a_name():
    p = plan.make_plan(job(None, image_uri="a/b:1", role="r", instance_type="ml.c5.xlarge", instance_count=1), FACTS, 0)
    assert p.code is None and p.job_name == "b-1970-01-01-00-00-00-000" and p.region == "us-west-2"
    assert p.request is p.rendered.request and p.facts is FACTS


@pytest.mark.parametrize("job_name", [None, "a-job"], ids=["a default name", "a name given"])
def test_a_plan_resolves_its_training_image_once(monkeypatch, job_name):
    # the default job name looked the image up, then the render looked it up again
    from sagemaker_hetero._model import images

    looked_up = []
    real = images.training_image
    monkeypatch.setattr(images, "training_image", lambda j, region: looked_up.append(region) or real(j, region))
    p = plan.make_plan(job("pytorch", None, job_name, **PYTORCH), FACTS, 0)
    assert looked_up == ["us-west-2"]
    assert p.image == p.request["AlgorithmSpecification"]["TrainingImage"] == real(p.job, "us-west-2")
    assert p.job_name.startswith("pytorch-training-" if job_name is None else "a-job")
