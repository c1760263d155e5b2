"""Answers for the AWS operations moto 5.2.5 lacks, served by the test moto server in front of moto.

:class:`Answers` is a table ``(signing service, operation) -> handler``; the recording
:class:`tests._aws.MotoServer` asks it about every request before moto sees it. A handler takes the
:class:`tests._aws.RecordedRequest` and returns ``(status, headers, body)``, or None to let moto
answer. The bodies are what AWS sends, in the protocol and shapes of botocore's model (checked by
``tests/test_answers.py``), so the SDK's real client code parses them over HTTP. What the default
table answers, from a small account state each test may change (``aws.answers.quotas[...] = 0``):

* ``servicequotas`` ``ListServiceQuotas`` (``ServiceCode=sagemaker``, paginated, 100 a page) and
  ``GetServiceQuota``: :data:`HEALTHY_QUOTAS` (a few hundred ``ml.*`` training, spot and warm-pool
  quotas and the account-wide ones), values from ``quotas`` (name -> value; a name removed is a
  quota that does not exist), codes made from the name (:func:`quota_code`);
* ``iam`` ``SimulatePrincipalPolicy``: ``allowed`` for every action, ``implicitDeny`` for the
  actions in ``denied``;
* on request (:meth:`Answers.jobs_in_progress`), SageMaker training jobs in progress, which moto
  never has (its jobs are Completed at once): ListTrainingJobs and DescribeTrainingJob.

:meth:`Answers.plain` takes the canned answers away (the fixture ``plain_moto``): moto alone.

This is the tests' one table of canned answers: a :class:`tests._aws.FaultProxy` in front of the
server forwards what no fault takes, so its faults come first. The Price List's ``GetProducts`` is
answered on request (``tests/cost/_price_list.py`` adds it with :meth:`Answers.add`).
:func:`create_role` puts a role in moto's IAM over HTTP (no boto3 client: the fixtures use it for
every test).
"""
import hashlib
import http.client
import json
import time
from typing import Any, Callable, Dict, List, Optional, Tuple
from urllib.parse import urlencode
from xml.sax.saxutils import escape

__all__ = ["Answers", "HEALTHY_QUOTAS", "SAGEMAKER_TRUST", "quota_code", "create_role", "json_answer", "json_error"]

Response = Tuple[int, List[Tuple[str, str]], bytes]
Handler = Callable[[Any], Optional[Response]]

_SIZES = {
    "c5": ("xlarge", "2xlarge", "4xlarge", "9xlarge", "18xlarge"),
    "c5n": ("xlarge", "2xlarge", "4xlarge", "9xlarge", "18xlarge"),
    "m5": ("large", "xlarge", "2xlarge", "4xlarge", "12xlarge", "24xlarge"),
    "p3": ("2xlarge", "8xlarge", "16xlarge"),
    "p3dn": ("24xlarge",),
    "p4d": ("24xlarge",),
    "p4de": ("24xlarge",),
    "p5": ("48xlarge",),
    "g4dn": ("xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge"),
    "g5": ("xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "24xlarge", "48xlarge"),
    "trn1": ("2xlarge", "32xlarge"),
}
TYPES = ["ml.%s.%s" % (family, size) for family, sizes in sorted(_SIZES.items()) for size in sizes]
#: A healthy account's quotas (name -> value): 20 of each type, 100 instances in all, 5 days' runs.
HEALTHY_QUOTAS = dict(
    [("%s for training job usage" % t, 20.0) for t in TYPES]
    + [("%s for spot training job usage" % t, 20.0) for t in TYPES]
    + [("%s for training warm pool usage" % t, 20.0) for t in TYPES]
    + [("Number of instances across all training jobs", 100.0),
       ("Maximum number of instances per training job", 100.0),
       ("Longest run time for a training job", 432000.0),
       ("Number of training jobs", 1000.0)]
)
SAGEMAKER_TRUST = {
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}],
}
_PAGE = 100


def quota_code(name):
    """The quota code the answers give ``name``: ``L-`` and 8 hexadecimal digits of its SHA-1."""
    return "L-" + hashlib.sha1(name.encode("utf-8")).hexdigest()[:8].upper()


def _request_id():
    return "answers-%d" % int(time.time() * 1000000)


def json_answer(payload, status=200):
    # type: (Dict[str, Any], int) -> Response
    """An AWS JSON 1.1 protocol answer holding ``payload``."""
    body = json.dumps(payload).encode("utf-8")
    return status, [("Content-Type", "application/x-amz-json-1.1"), ("x-amzn-RequestId", _request_id())], body


