"""The verdicts of the role, image, KMS, S3 and VPC checks on what AWS answered. Pure.

Each function takes the subject and the answer (a dict as boto3 returns it, or a :class:`Missing`:
the call said the thing does not exist) and returns :class:`report.Finding` objects; what to do is
part of every problem.
"""
import json
from urllib.parse import unquote

import attrs

from sagemaker_hetero._preflight.report import IMAGE, KMS, OK, PROBLEM, ROLE, S3, VPC, Finding

__all__ = ["Missing", "SAGEMAKER", "TRUST_POLICY", "trusts_sagemaker", "role", "pass_role", "image", "key",
           "bucket_region", "bucket", "default_bucket", "data", "vpc"]

SAGEMAKER = "sagemaker.amazonaws.com"
#: The trust policy a SageMaker execution role needs.
TRUST_POLICY = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Service": SAGEMAKER},
                                                        "Action": "sts:AssumeRole"}]}


@attrs.frozen
class Missing(object):
    """An answer saying the thing asked about does not exist (``code``, ``message``: AWS's words)."""

    code = attrs.field()
    message = attrs.field()


def _words(value):
    return [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else []


def _names_sagemaker(statement):
    principal = statement.get("Principal")
    if principal == "*" or (isinstance(principal, dict) and principal.get("AWS") == "*"):
        return True
    return isinstance(principal, dict) and SAGEMAKER in _words(principal.get("Service"))


def _assumes(statement):
    return any(a in ("sts:AssumeRole", "sts:*", "*") for a in _words(statement.get("Action")))


def trusts_sagemaker(document):
    """Whether a role's trust policy (a dict, or IAM's URL-encoded JSON) lets SageMaker assume it: an
    Allow statement with ``sts:AssumeRole`` for ``sagemaker.amazonaws.com`` and no such Deny."""
    if isinstance(document, str):
        try:
            document = json.loads(unquote(document))
        except ValueError:
            return False
    statements = document.get("Statement") if isinstance(document, dict) else None
    statements = [statements] if isinstance(statements, dict) else statements or []
    matching = [s for s in statements if isinstance(s, dict) and _assumes(s) and _names_sagemaker(s)]
    return any(s.get("Effect") == "Allow" for s in matching) and not any(s.get("Effect") == "Deny" for s in matching)


def role(given, name, answer, account):
    """The role check's finding: ``answer`` is GetRole's ``Role`` (or :class:`Missing`) for the role
    ``given`` (``name``: its name) in ``account``."""
    subject = "role %s" % given
    if isinstance(answer, Missing):
        return Finding(ROLE, subject, PROBLEM, "there is no IAM role named %s in account %s" % (name, account),
                       argument="role", value=given,
                       fix="create it with the trust policy %s, or pass the ARN of an existing role"
                           % json.dumps(TRUST_POLICY))
    arn = answer.get("Arn")
    if not trusts_sagemaker(answer.get("AssumeRolePolicyDocument")):
        return Finding(ROLE, subject, PROBLEM, "its trust policy does not let %s assume it (SageMaker answers "
                                               "'Could not assume role')" % SAGEMAKER, argument="role", value=given,
                       fix="add this statement to its trust policy (aws iam update-assume-role-policy --role-name %s "
                           "--policy-document ...): %s" % (name, json.dumps(TRUST_POLICY["Statement"][0])))
    if given.startswith("arn:") and arn and given != arn:
        return Finding(ROLE, subject, PROBLEM, "the role's ARN is %s (its path is %s)" % (arn, answer.get("Path")),
                       argument="role", value=given, fix="pass role=%r (or the role's name)" % arn)
    return Finding(ROLE, subject, OK, "exists (%s) and trusts %s" % (arn, SAGEMAKER))


def pass_role(caller, role_arn, decision):
    """The PassRole finding of ``caller`` (a principal ARN) passing ``role_arn`` to SageMaker, from
    SimulatePrincipalPolicy's ``EvalDecision``."""
    subject = "iam:PassRole of %s" % role_arn
    if decision == "allowed":
        return Finding(ROLE, subject, OK, "%s may pass it to %s" % (caller, SAGEMAKER))
    statement = {"Effect": "Allow", "Action": "iam:PassRole", "Resource": role_arn,
                 "Condition": {"StringEquals": {"iam:PassedToService": SAGEMAKER}}}
    return Finding(ROLE, subject, PROBLEM, "%s may not pass it to %s (simulated: %s)" % (caller, SAGEMAKER, decision),
                   argument="role", value=role_arn,
                   fix="allow it in a policy of %s: %s" % (caller, json.dumps(statement)))


def image(uri, argument, answer, where):
    """The image check's finding for the ECR image ``uri`` (``where``: ``repository:tag`` or the
    digest) from DescribeImages' answer."""
    if isinstance(answer, Missing):
        what = "repository" if answer.code == "RepositoryNotFoundException" else "image"
        return Finding(IMAGE, uri, PROBLEM, "the %s does not exist in ECR (%s)" % (what, answer.message),
                       argument=argument, value=uri,
                       fix="push the image (docker push %s), or correct %s" % (uri, argument))
    return Finding(IMAGE, uri, OK, "%s exists in ECR" % where)


def key(argument, key_id, answer, region):
    """The KMS check's finding from DescribeKey's ``KeyMetadata`` (or :class:`Missing`) in ``region``."""
    if isinstance(answer, Missing):
        return Finding(KMS, key_id, PROBLEM, "there is no such KMS key in %s (%s)" % (region, answer.message),
                       argument=argument, value=key_id,
                       fix="pass a key of this account in %s (aws kms list-keys --region %s)" % (region, region))
    state = answer.get("KeyState")
    if state != "Enabled":
        fix = ("cancel its deletion: aws kms cancel-key-deletion --key-id %s, then enable it" % answer.get("KeyId")
               if state == "PendingDeletion" else "enable it: aws kms enable-key --key-id %s" % answer.get("KeyId"))
        return Finding(KMS, key_id, PROBLEM, "the key is %s" % state, argument=argument, value=key_id, fix=fix)
    return Finding(KMS, key_id, OK, "enabled, in %s" % region)


def bucket_region(location):
    """The region a GetBucketLocation ``LocationConstraint`` names (none: us-east-1; ``EU``: eu-west-1)."""
    return {None: "us-east-1", "": "us-east-1", "EU": "eu-west-1"}.get(location, location)


def bucket(subject, answer, region):
    """The S3 check's finding of a bucket from GetBucketLocation's answer (or :class:`Missing`)."""
    uri = "s3://%s" % subject.name
    if isinstance(answer, Missing):
        return Finding(S3, uri, PROBLEM, "the bucket does not exist", argument=subject.argument, value=subject.value,
                       fix="create it in %s (aws s3 mb %s --region %s), or correct %s" % (region, uri, region,
                                                                                         subject.argument))
    where = bucket_region(answer.get("LocationConstraint"))
    if where != region:
        return Finding(S3, uri, PROBLEM, "the bucket is in %s, the job runs in %s" % (where, region),
                       argument=subject.argument, value=subject.value,
                       fix="use a bucket in %s (copy the data: aws s3 sync), or run the job in %s" % (region, where))
    return Finding(S3, uri, OK, "in %s" % region)


def default_bucket(subject, region):
    """The S3 check's finding of the session's default bucket, without a call: its name is the job's
    region's, the session creates it there if it is missing and checks its owner at submission."""
    return Finding(S3, "s3://%s" % subject.name, OK, "the session's default bucket: created in %s if missing, "
                                                     "its owner checked at submission" % region)


def data(subject, answer):
    """The S3 check's finding of a prefix or object the job reads, from ListObjectsV2 (MaxKeys=1; a
    :class:`Missing` bucket)."""
    if isinstance(answer, Missing):
        return Finding(S3, subject.uri, PROBLEM, "the bucket %s does not exist" % subject.bucket,
                       argument=subject.argument, value=subject.uri,
                       fix="create it and upload the data, or correct %s" % subject.argument)
    contents = answer.get("Contents") or []
    if subject.object:
        found = any(o.get("Key") == subject.key for o in contents)
        what = "the object exists" if found else "there is no object %s" % subject.uri
    else:
        found = bool(answer.get("KeyCount") or contents)
        what = "holds objects" if found else "no S3 objects found under %s" % subject.uri
    if found:
        return Finding(S3, subject.uri, OK, what)
    return Finding(S3, subject.uri, PROBLEM, what, argument=subject.argument, value=subject.uri,
                   fix="upload the data there (aws s3 cp --recursive DIR %s), or correct %s"
                       % (subject.uri, subject.argument))


def _missing(kind, ids, have, argument):
    """A problem for each of ``ids`` not in ``have``."""
    return [Finding(VPC, item, PROBLEM, "the %s does not exist in this account and region" % kind,
                    argument="%s[%d]" % (argument, i), value=item,
                    fix="pass an existing %s's id (aws ec2 describe-%ss)" % (kind, kind.replace(" ", "-")))
            for i, item in enumerate(ids) if item not in have]


def vpc(subnet_ids, group_ids, subnets, groups, instances):
    """The VPC check's findings from DescribeSubnets' ``Subnets`` and DescribeSecurityGroups'
    ``SecurityGroups`` (those of the ids that exist): every id exists, all in one VPC, and the subnets
    have a free address per instance."""
    found = set(s.get("SubnetId") for s in subnets)
    out = _missing("subnet", subnet_ids, found, "subnets")
    out += _missing("security group", group_ids, set(g.get("GroupId") for g in groups), "security_group_ids")
    vpcs = {}
    for item in list(subnets) + list(groups):
        vpcs.setdefault(item.get("VpcId"), []).append(item.get("SubnetId") or item.get("GroupId"))
    if len(vpcs) > 1:
        detail = "; ".join("%s: %s" % (v, ", ".join(ids)) for v, ids in sorted(vpcs.items(), key=str))
        out.append(Finding(VPC, "subnets and security groups", PROBLEM,
                           "they belong to %d VPCs (%s)" % (len(vpcs), detail), argument="subnets",
                           value=list(subnet_ids), fix="pass subnets and security groups of one VPC"))
    free = sum(int(s.get("AvailableIpAddressCount") or 0) for s in subnets)
    if subnets and instances is not None and free < instances:
        out.append(Finding(VPC, ", ".join(sorted(found)), PROBLEM,
                           "%d free IP addresses for %d instances" % (free, instances), argument="subnets",
                           value=list(subnet_ids), fix="add subnets with free addresses, or free some"))
    if not out:
        out.append(Finding(VPC, ", ".join(list(subnet_ids) + list(group_ids)), OK, "one VPC (%s), %d free IP "
                           "addresses for %d instances" % (next(iter(vpcs), "?"), free, instances or 0)))
    return out
