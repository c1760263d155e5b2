"""Regenerate sagemaker_hetero/data/service_model.json from the installed botocore.

The snapshot holds every shape reachable from the input of OPERATIONS, cut down to what
``sagemaker_hetero._checks.service.check`` reads, and the Unicode general categories its patterns name.
Every pattern is translated to Python with the same translator the runtime uses; a construct it
cannot carry over fails this script (exit status 1), so a new pattern is never silently misread.

    python tools/snapshot_service_model.py
"""
import json
import os
import re
import sys
import unicodedata

#: ``(service, operation)``: the requests we check. Shapes of a service other than SageMaker are
#: named ``<service>.<shape>`` in the snapshot (IAM's ``GetRole``: what a plain role name must be).
OPERATIONS = (("sagemaker", "CreateTrainingJob"), ("sagemaker", "CreateHyperParameterTuningJob"),
              ("sagemaker", "CreatePipeline"), ("sagemaker", "StartPipelineExecution"), ("iam", "GetRole"))
MAIN_SERVICE = "sagemaker"
KEPT_METADATA = ("min", "max", "pattern", "enum", "required", "union")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGET = os.path.join(ROOT, "sagemaker_hetero", "data", "service_model.json")


class SnapshotError(Exception):
    """The model holds something the runtime would misread."""


def _patterns():
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from sagemaker_hetero._checks import patterns

    return patterns


def collect(model, operations, prefix="", shapes=None, table=None):
    """``(operations, shapes)``: operation -> input shape name, and shape name -> compact shape, every
    name after ``prefix`` (added to ``shapes`` and ``table`` when given)."""
    shapes = {} if shapes is None else shapes
    table = {} if table is None else table

    def visit(shape):
        name = prefix + shape.name
        if name in shapes:
            return
        compact = {"type": shape.type_name}
        compact.update((k, shape.metadata[k]) for k in KEPT_METADATA if shape.metadata.get(k) is not None)
        shapes[name] = compact
        if shape.type_name == "structure":
            compact["members"] = dict((key, prefix + member.name) for key, member in shape.members.items())
            for member in shape.members.values():
                visit(member)
        elif shape.type_name == "list":
            compact["member"] = prefix + shape.member.name
            visit(shape.member)
        elif shape.type_name == "map":
            compact["key"], compact["value"] = prefix + shape.key.name, prefix + shape.value.name
            visit(shape.key)
            visit(shape.value)

    for operation in operations:
        shape = model.operation_model(operation).input_shape
        table[prefix + operation] = prefix + shape.name
        visit(shape)
    return table, shapes


def category_ranges(categories):
    """``{category: [[first, last], ...]}`` over every code point, from this Python's unicodedata."""
    of = [unicodedata.category(chr(cp)) for cp in range(0x110000)]
    result = {}
    for category in categories:
        if category == "LC":
            wanted = ("Lu", "Ll", "Lt")
        elif len(category) == 1:
            wanted = tuple(sorted({c for c in set(of) if c[0] == category}))
        else:
            wanted = (category,)
        ranges = []
        for cp, name in enumerate(of):
            if name in wanted:
                if ranges and ranges[-1][1] == cp - 1:
                    ranges[-1][1] = cp
                else:
                    ranges.append([cp, cp])
        result[category] = ranges
    return result


def check_patterns(shapes):
    """The categories the patterns name; raises SnapshotError naming every pattern we cannot read."""
    patterns = _patterns()
    used, bad = set(), []

    def ranges_for(category):
        used.add(category)
        return [[0x41, 0x41]]  # a placeholder: only the syntax is being checked here

    for name, shape in sorted(shapes.items()):
        pattern = shape.get("pattern")
        if pattern is None:
            continue
        try:
            re.compile(patterns.translate_pattern(pattern, ranges_for), re.ASCII)
        except (patterns.UnsupportedPattern, re.error) as error:
            bad.append("  %s: %s" % (name, error))
    if bad:
        raise SnapshotError(
            "the runtime translator cannot read %d pattern(s) of the model; teach "
            "sagemaker_hetero/_checks/patterns.py's translate_pattern the construct, then rerun:\n%s"
            % (len(bad), "\n".join(bad))
        )
    return used


def build(model=None):
    """The snapshot as a dict, from the installed botocore's models (``model``: SageMaker's, if given)."""
    import botocore

    import botocore.session

    session = botocore.session.get_session()
    operations, shapes = {}, {}
    for service in sorted(set(s for s, _ in OPERATIONS), key=lambda s: s != MAIN_SERVICE):
        wanted = [op for s, op in OPERATIONS if s == service]
        if service == MAIN_SERVICE:
            collect(model or session.get_service_model(service), wanted, "", shapes, operations)
        else:
            collect(session.get_service_model(service), wanted, service + ".", shapes, operations)
    used = check_patterns(shapes)
    unicode = category_ranges(sorted(used))
    patterns = _patterns()
    for shape in shapes.values():  # again with the real ranges, as the runtime will
        if "pattern" in shape:
            re.compile(patterns.translate_pattern(shape["pattern"], unicode.__getitem__), re.ASCII)
    return {
        "_about": "Service model shapes reachable from %s, snapshot of botocore %s; "
        "regenerate with `python tools/snapshot_service_model.py`." % (_names(), botocore.__version__),
        "botocore_version": botocore.__version__,
        "unicode_version": unicodedata.unidata_version,
        "operations": operations,
        "shapes": shapes,
        "unicode": unicode,
    }


def _names():
    return ", ".join("%s %s" % pair for pair in OPERATIONS)


def dumps(snapshot):
    """Compact JSON with one line per top-level key and per shape, so a refresh diffs readably."""

    def compact(value):
        return json.dumps(value, separators=(",", ":"))

    parts = []
    for key in sorted(snapshot):
        if key == "shapes":
            body = ",\n".join("%s:%s" % (compact(n), compact(s)) for n, s in sorted(snapshot[key].items()))
            parts.append('"shapes":{\n%s\n}' % body)
        else:
            parts.append("%s:%s" % (compact(key), compact(snapshot[key])))
    return "{\n%s\n}\n" % ",\n".join(parts)


def main():
    try:
        snapshot = build()
    except SnapshotError as error:
        sys.stderr.write("snapshot_service_model: FAILED: %s\n" % error)
        return 1
    text = dumps(snapshot)
    with open(TARGET, "w") as f:
        f.write(text)
    print(
        "%d shapes of %s (botocore %s) written to %s, %d bytes"
        % (len(snapshot["shapes"]), _names(), snapshot["botocore_version"], os.path.relpath(TARGET), len(text))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
