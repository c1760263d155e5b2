"""Names as the SageMaker Python SDK v2 makes them (``sagemaker.utils``): pure, standard library only.

``name_from_base("my-job")`` is ``my-job-2026-01-31-12-00-00-000`` (UTC, milliseconds; the form a
default job name has), ``name_from_base("my-job", short=True)`` ``my-job-260131-1200`` (local time),
``unique_name_from_base("my-job")`` ``my-job-1769860800-1a2b`` (epoch seconds and 4 random hex
digits), each cut to ``max_length`` by shortening the base. ``base_from_name`` takes the timestamp
off again.
"""
import re
import threading
import time

from typing import Optional

from sagemaker_hetero._defaults import MAX_JOB_NAME

__all__ = [
    "name_from_base",
    "unique_name_from_base",
    "base_name_from_image",
    "base_from_name",
    "sagemaker_timestamp",
    "sagemaker_short_timestamp",
]

# compiled when first used (``re``'s cache): importing this module stays cheap
_IMAGE = r"^(.+/)?([^:/]+)(:[^:]+)?$"
_NAME_WITH_TIMESTAMP = r"^(.+)-(\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}-\d{3}|\d{6}-\d{4})"
# The last millisecond a default name was stamped with in this process (see :func:`claim_time`).
_CLAIM_LOCK = threading.Lock()
_last_claimed_ms = [-1]


def _milliseconds(now: float) -> int:
    """Whole milliseconds since the epoch of ``now`` as :func:`timestamp` shows them (cut, not rounded)."""
    digits = repr(float(now)).partition(".")[2]
    ms = int(digits[:3].ljust(3, "0")) if digits.isdigit() else int((now - int(now)) * 1000)
    return int(now) * 1000 + ms


def claim_time(now: float) -> float:
    """``now``, or the next millisecond no earlier call in this process was given: the time of a default
    name. Two default names made in one process (any thread) never share a timestamp; a burst of
    names within one millisecond is stamped with the following ones."""
    with _CLAIM_LOCK:
        ms = max(_milliseconds(now), _last_claimed_ms[0] + 1)
        _last_claimed_ms[0] = ms
    return ms / 1000.0


def timestamp(now: float) -> str:
    """``YYYY-MM-DD-HH-MM-SS-mmm`` (UTC) of the epoch time ``now``: the timestamp of job names.

    The milliseconds are cut, not rounded, from the digits Python prints for ``now`` (as the SDK v2
    does: rounding would put x.9996 s at x-000, almost a second early); unlike the SDK v2 they are
    always three digits (``.5`` s is ``-500``, not ``-5``).
    """
    return time.strftime("%Y-%m-%d-%H-%M-%S", time.gmtime(int(now))) + "-%03d" % (_milliseconds(now) % 1000)


def sagemaker_timestamp() -> str:
    """``YYYY-MM-DD-HH-MM-SS-mmm`` of now (UTC, milliseconds), the timestamp of job names: never the same
    twice in one process (:func:`claim_time`)."""
    return timestamp(claim_time(time.time()))


def short_timestamp(now: float) -> str:
    """``YYMMDD-HHMM`` of the epoch time ``now``, in local time (as the SDK v2 has it): the timestamp of
    tuning job names."""
    return time.strftime("%y%m%d-%H%M", time.localtime(now))


def sagemaker_short_timestamp() -> str:
    """``YYMMDD-HHMM`` of now, in local time (as the SDK v2 has it)."""
    return short_timestamp(time.time())


def name_from_base(base: str, max_length: int = MAX_JOB_NAME, short: bool = False) -> str:
    """``{base}-{timestamp}``, the name a job gets by default.

    Parameters
    ----------
    base : str
        The name's beginning.
    max_length : int, default 63
        The longest the name may be; the base is cut to fit.
    short : bool, default False
        Use the short timestamp ``YYMMDD-HHMM`` (local time) of tuning job names.
    """
    return name_with_timestamp(base, sagemaker_short_timestamp() if short else sagemaker_timestamp(), max_length)


def name_with_timestamp(base: str, stamp: str, max_length: int = MAX_JOB_NAME) -> str:
    """``{base}-{stamp}``, the base cut so that the name has at most ``max_length`` characters."""
    return "{}-{}".format(base[: max_length - len(stamp) - 1], stamp)


def unique_name_from_base(base: str, max_length: int = MAX_JOB_NAME) -> str:
    """``{base}-{epoch seconds}-{4 random hex digits}``.

    Parameters
    ----------
    base : str
        The name's beginning.
    max_length : int, default 63
        The longest the name may be; the base is cut to fit.
    """
    import random  # only here; the SDK v2 re-seeds the global ``random`` for this, we leave it alone

    unique = "%04x" % random.SystemRandom().randrange(16 ** 4)
    ts = str(int(time.time()))
    available_length = max_length - 2 - len(ts) - len(unique)
    trimmed = base[:available_length]
    return "{}-{}-{}".format(trimmed, ts, unique)


def base_name_from_image(image: str, default_base_name: Optional[str] = None) -> str:
    """The repository name of an image URI (``.../my-repo:tag`` -> ``my-repo``), the image itself if
    it does not look like one.

    Parameters
    ----------
    image : str
        The image URI.
    default_base_name : str, optional
        The SDK v2's name for an image that is a pipeline variable, which this package does not take.
    """
    m = re.match(_IMAGE, image)
    return m.group(2) if m else image


def base_from_name(name: str) -> str:
    """The base of a name made by :func:`name_from_base` (either timestamp), else the name itself.

    Parameters
    ----------
    name : str
        The name.
    """
    m = re.match(_NAME_WITH_TIMESTAMP, name)
    return m.group(1) if m else name
