"""The test server's answers for what moto lacks (tests/_answers.py, and the Price List's of
tests/cost/_price_list.py), and what moto itself answers to a preflight's calls (note (k) in tests/_aws.py).

Every canned answer is checked against botocore's output shape of its operation (a member the
model does not have, or a value of the wrong type, fails), then read by a real boto3 client over HTTP.
"""
import json
import xml.etree.ElementTree as ET

import boto3
import botocore.config
import botocore.session
import botocore.validate
import pytest

from tests._answers import HEALTHY_QUOTAS, Answers, create_role, quota_code
from tests.cost import _price_list

NO_RETRIES = botocore.config.Config(retries={"mode": "standard", "total_max_attempts": 1})
#: Every operation the server answers in moto's place, each checked against botocore's shape below.
CHECKED = {("servicequotas", "ListServiceQuotas"), ("servicequotas", "GetServiceQuota"),
           ("iam", "SimulatePrincipalPolicy"), ("sagemaker", "ListTrainingJobs"), ("sagemaker", "DescribeTrainingJob"),
           ("pricing", "GetProducts")}
PRICE_REQUEST = {"ServiceCode": "AmazonSageMaker", "FormatVersion": "aws_v1",
                 "Filters": [{"Type": "TERM_MATCH", "Field": "regionCode", "Value": "us-west-2"}]}


def client(name, region="us-west-2"):
    return boto3.client(name, region_name=region, config=NO_RETRIES)


def output_shape(service, operation):
    return botocore.session.get_session().get_service_model(service).operation_model(operation).output_shape


class _Record(object):
    """What a handler reads of a request."""

    def __init__(self, service, operation, json_body=None, form=None):
        self.service, self.operation = service, operation
        self.json, self.form = json_body, form
        self.headers = {"authorization": "AWS4-HMAC-SHA256 Credential=k/20240101/us-west-2/%s/aws4_request" % service}
        self.query = {}


def _json_errors(payload, shape):
    """botocore's own validator on a JSON answer against ``shape`` (timestamps aside, the answers have none)."""
    report = botocore.validate.ParamValidator().validate(payload, shape)
    return report.generate_report() if report.has_errors() else ""


def _xml_errors(element, shape, path="", errors=None):
    """The element names of a query-protocol answer that ``shape`` does not have, walking it."""
    errors = [] if errors is None else errors
    for child in element:
        name = child.tag.split("}", 1)[-1]
        if shape.type_name == "list":
            if name != "member":
                errors.append("%s: %s is not 'member'" % (path, name))
            _xml_errors(child, shape.member, path + ".member", errors)
        elif shape.type_name == "structure":
            if name not in shape.members:
                errors.append("%s: %s is not a member of %s" % (path, name, shape.name))
            else:
                _xml_errors(child, shape.members[name], path + "." + name, errors)
        else:
            errors.append("%s: a %s holds elements" % (path, shape.type_name))
    if shape.type_name == "string" and len(element) == 0 and "enum" in shape.metadata:
        if (element.text or "") not in shape.metadata["enum"]:
            errors.append("%s: %r is not one of %s" % (path, element.text, shape.metadata["enum"]))
    return errors


def test_the_quota_answers_have_botocores_shapes():
    answers = Answers()
    listed = answers.answer(_Record("servicequotas", "ListServiceQuotas", {"ServiceCode": "sagemaker"}))
    page = json.loads(listed[2])
    assert listed[0] == 200 and len(page["Quotas"]) == 100 and page["NextToken"]
    assert _json_errors(page, output_shape("service-quotas", "ListServiceQuotas")) == ""
    name = "ml.p4d.24xlarge for training job usage"
    got = answers.answer(_Record("servicequotas", "GetServiceQuota", {"ServiceCode": "sagemaker",
                                                                      "QuotaCode": quota_code(name)}))
    assert _json_errors(json.loads(got[2]), output_shape("service-quotas", "GetServiceQuota")) == ""
    bad = dict(json.loads(got[2])["Quota"], Value="20", Colour="red")  # the check can fail
    assert "Colour" in _json_errors({"Quota": bad}, output_shape("service-quotas", "GetServiceQuota"))


def test_the_simulation_answer_has_botocores_shape():
    answers = Answers()
    answers.denied.add("iam:PassRole")
    form = {"Action": "SimulatePrincipalPolicy", "ActionNames.member.1": "iam:PassRole",
            "ActionNames.member.2": "sagemaker:CreateTrainingJob", "ResourceArns.member.1": "arn:aws:iam::1:role/R"}
    status, _, body = answers.answer(_Record("iam", "SimulatePrincipalPolicy", form=form))
    root = ET.fromstring(body)
    result = root[0]
    assert status == 200 and result.tag.endswith("SimulatePrincipalPolicyResult")
    assert _xml_errors(result, output_shape("iam", "SimulatePrincipalPolicy")) == []
    wrong = ET.fromstring(body.replace(b"EvalDecision>", b"Verdict>"))[0]
    assert _xml_errors(wrong, output_shape("iam", "SimulatePrincipalPolicy"))  # the walk can fail


