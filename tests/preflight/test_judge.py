"""The verdicts of the role, image, KMS, S3 and VPC checks on AWS's answers (no AWS)."""
import json
from urllib.parse import quote

import pytest

from sagemaker_hetero._preflight import judge
from sagemaker_hetero._preflight.report import OK, PROBLEM
from sagemaker_hetero._preflight.subjects import Bucket, Data

ARN = "arn:aws:iam::123456789012:role/Trainer"
TRUST = judge.TRUST_POLICY


def statement(**fields):
    return {"Version": "2012-10-17", "Statement": [dict({"Effect": "Allow", "Action": "sts:AssumeRole"}, **fields)]}


@pytest.mark.parametrize("document, trusted", [
    (TRUST, True),
    (quote(json.dumps(TRUST)), True),  # IAM's own URL-encoded JSON
    (statement(Principal={"Service": ["ec2.amazonaws.com", "sagemaker.amazonaws.com"]},
               Action=["sts:AssumeRole", "sts:TagSession"]), True),
    (statement(Principal={"Service": "ec2.amazonaws.com"}), False),
    (statement(Principal={"Service": "sagemaker.amazonaws.com"}, Action="sts:TagSession"), False),
    ({"Statement": TRUST["Statement"] + [dict(TRUST["Statement"][0], Effect="Deny")]}, False),
    ("%7Bnot json", False),
    ({}, False),
])
def test_the_trust_policy_must_let_sagemaker_assume_the_role(document, trusted):
    assert judge.trusts_sagemaker(document) is trusted


def test_role_verdicts_missing_untrusting_path_and_ok():
    missing = judge.role(ARN, "Trainer", judge.Missing("NoSuchEntity", "not found"), "123456789012")
    assert (missing.result, missing.argument, missing.value) == (PROBLEM, "role", ARN)
    assert "sagemaker.amazonaws.com" in missing.fix
    described = {"Arn": ARN, "Path": "/",
                 "AssumeRolePolicyDocument": statement(Principal={"Service": "ec2.amazonaws.com"})}
    assert "update-assume-role-policy --role-name Trainer" in judge.role(ARN, "Trainer", described, "1").fix
    pathed = {"Arn": "arn:aws:iam::123456789012:role/service-role/Trainer", "Path": "/service-role/",
              "AssumeRolePolicyDocument": TRUST}
    wrong = judge.role(ARN, "Trainer", pathed, "1")
    assert wrong.result == PROBLEM and "pass role='arn:aws:iam::123456789012:role/service-role/Trainer'" in wrong.fix
    assert judge.role("Trainer", "Trainer", pathed, "1").result == OK  # a name: the submission looks the path up


def test_pass_role_verdicts():
    assert judge.pass_role("arn:aws:iam::1:user/a", ARN, "allowed").result == OK
    denied = judge.pass_role("arn:aws:iam::1:user/a", ARN, "implicitDeny")
    assert denied.result == PROBLEM and '"iam:PassedToService": "sagemaker.amazonaws.com"' in denied.fix


def test_key_verdicts():
    assert judge.key("volume_kms_key", "k", {"KeyState": "Enabled", "KeyId": "k"}, "us-west-2").result == OK
    disabled = judge.key("volume_kms_key", "k", {"KeyState": "Disabled", "KeyId": "k"}, "us-west-2")
    assert (disabled.result, disabled.argument, disabled.fix) == (PROBLEM, "volume_kms_key",
                                                                 "enable it: aws kms enable-key --key-id k")
    assert "cancel-key-deletion" in judge.key("a", "k", {"KeyState": "PendingDeletion", "KeyId": "k"}, "r").fix
    assert judge.key("a", "k", judge.Missing("NotFoundException", "gone"), "us-west-2").result == PROBLEM


def test_bucket_verdicts_by_region_and_the_default_bucket():
    mine = Bucket("data", "inputs['train'].s3_data", "s3://data/train")
    assert judge.bucket_region(None) == "us-east-1" and judge.bucket_region("EU") == "eu-west-1"
    assert judge.bucket(mine, {"LocationConstraint": "us-west-2"}, "us-west-2").result == OK
    away = judge.bucket(mine, {"LocationConstraint": None}, "us-west-2")
    assert (away.result, away.detail, away.argument) == (
        PROBLEM, "the bucket is in us-east-1, the job runs in us-west-2", "inputs['train'].s3_data")
    assert judge.bucket(mine, judge.Missing("NoSuchBucket", ""), "us-west-2").result == PROBLEM
    default = Bucket("sagemaker-us-west-2-1", "output_path", "s3://sagemaker-us-west-2-1/", default=True)
    assert judge.default_bucket(default, "us-west-2").result == OK  # made at submission, in the job's region


def test_data_verdicts_prefix_and_manifest():
    prefix = Data("inputs['train'].s3_data", "s3://data/train", "data", "train")
    assert judge.data(prefix, {"KeyCount": 1, "Contents": [{"Key": "train/a"}]}).result == OK
    empty = judge.data(prefix, {"KeyCount": 0})
    assert empty.detail == "no S3 objects found under s3://data/train" and empty.value == "s3://data/train"
    manifest = Data("inputs['m'].s3_data", "s3://data/m.json", "data", "m.json", object=True)
    assert judge.data(manifest, {"KeyCount": 1, "Contents": [{"Key": "m.json"}]}).result == OK
    assert judge.data(manifest, {"KeyCount": 1, "Contents": [{"Key": "m.json.bak"}]}).result == PROBLEM
    gone = judge.data(prefix, judge.Missing("NoSuchBucket", ""))
    assert (gone.result, gone.detail) == (PROBLEM, "the bucket data does not exist")


def subnet(sid, vpc, free=100):
    return {"SubnetId": sid, "VpcId": vpc, "AvailableIpAddressCount": free}


def test_vpc_verdicts():
    group = [{"GroupId": "g-1", "VpcId": "v"}]
    ok = judge.vpc(("s-1", "s-2"), ("g-1",), [subnet("s-1", "v"), subnet("s-2", "v")], group, 5)
    assert [f.result for f in ok] == [OK]
    missing = judge.vpc(("s-1",), ("g-1", "g-2"), [subnet("s-1", "v")], group, 5)
    assert [(f.result, f.subject, f.argument) for f in missing] == [(PROBLEM, "g-2", "security_group_ids[1]")]
    two = judge.vpc(("s-1", "s-2"), ("g-1",), [subnet("s-1", "v"), subnet("s-2", "w")], group, 5)
    assert [f.detail for f in two] == ["they belong to 2 VPCs (v: s-1, g-1; w: s-2)"]
    full = judge.vpc(("s-1",), ("g-1",), [subnet("s-1", "v", free=3)], group, 5)
    assert [f.detail for f in full] == ["3 free IP addresses for 5 instances"]
