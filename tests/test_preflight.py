"""The preflight against the moto server over HTTP: an account's faults found before anything is sent.

The account is moto's (IAM, STS, KMS, EC2, ECR, S3, SageMaker), with the test server answering
Service Quotas and SimulatePrincipalPolicy in moto's place (tests/_answers.py); the caller is an IAM
user, so PassRole is simulated. Each scenario of :data:`SCENARIOS` is one fault of an otherwise
healthy account, run on a two-group and a five-group job: ``fit(preflight=True)`` must stop with
exactly that problem (its check, subject and argument) before any upload, bucket or job is created.
"""
import json
import os

import attrs
import boto3
import pytest

from sagemaker_hetero import Estimator, InstanceGroup, Session, TrainingInput
from sagemaker_hetero import exceptions as E
from sagemaker_hetero._preflight import quotas
from sagemaker_hetero._preflight.checks import MAX_PAGES
from sagemaker_hetero._preflight.report import ACTIONS, CHECKS
from tests._answers import SAGEMAKER_TRUST, create_role, json_answer

ACCOUNT = "123456789012"
ROLE = "arn:aws:iam::%s:role/SageMakerRole" % ACCOUNT
IMAGE = "%s.dkr.ecr.us-west-2.amazonaws.com/trainer:v1" % ACCOUNT
SENT = {"PutObject", "CreateMultipartUpload", "CreateBucket", "CreateTrainingJob"}


@attrs.frozen
class Shape(object):
    """A job's cluster: its groups, its channels' groups, and the group whose type the quota faults hit."""

    groups = attrs.field()
    channels = attrs.field()  # channel -> group
    hit = attrs.field()  # index of the group whose type's quota runs out

    @property
    def hit_type(self):
        return self.groups[self.hit].instance_type

    @property
    def hit_argument(self):
        return "instance_groups[%d].instance_type" % self.hit


TWO = Shape([InstanceGroup("cpu", "ml.c5.18xlarge", 2), InstanceGroup("gpu", "ml.p3dn.24xlarge", 1)],
            {"train": "cpu", "extra": "gpu"}, 1)
FIVE = Shape([InstanceGroup("data", "ml.c5.9xlarge", 2), InstanceGroup("prep", "ml.m5.4xlarge", 1),
              InstanceGroup("gpu", "ml.p4d.24xlarge", 1), InstanceGroup("infer", "ml.g5.2xlarge", 2),
              InstanceGroup("more", "ml.c5.9xlarge", 1)],
             {"train": "data", "extra": "gpu", "prep": "prep"}, 2)


@pytest.fixture
def account(aws, workdir, monkeypatch):
    """A healthy account for a job with a framework image: the caller is the IAM user alice, the data
    bucket holds every channel's data."""
    iam = boto3.client("iam")
    iam.create_user(UserName="alice")
    key = iam.create_access_key(UserName="alice")["AccessKey"]
    s3 = boto3.client("s3")
    s3.create_bucket(Bucket="data-bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    for prefix in ("train", "extra", "prep"):
        s3.put_object(Bucket="data-bucket", Key="%s/part-0" % prefix, Body=b"x")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", key["AccessKeyId"])
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", key["SecretAccessKey"])
    aws.clear_requests()
    return aws


@pytest.fixture
def world(account):
    """The account with an image of its own, KMS keys, two VPCs, and what the faults use (roles without
    trust or with a path, a bucket in us-east-1, a disabled key, a key of us-east-1), by name."""
    create_role(account.url, "NoTrust", trust={"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": {"Service": "ec2.amazonaws.com"}, "Action": "sts:AssumeRole"}]})
    create_role(account.url, "Pathed", path="/service-role/")
    boto3.client("s3", region_name="us-east-1").create_bucket(Bucket="east-bucket")
    ecr = boto3.client("ecr")
    ecr.create_repository(repositoryName="trainer")
    ecr.put_image(repositoryName="trainer", imageTag="v1", imageManifest=json.dumps({
        "schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json", "layers": [],
        "config": {"digest": "sha256:" + "b" * 64, "size": 1,
                   "mediaType": "application/vnd.docker.container.image.v1+json"}}))
    kms = boto3.client("kms")
    keys = dict((name, kms.create_key(Description=name)["KeyMetadata"]["KeyId"]) for name in ("good", "disabled"))
    kms.disable_key(KeyId=keys["disabled"])
    keys["east"] = boto3.client("kms", region_name="us-east-1").create_key()["KeyMetadata"]["Arn"]
    ec2 = boto3.client("ec2")
    net = {}
    for vpc, cidr in (("a", "10.0"), ("b", "10.1")):
        vpc_id = ec2.create_vpc(CidrBlock="%s.0.0/16" % cidr)["Vpc"]["VpcId"]
        for n in (1, 2):
            subnet = ec2.create_subnet(VpcId=vpc_id, CidrBlock="%s.%d.0/24" % (cidr, n))["Subnet"]
            net["%s%d" % (vpc, n)] = subnet["SubnetId"]
        net["g" + vpc] = ec2.create_security_group(GroupName="g" + vpc, Description="d", VpcId=vpc_id)["GroupId"]
    account.clear_requests()
    return {"keys": keys, "net": net, "server": account}


