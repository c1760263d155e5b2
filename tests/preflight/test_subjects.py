"""What a preflight checks, read from the plan of a job (no AWS)."""
from sagemaker_hetero import TrainingInput
from sagemaker_hetero._request import plan as _plan
from sagemaker_hetero._preflight.subjects import ecr_image, key_region, role_name, subjects_of
from tests.preflight.conftest import plan_of


def test_the_seed_jobs_subjects_and_its_default_bucket(seed):
    est, inputs = seed
    subjects = subjects_of(plan_of(est, inputs))
    assert (subjects.region, subjects.account, subjects.role) == (
        "us-west-2", "123456789012", "arn:aws:iam::123456789012:role/SageMakerRole")
    assert subjects.image_from_table and subjects.image.endswith("pytorch-training:1.10.0-gpu-py38")
    assert [(d.argument, d.bucket, d.key, d.object) for d in subjects.data] == [
        ("inputs['train'].s3_data", "bucket", "train", False), ("inputs['dummy'].s3_data", "bucket", "dummy", False)]
    assert [(b.name, b.argument, b.default) for b in subjects.buckets] == [
        ("bucket", "inputs['train'].s3_data", False),
        ("sagemaker-us-west-2-123456789012", "output_path", True)]  # output and code both go there
    assert subjects.keys == () and subjects.subnets == () and subjects.security_groups == ()
    unknown = subjects_of(plan_of(est, inputs, facts=_plan.Facts(region="us-west-2")))  # STS could not say
    assert [(b.name, b.default) for b in unknown.buckets][1] == ("sagemaker-us-west-2-<account-id>", True)


def test_every_place_of_a_generic_job_once_under_the_first_argument_naming_it(generic):
    est = generic(volume_kms_key="alias/vol", output_kms_key="arn:aws:kms:us-east-1:123456789012:key/k",
                  checkpoint_s3_uri="s3://ckpt/run", subnets=["subnet-1", "subnet-2"], security_group_ids=["sg-1"],
                  model_uri="s3://out/model.tar.gz", source_dir="s3://code/src.tar.gz", entry_point="train.py")
    subjects = subjects_of(plan_of(est, {"m": TrainingInput("s3://data/m.json", s3_data_type="ManifestFile"),
                                        "plain": "s3://data"}))
    assert [(d.argument, d.uri, d.object) for d in subjects.data] == [
        ("inputs['m'].s3_data", "s3://data/m.json", True), ("inputs['plain']", "s3://data", False),
        ("model_uri", "s3://out/model.tar.gz", False), ("source_dir", "s3://code/src.tar.gz", True)]
    assert [(b.name, b.argument, b.default) for b in subjects.buckets] == [
        ("data", "inputs['m'].s3_data", False), ("out", "model_uri", False), ("code", "source_dir", False),
        ("ckpt", "checkpoint_s3_uri", False)]
    assert subjects.keys == (("volume_kms_key", "alias/vol"),
                             ("output_kms_key", "arn:aws:kms:us-east-1:123456789012:key/k"))
    assert (subjects.subnets, subjects.security_groups) == (("subnet-1", "subnet-2"), ("sg-1",))
    assert not subjects.image_from_table


def test_names_images_and_key_regions():
    assert role_name("arn:aws:iam::123456789012:role/service-role/Trainer") == ("Trainer", "123456789012")
    assert role_name("Trainer") == ("Trainer", None) and role_name("arn:aws:iam::1:user/x") == (None, None)
    assert ecr_image("123456789012.dkr.ecr.us-west-2.amazonaws.com/team/trainer:v1") == (
        "123456789012", "us-west-2", "team/trainer", "v1", None)
    digest = "sha256:" + "a" * 64
    assert ecr_image("123456789012.dkr.ecr.cn-north-1.amazonaws.com.cn/t@" + digest)[3:] == (None, digest)
    assert ecr_image("docker.io/library/python:3") is None
    assert key_region("arn:aws:kms:eu-west-1:1:key/k") == "eu-west-1" and key_region("alias/x") is None
