"""What a preflight found: one :class:`Finding` per check and subject, and the :class:`PreflightReport`
of a job as a text table, JSON or a :class:`PreflightError`. Pure.

Also the checks' names and the IAM actions each needs (:data:`PERMISSIONS`), from which
:func:`iam_policy` writes the policy docs/preflight.md shows.
"""
import json

import attrs

from sagemaker_hetero.exceptions import PreflightError, Problem, shown

__all__ = ["OK", "PROBLEM", "UNKNOWN", "QUOTAS", "ROLE", "IMAGE", "KMS", "S3", "VPC", "CHECKS", "DEFAULT_CHECKS",
           "PERMISSIONS", "ACTIONS", "Finding", "PreflightReport", "iam_policy", "unknown"]

OK, PROBLEM, UNKNOWN = "ok", "problem", "unknown"
QUOTAS, ROLE, IMAGE, KMS, S3, VPC = "quotas", "role", "image", "kms", "s3", "vpc"
#: Every check, in the order a preflight makes and reports them.
CHECKS = (QUOTAS, ROLE, IMAGE, KMS, S3, VPC)
#: What ``fit`` checks unless told otherwise: the cheap checks whose answers a session keeps.
DEFAULT_CHECKS = (QUOTAS, ROLE)
#: ``(boto3 service, operation) -> the IAM action it needs``, for every call a preflight makes.
ACTIONS = {
    ("service-quotas", "ListServiceQuotas"): "servicequotas:ListServiceQuotas",
    ("service-quotas", "GetServiceQuota"): "servicequotas:GetServiceQuota",
    ("sagemaker", "ListTrainingJobs"): "sagemaker:ListTrainingJobs",
    ("sagemaker", "DescribeTrainingJob"): "sagemaker:DescribeTrainingJob",
    ("sts", "GetCallerIdentity"): "sts:GetCallerIdentity",
    ("iam", "GetRole"): "iam:GetRole",
    ("iam", "SimulatePrincipalPolicy"): "iam:SimulatePrincipalPolicy",
    ("ecr", "DescribeImages"): "ecr:DescribeImages",
    ("kms", "DescribeKey"): "kms:DescribeKey",
    ("s3", "GetBucketLocation"): "s3:GetBucketLocation",
    ("s3", "ListObjectsV2"): "s3:ListBucket",
    ("ec2", "DescribeSubnets"): "ec2:DescribeSubnets",
    ("ec2", "DescribeSecurityGroups"): "ec2:DescribeSecurityGroups",
}
#: check -> the IAM actions it needs.
PERMISSIONS = {
    QUOTAS: ("servicequotas:ListServiceQuotas", "servicequotas:GetServiceQuota", "sagemaker:ListTrainingJobs",
             "sagemaker:DescribeTrainingJob"),
    ROLE: ("sts:GetCallerIdentity", "iam:GetRole", "iam:SimulatePrincipalPolicy"),
    IMAGE: ("ecr:DescribeImages",),
    KMS: ("kms:DescribeKey",),
    S3: ("s3:GetBucketLocation", "s3:ListBucket"),
    VPC: ("ec2:DescribeSubnets", "ec2:DescribeSecurityGroups"),
}
_HEADERS = ("check", "subject", "result", "detail")


def iam_policy(checks=CHECKS):
    """An IAM policy (a dict) allowing every action the checks need, one statement per check.

    Parameters
    ----------
    checks : tuple of str, optional
        The checks whose actions to allow (default: all of :data:`CHECKS`).
    """
    return {
        "Version": "2012-10-17",
        "Statement": [{"Sid": "Preflight" + (check.upper() if len(check) <= 3 else check.title()), "Effect": "Allow",
                       "Action": list(PERMISSIONS[check]), "Resource": "*"} for check in checks],
    }


