"""Hyperparameter decoding and the string forms of values (environment variables, argv).

Pure functions, no I/O.
"""
import json

__all__ = [
    "SAGEMAKER_PREFIX",
    "CONSUMED_KEYS",
    "decode_value",
    "split_hyperparameters",
    "to_cmd_args",
    "env_value",
    "to_json",
]

SAGEMAKER_PREFIX = "sagemaker_"

# Keys read by the container itself: neither user hyperparameters nor framework parameters.
CONSUMED_KEYS = frozenset(
    [
        "sagemaker_program",
        "sagemaker_submit_directory",
        "sagemaker_enable_cloudwatch_metrics",
        "sagemaker_region",
        "sagemaker_container_log_level",
        "sagemaker_job_name",
        "default_user_module_name",
        "_tuning_objective_metric",
        "sagemaker_s3_output",
    ]
)


def decode_value(raw):
    """One value of hyperparameters.json: JSON-decoded if possible, else returned unchanged.

    ``"10"`` -> ``10``, ``'"text"'`` -> ``"text"``, ``"01"`` -> ``"01"`` (not JSON), and a value
    that is not a string at all (some local tools write numbers) is kept as it is.
    """
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def split_hyperparameters(decoded):
    """Split decoded hyperparameters into ``(user, framework, consumed)`` dicts.

    ``consumed``: the keys in :data:`CONSUMED_KEYS`; ``framework``: every other key that starts
    with ``sagemaker_`` (case-sensitive); ``user``: the rest.
    """
    user, framework, consumed = {}, {}, {}
    for key, value in decoded.items():
        if key in CONSUMED_KEYS:
            consumed[key] = value
        elif key.startswith(SAGEMAKER_PREFIX):
            framework[key] = value
        else:
            user[key] = value
    return user, framework, consumed


def to_cmd_args(hyperparameters):
    """The command-line arguments an entry point is started with (``SM_USER_ARGS``).

    The toolkit's ``sagemaker_training.mapping.to_cmd_args``, rule for rule. Keys in sorted order,
    each followed by its value. A key is turned into text like a value (below); a one-character
    name becomes ``-k``, a longer one ``--key``, and an empty name (``""``, ``None``, ``b""``)
    stays ``""``. A value with an ``items()`` method (a dict) becomes ``k=v`` pairs of
    ``"%s=%s"``, sorted by item, joined by commas; otherwise ``None`` -> ``""``, ``bytes`` ->
    decoded as Latin-1 (``b"2"`` -> ``"2"``), anything else ``str(value)`` (``True`` -> ``"True"``,
    ``4.0`` -> ``"4.0"``, ``[1, "a"]`` -> ``"[1, 'a']"``, nested values as ``str`` prints them).

    Parameters
    ----------
    hyperparameters : dict
        The hyperparameters (decoded values).

    Examples
    --------
    >>> to_cmd_args({"epochs": 10, "a": None, "cfg": {"b": 2, "a": "x"}, "raw": b"2", "": "42"})
    ['', '42', '-a', '', '--cfg', 'a=x,b=2', '--epochs', '10', '--raw', '2']
    """
    keys = sorted(hyperparameters.keys())
    names = [_arg_name(key) for key in keys]  # every name first, then every value, as the toolkit
    values = [_arg_value(hyperparameters[key]) for key in keys]
    return [arg for pair in zip(names, values) for arg in pair]


def _arg_name(key):
    name = _text(key)
    if not name:
        return ""
    return ("--" if len(name) > 1 else "-") + name


def _arg_value(value):
    if hasattr(value, "items"):
        return ",".join("%s=%s" % (k, v) for k, v in sorted(value.items()))
    return _text(value)


def _text(value):
    """The toolkit's ``mapping._decode``: ``None`` -> ``""``, bytes as Latin-1, else ``str()``."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("latin1")
    return str(value)


def to_json(value):
    """Compact JSON with sorted keys and ASCII escapes, as every ``SM_*`` JSON value is written."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def env_value(value):
    """The string exported for a value: strings as they are, ``None`` as ``""``, the rest as JSON."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return to_json(value)
