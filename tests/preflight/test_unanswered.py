"""What a preflight does with an endpoint that fails, answers slowly or not at all: each of its calls is
made once (throttling aside), with short timeouts, whatever client the session keeps for its own calls, and a
preflight asks for at most ``ask.BUDGET`` seconds, and what could not be asked is not asked again by a later
job of the session. Against the moto server over HTTP, through a FaultProxy.
"""
import threading

import boto3
import pytest

from sagemaker_hetero import InstanceGroup, PyTorch, Session
from sagemaker_hetero._aws import clients
from sagemaker_hetero._preflight import ask
from sagemaker_hetero._preflight.report import ACTIONS
from sagemaker_hetero._preflight.state import state_of
from tests._aws import FaultProxy
from tests.test_preflight import TWO, account, estimator, inputs, world  # noqa: F401 - the account and its fixtures

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
GROUPS = [InstanceGroup("cpu", "ml.c5.18xlarge", 2), InstanceGroup("gpu", "ml.p3dn.24xlarge", 1)]


def job(session=None):
    return PyTorch(entry_point="train.py", framework_version="2.2.0", py_version="py310", role=ROLE,
                   instance_groups=GROUPS, output_path="s3://data-bucket/out", sagemaker_session=session or Session())


@pytest.fixture
def busy(aws, workdir):
    """The moto server with a job in progress (so the preflight lists and describes the account's jobs)."""
    boto3.client("s3").create_bucket(Bucket="data-bucket",
                                     CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    aws.answers.jobs_in_progress({"running": ([("g", "ml.c5.18xlarge", 1)], False)})
    return aws


@pytest.mark.parametrize("operation", ["GetCallerIdentity", "GetRole", "ListTrainingJobs", "DescribeTrainingJob"])
def test_a_call_the_endpoint_fails_is_made_once_not_with_the_sessions_retries(busy, fault_proxy, operation):
    fault_proxy.add_fault(operation, kind="status", status=500, code="InternalFailure", message="down", times=None)
    report = job().preflight()
    assert len(fault_proxy.calls(operation=operation)) == 1
    [permission] = set(f.permission for f in report.unknowns if f.permission)
    assert permission == {"GetCallerIdentity": "sts:GetCallerIdentity", "GetRole": "iam:GetRole"}.get(
        operation, "sagemaker:%s" % operation)
    assert report.problems == []


def test_a_slow_answer_is_given_up_after_the_read_timeout_and_asked_once(busy, monkeypatch):
    monkeypatch.setitem(clients.QUICK_TIMEOUTS, "read_timeout", 0.5)
    held = threading.Event()
    with FaultProxy(busy, timeout=5.0) as proxy:
        monkeypatch.setenv("AWS_ENDPOINT_URL", proxy.url)
        proxy.add_fault("GetRole", kind="delay", delay=held, times=None)
        try:
            report = job().preflight(checks=["role"])
        finally:
            held.set()
        assert len(proxy.calls(operation="GetRole")) == 1
    [finding] = report.findings
    assert (finding.result, finding.permission) == ("unknown", "iam:GetRole")
    assert finding.detail.startswith("no answer in time (Read timeout on endpoint URL"), finding.detail


def test_a_preflight_asks_for_at_most_its_budget_then_says_so(busy, fault_proxy):
    now = [0.0]

    def clock():  # every reading of the clock is 10 s later: the answers come slowly
        now[0] += 10.0
        return now[0]

    session = Session()
    state_of(session).asker = ask.Asker(session, clock=clock, budget=25.0)
    report = job(session).preflight()
    told = [f for f in report.unknowns if "within the preflight's 25 s" in f.detail]
    assert told and report.problems == []
    asked = fault_proxy.operations()
    assert "SimulatePrincipalPolicy" not in asked and len(asked) <= 3, asked


@pytest.mark.parametrize("kind", ["status", "throttle"])
def test_jobs_in_progress_that_cannot_be_described_are_not_asked_about_by_a_later_job(busy, fault_proxy, monkeypatch,
                                                                                      kind):
    monkeypatch.setattr(ask, "THROTTLE_DELAYS", (0.0, 0.0, 0.0))
    fault_proxy.add_fault("DescribeTrainingJob", kind=kind, status=500 if kind == "status" else None,
                          code="InternalFailure" if kind == "status" else None, times=None)
    session = Session()
    job(session).fit(wait=False)
    fault_proxy.clear_requests()
    job(session).fit(wait=False)
    assert fault_proxy.operations() == ["CreateTrainingJob"]


HTML = "<html><head><title>Sign in</title></head><body><p>Welcome to the network</p></body></html>"
_IAM = "https://iam.amazonaws.com/doc/2010-05-08/"
GARBLED_ROLE = ('<GetRoleResponse xmlns="%s"><GetRoleResult><Role><Path>/</Path><RoleName>SageMakerRole</RoleName>'
                '<RoleId>AROA1</RoleId><Arn>%s</Arn><CreateDate>2024-01-01T00:00:00Z</CreateDate>'
                '<AssumeRolePolicyDocument>not a policy</AssumeRolePolicyDocument></Role></GetRoleResult>'
                '<ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></GetRoleResponse>' % (_IAM, ROLE))
#: (operation, body, content type) of answers no AWS service gives, each read by a check as a verdict before
QUEER = [
    ("GetBucketLocation", HTML, "text/html"),
    ("GetBucketLocation", '<LocationConstraint xmlns="http://s3.amazonaws.com/doc/2006-03-01/">Mars'
                          '</LocationConstraint>', "application/xml"),
    ("ListObjectsV2", HTML, "text/html"),
    ("ListObjectsV2", "", "application/xml"),
    ("DescribeSubnets", HTML, "text/html"),
    ("DescribeSecurityGroups", HTML, "text/html"),
    ("DescribeSubnets", '<DescribeSubnetsResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">'
     '<requestId>r</requestId><subnetSet><item><subnetId>subnet-0000</subnetId><vpcId>vpc-1</vpcId>'
     '<availableIpAddressCount>9</availableIpAddressCount></item></subnetSet></DescribeSubnetsResponse>',
     "text/xml"),  # not the subnet asked
    ("DescribeKey", {"KeyMetadata": {"KeyId": "k", "KeyState": 7}}, None),
    ("DescribeKey", {"KeyMetadata": None}, None),
    ("GetRole", GARBLED_ROLE, "text/xml"),
    ("GetRole", GARBLED_ROLE.replace("SageMakerRole", "Another").replace(
        "not a policy", "%7B%22Statement%22%3A%5B%5D%7D"), "text/xml"),  # another role's description
    ("ListServiceQuotas", {"Quotas": [{"QuotaName": "ml.p3dn.24xlarge for training job usage", "QuotaCode": "L-1",
                                       "Value": True}]}, None),
    ("ListServiceQuotas", {"Quotas": [{"QuotaName": "ml.p3dn.24xlarge for training job usage", "QuotaCode": "L-1",
                                       "Value": -1}]}, None),
]


@pytest.mark.parametrize("operation,body,kind", QUEER, ids=["%s-%d" % (q[0], i) for i, q in enumerate(QUEER)])
def test_an_answer_no_aws_service_gives_is_unknown_never_a_problem(world, fault_proxy, operation, body, kind):
    fault_proxy.add_fault(operation, kind="status", status=200, body=body, times=None,
                          headers={"Content-Type": kind} if kind else None)
    report = estimator(world, TWO).preflight(inputs(TWO))
    assert [(f.check, f.subject, f.detail) for f in report.problems] == []
    [permission] = [p for (_, name), p in ACTIONS.items() if name == operation]
    assert permission in [f.permission for f in report.unknowns]
