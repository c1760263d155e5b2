"""A training job's log lines, labelled ``[<group>/<host>]`` (pure: no I/O, no clock).

SageMaker writes each host's output to the CloudWatch log stream ``<job>/algo-N-<epoch>`` of the log
group ``/aws/sagemaker/TrainingJobs``, and gives the ``algo-N`` names to the instance groups in no
fixed order. A stream's group is learned from whichever of these comes first in it:

- the marker line ``sagemaker_hetero.training`` prints,
  ``[sagemaker-hetero] host=algo-3 group=dnn_group instance_type=ml.p4d.24xlarge``;
- the training environment the framework containers print at start: a line ending in
  ``Training Env:``, then a JSON object (one line per log event) whose top-level ``current_host``
  and ``current_instance_group`` say who the host is.

Until then a stream's lines are labelled ``[?/<host>]``: a line never carries a wrong group. A job
with one instance group (or none: ``homogeneousCluster``) has every group known up front.

:class:`LogLabeller` holds the per-stream state machines; the edge (``_log_tail``) feeds it the
events it reads and prints what comes out, in time order (:func:`merge`).
"""
import json
import re

import attrs

from sagemaker_hetero.training._marker import parse_marker

__all__ = [
    "LOG_GROUP",
    "UNKNOWN_GROUP",
    "LogLine",
    "StreamName",
    "LogLabeller",
    "parse_stream_name",
    "stream_prefix",
    "merge",
    "filter_problems",
]

LOG_GROUP = "/aws/sagemaker/TrainingJobs"
UNKNOWN_GROUP = "?"
ENV_HEADER = "Training Env:"
#: A "Training Env:" block longer than this many lines is not a training environment.
MAX_ENV_LINES = 2000
#: Lines held per stream while a group filter waits to learn the stream's group.
MAX_HELD_LINES = 10000

_SCAN, _HEADER, _JSON = "scan", "header", "json"
_HOST_EPOCH = re.compile(r"^(?P<host>.+)-(?P<epoch>\d+)$")


@attrs.frozen
class StreamName(object):
    """``<job>/<host>-<epoch>`` taken apart (``epoch`` is ``None`` if the name has none)."""

    name = attrs.field()
    job = attrs.field()
    host = attrs.field()
    epoch = attrs.field(default=None)


def parse_stream_name(name):
    """``StreamName`` of ``"my-job/algo-2-1700000000"`` -> job ``my-job``, host ``algo-2``."""
    job, _, rest = name.rpartition("/")
    match = _HOST_EPOCH.match(rest)
    if match:
        return StreamName(name, job, match.group("host"), int(match.group("epoch")))
    return StreamName(name, job, rest)


def stream_prefix(job_name):
    """The prefix every log stream of the job starts with."""
    return job_name + "/"


@attrs.frozen
class LogLine(object):
    """One line of output: ``timestamp`` in ms, its ``stream`` and place ``seq`` in it, the host and
    its group (``None`` while unknown)."""

    timestamp = attrs.field()
    stream = attrs.field()
    seq = attrs.field()
    host = attrs.field()
    message = attrs.field()
    group = attrs.field(default=None)

    @property
    def label(self):
        return "[%s/%s]" % (self.group if self.group is not None else UNKNOWN_GROUP, self.host)

    def text(self):
        return "%s %s" % (self.label, self.message)


def merge(lines):
    """Lines of several streams in time order (a stream's own order kept for equal times)."""
    return sorted(lines, key=lambda line: (line.timestamp, line.stream, line.seq))


def filter_problems(only, groups, job_name=None):
    """Problems with a group filter ``only`` (names) for a job of ``groups`` (names)."""
    from sagemaker_hetero.exceptions import Problem

    problems = []
    for i, name in enumerate(only or ()):
        if not isinstance(name, str) or name not in groups:
            problems.append(
                Problem(
                    "instance_groups[%d]" % i,
                    "is not an instance group of %s (groups: %s)"
                    % ("job %r" % job_name if job_name else "the job", ", ".join(map(repr, groups))),
                    name,
                )
            )
    return problems


