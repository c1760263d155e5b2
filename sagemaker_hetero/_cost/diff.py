"""What differs between a job's request and another's, field by field, in request terms. Pure.

The other side is a saved render (a CreateTrainingJob request, compared as it is) or a
DescribeTrainingJob answer, turned back into the request form by the describe code ``attach`` uses
(the description read as a job and rendered by the caller, ``_runner.diffed``: this module renders
nothing), so the fields the service adds to a description (status, times, ARN, artifacts, ...) are
gone. What is no difference:

- the job name, and what derives from it: each side's own name, wherever it stands as a whole word
  in a value (``sagemaker_job_name``, TensorFlow's ``model_dir``, a code key or a checkpoint path
  holding it), reads ``{job_name}``; a default name's timestamp goes with it;
- a value the service fills in when a field is left out (:data:`SERVICE_DEFAULTS`), and empty
  lists and mappings;
- against a description: tags (a description holds none) and the metric definitions the new
  request does not name (the service adds its own for some images; moto adds one to every job).

Both sides are rendered with one set of facts: the compared side's. A description's region and
account are its ARN's; a saved render's (:func:`facts_of`) are the ones it shows (its
``sagemaker_region``, default bucket, image and role), ``<region>`` and ``<account-id>`` placeholders
included, so a render made with no region configured diffs as equal to itself.

The other side is read only once its types are the service model's (:func:`type_problems`: each field
of the CreateTrainingJob request it holds against that field's shape, which a description shares): a
wrong one is a :class:`ConfigError` naming every field that is wrong, never an unexpected error.

The code archive's key is content-addressed (``code/<sha256>/sourcedir.tar.gz``): it is the same
for the same code, so it differs exactly when the code does. Channels, instance groups, tags and
metric definitions are matched by name, so their order is no difference; other lists are compared
whole. Each :class:`Change` is ``path: old -> new``, ``(absent)`` for a side without the field.
"""
import copy
import json
import re

import attrs

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._checks import service as _service
from sagemaker_hetero._checks.text import MAX_SPEC_DEPTH
from sagemaker_hetero._model.arguments import DESCRIBED_ABSENT
from sagemaker_hetero._request import describe as _describe
from sagemaker_hetero.exceptions import AWSError, ConfigError, Problem

__all__ = ["Change", "Diff", "diff", "described", "is_description", "account_of", "facts_of", "type_problems",
           "SERVICE_DEFAULTS", "ABSENT"]


class _Absent(object):
    def __repr__(self):
        return "ABSENT"


#: The value of a field one side does not have.
ABSENT = _Absent()
_EACH = "*"  # any list element, in a path pattern
#: ``(path, value)``: a field holding ``value`` is the same as the field left out (the service fills
#: these in; ``*`` is any list element).
SERVICE_DEFAULTS = DESCRIBED_ABSENT + (  # the estimator arguments' from their table, then the rest
    (("InputDataConfig", _EACH, "CompressionType"), "None"),
    (("InputDataConfig", _EACH, "RecordWrapperType"), "None"),
    # SDK v3 leaves it out of an S3DataSource given without it (a ModelTrainer's); the service fills it in
    (("InputDataConfig", _EACH, "DataSource", "S3DataSource", "S3DataDistributionType"), "FullyReplicated"),
    (("ProfilerConfig", "DisableProfiler"), False),
)
# Lists of named things, matched by that name.
_KEYED = {
    ("InputDataConfig",): "ChannelName",
    ("ResourceConfig", "InstanceGroups"): "InstanceGroupName",
    ("Tags",): "Key",
    ("AlgorithmSpecification", "MetricDefinitions"): "Name",
}
# Mappings whose keys are the user's (shown as ['key']).
_MAPS = (("HyperParameters",), ("Environment",))
_NAME_MARK = "{job_name}"
_DESCRIPTION_KEYS = ("TrainingJobArn", "TrainingJobStatus", "CreationTime")
# A default bucket ``sagemaker-<region>-<account>`` (placeholders included), an image's registry
# region, a role ARN's account.
_DEFAULT_BUCKET = re.compile(r"^s3://sagemaker-(?P<region>[a-z0-9-]+|<region>)-(?P<account>\d{12}|<account-id>)(/|$)")
_IMAGE_REGION = re.compile(r"\.dkr\.ecr\.(?P<region>[a-z0-9-]+|<region>)\.amazonaws\.com")
_ROLE_ACCOUNT = re.compile(r"^arn:[a-z-]+:iam::(?P<account>\d{12}|<account-id>):")


def is_description(data):
    """Whether ``data`` is a DescribeTrainingJob answer (rather than a request)."""
    return isinstance(data, dict) and any(k in data for k in _DESCRIPTION_KEYS)


def account_of(desc):
    """The account id in a description's job ARN, or None."""
    arn = desc.get("TrainingJobArn") if isinstance(desc, dict) else None
    parts = arn.split(":") if isinstance(arn, str) else ()
    return parts[4] if len(parts) > 5 and parts[4] else None


