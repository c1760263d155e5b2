"""The SageMaker Python SDK's defaults configuration (``config.yaml``), read as the SDK v2 reads it.

An organisation's admin file (``/etc/xdg/sagemaker/config.yaml`` on Linux, or the path or S3 URI in
``SAGEMAKER_ADMIN_CONFIG_OVERRIDE``) and then the user's (``~/.config/sagemaker/config.yaml``, or
``SAGEMAKER_USER_CONFIG_OVERRIDE``) are merged, the user's values winning; a folder stands for the
``config.yaml`` in it. A default location that does not exist is skipped; a location named by a
variable must exist. For training jobs the SDK v2 takes from it (explicit arguments win):
:data:`TRAINING_JOB_DEFAULTS`, the job's tags (appended unless a tag of that key is given), the
estimator's debugger hook, and a Session's default bucket and key prefix.

The files are read here (the edge); what they mean for a job is applied by the estimator.
"""
import os
import sys

from sagemaker_hetero._checks import text as _spec_text
from sagemaker_hetero.exceptions import ConfigError, Problem

__all__ = [
    "ADMIN_OVERRIDE",
    "USER_OVERRIDE",
    "TRAINING_JOB_DEFAULTS",
    "TAGS",
    "DEBUG_HOOK",
    "DEFAULT_BUCKET",
    "DEFAULT_BUCKET_PREFIX",
    "load",
    "check",
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
#: (None) takes from the configuration, as the SDK v2's estimators take them.
TRAINING_JOB_DEFAULTS = (
    ("role", _JOB + ("RoleArn",)),
    ("output_kms_key", _JOB + ("OutputDataConfig", "KmsKeyId")),
    ("volume_kms_key", _JOB + ("ResourceConfig", "VolumeKmsKeyId")),
    ("subnets", _JOB + ("VpcConfig", "Subnets")),
    ("security_group_ids", _JOB + ("VpcConfig", "SecurityGroupIds")),
    ("encrypt_inter_container_traffic", _JOB + ("EnableInterContainerTrafficEncryption",)),
    ("enable_network_isolation", _JOB + ("EnableNetworkIsolation",)),
    ("environment", _JOB + ("Environment",)),
    ("disable_profiler", _JOB + ("ProfilerConfig", "DisableProfiler")),
)
TAGS = _JOB + ("Tags",)
DEBUG_HOOK = ("SageMaker", "PythonSDK", "Modules", "Estimator", "DebugHookConfig")
DEFAULT_BUCKET = ("SageMaker", "PythonSDK", "Modules", "Session", "DefaultS3Bucket")
DEFAULT_BUCKET_PREFIX = ("SageMaker", "PythonSDK", "Modules", "Session", "DefaultS3ObjectKeyPrefix")

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


def _parse(text, where):
    # Within the spec files' limits: a small hostile file (a YAML alias bomb, deep nesting) is refused
    # at once, naming the file, instead of taking minutes and gigabytes.
    try:
        data = _spec_text.loads(text, where, "yaml", noun="configuration file")
    except ConfigError as exc:
        raise ConfigError([p.renamed(where if p.path == _spec_text.SPEC else "%s %s" % (where, p.path))
                           for p in exc.problems])
    if data is None:
        return {}
    return check(data, where)


def check(config, where="sagemaker_config"):
    """``config`` if it is a configuration the SDK v2 takes (a mapping of ``SchemaVersion: '1.0'``,
    ``SageMaker: ...``); raises :class:`ConfigError` naming ``where`` otherwise."""
    if not isinstance(config, dict):
        raise ConfigError([Problem(where, "must be a mapping (SchemaVersion, SageMaker: ...)", type(config).__name__)])
    if config and config.get("SchemaVersion") != SCHEMA_VERSION:
        raise ConfigError([Problem(where, "must hold SchemaVersion: '%s', the one the SDK v2 reads" % SCHEMA_VERSION,
                                   config.get("SchemaVersion"))])
    return config


def _read_local(path, where, required):
    target = os.path.join(path, _FILE) if os.path.isdir(path) else path
    try:
        with open(target, "rb") as handle:
            text = handle.read()
    except OSError as exc:
        if not required:
            return {}
        raise ConfigError([Problem(where, "the SageMaker defaults configuration cannot be read: %s" % exc, path)])
    return _parse(text, where)


def _read_s3(uri, where, read_s3):
    read_s3 = read_s3 or _read_s3_with_boto3
    try:
        text = read_s3(uri)
    except ConfigError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure to read is the configuration's problem
        raise ConfigError([Problem(where, "the SageMaker defaults configuration cannot be read from S3: %s" % exc,
                                   uri)])
    return _parse(text, where)


def _read_s3_with_boto3(uri):
    """The object at ``uri``, or the ``config.yaml`` under it (the default boto3 session's S3)."""
    import boto3

    from sagemaker_hetero import _aws_errors
    from sagemaker_hetero.exceptions import ResourceNotFoundError

    bucket, _, key = uri[len("s3://"):].partition("/")
    s3 = boto3.client("s3")
    for candidate in (key, key.rstrip("/") + "/" + _FILE):
        try:
            return _aws_errors.call(s3, "GetObject", Bucket=bucket, Key=candidate)["Body"].read()
        except ResourceNotFoundError:
            continue
    raise ValueError("no %s at %s" % (_FILE, uri))


def load(environ=None, read_s3=None):
    """The merged configuration (a dict; empty when there is none). ``read_s3(uri) -> bytes`` reads
    an ``s3://`` location (default: boto3). Raises :class:`ConfigError` for a location named by a
    variable that cannot be read, or a file that is not a YAML mapping."""
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
