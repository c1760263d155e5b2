"""An instance group's choices: its own type and count first, then its ``alternatives`` (docs/capacity.md).
Pure.

``InstanceGroup("dnn", "ml.p4d.24xlarge", 1, alternatives=["ml.p5.48xlarge", ("ml.g5.48xlarge", 2)])``
has three choices, ``(ml.p4d.24xlarge, 1)``, ``(ml.p5.48xlarge, 1)`` and ``(ml.g5.48xlarge, 2)``. A
request holds one choice per group (the first, unless capacity chose another): the alternatives are
never sent. Each alternative is checked as a whole job: the job's settings with that one group as
that choice (:func:`substituted`), through the planner's own checks, so a choice the job could
never run is a problem naming the group and the choice before anything is sent.
"""
from sagemaker_hetero._model import record
from sagemaker_hetero._model.user import InstanceGroup, TrainingInput
from sagemaker_hetero.exceptions import Problem

__all__ = ["has_alternatives", "group_choices", "alternative_rows", "form_problems", "substituted", "chosen", "alternatives_of",
           "choice_text", "MAX_ALTERNATIVES"]

#: At most this many alternatives per group (each one a whole job to check, and a job to try).
MAX_ALTERNATIVES = 10


def _groups(settings):
    given = settings.instance_groups
    if not isinstance(given, (list, tuple)):
        return []
    return [g for g in given if isinstance(g, InstanceGroup)]


def has_alternatives(settings):
    """Whether any instance group of ``settings`` names alternatives."""
    return any(g.alternatives for g in _groups(settings))


_MALFORMED = "must be an instance type, or an (instance type, count) pair such as ('ml.g5.48xlarge', 2)"
# a spec's alternative (docs/capacity.md) is a mapping: say the keys it takes
_MALFORMED_MAPPING = ("must be an instance type, or a mapping of type (an instance type) and count (optional: the "
                      "group's), with no other key, such as {type: ml.g5.48xlarge, count: 2}")


def _choice(item, count):
    """``(type, count)`` of one alternative, or None when it is neither a type nor a ``(type, count)`` pair."""
    if isinstance(item, str):
        return item, count
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
        return item
    if isinstance(item, dict) and set(item) <= {"type", "count"} and isinstance(item.get("type"), str):
        return item["type"], item.get("count", count)
    return None


def alternatives_of(group):
    """The well-formed alternatives of an InstanceGroup as ``[(type, count)]`` (the malformed left out)."""
    items = group.alternatives if isinstance(group.alternatives, tuple) else ()
    out = []
    for item in items[:MAX_ALTERNATIVES]:
        choice = _choice(item, group.instance_count)
        if choice is not None and choice not in out and choice != (group.instance_type, group.instance_count):
            out.append(choice)
    return out


def group_choices(settings):
    """``[(group name, [(type, count), ...])]``: every InstanceGroup's choices, its own first, in declared order."""
    return [(g.instance_group_name, [(g.instance_type, g.instance_count)] + alternatives_of(g))
            for g in _groups(settings)]


def _is_count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def form_problems(settings):
    """The problems of the alternatives' own form: a list of types or ``(type, count)`` pairs, each count an
    integer >= 1, no choice twice, at most :data:`MAX_ALTERNATIVES`."""
    out = []
    given = settings.instance_groups if isinstance(settings.instance_groups, (list, tuple)) else ()
    for i, group in enumerate(given):
        if not isinstance(group, InstanceGroup) or group.alternatives is None:
            continue
        path = "instance_groups[%d].alternatives" % i
        items = group.alternatives
        if not isinstance(items, tuple):
            out.append(Problem(path, "must be a list of instance types or (instance type, count) pairs", items))
            continue
        if len(items) > MAX_ALTERNATIVES:
            out.append(Problem(path, "must hold at most %d alternatives" % MAX_ALTERNATIVES, len(items)))
        seen = [(group.instance_type, group.instance_count)]
        for j, item in enumerate(items):
            where = "%s[%d]" % (path, j)
            choice = _choice(item, group.instance_count)
            if choice is None:
                out.append(Problem(where, _MALFORMED_MAPPING if isinstance(item, dict) else _MALFORMED, item))
            elif not _is_count(choice[1]):
                out.append(Problem(where, "must have a count that is an integer >= 1", choice[1]))
            elif choice in seen:
                out.append(Problem(where, "repeats the choice %s x %s of instance group %r" % (
                    choice[1], choice[0], group.instance_group_name), item))
            else:
                seen.append(choice)
    return out


def _ref(ref, name, group):
    return group if isinstance(ref, InstanceGroup) and ref.instance_group_name == name else ref


def _refs(refs, name, group):
    return [_ref(r, name, group) for r in refs] if isinstance(refs, (list, tuple)) else refs


def chosen(settings, picks):
    """``settings`` with each group as ``picks`` says, ``{group index: (type, count)}`` (the others as
    given), every alternative left out, and the channels' and distribution's references to a changed
    group by object changed with it."""
    given = settings.instance_groups
    if not isinstance(given, (list, tuple)):
        return settings
    groups = []
    for i, g in enumerate(given):
        if isinstance(g, InstanceGroup):
            instance_type, count = picks.get(i, (g.instance_type, g.instance_count))
            g = InstanceGroup(g.instance_group_name, instance_type, count)
        groups.append(g)
    channels = settings.channels
    changes = dict(instance_groups=groups)
    for i in picks:
        if i >= len(groups) or not isinstance(groups[i], InstanceGroup):
            continue
        name, group = groups[i].instance_group_name, groups[i]
        channels = tuple((c, record.evolve(v, instance_groups=_refs(v.instance_groups, name, group))
                          if isinstance(v, TrainingInput) and v.instance_groups else v) for c, v in channels)
        dist = changes.get("distribution", settings.distribution)
        if isinstance(dist, dict) and isinstance(dist.get("instance_groups"), (list, tuple)):
            changes["distribution"] = dict(dist, instance_groups=_refs(dist["instance_groups"], name, group))
    changes["channels"] = channels
    return record.evolve(settings, **changes)


def substituted(settings):
    """``[(group index, alternative index, (type, count), settings)]``: the job with each well-formed
    alternative in its group's place (the other groups at their first choice)."""
    out = []
    given = settings.instance_groups if isinstance(settings.instance_groups, (list, tuple)) else ()
    for i, group in enumerate(given):
        if not isinstance(group, InstanceGroup) or not isinstance(group.alternatives, tuple):
            continue
        for j, item in enumerate(group.alternatives[:MAX_ALTERNATIVES]):
            choice = _choice(item, group.instance_count)
            if choice is not None and _is_count(choice[1]):
                out.append((i, j, choice, chosen(settings, {i: choice})))
    return out


def alternative_rows(settings):
    """``[(group name, type, count)]`` of every well-formed alternative, groups in declared order (what the
    cost estimate prices beside the first choices)."""
    return [(name, t, c) for name, options in group_choices(settings) for t, c in options[1:] if _is_count(c)]


def choice_text(instance_type, count):
    """A choice as people read it: ``ml.g5.48xlarge x 2``."""
    return "%s x %s" % (instance_type, count)