def facts_of(old):
    """``(region, account id)`` the other side was made in, each None where it does not show it: a
    description's ARN's; a saved render's from its ``sagemaker_region`` hyperparameter, default
    bucket or image (the region) and default bucket or role ARN (the account), ``<region>`` and
    ``<account-id>`` as they are."""
    if not isinstance(old, dict):
        return None, None
    if is_description(old):
        return _describe.region_of(old), account_of(old)
    hyperparameters = old.get("HyperParameters") if isinstance(old.get("HyperParameters"), dict) else {}
    named = _describe.decoded(hyperparameters.get("sagemaker_region"))
    buckets = [_DEFAULT_BUCKET.match(uri) for uri in (_describe.value_at(old, ("OutputDataConfig", "S3OutputPath")),
                                                       _describe.decoded(hyperparameters.get("sagemaker_submit_directory")))
               if isinstance(uri, str)]
    image = _describe.image_of(old)
    found = [m for m in buckets if m] + [_IMAGE_REGION.search(image) if isinstance(image, str) else None]
    regions = ([named] if isinstance(named, str) and named else []) + [m.group("region") for m in found if m]
    role = _ROLE_ACCOUNT.match(old["RoleArn"]) if isinstance(old.get("RoleArn"), str) else None
    accounts = [m.group("account") for m in buckets if m] + ([role.group("account")] if role else [])
    return (regions[0] if regions else None), (accounts[0] if accounts else None)


def type_problems(old, operation="CreateTrainingJob"):
    """Problems with the types of ``old`` (a request or a description, read from a file or an answer):
    each field of the CreateTrainingJob request it holds, against that field's shape in the service
    model (a description shares them), and a description's job ARN; every one found, each naming its
    path. Only types: a saved render's placeholders, a field too long or a value not in an enum are
    differences, not problems. ``operation``: the request whose fields are checked (a tuning job's
    description against CreateHyperParameterTuningJob's)."""
    if not isinstance(old, dict):
        return [Problem("old", "must be a JSON object (a request or a description)", old)]
    deep = _too_deep(old, MAX_SPEC_DEPTH)
    if deep is not None:
        return [Problem(_path(deep), "nests deeper than %d levels, more than a request may" % MAX_SPEC_DEPTH)]
    request = _service.input_shape(operation)
    members = _service.shape(request)["members"]
    fields = dict((k, v) for k, v in old.items() if k in members)
    problems = [Problem(_path(v.path), v.message, v.value) for v in _service.check(fields, request)
                if v.has_value and _is_type_message(v.message)]
    if "TrainingJobArn" in old and not isinstance(old["TrainingJobArn"], str):
        problems.append(Problem("TrainingJobArn", "must be a string", old["TrainingJobArn"]))
    return problems


def described(describe, job_name, kind="job"):
    """``describe(job_name)`` (a session's ``describe_training_job``), an answer botocore could not read
    for its types (its fields named as ``problems`` of the AWS error) raised as a :class:`ConfigError`
    naming them, as a description of wrong types botocore lets through is."""
    try:
        return describe(job_name)
    except AWSError as exc:
        found = getattr(exc, "problems", None)
        if not found:
            raise
        raise ConfigError(found, "%s %s" % (kind, job_name))


def _is_type_message(message):
    """Whether the walker's ``message`` says a value is not of its shape's type (or could not be read)."""
    return message in _TYPE_MESSAGES or message.startswith("could not be checked")


_TYPE_MESSAGES = frozenset(_service._EXPECTED_TYPE.values())


def _too_deep(value, limit):
    """The path (a tuple) of a mapping or list in ``value`` deeper than ``limit`` levels, else None.
    Iterative: any depth is measured."""
    stack = [(value, ())]
    while stack:
        node, path = stack.pop()
        if len(path) >= limit:
            return path
        if isinstance(node, dict):
            stack.extend((item, path + (key,)) for key, item in node.items() if isinstance(item, (dict, list)))
        elif isinstance(node, list):
            stack.extend((item, path + (i,)) for i, item in enumerate(node) if isinstance(item, (dict, list)))
    return None


def _path(path):
    """A walker's path as the diff shows one: ``InputDataConfig[0].ChannelName``, ``HyperParameters['lr']``."""
    shown = ""
    for i, key in enumerate(path):
        if isinstance(key, int):
            shown += "[%d]" % key
        else:
            shown += _segment(tuple(path[:i]), key)
    return shown


@attrs.frozen
class Change(object):
    """One field that differs: ``path`` in request terms, ``old`` and ``new`` (:data:`ABSENT`: no such field)."""

    path = attrs.field()
    old = attrs.field()
    new = attrs.field()

    @property
    def kind(self):
        return "added" if self.old is ABSENT else "removed" if self.new is ABSENT else "changed"

    def text(self):
        return "%s: %s -> %s" % (self.path, _shown(self.old), _shown(self.new))

    def to_dict(self):
        return {"path": self.path, "change": self.kind, "old": None if self.old is ABSENT else self.old,
                "new": None if self.new is ABSENT else self.new}


def _shown(value):
    return "(absent)" if value is ABSENT else json.dumps(value, sort_keys=True, default=str)


