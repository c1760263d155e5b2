"""From settings and the facts a session knows to the request and the code plan (pure)."""
import attrs

from sagemaker_hetero import _context, _request

__all__ = ["Facts", "Plan", "make_plan"]


@attrs.frozen
class Facts(object):
    """What a session knows: region, and (when looked up or given) account, bucket and role ARNs."""

    region = attrs.field()
    account_id = attrs.field(default=None)
    default_bucket = attrs.field(default=None)
    role_arns = attrs.field(factory=dict)

    def bucket(self):
        if self.default_bucket is not None:
            return self.default_bucket
        if self.account_id is not None:
            return _context.default_bucket_name(self.region, self.account_id)
        return _context.placeholder_bucket(self.region)


@attrs.frozen
class Plan(object):
    job_name = attrs.field()
    request = attrs.field()
    code = attrs.field()


def make_plan(settings, facts, now):
    """The request for validated ``settings``; ``now`` is the epoch time naming a default job."""
    region = facts.region
    job_name = settings.job_name or _request.default_job_name(settings, region, _context.timestamp(now))
    role_arn = facts.role_arns.get(settings.role) or _context.role_arn_for(settings.role, region, facts.account_id)
    context = _request.RenderContext(
        region=region, default_bucket=facts.bucket(), role_arn=role_arn, job_name=job_name
    )
    request = _request.render(settings, context)
    return Plan(job_name=job_name, request=request, code=_request.code_plan(settings, job_name, facts.bucket()))
