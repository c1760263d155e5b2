"""The SageMaker Python SDK's defaults configuration (``config.yaml``), read as the SDK v2 reads it.

An organisation's admin file (``/etc/xdg/sagemaker/config.yaml`` on Linux, or the path or S3 URI in
``SAGEMAKER_ADMIN_CONFIG_OVERRIDE``) and then the user's (``~/.config/sagemaker/config.yaml``, or
``SAGEMAKER_USER_CONFIG_OVERRIDE``) are merged, the user's values winning; a folder stands for the
``config.yaml`` in it. A default location that does not exist is skipped; a location named by a
variable must exist. For training jobs the SDK v2 takes from it (explicit arguments win):
:data:`TRAINING_JOB_DEFAULTS`, the job's tags (appended unless a tag of that key is given), the
estimator's debugger hook, and a Session's default bucket and key prefix.

The files are read here (the edge); :func:`apply` fills an estimator's arguments from them.
"""
import os
import sys

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._checks.text import MAX_SPEC_BYTES, SPEC, loads, read_bounded, text_of
from sagemaker_hetero._model import instance_types
from sagemaker_hetero._model.arguments import CONFIGURED, NONE_MEANS
from sagemaker_hetero.exceptions import ConfigError, Problem

__all__ = [
    "ADMIN_OVERRIDE",
    "USER_OVERRIDE",
    "TRAINING_JOB_DEFAULTS",
    "TAGS",
    "KINDS",
    "DEBUG_HOOK",
    "DEFAULT_BUCKET",
    "DEFAULT_BUCKET_PREFIX",
    "apply",
    "load",
    "check",
    "kind_problems",
    "value",
    "merge",
    "default_paths",
]

SCHEMA_VERSION = "1.0"
ADMIN_OVERRIDE = "SAGEMAKER_ADMIN_CONFIG_OVERRIDE"
USER_OVERRIDE = "SAGEMAKER_USER_CONFIG_OVERRIDE"
_FILE = "config.yaml"
_APP = "sagemaker"

_JOB = ("SageMaker", "TrainingJob")
#: ``(estimator argument, path in the configuration)``: the values an argument that is not given
#: (None) takes from the configuration, as the SDK v2's estimators take them (the table's ``config``).
TRAINING_JOB_DEFAULTS = tuple((name, _JOB + path) for name, path in CONFIGURED)
TAGS = _JOB + ("Tags",)
DEBUG_HOOK = ("SageMaker", "PythonSDK", "Modules", "Estimator", "DebugHookConfig")
DEFAULT_BUCKET = ("SageMaker", "PythonSDK", "Modules", "Session", "DefaultS3Bucket")
DEFAULT_BUCKET_PREFIX = ("SageMaker", "PythonSDK", "Modules", "Session", "DefaultS3ObjectKeyPrefix")

_NOUN = "configuration file"


def _string(value):
    return isinstance(value, str)


def _boolean(value):
    return isinstance(value, bool)


def _strings(value):
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _string_map(value):
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def _tags(value):
    return isinstance(value, list) and all(
        isinstance(t, dict) and sorted(t) == ["Key", "Value"] and _strings(list(t.values())) for t in value)


_STRING, _BOOLEAN, _STRINGS = (_string, "a string"), (_boolean, "true or false"), (_strings, "a list of strings")
#: The type the SDK v2's schema gives each argument the table (``_model/arguments.py``'s ``config``
#: column) reads from a configuration; the paths are the table's, written nowhere else.
_KIND_OF = {
    "role": _STRING,
    "volume_kms_key": _STRING,
    "output_kms_key": _STRING,
    "subnets": _STRINGS,
    "security_group_ids": _STRINGS,
    "encrypt_inter_container_traffic": _BOOLEAN,
    "enable_network_isolation": _BOOLEAN,
    "disable_profiler": _BOOLEAN,
    "environment": (_string_map, "a mapping of variable names to strings (quote numbers)"),
}
#: ``(path, (test, what it must be))``: every value the package reads from a configuration, with the
#: type the SDK v2's schema (``sagemaker.config.config_schema``) gives it. The SDK v2 refuses a file
#: where one has another type, so it is refused here too, rather than ignored or used as it is.
KINDS = tuple((path, _KIND_OF[name]) for name, path in TRAINING_JOB_DEFAULTS) + (
    (TAGS, (_tags, "a list of {Key: ..., Value: ...} mappings of strings")),
    (DEBUG_HOOK, _BOOLEAN),
    (DEFAULT_BUCKET, _STRING),
    (DEFAULT_BUCKET_PREFIX, _STRING),
)

