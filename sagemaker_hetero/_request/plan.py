"""From the job model and what a session knows to the request: the :class:`Plan`. Pure.

A :class:`Plan` is the hand-off to every edge: the job, its name, the request (rendered once by
``_request.render``), where the code archive goes, and the origins that name each part of the
request in the user's terms. :class:`Facts` are what a session knows (region, account, bucket,
role ARNs); the places the SDK v2 puts output and code follow from them (:func:`output_path`,
:func:`code_plan`). The checks of a plan are ``_checks``'.
"""
from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model import images, record
from sagemaker_hetero._model.settings import model_class
from sagemaker_hetero._request import names, read_back, render, s3_uris

__all__ = ["Facts", "CodePlan", "Plan", "CREATE_TRAINING_JOB", "make_plan", "code_plan", "output_path", "needs_default_bucket"]


@model_class
class Facts(object):
    """What a session knows: region, (when looked up or given) account, bucket and role ARNs, and
    whether it runs jobs locally."""

    region = record.field()
    account_id = record.field(default=None)
    default_bucket = record.field(default=None)
    default_bucket_prefix = record.field(default=None)
    role_arns = record.field(factory=dict)
    local = record.field(default=False)  # the job runs on this machine (LocalSession)

    def bucket(self):
        if self.default_bucket is not None:
            return self.default_bucket
        return names.default_bucket_name(self.region, self.account_id or D.ACCOUNT_PLACEHOLDER)

    def role_arn(self, role):
        if isinstance(role, str) and role in self.role_arns:
            return self.role_arns[role]
        return names.role_arn_for(role, self.region, self.account_id)

    def stand_in(self):
        """These facts with a valid stand-in for an unknown account (to check a request that would
        otherwise show a placeholder)."""
        return self if self.account_id is not None else record.evolve(self, account_id=D.ZERO_ACCOUNT_ID)


@model_class
class CodePlan(object):
    """Where the code archive lives (``upload`` False when ``source_dir`` already is an S3 archive)."""

    s3_uri = record.field()
    upload = record.field()


#: The one create call of a training job's plan.
CREATE_TRAINING_JOB = "CreateTrainingJob"


@model_class
class Plan(object):
    """One job ready to go: the model, its name, the rendered request (with the origins of its
    parts), where its code archive goes (None: no code: the upload it needs), the region and facts
    it was rendered with, the time its default name was stamped with (``made_at``) and its one create
    call (``operation``: CreateTrainingJob, or a tuning job's CreateHyperParameterTuningJob over the
    training job's plan ``training``)."""

    job = record.field()
    job_name = record.field()
    rendered = record.field(repr=False)
    code = record.field()
    region = record.field(default=None)
    facts = record.field(default=None, repr=False)
    code_digest = record.field(default=None)
    made_at = record.field(default=0.0, repr=False)
    operation = record.field(default=CREATE_TRAINING_JOB)
    training = record.field(default=None, repr=False)

    @property
    def request(self):
        """The request of the one create call: ``create_training_job(**plan.request)``."""
        return self.rendered.request

    @property
    def image(self):
        """The training image the request was rendered with (None: none)."""
        return read_back.image_of(self.training.request if self.training is not None else self.request)


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
    image = images.image_or_none(job, region)  # resolved once: the job's default name and its request
    job_name = job.job_name if job.job_name is not None else names.default_job_name(job, region, now, image)
    code = code_plan(job, job_name, facts, code_digest)
    context = render.Context(
        region=region,
        job_name=job_name,
        role_arn=facts.role_arn(job.role) if job.role is not None else None,
        output_path=output_path(job, facts),
        code_uri=code.s3_uri if code is not None else None,
        facts=facts,
        image=image,
    )
    rendered = render.render(job, context)
    return Plan(job=job, job_name=job_name, rendered=rendered, code=code, region=region, facts=facts,
                code_digest=code_digest, made_at=now)
