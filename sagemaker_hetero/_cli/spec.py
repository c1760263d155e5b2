"""A job spec (the CLI's YAML or JSON file) as estimator arguments. Pure: the caller reads the file.

A spec is a mapping holding an estimator's keyword arguments, plus ``framework`` (which estimator),
``inputs`` and ``experiment_config`` (``fit``'s)::

    framework: pytorch              # pytorch | tensorflow | generic
    instance_groups:
      - {name: data_group, type: ml.c5.18xlarge, count: 2}
      - {name: dnn_group, type: ml.p4d.24xlarge, count: 1,
         alternatives: [ml.p5.48xlarge, {type: ml.g5.48xlarge, count: 2}]}   # docs/capacity.md
    inputs:
      train: {s3_data: "s3://bucket/train", instance_groups: [data_group]}
      dummy: "s3://bucket/dummy"
    distribution: {torch_distributed: {enabled: true}, instance_groups: [dnn_group]}

Every local path is relative to the spec's folder, whatever the working folder: ``source_dir``,
``entry_point`` without ``source_dir``, ``dependencies``, ``model_uri`` and the channels of ``inputs``
(``file://`` URIs and plain paths), and a ``file://`` ``output_path``. Every problem is reported at
once as a :class:`ConfigError`, with paths into the spec (``instance_groups[1].type``); unknown keys
are problems naming the closest valid key.

The file's text becomes that mapping through ``_checks.text.loads`` (JSON or YAML, within limits
that keep a hostile or broken file from exhausting the machine); :func:`parse` takes the mapping.
"""
import importlib
import os

import attrs

from sagemaker_hetero._checks import rules
from sagemaker_hetero import _runner
from sagemaker_hetero._model import build
from sagemaker_hetero._model import keywords as _keywords
from sagemaker_hetero.exceptions import ConfigError, Problem, Problems
from sagemaker_hetero.inputs import TrainingInput

__all__ = ["Spec", "parse", "spec_path", "FRAMEWORKS", "GROUP_KEYS", "INPUT_KEYS", "TUNING_KEY"]

#: ``framework:`` value -> (module, estimator class)
FRAMEWORKS = {
    "pytorch": ("sagemaker_hetero.pytorch", "PyTorch"),
    "tensorflow": ("sagemaker_hetero.tensorflow", "TensorFlow"),
    "generic": ("sagemaker_hetero.estimator", "Estimator"),
}
GROUP_KEYS = ("name", "type", "count")
_GROUP_FIELDS = {"name": "instance_group_name", "type": "instance_type", "count": "instance_count"}
_SHORT = dict((field, key) for key, field in _GROUP_FIELDS.items())
#: a group's keys: the spec's short ones, or the SDK v2's InstanceGroup arguments
_GROUP_SPELLINGS = GROUP_KEYS + tuple(_GROUP_FIELDS[k] for k in GROUP_KEYS) + ("alternatives",)
INPUT_KEYS = tuple(f.name for f in attrs.fields(TrainingInput))
_FIT_KEYS = ("inputs", "experiment_config")
#: The section of a spec holding a tuning job's settings (the ``tune`` commands; ``_cli.tuning_spec``).
TUNING_KEY = "tuning"
_STRING_KEYS = ("framework_version", "py_version")
_SPEC_FRAMEWORKS = "framework: pytorch or tensorflow"  # the framework estimators, as a spec chooses them
_FILE_SCHEME = "file://"


def _estimator_class(framework):
    module, name = FRAMEWORKS[framework]
    return getattr(importlib.import_module(module), name)


def _spec_keys(cls):
    return sorted((cls.allowed_arguments() - {"sagemaker_session"}) | set(_FIT_KEYS) | {"framework", TUNING_KEY})