def framework_job(shape, session=None, **overrides):
    """The account fixture's job: a PyTorch image from the table, output in the data bucket."""
    from sagemaker_hetero import PyTorch

    kwargs = dict(entry_point="train.py", framework_version="2.2.0", py_version="py310", role=ROLE,
                  instance_groups=shape.groups, output_path="s3://data-bucket/out",
                  sagemaker_session=session or Session())
    kwargs.update(overrides)
    return PyTorch(**kwargs)


def estimator(world, shape, session=None, **overrides):
    """A job using every check: its own image, two keys, a checkpoint, a VPC, output in the data bucket."""
    kwargs = dict(image_uri=IMAGE, role=ROLE, entry_point="train.py", instance_groups=shape.groups,
                  output_path="s3://data-bucket/out", checkpoint_s3_uri="s3://data-bucket/checkpoints",
                  volume_kms_key=world["keys"]["good"], output_kms_key=world["keys"]["good"],
                  subnets=[world["net"]["a1"], world["net"]["a2"]], security_group_ids=[world["net"]["ga"]],
                  sagemaker_session=session or Session())
    kwargs.update(overrides)
    return Estimator(**kwargs)


def inputs(shape, **replaced):
    out = dict((name, TrainingInput("s3://data-bucket/%s" % name, instance_groups=[group]))
               for name, group in shape.channels.items())
    out.update((name, TrainingInput(uri, instance_groups=[shape.channels[name]], s3_data_type=kind))
               for name, (uri, kind) in replaced.items())
    return out


