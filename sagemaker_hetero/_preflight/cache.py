"""The quota-name file: SageMaker's quota name -> quota code map of one region, kept a day on disk.

Building the map takes one ListServiceQuotas call per page (a few dozen); the codes do not change,
so the map is kept in ``$XDG_CACHE_HOME/sagemaker-hetero`` (else ``~/.cache/sagemaker-hetero``) as
``quota-codes-<region>.json`` for :data:`LIFETIME` seconds. The folder is created private (0700) and
used only if it is a folder of this user; the file is read without following a link and only if
it is this user's regular file, and written whole to a new file that then replaces it, so a reader
never sees half of one. Anything wrong with the folder or the file only means the map is built
again: the preflight never fails for its cache.
"""
import json
import logging
import os
import re
import stat
import tempfile

from sagemaker_hetero._defaults import PROJECT

__all__ = ["LIFETIME", "MAX_BYTES", "folder", "path", "read", "write"]

LOGGER = logging.getLogger("sagemaker_hetero")
#: How long a map is used, in seconds.
LIFETIME = 24 * 3600
#: A larger file is not read (the map of every SageMaker quota is about 100 KB).
MAX_BYTES = 4 * 1024 * 1024
_REGION = re.compile(r"^[a-z]{2}(-[a-z0-9]+)+-\d+$")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def folder(environ=None):
    """The cache folder: ``$XDG_CACHE_HOME/sagemaker-hetero``, else ``~/.cache/sagemaker-hetero``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME")
    if not base or not os.path.isabs(base):  # the XDG rule: a relative path is to be ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, PROJECT)


def path(region, environ=None):
    """The file of ``region``'s map, or None for a name that is no region (it names a file)."""
    if not isinstance(region, str) or not _REGION.match(region):
        return None
    return os.path.join(folder(environ), "quota-codes-%s.json" % region)


def _mine(info):
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def _usable_folder(where, create):
    """Whether ``where`` is (after creating it private, with ``create``) a real folder of this user."""
    try:
        if create:
            os.makedirs(where, mode=0o700, exist_ok=True)
        info = os.lstat(where)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and _mine(info)


def read(region, now, environ=None):
    """``{quota name: code}`` of ``region`` written less than :data:`LIFETIME` seconds before ``now``
    (seconds since the epoch), or None."""
    target = path(region, environ)
    if target is None or not _usable_folder(os.path.dirname(target), create=False):
        return None
    try:
        fd = os.open(target, os.O_RDONLY | _NOFOLLOW)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not _mine(info) or info.st_size > MAX_BYTES:
            return None
        with os.fdopen(fd, "rb") as handle:
            fd = None
            data = json.loads(handle.read(MAX_BYTES + 1).decode("utf-8"))
    except (OSError, ValueError) as exc:
        LOGGER.debug("The quota-name file %s cannot be read (%s); the map is built again.", target, exc)
        return None
    finally:
        if fd is not None:
            os.close(fd)
    return _valid(data, region, now)


def _valid(data, region, now):
    if not isinstance(data, dict) or data.get("region") != region:
        return None
    written, codes = data.get("written"), data.get("codes")
    if not isinstance(written, (int, float)) or not 0 <= now - written < LIFETIME or not isinstance(codes, dict):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in codes.items()):
        return None
    return codes


def write(region, codes, now, environ=None):
    """Keep ``codes`` as ``region``'s map, written at ``now``; False if it could not be written."""
    target = path(region, environ)
    if target is None or not _usable_folder(os.path.dirname(target), create=True):
        return False
    body = json.dumps({"region": region, "written": now, "codes": codes}, sort_keys=True).encode("utf-8")
    try:
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".quota-codes-", suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(body)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)  # replaces a link at target, never writes through it
        return True
    except OSError as exc:
        LOGGER.debug("The quota-name file %s cannot be written (%s).", target, exc)
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return False
