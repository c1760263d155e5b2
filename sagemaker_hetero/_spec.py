"""A job spec (the CLI's YAML or JSON file) as estimator arguments. Pure: the caller reads the file.

A spec is a mapping holding an estimator's keyword arguments, plus ``framework`` (which estimator),
``inputs`` and ``experiment_config`` (``fit``'s)::

    framework: pytorch              # pytorch | tensorflow | generic
    instance_groups:
      - {name: data_group, type: ml.c5.18xlarge, count: 2}
    inputs:
      train: {s3_data: "s3://bucket/train", instance_groups: [data_group]}
      dummy: "s3://bucket/dummy"
    distribution: {torch_distributed: {enabled: true}, instance_groups: [dnn_group]}

Local paths (``entry_point`` without ``source_dir``, ``source_dir``, ``dependencies``) are relative to
the spec's folder. Every problem is reported at once as a :class:`ConfigError`, with paths into the
spec (``instance_groups[1].type``); unknown keys are problems naming the closest valid key.

:func:`loads` turns the file's text into that mapping (JSON or YAML), within limits that keep a
hostile or broken file from exhausting the machine: ``MAX_SPEC_BYTES`` of text (the caller reads at
most that), ``MAX_SPEC_DEPTH`` levels of nesting, and, with every YAML alias expanded (``*name``,
``<<: *name``), ``MAX_SPEC_VALUES`` values and ``MAX_SPEC_CHARS`` characters of text. The expansion
is measured over the distinct parts of the document (shared parts counted, never copied), before
PyYAML builds anything, so an alias bomb costs no more than its own text to refuse.
"""
import importlib
import json
import os

import attrs

from sagemaker_hetero import _build, _plan, _validate
from sagemaker_hetero.exceptions import ConfigError, Problem
from sagemaker_hetero.inputs import TrainingInput

__all__ = ["Spec", "parse", "loads", "FRAMEWORKS", "GROUP_KEYS", "INPUT_KEYS", "TUNING_KEY", "MAX_SPEC_BYTES",
           "MAX_SPEC_DEPTH", "MAX_SPEC_VALUES", "MAX_SPEC_CHARS"]

#: ``framework:`` value -> (module, estimator class)
FRAMEWORKS = {
    "pytorch": ("sagemaker_hetero.pytorch", "PyTorch"),
    "tensorflow": ("sagemaker_hetero.tensorflow", "TensorFlow"),
    "generic": ("sagemaker_hetero.estimator", "Estimator"),
}
GROUP_KEYS = ("name", "type", "count")
_GROUP_FIELDS = {"name": "instance_group_name", "type": "instance_type", "count": "instance_count"}
INPUT_KEYS = tuple(f.name for f in attrs.fields(TrainingInput))
_FIT_KEYS = ("inputs", "experiment_config")
#: The section of a spec holding a tuning job's settings (the ``tune`` commands; ``_tuning_spec``).
TUNING_KEY = "tuning"
_STRING_KEYS = ("framework_version", "py_version")

#: The largest spec file read, in bytes (1 MiB; a real spec is a few kilobytes).
MAX_SPEC_BYTES = 1 << 20
#: How deep a spec may nest: the spec's mapping is level 1, ``distribution``'s mapping level 2, ...
MAX_SPEC_DEPTH = 32
#: How many values (each mapping, list and scalar, keys included) a spec may hold, and how many
#: characters of text, with every YAML alias expanded. CreateTrainingJob's own limits (100
#: hyperparameters, 50 tags, 100 environment variables, 20 channels, 5 instance groups, ...) keep
#: a real spec to at most a couple of thousand values, usually a few dozen; PyYAML, pure Python,
#: reads some 20,000 to 50,000 values a second, so a refusal comes within a second.
MAX_SPEC_VALUES = 10000
MAX_SPEC_CHARS = MAX_SPEC_BYTES
#: The problem path of the file as a whole.
SPEC = "SPEC"


def _estimator_class(framework):
    module, name = FRAMEWORKS[framework]
    return getattr(importlib.import_module(module), name)


def _spec_keys(cls):
    return sorted((cls._allowed() - {"sagemaker_session"}) | set(_FIT_KEYS) | {"framework", TUNING_KEY})


def _unknown(path, key, valid, out):
    hint = _validate.did_you_mean(key, valid, cutoff=0.5)
    if hint:
        out.append(Problem(path, "is not a spec key" + hint, key))
    else:
        out.append(Problem(path, "is not a spec key (valid keys: %s)" % ", ".join(valid), key))