# name -> (estimator arguments, inputs replaced, what to tell the account, (check, subject, argument)); "{hit}"
# and "{hit_argument}" stand for the shape's hit group's type and its argument, "{key:...}"/"{net:...}" for the
# world's names.
SCENARIOS = {
    "a type's quota is 0": ({}, {}, {"quota": {"{hit} for training job usage": 0}},
                            ("quotas", "{hit} for training job usage", "{hit_argument}")),
    "jobs in progress use the type's quota": ({}, {}, {"busy": 20},
                                              ("quotas", "{hit} for training job usage", "{hit_argument}")),
    "the account-wide instances quota": ({}, {}, {"quota": {quotas.ALL_INSTANCES: 2}},
                                         ("quotas", quotas.ALL_INSTANCES, "instance_groups")),
    "the role does not exist": ({"role": "arn:aws:iam::%s:role/Missing" % ACCOUNT}, {}, {},
                                ("role", "role arn:aws:iam::%s:role/Missing" % ACCOUNT, "role")),
    "the role does not trust SageMaker": ({"role": "arn:aws:iam::%s:role/NoTrust" % ACCOUNT}, {}, {},
                                          ("role", "role arn:aws:iam::%s:role/NoTrust" % ACCOUNT, "role")),
    "the role's path is missing": ({"role": "arn:aws:iam::%s:role/Pathed" % ACCOUNT}, {}, {},
                                   ("role", "role arn:aws:iam::%s:role/Pathed" % ACCOUNT, "role")),
    "the caller may not pass the role": ({}, {}, {"deny": "iam:PassRole"},
                                         ("role", "iam:PassRole of %s" % ROLE, "role")),
    "the image tag does not exist": ({"image_uri": IMAGE[:-2] + "v2"}, {}, {},
                                     ("image", IMAGE[:-2] + "v2", "image_uri")),
    "the image repository does not exist": ({"image_uri": IMAGE.replace("trainer", "nope")}, {}, {},
                                            ("image", IMAGE.replace("trainer", "nope"), "image_uri")),
    "the volume key is disabled": ({"volume_kms_key": "{key:disabled}"}, {}, {},
                                   ("kms", "{key:disabled}", "volume_kms_key")),
    "the output key is in another region": ({"output_kms_key": "{key:east}"}, {}, {},
                                            ("kms", "{key:east}", "output_kms_key")),
    "an input prefix is empty": ({}, {"extra": ("s3://data-bucket/empty", "S3Prefix")}, {},
                                 ("s3", "s3://data-bucket/empty", "inputs['extra'].s3_data")),
    "a manifest does not exist": ({}, {"train": ("s3://data-bucket/train.manifest", "ManifestFile")}, {},
                                  ("s3", "s3://data-bucket/train.manifest", "inputs['train'].s3_data")),
    "the output bucket is in another region": ({"output_path": "s3://east-bucket/out"}, {}, {},
                                               ("s3", "s3://east-bucket", "output_path")),
    "the checkpoint bucket does not exist": ({"checkpoint_s3_uri": "s3://no-such-bucket-here/c"}, {}, {},
                                             ("s3", "s3://no-such-bucket-here", "checkpoint_s3_uri")),
    "the subnets are of two VPCs": ({"subnets": ["{net:a1}", "{net:b1}"]}, {}, {},
                                    ("vpc", "subnets and security groups", "subnets")),
    "a security group does not exist": ({"security_group_ids": ["{net:ga}", "sg-0123456789abcdef0"]}, {}, {},
                                        ("vpc", "sg-0123456789abcdef0", "security_group_ids[1]")),
}


def _fill(value, shape, world):
    if isinstance(value, list):
        return [_fill(v, shape, world) for v in value]
    if not isinstance(value, str):
        return value
    value = value.replace("{hit_argument}", shape.hit_argument).replace("{hit}", shape.hit_type)
    for kind, names in (("key", world["keys"]), ("net", world["net"])):
        for name, real in names.items():
            value = value.replace("{%s:%s}" % (kind, name), real)
    return value


def _tell_account(server, shape, told):
    for name, value in told.get("quota", {}).items():
        server.answers.quotas[_fill(name, shape, {"keys": {}, "net": {}})] = value
    if "busy" in told:
        server.answers.jobs_in_progress({"busy": ([("g", shape.hit_type, told["busy"])], False)})
    if "deny" in told:
        server.answers.denied.add(told["deny"])


def _run(world, shape, name, boto_session):
    """The scenario ``name`` on ``shape``, with a new session: what went wrong with it, or None."""
    arguments, replaced, told, expected = SCENARIOS[name]
    server = world["server"]
    server.answers.reset()
    _tell_account(server, shape, told)
    est = estimator(world, shape, Session(boto_session=boto_session),
                    **dict((k, _fill(v, shape, world)) for k, v in arguments.items()))
    before = len(server.requests)
    try:
        est.fit(inputs(shape, **replaced), wait=False, preflight=True)
        return "no PreflightError"
    except E.PreflightError as exc:
        error = exc
    sent = SENT & set(r.operation for r in server.requests[before:])
    found = [(f.check, f.subject, f.argument) for f in error.report.problems]
    wanted = tuple(_fill(part, shape, world) for part in expected)
    if sent or found != [wanted]:
        return "sent %s, found %s, wanted %s" % (sorted(sent), found, wanted)
    return None


