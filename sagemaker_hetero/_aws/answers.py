"""An answer botocore could not read: which of its fields are not of the shape AWS answers (edge).

botocore reads a JSON answer by its operation's output shape and trusts the types: an answer whose
``InputDataConfig`` is a string, whose ``InstanceGroups`` is a mapping, whose ``CreationTime`` is no
timestamp, or that is ``null`` or nests thousands of levels deep makes its parser raise a builtin
exception (``AttributeError``, ``TypeError``, ``ValueError``, ``RecursionError``) out of the client
call, not a botocore error. :func:`raised_reading_answer` tells such an exception from any other (the
answer had arrived: botocore's ``response_dict`` holds it), :func:`answer_of` finds the answer's body,
and :func:`problems` names every field of it that is not of its shape, as a ``Problem`` (path in
request terms: ``ResourceConfig.InstanceGroups``, ``InputDataConfig[0].ChannelName``,
``HyperParameters['lr']``), so the error says what was wrong instead of a parser's traceback.
"""
import json

from sagemaker_hetero._checks import service as _service
from sagemaker_hetero.exceptions import Problem

__all__ = ["READING_ERRORS", "raised_reading_answer", "answer_of", "problems", "MAX_PROBLEMS"]

#: What botocore's parser raises for an answer of the wrong shape.
READING_ERRORS = (AttributeError, TypeError, ValueError, KeyError, IndexError, RecursionError, OverflowError)
#: At most this many problems are named (an answer can be wrong everywhere).
MAX_PROBLEMS = 20
_EXPECTED = {
    "structure": (dict, "must be a JSON object"),
    "map": (dict, "must be a JSON object"),
    "list": (list, "must be a list"),
    "string": (str, "must be a string"),
    "blob": (str, "must be a string"),
    "boolean": (bool, "must be a boolean"),
    "integer": (int, "must be an integer"),
    "long": (int, "must be an integer"),
    "float": ((int, float), "must be a number"),
    "double": ((int, float), "must be a number"),
}


def _frames(exc):
    tb = getattr(exc, "__traceback__", None)
    while tb is not None:
        yield tb.tb_frame
        tb = tb.tb_next


def _response_dict(exc):
    """botocore's ``response_dict`` (the HTTP answer it was reading) in ``exc``'s traceback, or None."""
    for frame in _frames(exc):
        if frame.f_globals.get("__name__") == "botocore.endpoint" and frame.f_code.co_name == "_do_get_response":
            response = frame.f_locals.get("response_dict")
            if isinstance(response, dict) and "body" in response:
                return response
    return None


def raised_reading_answer(exc):
    """Whether ``exc`` (out of a client call, or handed to ``errors.translate``) was raised by botocore
    reading an answer, rather than by sending the request (a stub's or a proxy's own failure): raised
    within botocore's parsers (they raise ``KeyError``, ``TypeError``... for a well-formed body of
    another shape, an HTML page an XML parser reads), or a builtin :data:`READING_ERRORS` raised once
    the answer had arrived (botocore's ``response_dict`` holds it). The one test of both."""
    if any(frame.f_code.co_filename.replace("\\", "/").endswith("/botocore/parsers.py") for frame in _frames(exc)):
        return True
    return isinstance(exc, READING_ERRORS) and _response_dict(exc) is not None


def answer_of(exc):
    """The JSON answer botocore failed to read (``exc``: :func:`raised_reading_answer`), decoded; raises
    ``ValueError`` (``RecursionError`` too) when it is no JSON at all, ``LookupError`` when none had
    arrived (a parser handed a body by hand, not a client call)."""
    response = _response_dict(exc)
    if response is None:
        raise LookupError("no answer arrived")
    body = response["body"]
    text = body.decode("utf-8", "replace") if isinstance(body, (bytes, bytearray)) else str(body)
    return json.loads(text)


def _timestamp_problem(value):
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return "must be a timestamp (seconds since 1970, or an ISO 8601 string)"
    if isinstance(value, str):
        from botocore.utils import parse_timestamp

        try:
            parse_timestamp(value)
        except (ValueError, TypeError, OverflowError):
            return "must be a timestamp (seconds since 1970, or an ISO 8601 string)"
    return None


def _problem_of(shape, value):
    """What is wrong with ``value`` for ``shape`` (a botocore shape), or None; ``None`` is always absent."""
    if value is None:
        return None
    kind = shape.type_name
    if kind == "timestamp":
        return _timestamp_problem(value)
    expected = _EXPECTED.get(kind)
    if expected is None:
        return None
    types, message = expected
    if isinstance(value, bool) and kind != "boolean":
        return message
    return None if isinstance(value, types) else message


def _children(shape, value, path):
    """``(shape, value, path)`` of each part of ``value`` (of the right type for ``shape``)."""
    kind = shape.type_name
    if kind == "structure":
        for name, member in shape.members.items():
            key = member.serialization.get("name", name)
            if key in value:
                yield member, value[key], path + ("%s%s" % ("." if path else "", name),)
    elif kind == "list":
        for i, item in enumerate(value):
            yield shape.member, item, path + ("[%d]" % i,)
    elif kind == "map":
        for key, item in value.items():
            yield shape.value, item, path + ("[%r]" % (key,),)


def problems(shape, answer):
    """Every field of ``answer`` (a decoded JSON answer) not of its place in ``shape`` (the operation's
    botocore output shape), at most :data:`MAX_PROBLEMS`, each a :class:`Problem` naming its path."""
    if not isinstance(answer, dict):
        return [Problem("the answer", "must be a JSON object", answer)]
    found = []
    stack = [(shape, answer, ())]
    while stack and len(found) < MAX_PROBLEMS:
        node_shape, value, path = stack.pop()
        if len(path) > _service._MAX_DEPTH:  # deeper than any shape of the model
            found.append(Problem("".join(path[:_service._MAX_DEPTH]), "nests deeper than any answer of AWS"))
            continue
        message = _problem_of(node_shape, value) if path else None
        if message is not None:
            found.append(Problem("".join(path), message, value))
        elif value is not None and node_shape.type_name in ("structure", "list", "map"):
            stack.extend(reversed(list(_children(node_shape, value, path))))
    return found
