"""Round one: every problem with a job before anything is sent, the same for a dry run, AWS and a
local run. Pure: the clock (``now``) and the file system (``path_exists``) are passed in.

:func:`model_problems` takes the problems already found (the builder's and the session's), adds our
own rules on the model (``_checks.rules``) and the role name's; :func:`plan_problems` then checks the
plan's request (rendered once with the session's facts, ``_runner.planned``) against the service's field limits (``_checks.service``, botocore's model):
each problem under the user's argument name (the request's ``origins``), with the user's own value
where the request holds a derived one, a pattern's meaning in words, and one problem per argument.
:func:`rendered_problems` does the same for any rendered request (tuning jobs, pipelines).
"""
from sagemaker_hetero import _defaults as D
from sagemaker_hetero._checks import rules, service
from sagemaker_hetero._model import record
from sagemaker_hetero._request import plan, render
from sagemaker_hetero.exceptions import Problem, Problems

__all__ = ["model_problems", "plan_problems", "role_problems", "service_problems", "rendered_problems", "violations_as_problems"]

_OPERATION = plan.CREATE_TRAINING_JOB


def model_problems(job, facts, found=(), path_exists=None):
    """``found`` (the builder's and the session's), then our own rules on the model and the role's name:
    round one before the request is rendered."""
    out = list(found) + rules.problems(job, region=facts.region, path_exists=path_exists)
    out.extend(role_problems(job.role))
    return out


def plan_problems(made, found=()):
    """``found``, then the service's limits on the plan's rendered request (:func:`service_problems`) for
    the arguments not reported in ``found``: round one's end, on the request the plan holds."""
    return Problems(found).add_new(service_problems(made))


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


def violations_as_problems(violations, name_of, value_of=None):
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
    violations = service.check({"RoleName": role}, service.input_shape("iam.GetRole"))
    return violations_as_problems(violations, lambda path: "role")


def _words(message):
    """A pattern problem's message in words, the pattern after them."""
    head, sep, pattern = message.partition(_PATTERN)
    words = _PATTERN_WORDS.get(pattern) if sep else None
    return "%s%s (pattern: %s)" % (head, words, pattern) if words else message


def service_problems(plan):
    """The service's field limits (botocore's model) checked on the plan's request, each problem under
    the user's argument name (one per argument), with the user's own value where the request holds
    a derived one. An account the plan's facts do not know (a dry run's ``<account-id>``) is read as
    a valid stand-in (``Facts.stand_in``): the placeholder is no problem of the user's."""
    return rendered_problems(stood_in(plan.rendered, plan.facts), _OPERATION)


def stood_in(rendered, facts):
    """``rendered`` with an unknown account's placeholder read as the stand-in account (the request
    ``facts.stand_in()`` renders), for checking; as it is when the account is known."""
    if facts is None or facts.account_id is not None:
        return rendered
    return record.evolve(rendered, request=_replaced(rendered.request, D.ACCOUNT_PLACEHOLDER, D.ZERO_ACCOUNT_ID))


def _replaced(value, old, new):
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, dict):
        return dict((k, _replaced(v, old, new)) for k, v in value.items())
    if isinstance(value, list):
        return [_replaced(v, old, new) for v in value]
    return value


def rendered_problems(rendered, operation):
    """The field limits of ``operation``'s input (botocore's model) checked on a :class:`_request.render.Rendered`
    request, each problem under the user's argument name its origins give (one per argument)."""
    violations = service.check(rendered.request, service.input_shape(operation), skip=rendered.skip)
    return violations_as_problems(violations, lambda path: render.user_path(rendered.origins, path),
                                   lambda v: rendered.given.get(v.path, v.value))