@pytest.mark.parametrize("shape", [TWO, FIVE], ids=["two groups", "five groups"])
def test_each_fault_of_the_account_is_found_before_anything_is_sent(world, shape):
    boto_session = boto3.Session()  # one for all: the sessions share its clients
    wrong = dict((name, _run(world, shape, name, boto_session)) for name in SCENARIOS)
    assert dict((name, why) for name, why in wrong.items() if why) == {}


@pytest.mark.parametrize("shape", [TWO, FIVE], ids=["two groups", "five groups"])
def test_a_healthy_account_has_no_problem_and_nothing_unknown(world, shape):
    server = world["server"]
    report = estimator(world, shape).preflight(inputs(shape))
    assert [(f.check, f.subject, f.result) for f in report.findings if f.result != "ok"] == []
    assert set(f.check for f in report.findings) == set(CHECKS)
    assert not SENT & set(server.operations())
    estimator(world, shape).fit(inputs(shape), wait=False, preflight=True)
    assert server.operations()[-1] == "CreateTrainingJob"


# -- what cannot be known, throttling, an endpoint that is down ---------------------------------

_DENIED = {"iam": (403, "AccessDenied"), "sts": (403, "AccessDenied"), "s3": (403, "AccessDenied"),
           "ec2": (403, "UnauthorizedOperation")}


def test_access_denied_on_every_check_gives_only_unknowns_naming_the_permission(world, fault_proxy):
    for service, operation in ACTIONS:
        status, code = _DENIED.get(service, (400, "AccessDeniedException"))
        fault_proxy.add_fault(operation, kind="status", status=status, code=code, message="not for you", times=None)
    report = estimator(world, TWO).preflight(inputs(TWO))
    assert report.problems == [] and set(f.check for f in report.findings) == set(CHECKS)
    assert [(f.check, f.result) for f in report.findings if f.result != "unknown"] == []
    permissions = set(f.permission for f in report.findings)
    assert {"sts:GetCallerIdentity", "servicequotas:ListServiceQuotas", "kms:DescribeKey", "s3:GetBucketLocation",
            "ec2:DescribeSubnets"} <= permissions
    assert "access denied: the caller needs kms:DescribeKey" in [f.detail for f in report.findings]


def test_throttling_is_retried_and_an_endpoint_that_is_down_is_unknown(account, fault_proxy, monkeypatch):
    from sagemaker_hetero._preflight import ask

    monkeypatch.setattr(ask, "THROTTLE_DELAYS", (0.0, 0.0, 0.0))
    fault_proxy.add_fault("GetBucketLocation", kind="throttle", times=2)
    fault_proxy.add_fault("ListServiceQuotas", kind="throttle", times=None)
    report = framework_job(TWO).preflight(inputs(TWO), checks=["quotas", "s3"])
    assert [f.result for f in report.findings if f.check == "s3"] == ["ok"] * 3
    assert len(fault_proxy.calls(operation="GetBucketLocation")) == 3  # twice throttled, then answered
    assert set((f.result, f.detail) for f in report.findings if f.check == "quotas") == {
        ("unknown", "throttled after 4 attempts")}
    import socket

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("AWS_ENDPOINT_URL_SERVICE_QUOTAS", "http://127.0.0.1:%d" % port)
    report = framework_job(TWO).preflight(inputs(TWO), checks=["quotas"])
    assert set((f.result, f.detail, f.permission) for f in report.findings) == {
        ("unknown", "the endpoint could not be reached", "servicequotas:ListServiceQuotas")}


