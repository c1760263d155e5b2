"""What a dry run knows without a network: the region from the usual AWS configuration.

Reads ``AWS_DEFAULT_REGION`` (boto3's variable, so it wins as in boto3 and the SDK v2), then
``AWS_REGION`` (the other AWS SDKs' and CLI's, which boto3 alone ignores), then the profile's
``region`` in the AWS config file, with the standard library only (a dry run must not pay for importing boto3).
"""
import os

from sagemaker_hetero import _defaults as D

__all__ = ["region_from_environment", "partition_for", "default_bucket_name", "role_arn_for", "NO_REGION"]

#: What to do when no region is configured (the one region rule: an explicit session's, else
#: ``AWS_DEFAULT_REGION``, ``AWS_REGION``, the profile's).
NO_REGION = (
    "no AWS region is configured: set AWS_REGION (or AWS_DEFAULT_REGION), a region in your AWS profile, "
    "or pass sagemaker_session=Session(boto_session=boto3.Session(region_name=...))"
)


def region_from_environment(environ=None):
    """The region the AWS configuration names: ``AWS_DEFAULT_REGION``, ``AWS_REGION``, then the
    ``region`` of the profile (``AWS_PROFILE``, else ``default``) in the AWS config file; or None."""
    env = os.environ if environ is None else environ
    for key in ("AWS_DEFAULT_REGION", "AWS_REGION"):
        if env.get(key):
            return env[key]
    profile = env.get("AWS_PROFILE") or env.get("AWS_DEFAULT_PROFILE") or "default"
    path = env.get("AWS_CONFIG_FILE") or os.path.join(os.path.expanduser("~"), ".aws", "config")
    import configparser  # only when no variable names the region

    parser = configparser.RawConfigParser()
    try:
        parser.read(path)
    except configparser.Error:
        return None
    section = profile if profile == "default" else "profile %s" % profile
    for name in (section, profile):
        if parser.has_section(name) and parser.get(name, "region", fallback=None):
            return parser.get(name, "region").strip()
    return None


def partition_for(region):
    if region.startswith("cn-"):
        return "aws-cn"
    if region.startswith("us-gov-"):
        return "aws-us-gov"
    return "aws"


def default_bucket_name(region, account_id):
    return "sagemaker-%s-%s" % (region, account_id)


def role_arn_for(role, region, account_id=None):
    """An IAM role ARN as given, or the ARN a plain role name has (placeholder account if unknown).

    A role with a path (``service-role/...``) cannot be known without IAM; the real submission
    looks the name up instead.
    """
    if not isinstance(role, str) or role.startswith("arn:"):
        return role
    return "arn:%s:iam::%s:role/%s" % (partition_for(region or ""), account_id or D.ACCOUNT_PLACEHOLDER, role)