@attrs.frozen
class Finding(object):
    """One check of one subject.

    Parameters
    ----------
    check : str
        One of :data:`CHECKS`.
    subject : str
        What was checked: a quota name, a role, an S3 URI, ...
    result : str
        ``ok``, ``problem`` or ``unknown``.
    detail : str
        What was found.
    argument : str, optional
        A problem's argument, as the user wrote it (``instance_groups[1].instance_type``).
    value : object, optional
        That argument's value.
    fix : str, optional
        What to do about a problem.
    permission : str, optional
        The IAM action an unknown needed.
    """

    check = attrs.field()
    subject = attrs.field()
    result = attrs.field()
    detail = attrs.field()
    argument = attrs.field(default=None)
    value = attrs.field(default=None)
    fix = attrs.field(default=None)
    permission = attrs.field(default=None)

    @property
    def text(self):
        """The detail with what to do after it."""
        return "%s; %s" % (self.detail, self.fix) if self.fix else self.detail

    def as_problem(self):
        """The finding as a :class:`Problem` of the user's argument."""
        message = "%s: %s" % (self.subject, self.text)
        if self.value is None:
            return Problem(self.argument or self.check, message)
        return Problem(self.argument or self.check, message, self.value)

    def as_dict(self):
        """The finding as a JSON-ready dict of its fields."""
        return dict((a.name, getattr(self, a.name)) for a in attrs.fields(Finding))


def unknown(check, subject, permission, why):
    """An unknown finding: the check could not be made (``why``; ``permission``: the IAM action missing)."""
    return Finding(check, subject, UNKNOWN, why, permission=permission)


@attrs.frozen
class PreflightReport(object):
    """Every finding of one preflight of one job, in check order; ``str(report)`` is the text table
    (check, subject, result, detail).

    Parameters
    ----------
    findings : iterable of Finding
        What each check of each subject found.
    region : str, optional
        The job's region.
    account : str, optional
        The AWS account checked.
    job_name : str, optional
        The job's name.
    """

    findings = attrs.field(converter=tuple)
    region = attrs.field(default=None)
    account = attrs.field(default=None)
    job_name = attrs.field(default=None)

    @property
    def problems(self):
        """The findings that are problems."""
        return [f for f in self.findings if f.result == PROBLEM]

    @property
    def unknowns(self):
        """The checks that could not be made."""
        return [f for f in self.findings if f.result == UNKNOWN]

    @property
    def ok(self):
        """True when no finding is a problem (unknowns are not)."""
        return not self.problems

    def text(self):
        """One row per finding under a header, columns aligned (the detail column is not cut); what AWS said
        in a row is shown, never terminal control."""
        rows = [_HEADERS] + [(f.check, f.subject, f.result, f.text) for f in self.findings]
        widths = [max(len(str(row[i])) for row in rows) for i in range(3)]
        lines = ["  ".join(str(cell).ljust(w) for cell, w in zip(row[:3], widths)) + "  " + str(row[3])
                 for row in rows]
        counts = (len(self.findings) - len(self.problems) - len(self.unknowns), len(self.problems), len(self.unknowns))
        lines.append("%d ok, %d problem%s, %d unknown (account %s, %s)" % (
            counts[0], counts[1], "" if counts[1] == 1 else "s", counts[2], self.account or "?", self.region or "?"))
        return shown("\n".join(lines))

    def as_dict(self):
        """The report as a JSON-ready dict: the counts and every finding."""
        return {"job_name": self.job_name, "account": self.account, "region": self.region, "ok": self.ok,
                "problems": len(self.problems), "unknowns": len(self.unknowns),
                "findings": [f.as_dict() for f in self.findings]}

    def to_json(self, **kwargs):
        """The report as JSON.

        Parameters
        ----------
        **kwargs
            ``json.dumps`` keyword arguments (``indent=2``, ...).
        """
        return json.dumps(self.as_dict(), default=repr, **kwargs)

    def error(self):
        """A :class:`PreflightError` listing every problem, or None without problems."""
        if self.ok:
            return None
        return PreflightError([f.as_problem() for f in self.problems], report=self,
                              subject="the training job in AWS account %s, %s (preflight)" % (
                                  self.account or "?", self.region or "?"))

    def raise_for_problems(self):
        """Raise :meth:`error` if there is a problem; return the report otherwise."""
        error = self.error()
        if error is not None:
            raise error
        return self

    def __str__(self):
        return self.text()