@attrs.frozen
class Spec(object):
    """A parsed spec: the estimator class, its keyword arguments and ``fit``'s."""

    framework = attrs.field()
    estimator_class = attrs.field()
    kwargs = attrs.field()
    inputs = attrs.field(default=None)
    experiment_config = attrs.field(default=None)
    # problems found while parsing; the checks below add the validator's
    problems = attrs.field(default=())
    tuning = attrs.field(default=None)  # the ``tuning:`` section, as written (``_tuning_spec`` reads it)

    def settings(self):
        """The :class:`JobSettings` an estimator made of this spec would validate and render."""
        return _build.settings(self.estimator_class._framework, self.kwargs, self.inputs,
                               experiment_config=self.experiment_config)

    def check(self, session=None, facts=None, now=0.0, path_exists=None):
        """``(job, facts, problems)``: the job model and every problem, the spec's own first, then
        round one's as ``session`` runs it (paths in the spec's terms); see ``_plan.prepare``."""
        job, facts, found = _plan.prepare(self.settings(), session, now, path_exists, facts=facts)
        out = list(self.problems)
        reported = set(p.path for p in self.problems)
        for problem in found:
            path = _spec_path(problem.path)
            if any(path == r or path.startswith(r + ".") or path.startswith(r + "[") for r in reported):
                continue  # that part of the spec is already reported as malformed
            out.append(Problem(path, problem.message, problem.value) if problem.has_value else Problem(path, problem.message))
        return job, facts, out

    def estimator(self, sagemaker_session=None):
        """The estimator (raises :class:`ConfigError` like its constructor)."""
        return self.estimator_class(sagemaker_session=sagemaker_session, **self.kwargs)


def _spec_path(path):
    """A validator path in the spec's terms: ``instance_groups[0].instance_type`` -> ``...type``."""
    if path.startswith("instance_groups["):
        for key, field in _GROUP_FIELDS.items():
            if path.endswith("." + field):
                return path[: -len(field)] + key
    return path


def _resolve(base_dir, path):
    if base_dir is None or not isinstance(path, str) or not path or path.startswith("s3://") or os.path.isabs(path):
        return path
    return os.path.normpath(os.path.join(base_dir, path))


def _groups(value, out):
    from sagemaker_hetero.instance_group import InstanceGroup

    if not isinstance(value, list):
        out.append(Problem("instance_groups", "must be a list of {name, type, count}", value))
        return value
    groups = []
    for i, item in enumerate(value):
        path = "instance_groups[%d]" % i
        if not isinstance(item, dict):
            out.append(Problem(path, "must be a mapping {name, type, count}", item))
            continue
        for key in item:
            if key not in GROUP_KEYS:
                _unknown("%s.%s" % (path, key), key, GROUP_KEYS, out)
        for key in GROUP_KEYS:
            if key not in item:
                out.append(Problem("%s.%s" % (path, key), "is required"))
        groups.append(InstanceGroup(item.get("name"), item.get("type"), item.get("count")))
    return groups


def _input(path, value, out):
    from sagemaker_hetero.inputs import ShuffleConfig

    if isinstance(value, str):
        return value
    if not isinstance(value, dict):
        out.append(Problem(path, "must be an S3 URI or a mapping of TrainingInput arguments", value))
        return value
    kwargs = {}
    for key, item in value.items():
        if key not in INPUT_KEYS:
            _unknown("%s.%s" % (path, key), key, INPUT_KEYS, out)
            continue
        kwargs[key] = item
    if "s3_data" not in value:
        out.append(Problem(path + ".s3_data", "is required"))
    shuffle = kwargs.get("shuffle_config")
    if isinstance(shuffle, dict) and set(shuffle) == {"seed"}:
        kwargs["shuffle_config"] = ShuffleConfig(shuffle["seed"])
    elif shuffle is not None:
        out.append(Problem(path + ".shuffle_config", "must be a mapping {seed: <integer>}", shuffle))
        kwargs.pop("shuffle_config")
    return TrainingInput(**kwargs)


