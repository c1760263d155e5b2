"""Pipeline parameters among an estimator's arguments. Pure: no I/O, no clock.

A ``ParameterInteger`` / ``ParameterString`` may stand for an instance count, an instance type or an
input URI (:data:`PLACES`). For the checks, :func:`with_values` puts a value in each parameter's
place: its default (or an execution's value), marked (:class:`Marked`) so that the request rendered
from the job still knows where each parameter went; a parameter without a value gets a stand-in,
and the problems under its argument are not the user's (:func:`hides`). For a pipeline step,
:func:`with_tokens` puts a token of each string parameter in its place, so that a value the SDK
derives from one (an instance type JSON-encoded into a hyperparameter) is found too; :func:`merged`
writes the request of the first with ``{"Get": "Parameters.<name>"}`` where a parameter went, and a
``Std:Join`` where a derived value holds one.

The parameter classes are read from ``_model.parameters`` only once something has imported it: until
then no value can be a parameter, so settings are passed through without a walk, and a dry run of a
job started directly never imports the pipeline classes.
"""
import re
import sys

from sagemaker_hetero._model import record
from sagemaker_hetero.exceptions import Problem

__all__ = ["PLACES", "Marked", "find", "with_values", "with_tokens", "hides", "tokens_in", "derived_view", "merged",
           "outside_pipeline"]

#: ``(a pattern of the user's argument paths where a parameter may stand, its class's name, what it
#: stands for)``; the patterns are compiled when first matched (``re``'s cache), as the tokens'
PLACES = (
    (r"^(instance_groups\[\d+\]\.)?instance_count$", "ParameterInteger", "an instance count"),
    (r"^(instance_groups\[\d+\]\.)?instance_type$", "ParameterString", "an instance type"),
    (r"^inputs\[[^\]]*\](\.s3_data)?$", "ParameterString", "an input URI"),
)
_PARAMETERS = "sagemaker_hetero._model.parameters"
#: A stand-in instance count for a count parameter without a value (its problems are not reported).
_STAND_IN_COUNT = 1
_TOKEN = "@pipeline-parameter:%s@"
_TOKENS = r"@pipeline-parameter:(.+?)@"
# JobSettings fields that never hold the user's values
_NOT_ARGUMENTS = ("framework", "channels", "inputs_problem", "config_tags")


class _MarkedInt(int):
    """An instance count standing for a pipeline parameter."""


class _MarkedStr(str):
    """A string standing for a pipeline parameter."""


def Marked(parameter, value):  # noqa: N802 - a constructor of either marked type
    """``value`` (an int or a str) marked as standing for ``parameter``."""
    marked = (_MarkedInt if isinstance(value, int) and not isinstance(value, bool) else _MarkedStr)(value)
    marked.parameter = parameter
    return marked


def _is_marked(value):
    return isinstance(value, (_MarkedInt, _MarkedStr))


# -- where the parameters are ----------------------------------------------------------------------


def _parameters():
    """The module of the parameter classes, or None while nothing has imported it (then no value is one)."""
    return sys.modules.get(_PARAMETERS)


def _rebuilt(value, path, visit, parameter_class):
    """``value`` with ``visit(path, parameter)`` in the place of each parameter in it (the same object
    when it holds none)."""
    if isinstance(value, parameter_class):
        return visit(path, value)
    if isinstance(value, dict):
        items = dict((k, _rebuilt(v, "%s[%r]" % (path, k), visit, parameter_class)) for k, v in value.items())
        return items if any(items[k] is not v for k, v in value.items()) else value
    if isinstance(value, (list, tuple)):
        items = [_rebuilt(v, "%s[%d]" % (path, i), visit, parameter_class) for i, v in enumerate(value)]
        return type(value)(items) if any(a is not b for a, b in zip(items, value)) else value
    if record.has(type(value)):
        changes = {}
        for field in record.fields(type(value)):
            if field.init:
                item = getattr(value, field.name)
                new = _rebuilt(item, "%s.%s" % (path, field.name), visit, parameter_class)
                if new is not item:
                    changes[field.alias or field.name] = new
        return record.evolve(value, **changes) if changes else value
    return value


def _substituted(settings, visit):
    module = _parameters()
    if module is None:
        return settings
    changes = {}
    for field in record.fields(type(settings)):
        if field.name in _NOT_ARGUMENTS:
            continue
        value = getattr(settings, field.name)
        new = _rebuilt(value, field.name, visit, module.Parameter)
        if new is not value:
            changes[field.name] = new
    channels = tuple((name, _rebuilt(value, "inputs[%r]" % (name,), visit, module.Parameter))
                     for name, value in settings.channels)
    if any(a[1] is not b[1] for a, b in zip(channels, settings.channels)):
        changes["channels"] = channels
    return record.evolve(settings, **changes) if changes else settings


def find(settings):
    """``[(path, parameter)]``: every pipeline parameter among ``settings`` (a :class:`JobSettings`),
    under the user's argument path (``instance_groups[1].instance_count``, ``inputs['train']``)."""
    found = []

    def visit(path, parameter):
        found.append((path, parameter))
        return parameter

    _substituted(settings, visit)
    return found