def test_the_jobs_in_progress_have_botocores_shapes(aws):
    aws.answers.jobs_in_progress({"busy": ([("gpu", "ml.p4d.24xlarge", 2)], True)})
    listed = aws.answers.answer(_Record("sagemaker", "ListTrainingJobs", {"StatusEquals": "InProgress"}))
    assert _json_errors(json.loads(listed[2]), output_shape("sagemaker", "ListTrainingJobs")) == ""
    described = json.loads(aws.answers.answer(_Record("sagemaker", "DescribeTrainingJob",
                                                      {"TrainingJobName": "busy"}))[2])
    assert _json_errors(described, output_shape("sagemaker", "DescribeTrainingJob")) == ""
    sagemaker = client("sagemaker")
    assert [j["TrainingJobName"] for j in sagemaker.list_training_jobs(StatusEquals="InProgress")[
        "TrainingJobSummaries"]] == ["busy"]
    assert sagemaker.describe_training_job(TrainingJobName="busy")["ResourceConfig"]["InstanceGroups"][0][
        "InstanceCount"] == 2
    assert sagemaker.list_training_jobs()["TrainingJobSummaries"] == []  # moto's own answer


def test_the_price_list_answer_has_botocores_shape():
    status, _, body = _price_list.PriceListAnswers(page_size=2)(_Record("pricing", "GetProducts", PRICE_REQUEST))
    page = json.loads(body)
    assert status == 200 and len(page["PriceList"]) == 2 and page["NextToken"] == "2"
    assert _json_errors(page, output_shape("pricing", "GetProducts")) == ""
    assert all(json.loads(item)["product"]["attributes"]["regionCode"] == "us-west-2" for item in page["PriceList"])
    decoded = dict(page, PriceList=[json.loads(page["PriceList"][0])])  # an item is a JSON document in a string
    assert "PriceList[0]" in _json_errors(decoded, output_shape("pricing", "GetProducts"))  # the check can fail


def test_every_canned_answer_is_checked_here(aws):
    aws.answers.jobs_in_progress({})
    _price_list.install(aws)
    assert set(aws.answers.table) == CHECKED


def test_a_real_client_reads_the_price_list_page_by_page(aws):
    answers = _price_list.install(aws, page_size=2)
    pricing = client("pricing", "us-east-1")
    pages = list(pricing.get_paginator("get_products").paginate(**PRICE_REQUEST))
    items = [json.loads(item) for page in pages for item in page["PriceList"]]
    assert len(pages) > 1 and len(answers.requests) == len(pages)
    assert items and all(i["product"]["attributes"]["regionCode"] == "us-west-2" for i in items)
    assert [r.operation for r in aws.calls("pricing")] == ["GetProducts"] * len(pages)