def parse(data, base_dir=None):
    """A :class:`Spec` of the mapping ``data``; its ``problems`` list what is malformed.

    Raises :class:`ConfigError` only when no estimator can be made at all (not a mapping, no or an
    unknown ``framework``).
    """
    if not isinstance(data, dict):
        raise ConfigError([Problem("spec", "must be a mapping of estimator arguments", type(data).__name__)])
    out = []
    framework = data.get("framework")
    if not isinstance(framework, str) or framework not in FRAMEWORKS:
        if "framework" not in data:
            problem = Problem("framework", "is required: one of %s" % ", ".join(FRAMEWORKS))
        else:
            problem = Problem("framework", "must be one of %s" % ", ".join(FRAMEWORKS), framework)
        valid = sorted(set(k for f in FRAMEWORKS for k in _spec_keys(_estimator_class(f))))
        for key in data:
            if key not in valid:
                _unknown(key, key, valid, out)
        raise ConfigError([problem] + out)
    cls = _estimator_class(framework)
    valid = _spec_keys(cls)
    kwargs = {}
    for key, value in data.items():
        if key not in valid:
            _unknown(str(key), key, valid, out)
        elif key not in _FIT_KEYS and key not in ("framework", TUNING_KEY):
            kwargs[key] = value
    for key in _STRING_KEYS:
        if key in kwargs and not isinstance(kwargs[key], str):
            out.append(
                Problem(key, "must be a string; quote it (YAML reads 1.10 as the number 1.1)", kwargs[key])
            )
    if "instance_groups" in kwargs:
        kwargs["instance_groups"] = _groups(kwargs["instance_groups"], out)
    if kwargs.get("source_dir") is not None:
        kwargs["source_dir"] = _resolve(base_dir, kwargs["source_dir"])
    elif kwargs.get("entry_point") is not None:
        kwargs["entry_point"] = _resolve(base_dir, kwargs["entry_point"])
    if isinstance(kwargs.get("dependencies"), list):
        kwargs["dependencies"] = [_resolve(base_dir, d) for d in kwargs["dependencies"]]
    inputs = data.get("inputs")
    if inputs is not None:
        if isinstance(inputs, dict):
            inputs = {name: _input("inputs[%r]" % (name,), value, out) for name, value in inputs.items()}
        elif not isinstance(inputs, str):
            out.append(Problem("inputs", "must be an S3 URI or a mapping of channel name to URI or TrainingInput arguments", inputs))
            inputs = None
    return Spec(
        framework=framework,
        estimator_class=cls,
        kwargs=kwargs,
        inputs=inputs,
        experiment_config=data.get("experiment_config"),
        problems=tuple(out),
        tuning=data.get(TUNING_KEY),
    )


# -- the file's text as data, within limits --------------------------------------------------------


def loads(text, name, kind=None):
    """The data of a spec file's ``text`` (``kind`` ``"json"``, ``"yaml"``, or None: JSON if it
    parses as JSON, else YAML); ``name`` is shown in problems. Raises :class:`ConfigError`: not
    valid, PyYAML missing for YAML, or beyond the limits (``MAX_SPEC_DEPTH``, ``MAX_SPEC_VALUES``,
    ``MAX_SPEC_CHARS``; the caller caps the text at ``MAX_SPEC_BYTES``)."""
    if kind == "yaml":
        return _load_yaml(text, name)
    try:
        data = json.loads(text)
    except RecursionError:  # json's decoder recurses; it stops cleanly at Python's recursion limit
        raise ConfigError([Problem(SPEC, "nests too deep to read: a spec may nest at most %d levels" % MAX_SPEC_DEPTH,
                                   name)])
    except ValueError as exc:
        if kind == "json":
            raise ConfigError([Problem(SPEC, "is not valid JSON: %s" % exc, name)])
        return _load_yaml(text, name)
    problems = _size_problems(_top_pairs(data), _data_children, _data_chars, "")
    if problems:
        raise ConfigError(problems)
    return data


def _load_yaml(text, name):
    try:
        import yaml
    except ImportError:
        raise ConfigError(
            [
                Problem(
                    SPEC,
                    "is YAML, which needs PyYAML: pip install 'sagemaker-hetero[yaml]' (or pyyaml), "
                    "or write the spec as JSON",
                    name,
                )
            ]
        )
    loader = _bounded_loader(yaml)(text)
    try:
        return loader.get_single_data()
    except ConfigError:
        raise
    except (yaml.YAMLError, ValueError) as exc:  # ValueError: an integer too long for int() (Python 3.11)
        raise ConfigError([Problem(SPEC, "is not valid YAML: %s" % exc, name)])
    finally:
        loader.dispose()


