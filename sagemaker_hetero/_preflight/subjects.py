"""What a preflight checks, read from a :class:`~._request.plan.Plan`: its job model and rendered request. Pure.

Nothing here is derived again or parsed back from the request: the groups, spot and warm-pool use,
role, keys, channels and VPC come from the job model; the image, output path, checkpoint and role
ARN from the request the plan holds; the code archive's place from the plan; the default bucket
from the plan's facts. Each subject carries the user's argument and value, so a problem is told in
the user's terms.
"""
import re

import attrs

from sagemaker_hetero._model.job import INPUT, MODEL
from sagemaker_hetero._request import plan as _plan
from sagemaker_hetero._request import s3_uris
from sagemaker_hetero._request.describe import value_at

__all__ = ["Subjects", "Data", "Bucket", "subjects_of", "role_name", "ecr_image", "key_region", "DATA_TYPES"]

#: ``S3DataType`` values whose URI names one object (a manifest), not a prefix.
DATA_TYPES = ("ManifestFile", "AugmentedManifestFile")
# <account>.dkr.ecr.<region>.amazonaws.com[.cn]/<repository>[:<tag>][@<digest>]
_ECR = re.compile(r"^(?P<account>\d{12})\.dkr\.ecr(-fips)?\.(?P<region>[a-z0-9-]+)\.amazonaws\.com(\.cn)?/"
                  r"(?P<repository>[^:@]+)(:(?P<tag>[^@]+))?(@(?P<digest>sha256:[0-9a-f]{64}))?$")


@attrs.frozen
class Data(object):
    """An S3 location the job reads: ``object`` True when it must be one object (a manifest, an S3
    code archive), else a prefix that must hold at least one object."""

    argument = attrs.field()
    uri = attrs.field()
    bucket = attrs.field()
    key = attrs.field()
    object = attrs.field(default=False)


@attrs.frozen
class Bucket(object):
    """A bucket the job reads or writes, with the first argument naming it; ``default`` when it is
    the session's default bucket (created at submission if missing)."""

    name = attrs.field()
    argument = attrs.field()
    value = attrs.field()
    default = attrs.field(default=False)


@attrs.frozen
class Subjects(object):
    """Everything one job asks of the account."""

    job = attrs.field(repr=False)
    region = attrs.field()
    account = attrs.field()
    role = attrs.field()  # as the user gave it (a name or an ARN), or None
    role_arn = attrs.field()  # as the request holds it
    image = attrs.field()
    image_from_table = attrs.field()  # the Deep Learning Containers table chose it (no image_uri)
    keys = attrs.field()  # ((argument, key id, ARN or alias), ...)
    data = attrs.field()  # (Data, ...)
    buckets = attrs.field()  # (Bucket, ...)
    subnets = attrs.field()  # (subnet id, ...) or ()
    security_groups = attrs.field()  # (group id, ...) or ()


def subjects_of(plan):
    """The :class:`Subjects` of ``plan``."""
    job, request = plan.job, plan.request
    vpc = request.get("VpcConfig") or {}
    return Subjects(
        job=job,
        region=plan.region,
        account=plan.facts.account_id if plan.facts is not None else None,
        role=job.role,
        role_arn=request.get("RoleArn"),
        image=plan.image,
        image_from_table=job.image_uri is None,
        keys=tuple((arg, key) for arg, key in (("volume_kms_key", job.volume_kms_key),
                                               ("output_kms_key", job.output_kms_key)) if key),
        data=tuple(_data(plan)),
        buckets=tuple(_buckets(plan)),
        subnets=tuple(vpc.get("Subnets") or ()),
        security_groups=tuple(vpc.get("SecurityGroupIds") or ()),
    )


def _data(plan):
    for channel in plan.job.channels:
        if channel.kind in (INPUT, MODEL) and s3_uris.is_s3_uri(channel.uri):
            bucket, key = s3_uris.parse_s3_uri(channel.uri)
            argument = channel.arg if channel.plain else "%s.s3_data" % channel.arg
            yield Data(argument, channel.uri, bucket, key, object=channel.data_type in DATA_TYPES)
    if plan.code is not None and not plan.code.upload:  # an archive in S3 already: it must be there
        bucket, key = s3_uris.parse_s3_uri(plan.code.s3_uri)
        yield Data("source_dir", plan.code.s3_uri, bucket, key, object=True)


def _buckets(plan):
    """Each bucket once, under the first argument that names it: inputs, output, checkpoint, code."""
    request = plan.request
    default = plan.facts.bucket() if plan.facts is not None else None  # a placeholder's name without an account
    places = [(d.argument, d.uri) for d in _data(plan)]
    places.append(("output_path", value_at(request, ("OutputDataConfig", "S3OutputPath"))))
    places.append(("checkpoint_s3_uri", value_at(request, ("CheckpointConfig", "S3Uri"))))
    if plan.code is not None and plan.code.upload:
        places.append(("code_location", plan.code.s3_uri))
    seen = set()
    for argument, uri in places:
        if not s3_uris.is_s3_uri(uri):
            continue
        name = s3_uris.parse_s3_uri(uri)[0]
        if name in seen:
            continue
        seen.add(name)
        is_default = name == default and (_plan.needs_default_bucket(plan.job) or plan.job.makes_default_bucket)
        yield Bucket(name, argument, uri, default=is_default)


def role_name(role):
    """``(name, account or None)`` of a role given as a name or an ARN (``arn:...:role/path/name``)."""
    if not isinstance(role, str):
        return None, None
    if not role.startswith("arn:"):
        return role, None
    parts = role.split(":", 5)
    if len(parts) < 6 or not parts[5].startswith("role/"):
        return None, None
    return parts[5].rsplit("/", 1)[-1], parts[4] or None


def ecr_image(uri):
    """``(account, region, repository, tag, digest)`` of an ECR image URI, else None."""
    match = _ECR.match(uri or "")
    if match is None:
        return None
    return match.group("account"), match.group("region"), match.group("repository"), match.group("tag"), \
        match.group("digest")


def key_region(key):
    """The region in a KMS key or alias ARN (``arn:aws:kms:REGION:...``), else None (an id or alias)."""
    parts = key.split(":") if isinstance(key, str) and key.startswith("arn:") else []
    return parts[3] if len(parts) > 5 and parts[2] == "kms" else None