def _brace_depth(text):
    """How many JSON objects/arrays ``text`` opens minus closes (strings skipped)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
    return depth


@attrs.define
class _Stream(object):
    name = attrs.field()
    host = attrs.field()
    group = attrs.field(default=None)
    mode = attrs.field(default=_SCAN)
    seq = attrs.field(default=0)
    depth = attrs.field(default=0)
    block = attrs.field(factory=list)  # lines of a "Training Env:" block being read
    held = attrs.field(factory=list)  # lines held until the group is known (group filter only)


class LogLabeller(object):
    """Labels the lines of one job's log streams with their instance group.

    ``groups``: the job's instance group names, if known (one name: every host is in it).
    ``only``: show only these groups' lines; lines of a stream whose group is not known yet are held
    back until it is (at most ``MAX_HELD_LINES`` per stream, then shown as ``?``), and shown as
    ``?`` by :meth:`finish` if it never is.
    """

    def __init__(self, groups=None, only=None):
        self.groups = tuple(groups) if groups is not None else None
        self.only = frozenset(only) if only else None
        self._fixed = self.groups[0] if self.groups is not None and len(self.groups) == 1 else None
        self._streams = {}

    @property
    def streams(self):
        """``{stream name: group or None}`` of every stream seen."""
        return {name: s.group for name, s in self._streams.items()}

    def _stream(self, name):
        stream = self._streams.get(name)
        if stream is None:
            stream = self._streams[name] = _Stream(name, parse_stream_name(name).host, group=self._fixed)
        return stream

    def feed(self, stream_name, events):
        """The lines to show now for new ``events`` (``(timestamp ms, message)`` pairs, in stream order)."""
        stream = self._stream(stream_name)
        out = []
        for timestamp, message in events:
            parts = message.split("\n")
            if len(parts) > 1 and parts[-1] == "":
                parts.pop()
            for text in parts:
                line = LogLine(timestamp, stream.name, stream.seq, stream.host, text.rstrip("\r"))
                stream.seq += 1
                out.extend(self._line(stream, line))
        return out

    def finish(self):
        """Everything still held back (an unfinished environment block, lines of unknown group)."""
        out = []
        for stream in self._streams.values():
            if stream.block:
                out.extend(self._abandon(stream))
            out.extend(stream.held)
            stream.held = []
        return merge(out)

    # -- the state machine of one stream ---------------------------------------------------

    def _line(self, stream, line):
        if stream.group is not None:
            return self._show(stream, [attrs.evolve(line, group=stream.group)])
        if stream.mode == _HEADER:
            stripped = line.message.strip()
            if not stripped:
                stream.block.append(line)
                return []
            if stripped.startswith("{"):
                stream.mode = _JSON
                return self._json_line(stream, line)
            out = self._abandon(stream)  # not an environment after all
            return out + self._line(stream, line)
        if stream.mode == _JSON:
            return self._json_line(stream, line)
        marker = parse_marker(line.message)
        if marker is not None and self._acceptable(stream, marker["host"], marker["group"]):
            return self._learn(stream, marker["group"], [line])
        if line.message.rstrip().endswith(ENV_HEADER):
            stream.mode = _HEADER
            stream.block = [line]
            stream.depth = 0
            return []
        return self._unknown(stream, [line])

    def _json_line(self, stream, line):
        stream.block.append(line)
        stream.depth += _brace_depth(line.message)
        if stream.depth > 0:
            if len(stream.block) > MAX_ENV_LINES:
                return self._abandon(stream)
            return []
        start = next(i for i, held in enumerate(stream.block) if held.message.strip().startswith("{"))
        text = "\n".join(held.message for held in stream.block[start:])
        try:
            env = json.loads(text)
        except ValueError:
            return self._abandon(stream)
        host = env.get("current_host") if isinstance(env, dict) else None
        group = env.get("current_instance_group") if isinstance(env, dict) else None
        if not self._acceptable(stream, host, group):
            return self._abandon(stream)
        block, stream.block, stream.mode = stream.block, [], _SCAN
        return self._learn(stream, group, block)

    def _acceptable(self, stream, host, group):
        if not isinstance(group, str) or not group or host != stream.host:
            return False
        return self.groups is None or group in self.groups

    def _learn(self, stream, group, lines):
        stream.group = group
        held, stream.held = stream.held, []
        return self._show(stream, [attrs.evolve(line, group=group) for line in held + lines])

    def _abandon(self, stream):
        block, stream.block, stream.mode = stream.block, [], _SCAN
        return self._unknown(stream, block)

    def _unknown(self, stream, lines):
        if self.only is None:
            return lines
        stream.held.extend(lines)
        excess = len(stream.held) - MAX_HELD_LINES
        if excess > 0:
            released, stream.held = stream.held[:excess], stream.held[excess:]
            return released
        return []

    def _show(self, stream, lines):
        if self.only is None or stream.group in self.only:
            return lines
        return []