def _bounded_loader(yaml):
    """PyYAML's safe loader, refusing (:class:`ConfigError`) a document beyond the spec's limits:
    nesting and the values written out are counted while composing (PyYAML composes recursively, and
    a long file takes long to read), the expansion of aliases once the document is composed and
    before anything is constructed."""

    class BoundedLoader(yaml.SafeLoader):
        _depth = 0
        _values = 0
        _top = None  # the top-level key being composed, for the problem's path

        def compose_node(self, parent, index):
            if self._depth == 1 and isinstance(index, yaml.ScalarNode):
                self._top = index.value
            if not self.check_event(yaml.AliasEvent):
                self._values += 1
                if self._depth >= MAX_SPEC_DEPTH:
                    raise ConfigError([Problem(self._top or SPEC, "nests deeper than %d levels, the most a spec may"
                                               % MAX_SPEC_DEPTH)])
                if self._values > MAX_SPEC_VALUES:
                    raise ConfigError([Problem(self._top or SPEC, "holds more than {:,} values, the most a spec "
                                               "may".format(MAX_SPEC_VALUES))])
            self._depth += 1
            try:
                return super(BoundedLoader, self).compose_node(parent, index)
            finally:
                self._depth -= 1

        def compose_document(self):
            node = super(BoundedLoader, self).compose_document()
            problems = _size_problems(_node_pairs(yaml, node), _node_children(yaml), _node_chars,
                                      " once its YAML aliases are expanded")
            if problems:
                raise ConfigError(problems)
            return node

    return BoundedLoader


def _top_pairs(data):
    """``[(path, parts)]``: the spec's top-level keys and what each holds (key and value)."""
    if isinstance(data, dict):
        return [(str(key), (key, value)) for key, value in data.items()]
    return [(SPEC, (data,))]


def _data_children(value):
    if isinstance(value, dict):
        return list(value) + list(value.values())
    if isinstance(value, list):
        return value
    return None


def _data_chars(value):
    return len(value) if isinstance(value, str) else 0


def _node_pairs(yaml, node):
    if isinstance(node, yaml.MappingNode):
        return [(key.value if isinstance(key, yaml.ScalarNode) else SPEC, (key, value)) for key, value in node.value]
    return [(SPEC, (node,))]


def _node_children(yaml):
    def children(node):
        if isinstance(node, yaml.MappingNode):
            return [key for key, _ in node.value] + [value for _, value in node.value]
        if isinstance(node, yaml.SequenceNode):
            return node.value
        return None

    return children


def _node_chars(node):
    return len(node.value)


def _size_problems(pairs, children, chars, expanded):
    """Problems with the spec's size: each top-level key's (its ``(path, parts)`` in ``pairs``),
    then the whole spec's."""
    problems = []
    total_values, total_chars = 1, 0  # the spec's mapping
    for path, parts in pairs:
        values = text = depth = 0
        for part in parts:
            size = _expanded_size(part, children, chars)
            if size is None:
                problems.append(Problem(path, "contains itself: a YAML alias inside its own anchor"))
                break
            values, text, depth = values + size[0], text + size[1], max(depth, size[2])
        else:
            if depth + 1 > MAX_SPEC_DEPTH:
                problems.append(Problem(path, "nests %d levels deep%s; a spec may nest at most %d"
                                        % (depth + 1, expanded, MAX_SPEC_DEPTH)))
            if values > MAX_SPEC_VALUES:
                problems.append(Problem(path, "holds {:,} values{}; a spec may hold at most {:,}".format(
                    values, expanded, MAX_SPEC_VALUES)))
            if text > MAX_SPEC_CHARS:
                problems.append(Problem(path, "holds {:,} characters of text{}; a spec may hold at most {:,}".format(
                    text, expanded, MAX_SPEC_CHARS)))
            total_values += values
            total_chars += text
    if not problems and (total_values > MAX_SPEC_VALUES or total_chars > MAX_SPEC_CHARS):
        problems.append(Problem(SPEC, "holds {:,} values and {:,} characters of text{}; a spec may hold at most "
                                "{:,} values and {:,} characters".format(total_values, total_chars, expanded,
                                                                         MAX_SPEC_VALUES, MAX_SPEC_CHARS)))
    return problems


def _expanded_size(root, children, chars):
    """``(values, characters, depth)`` of ``root`` with every shared part counted wherever it occurs,
    or None if ``root`` contains itself. ``children(part)`` is a container's parts (None: a scalar),
    ``chars(scalar)`` its length. Iterative, and each distinct part is measured once, so the work
    grows with the parts, not with the expansion."""
    done = {}  # id(part) -> its (values, characters, depth)
    open_parts = set()  # the containers being measured: the path from root to the current part
    stack = [(root, False)]
    while stack:
        part, measured = stack.pop()
        key = id(part)
        if measured:  # every child is done
            open_parts.discard(key)
            values, text, depth = 1, 0, 0
            for child in children(part):
                size = done[id(child)]
                values, text, depth = values + size[0], text + size[1], max(depth, size[2])
            done[key] = (values, text, depth + 1)
        elif key not in done:
            if key in open_parts:  # pushed by one of its own descendants
                return None
            parts = children(part)
            if parts is None:
                done[key] = (1, chars(part), 1)
                continue
            open_parts.add(key)
            stack.append((part, True))
            stack.extend((child, False) for child in parts)
    return done[id(root)]