def _unknown(path, key, valid, out):
    hint = rules.did_you_mean(key, valid, cutoff=0.5)
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
    tuning = attrs.field(default=None)  # the ``tuning:`` section, as written (``_cli.tuning_spec`` reads it)
    # {validator path: the spec's} of the groups' fields as the spec wrote them (``type``, ``instance_type``, ...)
    group_paths = attrs.field(default=attrs.Factory(dict))

    def settings(self):
        """The :class:`JobSettings` an estimator made of this spec would validate and render."""
        return build.settings(self.estimator_class.framework, self.kwargs, self.inputs,
                               experiment_config=self.experiment_config)

    def check(self, session=None, facts=None, now=0.0, path_exists=None):
        """``(job, facts, problems)``: the job model and every problem, the spec's own first, then
        round one's as ``session`` runs it (paths in the spec's terms); see :meth:`planned`."""
        job, made, problems = self.planned(session, facts, now, path_exists, digest=False)
        return job, made.facts, problems

    def planned(self, session=None, facts=None, now=0.0, path_exists=None, digest=True):
        """``(job, plan, problems)``: :meth:`check` with the plan, its request rendered once
        (``_runner.planned``; ``digest``: with the code key, as a dry run shows it)."""
        job, made, found = _runner.planned(self.settings(), session, now, path_exists, facts=facts, digest=digest)
        return job, made, self.told(found)

    def told(self, found):
        """The checks' problems ``found`` in the spec's terms, after the spec's own (a part of the spec
        reported as malformed is not reported again)."""
        out = Problems(self.problems)
        out.add_new((p.renamed(spec_path(p.path, self.group_paths)) for p in found), within=True)
        return out.items

    def estimator(self, sagemaker_session=None):
        """The estimator (raises :class:`ConfigError` like its constructor)."""
        return self.estimator_class(sagemaker_session=sagemaker_session, **self.kwargs)

    def driven(self, sagemaker_session=None):
        """The estimator ``submit``, ``preflight`` and ``local`` drive: its ``fit`` or ``preflight`` is the
        job's one check and one render (its constructor checks nothing: ``_runner.one_check``), every
        problem told in the spec's terms (:meth:`told`)."""
        with _runner.one_check():
            estimator = self.estimator(sagemaker_session)
        estimator._told = self.told
        return estimator

    def group_names(self):
        """The names of the spec's instance groups, as ``--group`` takes them (None: a one-group job's)."""
        groups = self.kwargs.get("instance_groups")
        if not isinstance(groups, list) or not groups:
            return None
        return [getattr(g, "instance_group_name", None) for g in groups]


def spec_path(path, group_paths=None):
    """A validator path in the spec's terms: ``instance_groups[0].instance_type`` -> ``...type``, or as
    ``group_paths`` (a :class:`Spec`'s) says the spec wrote it (``...instance_type``)."""
    for field_path, written in (group_paths or {}).items():
        if path == field_path or path.startswith(field_path + ".") or path.startswith(field_path + "["):
            return written + path[len(field_path):]
    if path.startswith("instance_groups["):
        for key, field in _GROUP_FIELDS.items():
            if path.endswith("." + field):
                return path[: -len(field)] + key
    return path


def _resolve(base_dir, path):
    if base_dir is None or not isinstance(path, str) or not path or path.startswith("s3://") or os.path.isabs(path):
        return path
    return os.path.normpath(os.path.join(base_dir, path))


def _resolve_uri(base_dir, uri, plain=True):
    """A local ``file://`` URI (and, with ``plain``, a plain path) relative to ``base_dir``; any other URI
    (``s3://``, ``https://``, absolute) unchanged."""
    if not isinstance(uri, str):
        return uri
    if uri.startswith(_FILE_SCHEME):
        rest = uri[len(_FILE_SCHEME):]
        return _FILE_SCHEME + _resolve(base_dir, rest) if rest and not rest.startswith("/") else uri
    return _resolve(base_dir, uri) if plain and "://" not in uri else uri