def test_an_assumed_roles_passrole_is_simulated_as_its_role_with_its_path(account, monkeypatch):
    create_role(account.url, "Runner", path="/team/")
    credentials = boto3.client("sts").assume_role(RoleArn="arn:aws:iam::%s:role/team/Runner" % ACCOUNT,
                                                  RoleSessionName="me")["Credentials"]
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", credentials["AccessKeyId"])
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", credentials["SecretAccessKey"])
    monkeypatch.setenv("AWS_SESSION_TOKEN", credentials["SessionToken"])
    report = framework_job(TWO).preflight(inputs(TWO), checks=["role"])
    assert [f.result for f in report.findings] == ["ok", "ok"]
    [simulated] = account.calls(operation="SimulatePrincipalPolicy")
    assert simulated.form["PolicySourceArn"] == "arn:aws:iam::%s:role/team/Runner" % ACCOUNT
    assert simulated.form["ContextEntries.member.1.ContextKeyValues.member.1"] == "sagemaker.amazonaws.com"


# -- fit: the default, what a session remembers, warn, SageMaker's own answers ------------------


def test_the_default_checks_quotas_and_role_once_and_a_later_job_costs_one_call(world):
    server, session = world["server"], Session()  # the whole world: every check, later
    estimator(world, TWO, session).fit(inputs(TWO), wait=False)
    first = server.operations()
    assert {"GetServiceQuota", "ListTrainingJobs", "GetRole", "SimulatePrincipalPolicy"} <= set(first) or \
        {"ListServiceQuotas", "ListTrainingJobs", "GetRole", "SimulatePrincipalPolicy"} <= set(first)
    assert not {"DescribeKey", "DescribeImages", "DescribeSubnets", "GetBucketLocation"} & set(first)  # on request
    server.clear_requests()
    estimator(world, TWO, session).fit(inputs(TWO), wait=False)
    assert server.operations() == ["CreateTrainingJob"]
    estimator(world, TWO, session).preflight(inputs(TWO))  # every check
    server.clear_requests()
    estimator(world, TWO, session).preflight(inputs(TWO))  # every check again, later: what the session kept
    assert server.operations() == []


def test_a_problem_is_never_remembered_and_warn_goes_on(account, capsys):
    server, session = account, Session()
    server.answers.quotas["ml.p3dn.24xlarge for training job usage"] = 0
    with pytest.raises(E.PreflightError) as info:
        framework_job(TWO, session).fit(inputs(TWO), wait=False)
    assert "request-service-quota-increase" in str(info.value) and not SENT & set(server.operations())
    server.answers.quotas["ml.p3dn.24xlarge for training job usage"] = 1  # the increase was granted
    framework_job(TWO, session).fit(inputs(TWO), wait=False)
    assert server.operations()[-1] == "CreateTrainingJob"
    server.answers.quotas["ml.p3dn.24xlarge for training job usage"] = 0
    framework_job(TWO, Session()).fit(inputs(TWO), wait=False, preflight="warn")
    assert "Preflight: 1 problem; going on" in capsys.readouterr().err
    assert server.operations()[-1] == "CreateTrainingJob"


def test_a_full_preflight_of_the_seed_job_costs_at_most_12_calls_once_the_quota_map_is_kept(account):
    server = account

    def seed_job():
        return framework_job(TWO, framework_version="1.10.0", py_version="py38", output_path=None)

    seed_job().preflight(inputs(TWO))  # the quota-name map is built and kept on disk
    server.clear_requests()
    report = seed_job().preflight(inputs(TWO))  # a new session: as from a new process
    assert report.problems == [] and len(server.requests) <= 12, server.operations()


def test_resource_limit_exceeded_at_create_is_told_as_the_quota_table(account, fault_proxy):
    message = ("The account-level service limit 'ml.p3dn.24xlarge for training job usage' is 1 Instances, with "
               "current utilization of 1 Instances and a request delta of 1 Instances. Please use AWS Service Quotas "
               "to request an increase for this quota.")
    fault_proxy.add_fault("CreateTrainingJob", kind="status", status=400, code="ResourceLimitExceeded", message=message)
    with pytest.raises(E.AWSError) as info:
        framework_job(TWO).fit(inputs(TWO), wait=False)
    text = str(info.value)
    assert info.value.code == "ResourceLimitExceeded" and "no job was created" in text
    assert "ml.p3dn.24xlarge for training job usage  problem  1 requested, 1 in use, quota 1" in text
    assert "--desired-value 2 --region us-west-2" in text


