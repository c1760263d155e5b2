"""From the job model and what a session knows to the request, and every problem before it. Pure.

A :class:`Plan` is the hand-off to every edge: the job, its name, the request (rendered once by
``_wire``), where the code archive goes, and the origins that name each part of the request in
the user's terms. :func:`check` is round one of validation, the same for a dry run, AWS and a
local run: the builder's and the session's problems, our own rules (``_validate``), then the
service's field limits on the rendered request (``_service``, botocore's model), each problem
under the user's argument name and reported once.
"""
import re

import attrs

from sagemaker_hetero import utils
from sagemaker_hetero._checks import rules as _validate
from sagemaker_hetero._checks import service as _service
from sagemaker_hetero._request import render as _wire
from sagemaker_hetero._request import s3_uris
from sagemaker_hetero._request import names as _context
from sagemaker_hetero._model import variables as _variables
from sagemaker_hetero._model import images as _images
from sagemaker_hetero._model import build as _build
from sagemaker_hetero import _defaults as D
from sagemaker_hetero.exceptions import Problem

__all__ = ["Facts", "CodePlan", "Plan", "prepare", "make_plan", "check", "service_problems", "rendered_problems",
           "default_job_name", "image_base_name", "needs_default_bucket"]

_OPERATION = "CreateTrainingJob"


@attrs.frozen
class Facts(object):
    """What a session knows: region, (when looked up or given) account, bucket and role ARNs, and
    whether it runs jobs locally."""

    region = attrs.field()
    account_id = attrs.field(default=None)
    default_bucket = attrs.field(default=None)
    default_bucket_prefix = attrs.field(default=None)
    role_arns = attrs.field(factory=dict)
    local = attrs.field(default=False)  # the job runs on this machine (LocalSession)

    def bucket(self):
        if self.default_bucket is not None:
            return self.default_bucket
        return _context.default_bucket_name(self.region, self.account_id or D.ACCOUNT_PLACEHOLDER)

    def role_arn(self, role):
        if isinstance(role, str) and role in self.role_arns:
            return self.role_arns[role]
        return _context.role_arn_for(role, self.region, self.account_id)

    def stand_in(self):
        """These facts with a valid stand-in for an unknown account (to check a request that would
        otherwise show a placeholder)."""
        return self if self.account_id is not None else attrs.evolve(self, account_id=D.ZERO_ACCOUNT_ID)


@attrs.frozen
class CodePlan(object):
    """Where the code archive lives (``upload`` False when ``source_dir`` already is an S3 archive)."""

    s3_uri = attrs.field()
    upload = attrs.field()


@attrs.frozen
class Plan(object):
    """One job ready to go: the model, its name, the rendered request (with the origins of its
    parts), where its code archive goes (None: no code) and the region it was rendered for."""

    job = attrs.field()
    job_name = attrs.field()
    rendered = attrs.field(repr=False)
    code = attrs.field()
    region = attrs.field(default=None)
    facts = attrs.field(default=None, repr=False)
    code_digest = attrs.field(default=None)

    @property
    def request(self):
        """The CreateTrainingJob request: ``create_training_job(**plan.request)``."""
        return self.rendered.request


def _base_name(job, region):
    if job.base_job_name:
        return job.base_job_name
    try:
        image = _images.training_image(job, region)
    except _images.ImageLookupError:
        image = None
    return image_base_name(image)


def image_base_name(image):
    """The base of a default job name made from the training image: its repository name, with what a
    job name cannot hold replaced by hyphens (``training-job`` without an image)."""
    if not isinstance(image, str):
        return "training-job"
    base = utils.base_name_from_image(image)
    return re.sub(r"[^a-zA-Z0-9-]+", "-", base).strip("-") or "training-job"


def default_job_name(job, region, now):
    """``{base}-{timestamp}`` cut to 63 characters, as the SageMaker Python SDK v2 names jobs: the base
    is ``base_job_name``, else the image's repository name."""
    return utils.name_with_timestamp(_base_name(job, region), utils.timestamp(now))


