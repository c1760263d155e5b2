"""What the checks read from an AWS answer, each value of the type and range AWS gives it. Pure.

An answer of another shape (an emulator's, a proxy's, an HTML page an XML parser read as an empty
answer) raises ``ValueError`` naming the field: read inside :meth:`ask.Asker.call`, it makes the call
unanswered ("unknown"), never a verdict: a problem is told only from an answer that says so.
"""
import json
import math
import re
from urllib.parse import unquote

__all__ = ["quota_item", "quota_value", "job_name", "location", "listing", "subnets", "groups", "key_metadata", "role",
           "KEY_STATES"]

#: The states DescribeKey gives a KMS key.
KEY_STATES = ("Creating", "Enabled", "Disabled", "PendingDeletion", "PendingImport", "PendingReplicaDeletion",
              "Unavailable", "Updating")
_REGION = re.compile(r"^[a-z]{2}(-[a-z]+)+-\d{1,2}$")


def _wrong(what, value):
    return ValueError("%s is %.80r, not what AWS answers" % (what, value))


def _text(what, value):
    if not isinstance(value, str) or not value:
        raise _wrong(what, value)
    return value


def quota_value(value, what="the quota's Value"):
    """A quota's value: a finite number >= 0 (not a string, a boolean or null)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise _wrong(what, value)
    return float(value)


def quota_item(item):
    """``(name, code, value or None)`` of one quota ListServiceQuotas lists."""
    value = item.get("Value")
    return (_text("QuotaName", item.get("QuotaName")), _text("QuotaCode", item.get("QuotaCode")),
            None if value is None else quota_value(value))


def job_name(summary):
    """The name of a job ListTrainingJobs lists."""
    return _text("TrainingJobName", summary.get("TrainingJobName"))


def location(answer):
    """GetBucketLocation's ``LocationConstraint`` (None for us-east-1): a region's name, ``EU`` or
    none, and none only in an answer that AWS marks as its own (a request id)."""
    where = answer.get("LocationConstraint")
    if where in (None, ""):
        if not (answer.get("ResponseMetadata") or {}).get("RequestId"):
            raise ValueError("GetBucketLocation's answer names no region and has no request id: not S3's answer")
        return None
    if where != "EU" and not (isinstance(where, str) and _REGION.match(where)):
        raise _wrong("LocationConstraint", where)
    return where


def listing(answer):
    """ListObjectsV2's answer, which lists objects (each with its ``Key``) or counts them (``KeyCount``)."""
    contents = answer.get("Contents", [])
    if not isinstance(contents, list) or not all(isinstance(o, dict) and isinstance(o.get("Key"), str)
                                                  for o in contents):
        raise _wrong("Contents", contents)
    count = answer.get("KeyCount")
    if not contents and (isinstance(count, bool) or not isinstance(count, int)):
        raise _wrong("KeyCount", count)
    return answer


def _vpc_items(key, id_field, asked, counted):
    """A reader of DescribeSubnets' or DescribeSecurityGroups' list ``key``: dicts naming one of the ids
    ``asked`` (the filter asked for no other) and their VPC (and, ``counted``, their free addresses)."""
    def read(answer):
        found = answer.get(key)
        if not isinstance(found, list):
            raise _wrong(key, found)
        for item in found:
            free = item.get("AvailableIpAddressCount") if isinstance(item, dict) else None
            if (not isinstance(item, dict) or item.get(id_field) not in asked
                    or not str(item.get("VpcId") or "").startswith("vpc-")
                    or (counted and (isinstance(free, bool) or not isinstance(free, int) or free < 0))):
                raise _wrong("an item of %s" % key, item)
        return found
    return read


def subnets(asked):
    """A reader of DescribeSubnets' ``Subnets`` for the subnet ids ``asked``."""
    return _vpc_items("Subnets", "SubnetId", list(asked), True)


def groups(asked):
    """A reader of DescribeSecurityGroups' ``SecurityGroups`` for the group ids ``asked``."""
    return _vpc_items("SecurityGroups", "GroupId", list(asked), False)


def key_metadata(answer):
    """DescribeKey's ``KeyMetadata``, with a ``KeyState`` KMS gives."""
    metadata = answer.get("KeyMetadata")
    if not isinstance(metadata, dict) or metadata.get("KeyState") not in KEY_STATES:
        raise _wrong("KeyMetadata", metadata)
    return metadata


def role(answer, name):
    """GetRole's ``Role`` for the role ``name`` (its ``RoleName``, which IAM compares without case), with
    an ``Arn`` and a trust policy (a document, or IAM's URL-encoded JSON)."""
    if not isinstance(answer, dict):
        raise _wrong("Role", answer)
    if str(answer.get("RoleName")).lower() != name.lower():
        raise _wrong("the RoleName of GetRole's answer for %s" % name, answer.get("RoleName"))
    if not _text("the role's Arn", answer.get("Arn")).startswith("arn:"):
        raise _wrong("the role's Arn", answer.get("Arn"))
    document = answer.get("AssumeRolePolicyDocument")
    decoded = document
    if isinstance(document, str):
        try:
            decoded = json.loads(unquote(document))
        except ValueError:
            decoded = None
    statements = decoded.get("Statement") if isinstance(decoded, dict) else None
    if not isinstance(statements, (list, dict)):
        raise _wrong("AssumeRolePolicyDocument", document)
    return answer