def _resolve_paths(kwargs, base_dir):
    """The estimator arguments' local paths made relative to ``base_dir`` (the spec's folder), in place."""
    if kwargs.get("source_dir") is not None:
        kwargs["source_dir"] = _resolve(base_dir, kwargs["source_dir"])
    elif kwargs.get("entry_point") is not None:  # else relative to source_dir, as in Python
        kwargs["entry_point"] = _resolve(base_dir, kwargs["entry_point"])
    if isinstance(kwargs.get("dependencies"), list):
        kwargs["dependencies"] = [_resolve(base_dir, d) for d in kwargs["dependencies"]]
    if "model_uri" in kwargs:
        kwargs["model_uri"] = _resolve_uri(base_dir, kwargs["model_uri"])
    if "output_path" in kwargs:  # a local run's file:// output (an S3 URI otherwise)
        kwargs["output_path"] = _resolve_uri(base_dir, kwargs["output_path"], plain=False)


def _group_key(key):
    """The InstanceGroup field a spec's group key names (``type`` or ``instance_type``: ``instance_type``), or None."""
    if key in _GROUP_FIELDS:
        return _GROUP_FIELDS[key]
    return key if key in _GROUP_FIELDS.values() else None


def _group(path, item, out, written):
    """One group mapping as ``{field: value}``: either spelling of a field (``type`` or the SDK v2's
    ``instance_type``), not both; a wrong key is one problem naming the closest key, and its value
    stands for that field when it is missing, so no follow-on problem says the field is ``None``.
    ``written``: ``{field: the key the spec wrote}``, filled in."""
    fields, guesses = {}, []
    for key in item:
        if key == "alternatives":  # the group's other choices (docs/capacity.md): checked with the job
            fields[key] = _alternatives(item[key])
            continue
        field = _group_key(key)
        if field is None:
            _unknown("%s.%s" % (path, key), key, _GROUP_SPELLINGS, out)
            close = _keywords.closest(key, _GROUP_SPELLINGS, cutoff=0.5)
            guesses += [(_group_key(close), key)] if close else []
        elif field in fields:
            out.append(Problem("%s.%s" % (path, key), "names the same field as %r (the SDK v2's name and the "
                               "spec's short one): give one of them" % (written[field],), item[key]))
        else:
            fields[field], written[field] = item[key], key
    for field, key in guesses:
        if field not in fields:  # reported as the wrong key: its value stands in, its problems are that one
            fields[field], written[field] = item[key], key
    for field in _GROUP_FIELDS.values():
        if field not in fields:
            out.append(Problem("%s.%s" % (path, _SHORT[field]), "is required (or %s, the SDK v2's name)" % field))
            written[field] = _SHORT[field]
    return fields


def _alternatives(value):
    """A group's ``alternatives:`` as InstanceGroup takes them: ``{type: T, count: N}`` as ``(T, N)``, ``{type: T}``
    as ``T``; anything else as written (the job's checks name what is wrong with it)."""
    if not isinstance(value, list):
        return value
    out = []
    for item in value:
        if isinstance(item, dict) and "type" in item and set(item) <= {"type", "count"}:
            item = (item["type"], item["count"]) if "count" in item else item["type"]
        out.append(item)
    return out


def _groups(value, out):
    """``(the InstanceGroups of a spec's instance_groups, {validator path: the spec's path})``."""
    from sagemaker_hetero.instance_group import InstanceGroup

    if not isinstance(value, list):
        out.append(Problem("instance_groups", "must be a list of {name, type, count}", value))
        return value, {}
    groups, paths = [], {}
    for i, item in enumerate(value):
        path = "instance_groups[%d]" % i
        if not isinstance(item, dict):
            out.append(Problem(path, "must be a mapping {name, type, count}", item))
            continue
        written = {}
        fields = _group(path, item, out, written)
        for field, key in written.items():
            paths["%s.%s" % (path, field)] = "%s.%s" % (path, key)
        groups.append(InstanceGroup(**fields))
    return groups, paths