def test_a_capacity_error_names_the_groups_and_the_familys_types_the_quota_allows(account):
    server = account
    server.answers.quotas["ml.p3.16xlarge for training job usage"] = 0
    est = framework_job(TWO)
    est.fit(inputs(TWO), wait=False)
    name = est.latest_training_job.name
    failed = dict(server.answers.in_progress_description(name, [("cpu", "ml.c5.18xlarge", 2),
                                                                ("gpu", "ml.p3dn.24xlarge", 1)]),
                  TrainingJobStatus="Failed", SecondaryStatus="Failed",
                  FailureReason="CapacityError: Unable to provision requested ML compute capacity.")
    server.answers.add("sagemaker", "DescribeTrainingJob", lambda record: json_answer(failed))
    with pytest.raises(E.CapacityError) as info:
        est.latest_training_job.wait(logs="None")
    error = info.value
    assert isinstance(error, E.UnexpectedStatusException) and error.actual_status == "Failed"
    assert error.instance_groups == [("cpu", "ml.c5.18xlarge", 2), ("gpu", "ml.p3dn.24xlarge", 1)]
    assert error.same_family_types["ml.p3dn.24xlarge"] == ["ml.p3.2xlarge", "ml.p3.8xlarge"]  # 16xlarge's quota is 0
    with pytest.warns(DeprecationWarning, match="same_family_types"):
        assert error.alternatives == error.same_family_types  # the old name, kept for a while
    assert "instance group gpu (ml.p3dn.24xlarge x 1)" in str(error) and "try again later" in str(error)


def test_preflight_arguments_that_cannot_apply_are_problems(account):
    with pytest.raises(E.ConfigError) as info:
        framework_job(TWO).fit(inputs(TWO), dry_run=True, preflight=True)
    assert [p.path for p in info.value.problems] == ["preflight"]
    with pytest.raises(E.ConfigError) as info:
        framework_job(TWO).preflight(inputs(TWO), checks=["quota"])
    assert [p.path for p in info.value.problems] == ["checks"]


# -- the command line without credentials -------------------------------------------------------


