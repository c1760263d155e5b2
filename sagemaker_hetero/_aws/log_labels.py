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

:class:`LogLabeller` holds the per-stream state machines; the edge (``log_tail``) feeds it the
events it reads and prints what comes out (lines: plain tuples, see ``TIMESTAMP``), in time order
(:func:`merge`), as :func:`render` writes them.
"""
import collections
import json
import re

import attrs

from sagemaker_hetero._defaults import TRAINING_JOBS_NAMESPACE
from sagemaker_hetero.training._marker import MARKER_PREFIX, parse_marker

__all__ = [
    "LOG_GROUP",
    "UNKNOWN_GROUP",
    "TIMESTAMP",
    "STREAM",
    "SEQ",
    "HOST",
    "MESSAGE",
    "GROUP",
    "StreamName",
    "LogLabeller",
    "parse_stream_name",
    "stream_prefix",
    "merge",
    "label",
    "text",
    "render",
    "filter_problems",
]

LOG_GROUP = TRAINING_JOBS_NAMESPACE
UNKNOWN_GROUP = "?"
ENV_HEADER = "Training Env:"
#: A "Training Env:" block longer than this many lines is not a training environment.
MAX_ENV_LINES = 2000
#: Nor is one of more characters than this (a real one is a few kilobytes): what a block holds while
#: it is read is bounded by this and ``MAX_ENV_LINES``, whether or not it ever ends.
MAX_ENV_CHARS = 1 << 20
#: Nor is one nesting deeper than this (a real one nests 3 or 4 levels): measured as the block is
#: read, so the JSON parser never sees a deeper one.
MAX_ENV_DEPTH = 32
#: Lines held per stream while a group filter waits to learn the stream's group, and characters.
MAX_HELD_LINES = 10000
MAX_HELD_CHARS = 4 << 20

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


#: Where a line's fields are. A line is a plain tuple ``(timestamp ms, stream name, seq: its place in
#: the stream, host, message, group or None while unknown)``: one is made per line read and a long
#: read holds many at once, and a plain tuple of strings and numbers is the cheapest object for that
#: (the garbage collector stops tracking it; it keeps tracking a named tuple or an attrs instance).
#: Tuples order lines by time, then stream, then place in the stream: no two lines of one labeller
#: share the first three fields.
TIMESTAMP, STREAM, SEQ, HOST, MESSAGE, GROUP = range(6)


def label(line):
    """``[<group>/<host>]`` (``[?/<host>]`` while the group is unknown)."""
    return "[%s/%s]" % (line[GROUP] if line[GROUP] is not None else UNKNOWN_GROUP, line[HOST])


def text(line):
    """The line as printed: ``[<group>/<host>] <message>``."""
    return "[%s/%s] %s" % (line[GROUP] if line[GROUP] is not None else UNKNOWN_GROUP, line[HOST], line[MESSAGE])


def render(lines):
    """The lines as printed, each ending in a newline, in one string."""
    return "".join(["[%s/%s] %s\n" % (group if group is not None else UNKNOWN_GROUP, host, message)
                    for _, _, _, host, message, group in lines])


def merge(lines):
    """Lines of several streams in time order (a stream's own order kept for equal times)."""
    return sorted(lines)


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


def _brace_depth(chars, depth=0):
    """``(depth, deepest)``: the JSON nesting depth after ``chars`` read at ``depth`` (objects and
    arrays opened minus closed, strings skipped), and the deepest it went; stops as soon as it goes
    deeper than ``MAX_ENV_DEPTH``."""
    deepest = depth
    in_string = escaped = False
    for ch in chars:
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
            if depth > deepest:
                deepest = depth
                if deepest > MAX_ENV_DEPTH:
                    break
        elif ch in "}]":
            depth -= 1
    return depth, deepest


def _environment(block):
    """``(current_host, current_instance_group)`` of a complete "Training Env:" block (its lines), or
    None if it is not a JSON object. Never raises: the block was bounded in size and depth as it was
    read, and whatever else goes wrong reading it leaves the stream's group unknown."""
    try:
        start = next(i for i, held in enumerate(block) if held[MESSAGE].strip().startswith("{"))
        env = json.loads("\n".join(held[MESSAGE] for held in block[start:]))
        if not isinstance(env, dict):
            return None
        return env.get("current_host"), env.get("current_instance_group")
    except Exception:  # noqa: BLE001 - whatever a job prints, its lines are shown (unlabelled)
        return None


@attrs.define
class _Stream(object):
    name = attrs.field()
    host = attrs.field()
    group = attrs.field(default=None)
    shown = attrs.field(default=True)  # whether the lines of its group are shown (set with the group)
    mode = attrs.field(default=_SCAN)
    seq = attrs.field(default=0)
    depth = attrs.field(default=0)
    block = attrs.field(factory=list)  # lines of a "Training Env:" block being read
    size = attrs.field(default=0)  # the characters of ``block``
    held = attrs.field(factory=collections.deque)  # lines held until the group is known (group filter only)
    held_size = attrs.field(default=0)  # the characters of ``held``


class LogLabeller(object):
    """Labels the lines of one job's log streams with their instance group.

    ``groups``: the job's instance group names, if known (one name: every host is in it).
    ``only``: show only these groups' lines; lines of a stream whose group is not known yet are held
    back until it is (at most ``MAX_HELD_LINES`` per stream, then the oldest is shown as ``?``), and
    shown as ``?`` by :meth:`finish` if it never is.

    A line of a stream whose group is known costs one tuple (none if its group is not shown); only
    the lines of a stream still unknown go through the state machine below.
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
            stream = self._streams[name] = _Stream(name, parse_stream_name(name).host)
            if self._fixed is not None:
                self._set_group(stream, self._fixed)
        return stream

    def _set_group(self, stream, group):
        stream.group = group
        stream.shown = self.only is None or group in self.only

    def feed(self, stream_name, events):
        """The lines to show now for new ``events`` (``(timestamp ms, message)`` pairs, in stream order)."""
        stream = self._stream(stream_name)
        out = []
        append = out.append
        name, host, seq = stream.name, stream.host, stream.seq
        group, shown = stream.group, stream.shown
        for timestamp, message in events:
            if "\n" in message or "\r" in message:  # several lines, or line ends to take off
                parts = message.split("\n")
                if len(parts) > 1 and parts[-1] == "":
                    parts.pop()
                for part in parts:
                    line = (timestamp, name, seq, host, part.rstrip("\r"), group)
                    if group is None:
                        self._line(stream, line, out)
                        group, shown = stream.group, stream.shown
                    elif shown:
                        append(line)
                    seq += 1
            elif group is not None:  # the common case: one line, of a stream whose group is known
                if shown:
                    append((timestamp, name, seq, host, message, group))
                seq += 1
            else:
                self._line(stream, (timestamp, name, seq, host, message, None), out)
                group, shown = stream.group, stream.shown
                seq += 1
        stream.seq = seq
        return out

    def finish(self):
        """Everything still held back (an unfinished environment block, lines of unknown group)."""
        out = []
        for stream in self._streams.values():
            if stream.block:
                self._abandon(stream, out)
            out.extend(stream.held)
            stream.held.clear()
            stream.held_size = 0
        return merge(out)

    # -- the state machine of a stream whose group is not known yet: each step appends the lines
    # -- to show now to ``out`` --------------------------------------------------------------

    def _line(self, stream, line, out):
        if stream.mode == _HEADER:
            stripped = line[MESSAGE].strip()
            if not stripped:
                if not self._hold(stream, line):
                    self._abandon(stream, out)
                return
            if stripped.startswith("{"):
                stream.mode = _JSON
                self._json_line(stream, line, out)
                return
            self._abandon(stream, out)  # not an environment after all
            self._line(stream, line, out)
            return
        if stream.mode == _JSON:
            self._json_line(stream, line, out)
            return
        message = line[MESSAGE]
        if MARKER_PREFIX in message:
            marker = parse_marker(message)
            if marker is not None and self._acceptable(stream, marker["host"], marker["group"]):
                self._learn(stream, marker["group"], [line], out)
                return
        if ENV_HEADER in message and message.rstrip().endswith(ENV_HEADER):
            stream.mode = _HEADER
            stream.block, stream.size, stream.depth = [], 0, 0
            if not self._hold(stream, line):
                self._abandon(stream, out)
            return
        self._unknown(stream, line, out)

    def _hold(self, stream, line):
        """Add ``line`` to the block being read; False once the block is too long to be an environment."""
        stream.block.append(line)
        stream.size += len(line[MESSAGE]) + 1
        return stream.size <= MAX_ENV_CHARS and len(stream.block) <= MAX_ENV_LINES

    def _json_line(self, stream, line, out):
        if not self._hold(stream, line):
            self._abandon(stream, out)
            return
        stream.depth, deepest = _brace_depth(line[MESSAGE], stream.depth)
        if deepest > MAX_ENV_DEPTH:
            self._abandon(stream, out)
            return
        if stream.depth > 0:
            return
        found = _environment(stream.block)
        if found is None or not self._acceptable(stream, found[0], found[1]):
            self._abandon(stream, out)
            return
        block, stream.block, stream.size, stream.mode = stream.block, [], 0, _SCAN
        self._learn(stream, found[1], block, out)

    def _acceptable(self, stream, host, group):
        if not isinstance(group, str) or not group or host != stream.host:
            return False
        return self.groups is None or group in self.groups

    def _learn(self, stream, group, lines, out):
        self._set_group(stream, group)
        held, stream.held, stream.held_size = stream.held, collections.deque(), 0
        if stream.shown:
            out.extend(line[:GROUP] + (group,) for line in held)
            out.extend(line[:GROUP] + (group,) for line in lines)

    def _abandon(self, stream, out):
        block, stream.block, stream.size, stream.mode = stream.block, [], 0, _SCAN
        for line in block:
            self._unknown(stream, line, out)

    def _unknown(self, stream, line, out):
        if self.only is None:
            out.append(line)
            return
        held = stream.held
        held.append(line)
        stream.held_size += len(line[MESSAGE])
        while len(held) > MAX_HELD_LINES or stream.held_size > MAX_HELD_CHARS:
            oldest = held.popleft()  # shown as "?" rather than held without end
            stream.held_size -= len(oldest[MESSAGE])
            out.append(oldest)