def _input(path, value, out, base_dir=None):
    from sagemaker_hetero.inputs import ShuffleConfig

    if isinstance(value, str):
        return _resolve_uri(base_dir, value)
    if not isinstance(value, dict):
        out.append(Problem(path, "must be an S3 URI or a mapping of TrainingInput arguments", value))
        return value
    kwargs = {}
    for key, item in value.items():
        if key not in INPUT_KEYS:
            _unknown("%s.%s" % (path, key), key, INPUT_KEYS, out)
            continue
        kwargs[key] = _resolve_uri(base_dir, item) if key == "s3_data" else item
    if "s3_data" not in value:
        out.append(Problem(path + ".s3_data", "is required"))
    shuffle = kwargs.get("shuffle_config")
    if isinstance(shuffle, dict) and set(shuffle) == {"seed"}:
        kwargs["shuffle_config"] = ShuffleConfig(shuffle["seed"])
    elif shuffle is not None:
        out.append(Problem(path + ".shuffle_config", "must be a mapping {seed: <integer>}", shuffle))
        kwargs.pop("shuffle_config")
    return TrainingInput(**kwargs)


#: what ``framework:`` may be: an estimator's name, or SDK v3's ModelTrainer
_CHOICES = ", ".join(list(FRAMEWORKS) + ["model_trainer"])


def _trainer_spec(data, base_dir):
    from sagemaker_hetero._cli import trainer_spec

    return trainer_spec.parse(data, base_dir)


def parse(data, base_dir=None):
    """A :class:`Spec` of the mapping ``data``; its ``problems`` list what is malformed.

    Raises :class:`ConfigError` only when no estimator can be made at all (not a mapping, no or an
    unknown ``framework``).
    """
    if not isinstance(data, dict):
        raise ConfigError([Problem("spec", "must be a mapping of estimator arguments", type(data).__name__)])
    out = []
    framework = data.get("framework")
    if framework == "model_trainer":  # SDK v3's ModelTrainer arguments (_cli.trainer_spec)
        return _trainer_spec(data, base_dir)
    if not isinstance(framework, str) or framework not in FRAMEWORKS:
        if "framework" not in data:
            problem = Problem("framework", "is required: one of %s" % _CHOICES)
        else:
            problem = Problem("framework", "must be one of %s" % _CHOICES, framework)
        valid = sorted(set(k for f in FRAMEWORKS for k in _spec_keys(_estimator_class(f))))
        for key in data:
            if key not in valid:
                _unknown(key, key, valid, out)
        raise ConfigError([problem] + out)
    cls = _estimator_class(framework)
    valid = _spec_keys(cls)
    kwargs = {}
    for key, value in data.items():
        if key not in valid and framework == "generic" and _keywords.instead(key, _SPEC_FRAMEWORKS):
            out.append(Problem(str(key), _keywords.instead(key, _SPEC_FRAMEWORKS), key))
        elif key not in valid:
            _unknown(str(key), key, valid, out)
        elif key not in _FIT_KEYS and key not in ("framework", TUNING_KEY):
            kwargs[key] = value
    for key in _STRING_KEYS:
        if key in kwargs and not isinstance(kwargs[key], str):
            out.append(
                Problem(key, "must be a string; quote it (YAML reads 1.10 as the number 1.1)", kwargs[key])
            )
    group_paths = {}
    if "instance_groups" in kwargs:
        kwargs["instance_groups"], group_paths = _groups(kwargs["instance_groups"], out)
    _resolve_paths(kwargs, base_dir)
    inputs = data.get("inputs")
    if isinstance(inputs, str):
        inputs = _resolve_uri(base_dir, inputs)
    elif inputs is not None:
        if isinstance(inputs, dict):
            inputs = {name: _input("inputs[%r]" % (name,), value, out, base_dir) for name, value in inputs.items()}
        else:
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
        group_paths=group_paths,
    )
