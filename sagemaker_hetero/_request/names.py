"""AWS names a dry run knows without a call: the region, partition, default bucket, role ARN and job name.

The region (the one region rule): ``AWS_DEFAULT_REGION`` (boto3's variable, so it wins as in
boto3 and the SDK v2), then ``AWS_REGION`` (the other AWS SDKs' and CLI's, which boto3 alone
ignores), then the profile's ``region`` in the AWS config file, read with the standard library only
(a dry run must not pay for importing boto3). Where none is configured, a dry run renders with the
placeholder ``<region>`` (:func:`dry_run_region`); a submission needs a real one (:func:`known_region`).
A default job name is ``{base}-{timestamp}`` as the
SDK v2 makes it, the clock passed in.
"""
import re

from sagemaker_hetero import _defaults as D
from sagemaker_hetero import utils
from sagemaker_hetero._model import images, outside
from sagemaker_hetero.exceptions import Problem

__all__ = ["configured_region", "dry_run_region", "known_region", "partition_for", "default_bucket_name", "role_arn_for",
           "NO_REGION", "no_region", "region_problems", "default_job_name", "image_base_name"]

#: What an estimator, a tuner or an app is passed to name a region.
SESSION_FIX = "or pass sagemaker_session=Session(boto_session=boto3.Session(region_name=...))"


def no_region(fix=SESSION_FIX):
    """What to do when no region is configured (the one region rule: an explicit session's, else
    ``AWS_DEFAULT_REGION``, ``AWS_REGION``, the profile's), ``fix`` saying what the caller is passed."""
    return ("no AWS region is configured: set AWS_REGION (or AWS_DEFAULT_REGION), a region in your AWS profile, "
            "%s" % fix)


#: :func:`no_region` for an estimator's ``sagemaker_session``.
NO_REGION = no_region()


def region_problems(region, argument, fix=SESSION_FIX, placeholder_ok=False):
    """THE region check: ``[]`` if ``region`` is a region (with ``placeholder_ok``, or the placeholder a
    dry run renders with), else the one problem of ``argument``, saying :func:`no_region`."""
    if (region if placeholder_ok else known_region(region)):
        return []
    return [Problem(argument, no_region(fix))]


def configured_region(environ):
    """The region the AWS configuration names: ``AWS_DEFAULT_REGION``, ``AWS_REGION``, then the
    ``region`` of the profile (``AWS_PROFILE``, else ``default``) in the AWS config file
    (``AWS_CONFIG_FILE``, else the default place; read by the edge, ``_model.outside.aws_config``); or
    None. ``environ``: the environment variables (a mapping, handed in: ``_aws.files.region_from_environment``
    hands in ``os.environ``)."""
    for key in ("AWS_DEFAULT_REGION", "AWS_REGION"):
        if environ.get(key):
            return environ[key]
    profile = environ.get("AWS_PROFILE") or environ.get("AWS_DEFAULT_PROFILE") or "default"
    text = outside.aws_config(environ.get("AWS_CONFIG_FILE") or None)
    if text is None:
        return None
    import configparser  # only when no variable names the region

    parser = configparser.RawConfigParser()
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    section = profile if profile == "default" else "profile %s" % profile
    for name in (section, profile):
        if parser.has_section(name) and parser.get(name, "region", fallback=None):
            return parser.get(name, "region").strip()
    return None


def dry_run_region(region):
    """The region a dry run renders with: ``region``, else the placeholder ``<region>``."""
    return region if region else D.REGION_PLACEHOLDER


def known_region(region):
    """``region`` if it is a region, None if it is unknown (None or the placeholder)."""
    return None if not region or region == D.REGION_PLACEHOLDER else region


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


def _base_name(job, region, image):
    if job.base_job_name:
        return job.base_job_name
    return image_base_name(images.image_or_none(job, region) if image is images.LOOK_UP else image)


def image_base_name(image):
    """The base of a default job name made from the training image: its repository name, with what a
    job name cannot hold replaced by hyphens (``training-job`` without an image)."""
    if not isinstance(image, str):
        return "training-job"
    base = utils.base_name_from_image(image)
    return re.sub(r"[^a-zA-Z0-9-]+", "-", base).strip("-") or "training-job"


def default_job_name(job, region, now, image=images.LOOK_UP):
    """``{base}-{timestamp}`` cut to 63 characters, as the SageMaker Python SDK v2 names jobs: the base
    is ``base_job_name``, else the repository name of the training ``image`` (default: looked up; None:
    none)."""
    return utils.name_with_timestamp(_base_name(job, region, image), utils.timestamp(now))