def output_path(job, facts):
    """The job's output path: its own, else the default bucket (under the session's key prefix)."""
    if job.output_path is not None:
        return job.output_path
    return "s3://%s/" % s3_uris.s3_key(facts.bucket(), facts.default_bucket_prefix, "")


def needs_default_bucket(job):
    """Whether the job writes to the default bucket: its output (no ``output_path``), or its code
    (no ``code_location`` and no S3 ``output_path`` to put it beside)."""
    if job.output_path is None:
        return True
    code = job.code
    return code is not None and not code.in_s3 and code.location is None and not s3_uris.is_s3_uri(job.output_path)


def code_plan(job, job_name, facts, digest=None):
    """Where the code archive lives, or None when the job ships no code: under ``code_location``,
    else in the output path's bucket, else in the default bucket under its key prefix (the SDK v2's
    places). Under that prefix the key is the archive's content address,
    ``code/{sha256}/sourcedir.tar.gz`` (``digest``: the archive's SHA-256 in hex), so the same code is
    stored once for every job; without a digest (a local run, whose archive never goes to S3) the
    SDK v2's ``{job_name}/source/sourcedir.tar.gz``."""
    code = job.code
    if code is None:
        return None
    if code.in_s3:
        return CodePlan(s3_uri=code.source_dir, upload=False)
    if s3_uris.is_s3_uri(code.location):
        bucket, prefix = s3_uris.parse_s3_uri(code.location)
    elif s3_uris.is_s3_uri(job.output_path):
        bucket, prefix = s3_uris.parse_s3_uri(job.output_path)[0], ""
    else:
        bucket, prefix = facts.bucket(), facts.default_bucket_prefix
    where = (D.CODE_FOLDER, digest) if digest is not None else (job_name, "source")
    return CodePlan(s3_uri="s3://%s/%s" % (bucket, s3_uris.s3_key(prefix, *(where + (D.CODE_ARCHIVE,)))), upload=True)


def make_plan(job, facts, now, code_digest=None):
    """The :class:`Plan` of ``job`` with ``facts``; ``now`` (epoch seconds) names a job without a name;
    ``code_digest`` (the code archive's SHA-256) decides the code's key (:func:`code_plan`)."""
    region = facts.region
    job_name = job.job_name if job.job_name is not None else default_job_name(job, region, now)
    code = code_plan(job, job_name, facts, code_digest)
    context = _wire.Context(
        region=region,
        job_name=job_name,
        role_arn=facts.role_arn(job.role) if job.role is not None else None,
        output_path=output_path(job, facts),
        code_uri=code.s3_uri if code is not None else None,
        local=facts.local,
    )
    rendered = _wire.render(job, context)
    return Plan(job=job, job_name=job_name, rendered=rendered, code=code, region=region, facts=facts,
                code_digest=code_digest)


# What the service model's patterns mean, in words (keyed by the pattern itself: a pattern that
# changes in a newer botocore is shown as it is).
_PATTERN_WORDS = {
    "[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}": "may hold only letters, digits and hyphens, starting and ending with a "
                                        "letter or digit",
    "[a-zA-Z0-9](-*[a-zA-Z0-9]){0,119}": "may hold only letters, digits and hyphens, starting and ending with a "
                                         "letter or digit",
    "[a-zA-Z0-9](-*[a-zA-Z0-9]){0,255}": "may hold only letters, digits and hyphens, starting and ending with a "
                                         "letter or digit",
    "(https|s3)://([^/]+)/?(.*)": "must be an S3 URI (s3://bucket/prefix) without line breaks",
    "[A-Za-z0-9\\.\\-_]+": "channel names are letters, digits, '.', '-' and '_'",
    "[a-zA-Z_][a-zA-Z0-9_]*": "variable names are letters, digits and '_', not starting with a digit",
    "arn:aws[a-z\\-]*:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+": "must be an IAM role ARN "
    "(arn:aws:iam::<12-digit account>:role/<name>) or a plain role name",
    "([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)": "may hold only letters, digits, spaces and _ . : / = + - @",
    "[a-zA-Z0-9:/_-]*": "must be a KMS key id, alias or ARN (letters, digits and : / _ -)",
    "[-0-9a-zA-Z]+": "must be an ID of letters, digits and hyphens",
    "[\\w+=,.@-]+": "must be an IAM role ARN, or a role name of letters, digits and + = , . @ _ -",
    ".*": "must not hold line breaks",
    ".+": "must not be empty or hold line breaks",
}
_PATTERN = "must match the pattern "


