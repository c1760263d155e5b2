"""The caller's role, as the SageMaker Python SDK v2 finds it: ``get_execution_role``'s logic.

:func:`caller_identity_arn` (``Session.get_caller_identity_arn``): inside a SageMaker notebook
instance or Studio (their metadata file, ``apps.STUDIO_METADATA_FILE``), the execution role its
metadata names or SageMaker describes (the notebook instance's, the user profile's, the domain's);
elsewhere the STS caller identity, an assumed role's session ARN turned into the role's ARN with
its path from IAM. :func:`execution_role` (``get_execution_role``) refuses an identity that is no
role, or with ``use_default`` makes and returns ``AmazonSageMaker-DefaultRole``. Every call goes
through ``errors.call``.
"""
import json
import os
import re

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._aws import apps, errors
from sagemaker_hetero._request import names

__all__ = ["caller_identity_arn", "execution_role", "notebook_metadata", "DEFAULT_ROLE_NAME", "DEFAULT_ROLE_POLICY"]

LOGGER = E.logger()  # its records shown (exceptions.shown)

#: The role ``get_execution_role(use_default=True)`` uses, created if missing (the SDK v2's name).
DEFAULT_ROLE_NAME = "AmazonSageMaker-DefaultRole"
#: The AWS managed policy attached to it.
DEFAULT_ROLE_POLICY = "AmazonSageMakerFullAccess"
_DEFAULT_ROLE_TRUST = {
    "Version": "2012-10-17",
    "Statement": [
        {"Effect": "Allow", "Principal": {"Service": ["sagemaker.amazonaws.com"]}, "Action": "sts:AssumeRole"}
    ],
}
#: Roles the SageMaker console creates live under ``service-role/``; the SDK v2 assumes that path for
#: a role of this name when IAM cannot be asked.
_CONSOLE_ROLE_NAME = "AmazonSageMaker-ExecutionRole"
# arn:PARTITION:sts::ACCOUNT:assumed-role/ROLE/SESSION (what GetCallerIdentity answers for a role)
_ASSUMED_ROLE = re.compile(r"^(.+)sts::(\d+):assumed-role/(.+?)/.*$")
_NOT_A_ROLE = (
    "The current AWS identity is not a role: {}, therefore it cannot be used as a SageMaker execution role"
)


def caller_identity_arn(clients, role_arn):
    """The ARN of the user or role whose credentials ``clients`` (a session's) use; ``role_arn(name)``
    looks a role's ARN (with its path) up in IAM."""
    metadata = notebook_metadata()
    if metadata is not None:
        arn = _notebook_role_arn(clients.client("sagemaker"), metadata)
        if arn:
            return arn
    identity = errors.call(clients.client("sts"), "GetCallerIdentity")["Arn"]
    match = _ASSUMED_ROLE.match(identity)
    if match is None:
        return identity  # a user, the account root, a federated user: not a role
    role = "%siam::%s:role/%s" % match.groups()
    try:
        return role_arn(match.group(3))  # GetRole: the role's ARN with its path
    except E.AWSError:
        LOGGER.warning("Couldn't call 'get_role' to get Role ARN from role name %s to get Role path.",
                       match.group(3))
        if _CONSOLE_ROLE_NAME in identity:
            LOGGER.warning("Assuming role was created in SageMaker AWS console, as the name contains "
                           "`%s`. Defaulting to Role ARN with service-role in path. If this Role ARN is "
                           "incorrect, please add IAM read permissions to your role or supply the Role Arn "
                           "directly.", _CONSOLE_ROLE_NAME)
            role = "%siam::%s:role/service-role/%s" % match.groups()
        return role


def _notebook_role_arn(client, metadata):
    """The execution role a notebook's metadata names or leads to, or None if SageMaker cannot say."""
    if metadata.get("ExecutionRoleArn") is not None:
        return metadata["ExecutionRoleArn"]
    domain_id = metadata.get("DomainId")
    try:
        if domain_id is None:
            described = errors.call(client, "DescribeNotebookInstance",
                                    NotebookInstanceName=metadata.get("ResourceName"))
            return described.get("RoleArn")
        profile = errors.call(client, "DescribeUserProfile", DomainId=domain_id,
                              UserProfileName=metadata.get("UserProfileName"))
        role = (profile.get("UserSettings") or {}).get("ExecutionRole")
        if role:
            return role
        domain = errors.call(client, "DescribeDomain", DomainId=domain_id)
        return (domain.get("DefaultUserSettings") or {}).get("ExecutionRole")
    except E.AWSError:
        LOGGER.debug("Couldn't call 'describe_notebook_instance' to get the Role ARN of the instance %s.",
                     metadata.get("ResourceName"))
        return None


def execution_role(arn, use_default, clients, region):
    """The execution role for the caller ``arn``: the ARN itself when it is a role's; else a ValueError,
    unless ``use_default``: ``DEFAULT_ROLE_NAME`` (trusting SageMaker, created if missing through
    ``clients``, with the managed policy ``DEFAULT_ROLE_POLICY`` of ``region``'s partition attached)."""
    if ":role/" in arn:
        return arn
    if use_default:
        LOGGER.warning("Using default role: %s", DEFAULT_ROLE_NAME)
        iam = clients.client("iam")
        try:
            errors.call(iam, "GetRole", RoleName=DEFAULT_ROLE_NAME)
        except E.ResourceNotFoundError:
            errors.call(iam, "CreateRole", RoleName=DEFAULT_ROLE_NAME,
                        AssumeRolePolicyDocument=json.dumps(_DEFAULT_ROLE_TRUST))
            LOGGER.warning("Created new sagemaker execution role: %s", DEFAULT_ROLE_NAME)
        partition = names.partition_for(region)
        errors.call(iam, "AttachRolePolicy", RoleName=DEFAULT_ROLE_NAME,
                    PolicyArn="arn:%s:iam::aws:policy/%s" % (partition, DEFAULT_ROLE_POLICY))
        return errors.call(iam, "GetRole", RoleName=DEFAULT_ROLE_NAME)["Role"]["Arn"]
    raise ValueError(_NOT_A_ROLE.format(E.shown(arn)))  # the ARN STS said: text in a traceback


def notebook_metadata():
    """The metadata of the SageMaker notebook instance or Studio app this runs in (a dict), else None."""
    path = apps.STUDIO_METADATA_FILE
    if not os.path.exists(path):
        return None
    try:
        with open(path, "rb") as handle:
            metadata = json.loads(handle.read())
    except (OSError, ValueError) as exc:
        LOGGER.warning("Could not read the notebook metadata %s (%s); asking STS who the caller is.", path, exc)
        return None
    return metadata if isinstance(metadata, dict) else None