def json_error(status, code, message):
    # type: (int, str, str) -> Response
    """An AWS JSON 1.1 protocol error answer."""
    return json_answer({"__type": code, "message": message}, status)


def _region(record):
    from tests._aws import REGION, credential_scope

    scope = credential_scope(record.headers, record.query)
    return scope[0] if scope else REGION


class Answers(object):
    """The answering table and the account state it answers from (see the module docstring)."""

    def __init__(self, account_id="123456789012"):
        self.account_id = account_id
        self.reset()

    def reset(self):
        # type: () -> None
        """A healthy account again, with only the default handlers."""
        self.quotas = dict(HEALTHY_QUOTAS)  # type: Dict[str, float]
        self.denied = set()  # type: set
        self.table = {
            ("servicequotas", "ListServiceQuotas"): self._list_service_quotas,
            ("servicequotas", "GetServiceQuota"): self._get_service_quota,
            ("iam", "SimulatePrincipalPolicy"): self._simulate_principal_policy,
        }  # type: Dict[Tuple[str, str], Handler]

    def plain(self):
        # type: () -> None
        """Moto alone, as a team testing its training code runs it: no answer for what moto lacks
        (Service Quotas, SimulatePrincipalPolicy: moto answers them with an HTML page), until
        :meth:`reset`; what was added with :meth:`add` stays."""
        for key in (("servicequotas", "ListServiceQuotas"), ("servicequotas", "GetServiceQuota"),
                    ("iam", "SimulatePrincipalPolicy")):
            self.table.pop(key, None)

    def add(self, service, operation, handler):
        # type: (str, str, Handler) -> None
        """Answer ``operation`` of ``service`` (its signing name) with ``handler(record)``."""
        self.table[(service, operation)] = handler

    def answer(self, record):
        # type: (Any) -> Optional[Response]
        """The answer to ``record``, or None: moto answers it."""
        handler = self.table.get((record.service, record.operation))
        return handler(record) if handler is not None else None

    # -- Service Quotas --------------------------------------------------------------------------

    def quota(self, name, region):
        # type: (str, str) -> Dict[str, Any]
        """One quota as Service Quotas describes it."""
        code = quota_code(name)
        return {
            "ServiceCode": "sagemaker",
            "ServiceName": "Amazon SageMaker",
            "QuotaArn": "arn:aws:servicequotas:%s:%s:sagemaker/%s" % (region, self.account_id, code),
            "QuotaCode": code,
            "QuotaName": name,
            "Value": float(self.quotas[name]),
            "Unit": "Seconds" if "run time" in name else "None",
            "Adjustable": True,
            "GlobalQuota": False,
        }

    def _list_service_quotas(self, record):
        # type: (Any) -> Response
        params = record.json or {}
        if params.get("ServiceCode") != "sagemaker":
            return json_error(400, "NoSuchResourceException", "The request failed because the specified service "
                                                              "does not exist.")
        start = int(params.get("NextToken") or 0)
        size = min(int(params.get("MaxResults") or _PAGE), _PAGE)
        names = sorted(self.quotas)
        page = {"Quotas": [self.quota(n, _region(record)) for n in names[start:start + size]]}
        if start + size < len(names):
            page["NextToken"] = str(start + size)
        return json_answer(page)

    def _get_service_quota(self, record):
        # type: (Any) -> Response
        params = record.json or {}
        by_code = dict((quota_code(n), n) for n in self.quotas)
        name = by_code.get(params.get("QuotaCode")) if params.get("ServiceCode") == "sagemaker" else None
        if name is None:
            return json_error(400, "NoSuchResourceException", "The request failed because the specified resource "
                                                              "does not exist.")
        return json_answer({"Quota": self.quota(name, _region(record))})

    # -- SageMaker: jobs in progress -------------------------------------------------------------

    def jobs_in_progress(self, jobs):
        # type: (Dict[str, Tuple[List[Tuple[str, str, int]], bool]]) -> None
        """Have ListTrainingJobs (``StatusEquals=InProgress``) and DescribeTrainingJob answer with
        ``jobs`` (name -> ``([(group, type, count)], spot)``) in progress; other calls go to moto
        (whose jobs are Completed at once)."""
        descriptions = dict((name, self.in_progress_description(name, groups, spot))
                            for name, (groups, spot) in jobs.items())

        def listed(record):
            if (record.json or {}).get("StatusEquals") != "InProgress":
                return None
            return json_answer({"TrainingJobSummaries": [
                dict((k, d[k]) for k in ("TrainingJobName", "TrainingJobArn", "CreationTime", "TrainingJobStatus"))
                for d in descriptions.values()]})

        def described(record):
            found = descriptions.get((record.json or {}).get("TrainingJobName"))
            return json_answer(found) if found is not None else None

        self.add("sagemaker", "ListTrainingJobs", listed)
        self.add("sagemaker", "DescribeTrainingJob", described)

    def in_progress_description(self, name, groups, spot=False):
        # type: (str, List[Tuple[str, str, int]], bool) -> Dict[str, Any]
        """DescribeTrainingJob's answer for a job in progress on ``groups`` (JSON: times in seconds)."""
        return {
            "TrainingJobName": name,
            "TrainingJobArn": "arn:aws:sagemaker:us-west-2:%s:training-job/%s" % (self.account_id, name),
            "TrainingJobStatus": "InProgress",
            "SecondaryStatus": "Training",
            "ModelArtifacts": {"S3ModelArtifacts": ""},
            "AlgorithmSpecification": {"TrainingImage": "%s.dkr.ecr.us-west-2.amazonaws.com/other:1" % self.account_id,
                                       "TrainingInputMode": "File"},
            "RoleArn": "arn:aws:iam::%s:role/SageMakerRole" % self.account_id,
            "ResourceConfig": {"VolumeSizeInGB": 30, "InstanceGroups": [
                {"InstanceGroupName": g, "InstanceType": t, "InstanceCount": c} for g, t, c in groups]},
            "StoppingCondition": {"MaxRuntimeInSeconds": 86400},
            "EnableManagedSpotTraining": spot,
            "CreationTime": 1700000000.0,
        }

    # -- IAM -------------------------------------------------------------------------------------

    def _simulate_principal_policy(self, record):
        # type: (Any) -> Response
        form = record.form or {}
        actions = [v for k, v in sorted(form.items(), key=_member_order) if k.startswith("ActionNames.member.")]
        resources = [v for k, v in sorted(form.items(), key=_member_order) if k.startswith("ResourceArns.member.")]
        results = []
        for action in actions:
            for resource in resources or ["*"]:
                decision = "implicitDeny" if action in self.denied else "allowed"
                results.append(
                    "<member><EvalActionName>%s</EvalActionName><EvalResourceName>%s</EvalResourceName>"
                    "<EvalDecision>%s</EvalDecision><MatchedStatements/><MissingContextValues/></member>"
                    % (escape(action), escape(resource), decision))
        body = (
            '<SimulatePrincipalPolicyResponse xmlns="https://iam.amazonaws.com/doc/2010-05-08/">'
            "<SimulatePrincipalPolicyResult><IsTruncated>false</IsTruncated><EvaluationResults>%s"
            "</EvaluationResults></SimulatePrincipalPolicyResult><ResponseMetadata><RequestId>%s</RequestId>"
            "</ResponseMetadata></SimulatePrincipalPolicyResponse>" % ("".join(results), _request_id())
        ).encode("utf-8")
        return 200, [("Content-Type", "text/xml")], body


def _member_order(item):
    key = item[0]
    head, _, number = key.rpartition(".")
    return (head, int(number)) if number.isdigit() else (key, 0)


def create_role(url, name, trust=None, path="/"):
    # type: (str, str, Optional[Dict[str, Any]], str) -> None
    """Create the IAM role ``name`` (trusting SageMaker unless ``trust`` says otherwise) in the moto
    server at ``url``, with one HTTP request (moto reads the service from the credential scope)."""
    host, _, port = url.split("//", 1)[1].partition(":")
    body = urlencode({"Action": "CreateRole", "Version": "2010-05-08", "RoleName": name, "Path": path,
                      "AssumeRolePolicyDocument": json.dumps(trust or SAGEMAKER_TRUST)})
    headers = {"Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
               "Authorization": "AWS4-HMAC-SHA256 Credential=testing/20240101/us-east-1/iam/aws4_request, "
                                "SignedHeaders=host, Signature=0"}
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request("POST", "/", body=body, headers=headers)
        response = conn.getresponse()
        payload = response.read()
        if response.status != 200:
            raise RuntimeError("CreateRole %s failed: HTTP %d %r" % (name, response.status, payload[:300]))
    finally:
        conn.close()