_cache = {}


def default_paths(environ=None, platform=None):
    """``(admin, user)``: the default locations of the two files on this platform (as the SDK v2's
    ``platformdirs`` names them)."""
    env = os.environ if environ is None else environ
    platform = platform or sys.platform
    home = os.path.expanduser("~")
    if platform == "darwin":
        return ("/Library/Application Support/%s/%s" % (_APP, _FILE),
                os.path.join(home, "Library", "Application Support", _APP, _FILE))
    if platform.startswith("win"):
        program_data = env.get("PROGRAMDATA") or "C:\\ProgramData"
        local = env.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
        return os.path.join(program_data, _APP, _FILE), os.path.join(local, _APP, _FILE)
    dirs = (env.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(os.pathsep)[0] or "/etc/xdg"
    user = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    return os.path.join(dirs, _APP, _FILE), os.path.join(user, _APP, _FILE)


def merge(base, update):
    """``update`` merged into a copy of ``base``: mappings merged key by key, anything else replaced
    (botocore's ``merge_dicts``, as the SDK v2 merges its files)."""
    out = dict(base)
    for key, new in update.items():
        old = out.get(key)
        out[key] = merge(old, new) if isinstance(old, dict) and isinstance(new, dict) else new
    return out


def value(config, path):
    """The value at ``path`` (a tuple of keys) in ``config``, or None."""
    node = config
    for key in path:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def _parse(raw, where, name):
    """The configuration in ``raw`` (the first bytes of the file ``name``, as ``_checks.text.read_bounded``
    reads them), refused naming ``where`` when it is beyond the spec files' limits (a large file
    before it is scanned; a small hostile one, an alias bomb or deep nesting, at once), not UTF-8,
    not YAML, or not what the SDK v2's schema allows for a key the package reads."""
    try:
        text = text_of(raw, name, noun=_NOUN)
        data = loads(text, where, "yaml", noun=_NOUN)
    except ConfigError as exc:
        raise ConfigError([p.renamed(where if p.path == SPEC else "%s %s" % (where, p.path))
                           for p in exc.problems])
    if data is None:
        return {}
    return check(data, where, name)


def check(config, where="sagemaker_config", name=None):
    """``config`` if it is a configuration the SDK v2 takes (a mapping of ``SchemaVersion: '1.0'``,
    ``SageMaker: ...``) whose every key the package reads (:data:`KINDS`) has the type the SDK v2's
    schema gives it; raises :class:`ConfigError` naming ``where`` (and the file ``name``) otherwise,
    every problem at once (the SDK v2 refuses such a file too; ignoring the value would be silent)."""
    if not isinstance(config, dict):
        raise ConfigError([Problem(where, "must be a mapping (SchemaVersion, SageMaker: ...)", type(config).__name__)])
    if config and config.get("SchemaVersion") != SCHEMA_VERSION:
        raise ConfigError([Problem(where, "must hold SchemaVersion: '%s', the one the SDK v2 reads" % SCHEMA_VERSION,
                                   config.get("SchemaVersion"))])
    problems = kind_problems(config, where, name)
    if problems:
        raise ConfigError(problems)
    return config


def kind_problems(config, where, name=None):
    """Problems with the types of the values :data:`KINDS` lists, and of a mapping on the way to one,
    each named ``<where> <dotted key path>`` (the file ``name`` in the message when ``where`` is not it)."""
    problems, seen = [], set()
    in_file = " (in %s)" % name if name is not None and name != where else ""
    for path, (is_kind, kind) in KINDS:
        node = config
        for depth in range(len(path)):
            node, here = node.get(path[depth]), path[: depth + 1]
            if node is None or here in seen:
                break
            last = depth == len(path) - 1
            if not (is_kind(node) if last else isinstance(node, dict)):
                seen.add(here)
                problems.append(Problem("%s %s" % (where, ".".join(here)), "must be %s, as the SDK v2's schema has "
                                        "it%s" % (kind if last else "a mapping", in_file), node))
                break
    return problems


def _read_local(path, where, required):
    target = os.path.join(path, _FILE) if os.path.isdir(path) else path
    try:
        raw = read_bounded(target, regular_only=True)
    except OSError as exc:
        if not required:
            return {}
        raise ConfigError([Problem(where, "the SageMaker defaults configuration cannot be read: %s" % exc, path)])
    return _parse(raw, where, target)


def _read_s3(uri, where, read_s3):
    read_s3 = read_s3 or _read_s3_with_boto3
    try:
        text = read_s3(uri)
    except ConfigError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure to read is the configuration's problem
        raise ConfigError([Problem(where, "the SageMaker defaults configuration cannot be read from S3: %s" % exc,
                                   uri)])
    return _parse(text, where, uri)


def _read_s3_with_boto3(uri):
    """The object at ``uri``, or the ``config.yaml`` under it (the default boto3 session's S3)."""
    import boto3

    from sagemaker_hetero._aws import errors
    from sagemaker_hetero.exceptions import ResourceNotFoundError

    bucket, _, key = uri[len("s3://"):].partition("/")
    s3 = boto3.client("s3")
    for candidate in (key, key.rstrip("/") + "/" + _FILE):
        try:
            body = errors.call(s3, "GetObject", Bucket=bucket, Key=candidate)["Body"]
            return body.read(MAX_SPEC_BYTES + 1)  # enough to tell one over the limit
        except ResourceNotFoundError:
            continue
    raise ValueError("no %s at %s" % (_FILE, uri))


def load(environ=None, read_s3=None):
    """The merged configuration (a dict; empty when there is none). ``read_s3(uri) -> bytes`` reads
    an ``s3://`` location (default: boto3; ``MAX_SPEC_BYTES + 1`` bytes are enough). Raises
    :class:`ConfigError` for a location named by a variable that cannot be read, or a file that is
    larger than ``MAX_SPEC_BYTES``, not UTF-8, not a YAML mapping, or holds a value of the wrong type
    (:func:`check`)."""
    env = os.environ if environ is None else environ
    admin, user = default_paths(env)
    merged = {}
    for variable, default in ((ADMIN_OVERRIDE, admin), (USER_OVERRIDE, user)):
        path = env.get(variable) or default
        where = variable if env.get(variable) else path
        if path.startswith("s3://"):
            merged = merge(merged, _read_s3(path, where, read_s3))
        else:
            merged = merge(merged, _cached_local(path, where, required=bool(env.get(variable))))
    return merged


def _cached_local(path, where, required):
    """A local file's configuration, read again only when the file changed."""
    try:
        stamp = os.stat(os.path.join(path, _FILE) if os.path.isdir(path) else path).st_mtime_ns
    except OSError:
        stamp = None
    key = (path, stamp)
    if stamp is None or key not in _cache:
        data = _read_local(path, where, required)
        if stamp is None:
            return data
        _cache[key] = data
    return _cache[key]


def _volume_kms_allowed(arguments):
    """Whether the job's instances take a volume KMS key (the SDK v2 applies the configuration's only
    then): a type of a family without local NVMe storage only, as the SDK v2 tells them apart."""
    types = [arguments.get("instance_type")] + [getattr(g, "instance_type", None)
                                                 for g in arguments.get("instance_groups") or () if g is not None]
    for itype in types:
        if instance_types.takes_volume(itype):
            return True
    return False


def apply(arguments, config=None):
    """Fill the arguments not given (None) from the SageMaker defaults configuration (``config``: the
    session's, else the one read as the SDK v2 reads it), as the SDK v2 does (docs/migrating.md);
    returns the configuration's tags, appended to the job's unless given."""
    if config is None:
        config = load()
    for name, path in TRAINING_JOB_DEFAULTS:
        if name not in arguments or arguments[name] is not None:
            continue
        found = value(config, path)
        if found is not None and (name != "volume_kms_key" or _volume_kms_allowed(arguments)):
            arguments[name] = found
    if "debugger_hook_config" in arguments and arguments["debugger_hook_config"] is None:
        arguments["debugger_hook_config"] = value(config, DEBUG_HOOK)
    for name, meant in NONE_MEANS.items():
        if arguments.get(name, False) is None:
            arguments[name] = meant
    return value(config, TAGS)