def _violations_as_problems(violations, name_of, value_of=None):
    """Problems of ``violations`` (one per user argument), named by ``name_of(path)``."""
    out, seen = [], set()
    for v in violations:
        path = name_of(v.path)
        if path in seen:
            continue  # one problem per argument: a value can break a length and a pattern at once
        seen.add(path)
        if v.has_value:
            out.append(Problem(path, _words(v.message), value_of(v) if value_of else v.value))
        else:
            out.append(Problem(path, _words(v.message)))
    return out


def role_problems(role):
    """A plain role name (not an ARN) is looked up in IAM: it must be a name IAM's GetRole takes."""
    if not isinstance(role, str) or role.startswith("arn:"):
        return []
    violations = _service.check({"RoleName": role}, _service.input_shape("iam.GetRole"))
    return _violations_as_problems(violations, lambda path: "role")


def _words(message):
    """A pattern problem's message in words, the pattern after them."""
    head, sep, pattern = message.partition(_PATTERN)
    words = _PATTERN_WORDS.get(pattern) if sep else None
    return "%s%s (pattern: %s)" % (head, words, pattern) if words else message


def service_problems(plan):
    """The service's field limits (botocore's model) checked on the plan's request, each problem under
    the user's argument name (one per argument), with the user's own value where the request holds
    a derived one."""
    return rendered_problems(plan.rendered, _OPERATION)


def rendered_problems(rendered, operation):
    """The field limits of ``operation``'s input (botocore's model) checked on a :class:`_wire.Rendered`
    request, each problem under the user's argument name its origins give (one per argument)."""
    violations = _service.check(rendered.request, _service.input_shape(operation), skip=rendered.skip)
    return _violations_as_problems(violations, lambda path: _wire.user_path(rendered.origins, path),
                                   lambda v: rendered.given.get(v.path, v.value))


def check(job, facts, now, found=(), path_exists=None):
    """Round one: every problem with ``job`` — ``found`` (the builder's and the session's), our own
    rules, then the service's limits on the request rendered with ``facts`` (an unknown account
    stood in for). A service problem of an argument already reported is left out."""
    out = list(found) + _validate.problems(job, region=facts.region, path_exists=path_exists)
    out.extend(role_problems(job.role))
    reported = set(p.path for p in out)
    out.extend(p for p in service_problems(make_plan(job, facts.stand_in(), now)) if p.path not in reported)
    return out


def prepare(settings, session=None, now=0.0, path_exists=None, found=(), facts=None, values=None):
    """``(job, facts, problems)``: round one for one job's settings, as ``session`` (None: none, an
    AWS dry run) runs it: the job model, the session's own check of it, then :func:`check`.
    ``facts`` default to what the session knows without a call. Pipeline parameters among the
    settings are checked with their values in their place (``values``: name -> an execution's
    value; else their defaults), and the job holds those values, marked (``_variables``)."""
    settings, hidden, misplaced = _variables.with_values(settings, values)
    job, problems = _build.build(settings)
    problems = list(found) + misplaced + problems
    if session is not None:
        job, more = session.check(job)
        problems.extend(more)
    if facts is None:
        facts = session.facts() if session is not None else Facts(region=None)
    problems = check(job, facts, now, problems, path_exists=path_exists)
    mine = set(id(p) for p in misplaced)
    return job, facts, [p for p in problems if id(p) in mine or not _variables.hides(p.path, hidden)]