def test_a_real_client_reads_every_page_and_the_errors(aws):
    quotas = client("service-quotas")
    pages = list(quotas.get_paginator("list_service_quotas").paginate(ServiceCode="sagemaker"))
    names = [q["QuotaName"] for page in pages for q in page["Quotas"]]
    assert len(pages) == -(-len(HEALTHY_QUOTAS) // 100) and sorted(names) == sorted(HEALTHY_QUOTAS)
    aws.answers.quotas["ml.p4d.24xlarge for training job usage"] = 0
    quota = quotas.get_service_quota(ServiceCode="sagemaker", QuotaCode=quota_code("ml.p4d.24xlarge for training "
                                                                                   "job usage"))["Quota"]
    assert quota["Value"] == 0.0 and quota["QuotaArn"].startswith("arn:aws:servicequotas:us-west-2:")
    with pytest.raises(quotas.exceptions.NoSuchResourceException):
        quotas.get_service_quota(ServiceCode="sagemaker", QuotaCode="L-00000000")
    assert [r.status for r in aws.calls("servicequotas")][-1] == 400


def test_a_real_client_reads_the_simulation(aws):
    iam = client("iam")
    aws.answers.denied.add("iam:PassRole")
    results = iam.simulate_principal_policy(
        PolicySourceArn="arn:aws:iam::123456789012:user/moto", ActionNames=["iam:PassRole", "s3:GetObject"],
        ResourceArns=["arn:aws:iam::123456789012:role/R"],
        ContextEntries=[{"ContextKeyName": "iam:PassedToService", "ContextKeyValues": ["sagemaker.amazonaws.com"],
                         "ContextKeyType": "string"}])["EvaluationResults"]
    assert [(r["EvalActionName"], r["EvalDecision"]) for r in results] == [("iam:PassRole", "implicitDeny"),
                                                                          ("s3:GetObject", "allowed")]


def test_a_reset_makes_the_account_healthy_again(aws):
    aws.answers.quotas.clear()
    aws.answers.add("sagemaker", "ListTrainingJobs", lambda record: None)
    aws.reset()
    assert aws.answers.quotas == HEALTHY_QUOTAS and ("sagemaker", "ListTrainingJobs") not in aws.answers.table


def test_create_role_puts_a_role_with_its_path_and_trust_in_moto(aws):
    create_role(aws.url, "Trained", path="/service-role/")
    role = client("iam").get_role(RoleName="Trained")["Role"]
    assert role["Arn"] == "arn:aws:iam::123456789012:role/service-role/Trained" and role["Path"] == "/service-role/"
    assert role["AssumeRolePolicyDocument"]["Statement"][0]["Principal"] == {"Service": "sagemaker.amazonaws.com"}
    with pytest.raises(client("iam").exceptions.NoSuchEntityException):
        client("iam").get_role(RoleName="Nobody")


def test_what_moto_answers_about_keys_and_the_caller(aws):
    assert client("sts").get_caller_identity()["Arn"] == "arn:aws:sts::123456789012:user/moto"
    west, east = client("kms"), client("kms", "us-east-1")
    key = west.create_key()["KeyMetadata"]
    west.disable_key(KeyId=key["KeyId"])
    described = west.describe_key(KeyId=key["Arn"])["KeyMetadata"]
    assert (described["Enabled"], described["KeyState"]) == (False, "Disabled")
    other = east.create_key()["KeyMetadata"]
    for key_id in (other["Arn"], other["KeyId"], "alias/none"):
        with pytest.raises(west.exceptions.NotFoundException):
            west.describe_key(KeyId=key_id)


def test_what_moto_answers_about_subnets_groups_and_images(aws):
    ec2 = client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnet = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.0.0/28")["Subnet"]["SubnetId"]
    group = ec2.create_security_group(GroupName="g", Description="d", VpcId=vpc)["GroupId"]
    subnets = ec2.describe_subnets(Filters=[{"Name": "subnet-id", "Values": [subnet, "subnet-0123456789abcdef0"]}])
    listed = [(s["SubnetId"], s["VpcId"], s["AvailableIpAddressCount"]) for s in subnets["Subnets"]]
    assert listed == [(subnet, vpc, 11)]
    groups = ec2.describe_security_groups(Filters=[{"Name": "group-id", "Values": [group, "sg-0123456789abcdef0"]}])
    assert [(g["GroupId"], g["VpcId"]) for g in groups["SecurityGroups"]] == [(group, vpc)]
    ecr = client("ecr")
    ecr.create_repository(repositoryName="mine")
    manifest = {"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
                "config": {"digest": "sha256:" + "a" * 64, "size": 1,
                           "mediaType": "application/vnd.docker.container.image.v1+json"}, "layers": []}
    ecr.put_image(repositoryName="mine", imageManifest=json.dumps(manifest), imageTag="v1")
    assert ecr.describe_images(repositoryName="mine", imageIds=[{"imageTag": "v1"}])["imageDetails"]
    with pytest.raises(ecr.exceptions.ImageNotFoundException):
        ecr.describe_images(repositoryName="mine", imageIds=[{"imageTag": "v2"}])
    with pytest.raises(ecr.exceptions.RepositoryNotFoundException):
        client("ecr", "us-east-1").describe_images(repositoryName="mine", imageIds=[{"imageTag": "v1"}])


def test_what_moto_answers_about_bucket_regions_and_prefixes(aws):
    s3 = client("s3")
    s3.create_bucket(Bucket="west-bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    client("s3", "us-east-1").create_bucket(Bucket="east-bucket")
    s3.put_object(Bucket="west-bucket", Key="data/a", Body=b"x")
    assert s3.get_bucket_location(Bucket="west-bucket")["LocationConstraint"] == "us-west-2"
    assert s3.get_bucket_location(Bucket="east-bucket")["LocationConstraint"] is None
    with pytest.raises(s3.exceptions.NoSuchBucket):
        s3.get_bucket_location(Bucket="no-such-bucket-here")
    assert s3.list_objects_v2(Bucket="west-bucket", Prefix="data/", MaxKeys=1)["KeyCount"] == 1
    assert s3.list_objects_v2(Bucket="west-bucket", Prefix="empty/", MaxKeys=1)["KeyCount"] == 0
