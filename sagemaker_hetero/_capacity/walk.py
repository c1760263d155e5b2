"""The walk through the instance groups' choices, the attempts' names, and the record of each attempt. Pure.

A failover (docs/capacity.md) starts every group at its first choice. A choice that cannot be had
moves ONE group to its next choice: the group whose current type the failure names, otherwise the
first group, in declared order, that still has a choice. When no group has one left, every choice
has failed; after ``capacity_wait`` the walk starts again from the first choices.
"""
from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model import instance_types, record
from sagemaker_hetero._model.choices import choice_text
from sagemaker_hetero._request import describe

__all__ = ["Walk", "Attempt", "attempt_name", "named_types", "table", "as_json", "CREATED", "NOT_CREATED",
           "COMPLETED", "IN_PROGRESS", "SKIPPED"]

#: What an attempt came to (``Attempt.outcome``) besides a job's own end status (``Failed``, ``Stopped``).
COMPLETED, IN_PROGRESS, NOT_CREATED, SKIPPED = "Completed", "InProgress", "NotCreated", "Skipped"
CREATED = (COMPLETED, IN_PROGRESS, "Failed", "Stopped")
_ATTEMPT_SUFFIX = "-c%d"


def attempt_name(name, number):
    """The job name of attempt ``number`` (1 is the first): ``name``, then ``<name>-c2``, ``<name>-c3``...,
    the name cut so that the whole stays within SageMaker's 63 characters."""
    if number <= 1:
        return name
    suffix = _ATTEMPT_SUFFIX % number
    return name[: D.MAX_JOB_NAME - len(suffix)].rstrip("-") + suffix


def named_types(message, types):
    """The instance types among ``types`` that ``message`` names (an ``ml.`` type as a whole word)."""
    found = set(instance_types.named_in(message))
    return [t for t in types if t in found]


class Walk(object):
    """Where each group stands among its choices: ``choices`` is ``[(group name, [(type, count), ...])]``,
    the first choice of each group first (``_model.choices.group_choices``)."""

    def __init__(self, choices):
        self.choices = [(name, list(options)) for name, options in choices]
        self.at = [0] * len(self.choices)

    @property
    def size(self):
        """The number of choices in all: one job per choice when every one fails (the first job included)."""
        return 1 + sum(len(options) - 1 for _, options in self.choices)

    def current(self):
        """``[(group name, type, count)]``: each group's current choice."""
        return [(name, options[i][0], options[i][1]) for (name, options), i in zip(self.choices, self.at)]

    def picks(self):
        """``{group index: (type, count)}`` of the groups not at their first choice."""
        return dict((g, self.choices[g][1][i]) for g, i in enumerate(self.at) if i)

    def left(self, group):
        """Whether ``group`` (an index) has a choice after its current one."""
        return self.at[group] + 1 < len(self.choices[group][1])

    def next_group(self, message=""):
        """The group to move on: the one whose current type ``message`` names (with a choice left), else
        the first with a choice left; None when none has one."""
        current = self.current()
        for instance_type in named_types(message, [t for _, t, _ in current]):
            for g, (_, t, _) in enumerate(current):
                if t == instance_type and self.left(g):
                    return g
        return next((g for g in range(len(self.choices)) if self.left(g)), None)

    def advance(self, group):
        """Move ``group`` to its next choice; ``(group name, the choice left, the choice now)`` as text."""
        name, options = self.choices[group]
        before = options[self.at[group]]
        self.at[group] += 1
        return name, choice_text(*before), choice_text(*options[self.at[group]])

    def restart(self):
        """Every group at its first choice again (after ``capacity_wait``)."""
        self.at = [0] * len(self.choices)


@record.frozen
class Attempt(object):
    """One attempt of a failover: the job's ``name``, ``groups`` (``[(group, type, count)]``), ``outcome``
    (the job's end status, ``InProgress``, ``NotCreated`` or ``Skipped``: the quota allowed no job),
    ``reason`` (why it failed; None), ``start`` and ``end`` (ISO 8601 times; None when not known)."""

    name = record.field()
    groups = record.field()
    outcome = record.field()
    reason = record.field(default=None)
    start = record.field(default=None)
    end = record.field(default=None)

    @property
    def job_name(self):
        """The job's name (``name``), as the SDK names a training job's."""
        return self.name

    @property
    def instance_groups(self):
        """``[(group, type, count)]`` (``groups``)."""
        return list(self.groups)

    @classmethod
    def of_job(cls, name, groups, desc, outcome=None, reason=None, seen=None):
        """The attempt of a job its description ``desc`` describes (None: not described). A job that ended
        ends at its TrainingEndTime, else (one that failed before training: SageMaker sets none) its
        LastModifiedTime, else ``seen`` (when its end was seen)."""
        desc = desc or {}
        status = outcome or desc.get("TrainingJobStatus") or IN_PROGRESS
        start = describe.iso(desc.get("TrainingStartTime") or desc.get("CreationTime"))
        end = None
        if status != IN_PROGRESS:
            end = describe.iso(desc.get("TrainingEndTime") or desc.get("LastModifiedTime")) or seen
        return cls(name, tuple(groups), status, reason or desc.get("FailureReason"), start, end)

    def as_dict(self):
        """The attempt as JSON-ready data (``submit --output json``, ``status --output json``)."""
        return {"job_name": self.name, "outcome": self.outcome, "reason": self.reason, "start": self.start,
                "end": self.end, "instance_groups": [{"name": g, "type": t, "count": c} for g, t, c in self.groups]}


def as_json(attempts):
    """Every attempt as JSON-ready data."""
    return [a.as_dict() for a in attempts]


def _cut(text, width):
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 3] + "..."


def table(attempts, width=70):
    """The attempts as a table for people: one row per attempt (its groups' choices, outcome and reason)."""
    rows = [("#", "job", "instance groups", "outcome", "reason")]
    for i, a in enumerate(attempts, 1):
        groups = ", ".join("%s=%s" % (g, choice_text(t, c)) for g, t, c in a.groups)
        rows.append((str(i), a.name, groups, a.outcome, _cut(a.reason or "-", width)))
    widths = [max(len(r[k]) for r in rows) for k in range(4)]
    return "\n".join("  ".join(r[k].ljust(widths[k]) for k in range(4)) + "  " + r[4] for r in rows)