def test_the_cli_preflight_without_credentials_exits_3_with_the_hint_submit_gives(tmp_path, monkeypatch, capsys):
    from sagemaker_hetero.cli import main
    from tests.test_cli import EXAMPLE

    for name in [n for n in os.environ if n.startswith("AWS_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.aws
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")  # nor an instance's role
    (tmp_path / "train.py").write_text("print('train')\n")
    monkeypatch.chdir(tmp_path)
    said = {}
    for command in ("preflight", "submit"):
        code = main(["--region", "us-west-2", command, EXAMPLE])
        out, err = capsys.readouterr()
        said[command] = (code, out, err)
    assert said["preflight"] == said["submit"]  # exit 3, nothing on stdout, the same words
    code, out, err = said["preflight"]
    assert (code, out) == (3, "") and "Configure AWS credentials: run 'aws configure'" in err


# -- what cannot be asked: never a crash, remembered and told once per session ------------------


@pytest.fixture
def developer(account, monkeypatch):
    """The account with an assumed role as the caller, as in a notebook: PassRole is simulated."""
    create_role(account.url, "Developer", trust={"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}]})
    credentials = boto3.client("sts").assume_role(RoleArn="arn:aws:iam::%s:role/Developer" % ACCOUNT,
                                                  RoleSessionName="dev")["Credentials"]
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", credentials["AccessKeyId"])
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", credentials["SecretAccessKey"])
    monkeypatch.setenv("AWS_SESSION_TOKEN", credentials["SessionToken"])
    account.clear_requests()
    return account


def _xml(body):
    return lambda record: (200, [("Content-Type", "text/xml")], body)


def _json(payload):
    return lambda record: json_answer(payload)


TWO_QUOTAS = [quotas.ON_DEMAND % "ml.c5.18xlarge", quotas.ON_DEMAND % "ml.p3dn.24xlarge", quotas.ALL_INSTANCES,
              quotas.PER_JOB]
# name -> {(signing service, operation): handler}: answers no check can use (moto alone answers an HTML page)
ODD_ANSWERS = {
    "moto alone (HTML pages)": {},
    "empty answers": {("iam", "SimulatePrincipalPolicy"): _xml(b""),
                      ("servicequotas", "ListServiceQuotas"): lambda record: (200, [], b"")},
    "answers without the fields read": {
        ("iam", "SimulatePrincipalPolicy"): _xml(b"<SimulatePrincipalPolicyResponse><SimulatePrincipalPolicyResult>"
                                                 b"<EvaluationResults></EvaluationResults>"
                                                 b"</SimulatePrincipalPolicyResult></SimulatePrincipalPolicyResponse>"),
        ("servicequotas", "ListServiceQuotas"): _json({"Quotas": [{"QuotaName": "ml.c5.18xlarge for training job "
                                                                                "usage"}]})},
    "a value that is no number": {
        ("servicequotas", "ListServiceQuotas"): _json({"Quotas": [{"QuotaName": n, "QuotaCode": "L-%d" % i}
                                                                  for i, n in enumerate(TWO_QUOTAS)]}),
        ("servicequotas", "GetServiceQuota"): _json({"Quota": {"Value": "lots"}})},
    "a listing that never ends": {  # a new token every page: a part of a listing is never judged as the whole
        ("servicequotas", "ListServiceQuotas"): lambda record: json_answer(
            {"Quotas": [{"QuotaName": TWO_QUOTAS[0], "QuotaCode": "L-1", "Value": 20.0}],
             "NextToken": "t%s" % ((record.json or {}).get("NextToken") or "") + "x"})},
}


@pytest.mark.parametrize("odd", sorted(ODD_ANSWERS))
def test_an_answer_no_check_can_use_is_unknown_naming_the_call_and_the_job_goes_on(plain_moto, developer, odd,
                                                                                   caplog):
    for (service, operation), handler in ODD_ANSWERS[odd].items():
        developer.answers.add(service, operation, handler)
    report = framework_job(TWO).preflight(inputs(TWO), checks=["quotas", "role"])
    assert report.problems == [] and report.unknowns, report.text()
    assert {f.permission for f in report.unknowns} & {"servicequotas:ListServiceQuotas", "servicequotas:GetServiceQuota",
                                                     "iam:SimulatePrincipalPolicy"}, report.text()
    assert "<" not in report.text()  # no page in the report
    session = Session()
    with caplog.at_level("INFO", logger="sagemaker_hetero"):
        framework_job(TWO, session).fit(inputs(TWO), wait=False)  # the default preflight: quotas and role
        told = [r.getMessage() for r in caplog.records if "could not be made" in r.getMessage()]
        developer.clear_requests()
        framework_job(TWO, session).fit(inputs(TWO), wait=False)
    assert developer.operations() == ["CreateTrainingJob"]  # what could not be asked is not asked again
    assert len(told) == 1 and [r.getMessage() for r in caplog.records if "could not be made" in r.getMessage()] == told


def test_under_moto_mock_aws_the_default_preflight_never_stops_a_fit_and_a_later_job_costs_one_call(
        aws, workdir, monkeypatch, tmp_path):
    from tests._aws import InProcessMoto

    monkeypatch.delenv("AWS_ENDPOINT_URL")  # nothing leaves the process: no server, no socket
    with InProcessMoto(str(tmp_path / "requests.jsonl")) as mock:
        boto3.Session().client("iam").create_role(RoleName="SageMakerRole",
                                                  AssumeRolePolicyDocument=json.dumps(SAGEMAKER_TRUST))
        boto3.Session().client("s3").create_bucket(Bucket="data-bucket", CreateBucketConfiguration={
            "LocationConstraint": "us-west-2"})
        session = Session(boto_session=boto3.Session())
        report = framework_job(TWO, session).preflight(checks=["quotas"])
        assert {(f.result, f.permission) for f in report.findings} == {("unknown", "servicequotas:ListServiceQuotas")}
        assert "NotImplementedError" in report.findings[0].detail
        framework_job(TWO, session).fit(wait=False)
        mock.clear_requests()
        framework_job(TWO, session).fit(wait=False)
        assert mock.operations() == ["CreateTrainingJob"]


def test_whatever_a_call_raises_is_unanswered_naming_the_permission_but_an_interrupt_is_not():
    import socket

    from sagemaker_hetero._preflight.ask import Asker, Unanswered

    asker = Asker(attrs.make_class("S", {"boto_region_name": attrs.field(default="us-west-2")})())

    def raising(exc):
        def ask():
            raise exc
        return ask

    for exc in (NotImplementedError("The list_service_quotas action has not been implemented"),
                socket.timeout("timed out"), KeyError("Quota"), TypeError("'NoneType' object is not subscriptable")):
        with pytest.raises(Unanswered) as info:
            asker.through("servicequotas:GetServiceQuota", raising(exc))
        assert info.value.permission == "servicequotas:GetServiceQuota"
        assert info.value.why.startswith("servicequotas:GetServiceQuota got no usable answer: %s" % type(exc).__name__)
    with pytest.raises(KeyboardInterrupt):
        asker.through("servicequotas:GetServiceQuota", raising(KeyboardInterrupt()))


def test_a_check_that_fails_is_its_own_unknown_and_a_preflight_that_fails_never_stops_the_job(account, monkeypatch,
                                                                                                 caplog):
    from sagemaker_hetero._preflight import checks, gate

    def broken(ctx):
        raise TypeError("'NoneType' object is not subscriptable")

    monkeypatch.setitem(checks.CHECKERS, "role", broken)
    report = framework_job(TWO).preflight(inputs(TWO), checks=["quotas", "role"])
    assert [(f.check, f.result) for f in report.findings] == [("quotas", "ok")] * 4 + [("role", "unknown")]
    assert "TypeError: 'NoneType' object is not subscriptable" in report.unknowns[0].detail

    def failed(*args, **kwargs):
        raise RuntimeError("a bug in the preflight")

    monkeypatch.setattr(gate, "run", failed)
    with caplog.at_level("INFO", logger="sagemaker_hetero"):
        framework_job(TWO).fit(inputs(TWO), wait=False)
    assert account.operations()[-1] == "CreateTrainingJob"
    assert "RuntimeError: a bug in the preflight" in caplog.text


def test_what_creating_the_job_raises_is_raised_as_it_is(account, fault_proxy, monkeypatch):
    from sagemaker_hetero._preflight import gate

    monkeypatch.setattr(gate, "explained", lambda *args: 1 / 0)  # the quota's explanation fails: SageMaker's error
    fault_proxy.add_fault("CreateTrainingJob", kind="status", status=400, code="ResourceLimitExceeded",
                          message="The account-level service limit 'x' is 1 Instances")
    with pytest.raises(E.AWSError) as info:
        framework_job(TWO).fit(inputs(TWO), wait=False)
    assert info.value.code == "ResourceLimitExceeded"
    fault_proxy.add_fault("CreateTrainingJob", kind="status", status=400, code="ValidationException",
                          message="bad request")
    with pytest.raises(E.AWSError) as info:
        framework_job(TWO).fit(inputs(TWO), wait=False)
    assert info.value.code == "ValidationException"


def test_a_quota_listing_that_never_ends_is_unknown_saying_it_stopped(plain_moto, developer):
    developer.answers.add("servicequotas", "ListServiceQuotas", ODD_ANSWERS["a listing that never ends"][
        ("servicequotas", "ListServiceQuotas")])
    report = framework_job(TWO).preflight(inputs(TWO), checks=["quotas"])
    assert report.problems == [] and report.unknowns, report.text()
    assert {(f.permission, f.detail) for f in report.unknowns} == {(
        "servicequotas:ListServiceQuotas", "still paging after %d pages of %d items; not read further"
        % (MAX_PAGES, MAX_PAGES))}, report.text()
