"""The one line a host prints to say who it is, so logs can be labelled by instance group."""
import re

__all__ = ["MARKER_PREFIX", "format_marker", "parse_marker"]

MARKER_PREFIX = "[sagemaker-hetero]"

_MARKER = re.compile(
    r"\[sagemaker-hetero\] host=(?P<host>\S+) group=(?P<group>\S+) instance_type=(?P<instance_type>\S+)\s*$"
)


def format_marker(host, group, instance_type):
    """``[sagemaker-hetero] host=<host> group=<group> instance_type=<type>``: the line that labels a host's logs.

    Parameters
    ----------
    host : str
        The host, e.g. ``"algo-1"``.
    group : str
        Its instance group.
    instance_type : str
        Its instance type.
    """
    return "%s host=%s group=%s instance_type=%s" % (MARKER_PREFIX, host, group, instance_type)


def parse_marker(line):
    """``{"host", "group", "instance_type"}`` from a log line holding a marker, else ``None``.

    The marker may follow a prefix (a timestamp, say) but must end the line.

    Parameters
    ----------
    line : str
        A log line.
    """
    match = _MARKER.search(line)
    return match.groupdict() if match else None