def _place(path):
    for pattern, name, what in PLACES:
        if re.match(pattern, path):
            return getattr(_parameters(), name), what
    return None, None


def with_values(settings, values=None):
    """``(settings, hidden, problems)``: ``settings`` with each parameter's value marked in its place
    (``values``: parameter name -> an execution's value; else its default), the argument paths whose
    problems :func:`hides` (a parameter without a value), and the problems of parameters where none
    may stand, of the wrong class, or without the default a type needs."""
    values = values or {}
    hidden, problems = [], []

    def visit(path, parameter):
        cls, what = _place(path)
        value = values.get(parameter.name, parameter.default_value)
        if cls is None:
            problems.append(Problem(path, "a pipeline parameter may stand for an instance count, an instance type or "
                                          "an input URI only", parameter.name))
        elif not isinstance(parameter, cls):
            problems.append(Problem(path, "is %s: it takes a %s" % (what, cls.__name__), parameter.name))
        elif value is None and cls.__name__ == "ParameterString" and what == "an instance type":
            problems.append(Problem(path, "pipeline parameter %r needs a default_value: the training image (CPU or "
                                          "GPU) is chosen from the instance types" % parameter.name, parameter.name))
        if value is None:  # nothing to check: a stand-in whose problems are not reported
            hidden.append(path)
            counts = cls is not None and cls.__name__ == "ParameterInteger"
            value = _STAND_IN_COUNT if counts else _TOKEN % parameter.name
        if isinstance(value, (int, str)) and not isinstance(value, bool):
            return Marked(parameter, value)
        return value  # a value of another type: the checks report it

    return _substituted(settings, visit), tuple(hidden), problems


def with_tokens(settings):
    """``settings`` with a token of each string parameter (and each integer parameter's marked value) in
    its place: the job rendered from it shows where the SDK derived a value from a parameter."""

    def visit(path, parameter):
        if isinstance(parameter, _parameters().ParameterString):
            return Marked(parameter, _TOKEN % parameter.name)
        value = parameter.default_value
        return Marked(parameter, value if isinstance(value, int) else _STAND_IN_COUNT)

    return _substituted(settings, visit)


def hides(path, hidden):
    """Whether a problem at the argument ``path`` is under a parameter without a value (not the user's)."""
    return any(path == h or path.startswith(h + ".") or path.startswith(h + "[") for h in hidden)


def outside_pipeline(settings):
    """A problem for each pipeline parameter among ``settings`` of a job started directly (``fit``)."""
    return [Problem(path, "is pipeline parameter %r: a job started with fit needs values; run the estimator as a "
                          "workflow TrainingStep" % (parameter.name,), parameter.name)
            for path, parameter in find(settings)]


# -- the request with the parameters in it -----------------------------------------------------------


def tokens_in(value):
    """``value`` (a part of the request before its encoding) with each marked string as its parameter's
    token, as :func:`with_tokens` puts it there; None when it holds no marked string. The renderer
    notes what a string derived from a parameter would hold with the tokens (``Rendered.derived``)."""
    found = []

    def swapped(item):
        if isinstance(item, _MarkedStr):
            found.append(item)
            return _TOKEN % item.parameter.name
        if isinstance(item, dict):
            return dict((k, swapped(v)) for k, v in item.items())
        if isinstance(item, (list, tuple)):
            return type(item)([swapped(v) for v in item])
        return item

    out = swapped(value)
    return out if found else None


def derived_view(request, derived):
    """``request`` (rendered once, from :func:`with_values`' settings) as the request rendered from
    :func:`with_tokens`' settings shows the parameters: each string derived from one (``derived``: wire
    path -> the string with the tokens in it) in its place; what :func:`merged` reads as ``tokens``."""

    def copied(value):
        if isinstance(value, dict):
            return dict((k, copied(v)) for k, v in value.items())
        if isinstance(value, list):
            return [copied(v) for v in value]
        return value

    view = copied(request)
    for path, text in derived.items():
        node = view
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = text
    return view


def merged(request, tokens):
    """``request`` (rendered from :func:`with_values`' settings) with ``{"Get": "Parameters.<name>"}``
    where a parameter's value went, and a ``Std:Join`` where ``tokens`` (the same request rendered
    from :func:`with_tokens`' settings) holds a string derived from a parameter."""
    if _is_marked(request):
        return dict(request.parameter.expr)
    if isinstance(request, dict):
        other = tokens if isinstance(tokens, dict) else {}
        return dict((k, merged(v, other.get(k))) for k, v in request.items())
    if isinstance(request, list):
        other = tokens if isinstance(tokens, list) and len(tokens) == len(request) else [None] * len(request)
        return [merged(v, t) for v, t in zip(request, other)]
    if isinstance(request, str) and isinstance(tokens, str) and re.search(_TOKENS, tokens):
        return _joined(tokens)
    return request


def _joined(text):
    values = []
    position = 0
    for match in re.finditer(_TOKENS, text):
        if match.start() > position:
            values.append(text[position:match.start()])
        values.append({"Get": "Parameters.%s" % match.group(1)})
        position = match.end()
    if position < len(text):
        values.append(text[position:])
    return {"Std:Join": {"On": "", "Values": values}}
