"""The report's table, JSON and error; the permissions; what fit's preflight argument means (no AWS)."""
import json

import pytest

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._preflight import modes
from sagemaker_hetero._preflight.report import (ACTIONS, CHECKS, DEFAULT_CHECKS, PERMISSIONS, Finding, PreflightReport,
                                                iam_policy, unknown)

FINDINGS = [
    Finding("quotas", "ml.p4d.24xlarge for training job usage", "problem", "1 requested, 0 in use, quota 0",
            argument="instance_groups[1].instance_type", value="ml.p4d.24xlarge", fix="request an increase"),
    Finding("role", "role arn:aws:iam::1:role/R", "ok", "exists"),
    unknown("s3", "s3://b", "s3:GetBucketLocation", "access denied: the caller needs s3:GetBucketLocation"),
]


def test_the_table_has_a_row_per_finding_and_a_count():
    report = PreflightReport(FINDINGS, region="us-west-2", account="1", job_name="j")
    lines = str(report).splitlines()
    assert lines[0].split() == ["check", "subject", "result", "detail"]
    assert lines[1].split()[:3] == ["quotas", "ml.p4d.24xlarge", "for"] and "problem" in lines[1]
    assert lines[1].endswith("1 requested, 0 in use, quota 0; request an increase")
    assert lines[-1] == "1 ok, 1 problem, 1 unknown (account 1, us-west-2)"
    columns = [line.index(word) for line, word in zip(lines, ("result", "problem", " ok ", "unknown"))]
    assert columns[1:] == [columns[0], columns[0] - 1, columns[0]]  # the result column is aligned


def test_json_and_the_error_name_the_argument_value_and_what_to_do():
    report = PreflightReport(FINDINGS, region="us-west-2", account="1", job_name="j")
    data = json.loads(report.to_json())
    assert (data["ok"], data["problems"], data["unknowns"]) == (False, 1, 1)
    assert data["findings"][2]["permission"] == "s3:GetBucketLocation"
    error = report.error()
    assert isinstance(error, E.PreflightError) and isinstance(error, E.ConfigError) and error.report is report
    [problem] = error.problems
    assert (problem.path, problem.value) == ("instance_groups[1].instance_type", "ml.p4d.24xlarge")
    assert str(error).splitlines()[1] == (
        "  - instance_groups[1].instance_type: ml.p4d.24xlarge for training job usage: 1 requested, 0 in use, "
        "quota 0; request an increase (got 'ml.p4d.24xlarge')")
    with pytest.raises(E.PreflightError):
        report.raise_for_problems()
    healthy = PreflightReport(FINDINGS[1:])
    assert healthy.ok and healthy.error() is None and healthy.raise_for_problems() is healthy


def test_the_policy_allows_every_action_a_preflight_calls():
    assert set(ACTIONS.values()) == set(a for actions in PERMISSIONS.values() for a in actions)
    policy = iam_policy()
    assert [s["Sid"] for s in policy["Statement"]] == ["PreflightQuotas", "PreflightRole", "PreflightImage",
                                                      "PreflightKMS", "PreflightS3", "PreflightVPC"]
    default = iam_policy(DEFAULT_CHECKS)["Statement"]
    assert [s["Action"] for s in default] == [list(PERMISSIONS[c]) for c in DEFAULT_CHECKS]


def test_the_docs_policy_is_the_one_the_package_writes():
    import os
    import re

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "docs", "preflight.md")) as handle:
        [block] = re.findall(r"^```json\n(.*?)^```", handle.read(), re.M | re.S)
    assert json.loads(block) == iam_policy()


@pytest.mark.parametrize("value, checks", [
    (None, DEFAULT_CHECKS), (True, CHECKS), ("warn", CHECKS), (False, ()), (["s3", "role"], ("role", "s3")),
    ("s3", None), (["s4"], None), (1, None),
])
def test_what_each_preflight_value_means(value, checks):
    assert modes.checks_of(value) == checks


def test_a_wrong_preflight_value_is_a_problem_and_so_is_one_that_cannot_apply():
    [problem] = modes.problems("always")
    assert problem.path == "preflight" and "True, False, 'warn'" in problem.message
    assert "a dry run sends nothing" in modes.problems(True, dry_run=True)[0].message
    assert "local run" in modes.problems("warn", local=True)[0].message
    assert modes.problems(None, local=True, dry_run=True) == [] and modes.problems(False, dry_run=True) == []