@attrs.frozen
class Diff(object):
    """The :class:`Change` list between ``against`` (what was compared: ``job NAME``, ``file PATH``)
    and the new request; empty when they are the same. ``notes`` say what was not compared."""

    changes = attrs.field()
    against = attrs.field()
    notes = attrs.field(default=())

    @property
    def equal(self):
        return not self.changes

    @property
    def paths(self):
        return [c.path for c in self.changes]

    def __len__(self):
        return len(self.changes)

    def __iter__(self):
        return iter(self.changes)

    def text(self):
        if self.equal:
            lines = ["No difference from %s (in request terms)." % self.against]
        else:
            count = len(self.changes)
            lines = ["%d difference%s from %s (in request terms; path: old -> new):" % (
                count, "" if count == 1 else "s", self.against)]
            lines.extend("  " + c.text() for c in self.changes)
        lines.extend("  (%s)" % n for n in self.notes)
        return "\n".join(lines)

    def __str__(self):
        return self.text()

    def to_dict(self):
        return {"equal": self.equal, "against": self.against, "changes": [c.to_dict() for c in self.changes],
                "notes": list(self.notes)}


def _named(value, name):
    """``value`` with ``name`` as a whole word in its strings replaced by ``{job_name}``."""
    if not name:
        return value
    pattern = re.compile(r"(?<![A-Za-z0-9-])%s(?![A-Za-z0-9-])" % re.escape(name))

    def walk(v):
        if isinstance(v, str):
            return pattern.sub(_NAME_MARK, v)
        if isinstance(v, dict):
            return dict((k, walk(x)) for k, x in v.items())
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v
    return walk(value)


def _matches(pattern, path):
    return len(pattern) == len(path) and all(p == _EACH or p == q for p, q in zip(pattern, path))


def _pruned(value, path=()):
    """``value`` without service defaults and empty lists and mappings."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            item = _pruned(item, path + (key,))
            if item in ({}, []) or any(_matches(p, path + (key,)) and item == v and type(item) is type(v)
                                       for p, v in SERVICE_DEFAULTS):
                continue
            out[key] = item
        return out
    if isinstance(value, list):
        return [_pruned(item, path + (_EACH,)) for item in value]
    return value


def _normal(request, described=False, named=None):
    """The comparable form of a request (its job name out of it)."""
    request = copy.deepcopy(dict(request))
    name = request.pop("TrainingJobName", None)
    request = _pruned(_named(request, name))
    if described:
        request.pop("Tags", None)
    return request


def _only_named_metrics(old, new):
    """Against a description: its metric definitions that the new request names (none if it names none)."""
    spec = old.get("AlgorithmSpecification") or {}
    if "MetricDefinitions" not in spec:
        return
    names = set(m.get("Name") for m in (new.get("AlgorithmSpecification") or {}).get("MetricDefinitions") or ())
    kept = [m for m in spec["MetricDefinitions"] if isinstance(m, dict) and m.get("Name") in names]
    if kept:
        spec["MetricDefinitions"] = kept
    else:
        del spec["MetricDefinitions"]


def _segment(path, key):
    if path in _MAPS or isinstance(key, tuple):
        return "[%r]" % (key[0] if isinstance(key, tuple) else key,)
    return key if not path else "." + str(key)


def _by_name(items, field):
    """``{(name,): item}`` of a list of mappings each with a distinct ``field``, else None."""
    if not isinstance(items, list) or not all(isinstance(i, dict) and field in i for i in items):
        return None
    named = dict(((i[field],), i) for i in items)
    return named if len(named) == len(items) else None


def _walk(old, new, path, shown, out):
    if old == new and type(old) is type(new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        keys = list(new) + [k for k in old if k not in new]
        for key in keys:
            _walk(old.get(key, ABSENT), new.get(key, ABSENT), path + (key,), shown + _segment(path, key), out)
        return
    field = _KEYED.get(path)
    if field is not None:
        old_named, new_named = _by_name(old, field), _by_name(new, field)
        if old_named is not None and new_named is not None:
            for key in list(new_named) + [k for k in old_named if k not in new_named]:
                _walk(old_named.get(key, ABSENT), new_named.get(key, ABSENT), path + (_EACH,),
                      shown + _segment(path, key), out)
            return
    out.append(Change(shown, old, new))


def diff(old, new, against, old_request=None):
    """The :class:`Diff` of the request ``new`` against ``old`` (a request, or a DescribeTrainingJob
    answer, then compared as ``old_request``: the request it reads back as, rendered by the caller,
    ``_runner.diffed``). Raises :class:`ConfigError` (with ``against`` as its subject) if ``old``'s
    types are wrong (:func:`type_problems`)."""
    problems = type_problems(old)
    if problems:
        raise ConfigError(problems, against)
    described = is_description(old)
    if described and old_request is None:
        raise ValueError("old is a job's description: the request it reads back as (old_request) is needed")
    notes = ("tags are not compared: a job's description holds none",) if described and new.get("Tags") else ()
    before = _normal(old_request if described else old, described)
    after = _normal(new, described)
    if described:
        _only_named_metrics(before, after)
    changes = []
    _walk(before, after, (), "", changes)
    return Diff(changes=tuple(changes), against=against, notes=notes)
