"""``_cli.spec.parse`` and ``_cli.tuning_spec.parse``: a spec mapping as estimator (and tuner) arguments, with every
problem named by its path in the spec; called directly on mappings (no file, no command line)."""
import os

import pytest

from sagemaker_hetero._cli import spec as S
from sagemaker_hetero._cli import tuning_spec as T
from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.inputs import ShuffleConfig, TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.parameter import CategoricalParameter, ContinuousParameter, IntegerParameter

BASE = {"framework": "pytorch", "entry_point": "train.py", "framework_version": "2.2.0", "py_version": "py310", "role": "R",
        "instance_groups": [{"name": "cpu", "type": "ml.c5.xlarge", "count": 2},
                            {"instance_group_name": "gpu", "instance_type": "ml.p4d.24xlarge", "instance_count": 1}]}


def _spec(**changes):
    data = dict(BASE, **changes)
    return dict((k, v) for k, v in data.items() if v is not None)


# (id, changes, the estimator arguments or fit inputs expected (a predicate on the Spec))
PARSED = [
    ("groups in either spelling", {}, lambda s: s.kwargs["instance_groups"] == [InstanceGroup("cpu", "ml.c5.xlarge", 2),
                                                                                 InstanceGroup("gpu", "ml.p4d.24xlarge", 1)]),
    ("the estimator class", {}, lambda s: (s.framework, s.estimator_class.__name__) == ("pytorch", "PyTorch")),
    ("generic", dict(framework="generic", entry_point=None, framework_version=None, py_version=None, image_uri="a/b:1"),
     lambda s: s.estimator_class.__name__ == "Estimator" and s.kwargs["image_uri"] == "a/b:1"),
    ("inputs as training inputs", dict(inputs={"train": {"s3_data": "s3://b/t", "instance_groups": ["cpu"],
                                                          "shuffle_config": {"seed": 3}}, "plain": "s3://b/p"}),
     lambda s: s.inputs == {"train": TrainingInput("s3://b/t", instance_groups=["cpu"], shuffle_config=ShuffleConfig(3)),
                            "plain": "s3://b/p"}),
    ("paths relative to the spec's folder", dict(source_dir="src", dependencies=["lib"], inputs={"t": "file://data"}),
     lambda s: (s.kwargs["source_dir"], s.kwargs["dependencies"], s.inputs["t"], s.kwargs["entry_point"])
     == (os.path.join("/spec", "src"), [os.path.join("/spec", "lib")], "file:///spec/data", "train.py")),
    ("an entry point without source_dir", {}, lambda s: s.kwargs["entry_point"] == os.path.join("/spec", "train.py")),
    ("S3 and absolute paths unchanged", dict(source_dir="s3://b/src.tar.gz", model_uri="/abs/model.tar.gz"),
     lambda s: (s.kwargs["source_dir"], s.kwargs["model_uri"]) == ("s3://b/src.tar.gz", "/abs/model.tar.gz")),
    ("fit's and tuning's sections kept apart", dict(experiment_config={"ExperimentName": "e"}, tuning={"max_jobs": 2}),
     lambda s: (s.experiment_config, s.tuning) == ({"ExperimentName": "e"}, {"max_jobs": 2}) and "tuning" not in s.kwargs),
]


@pytest.mark.parametrize("changes, holds", [r[1:] for r in PARSED], ids=[r[0] for r in PARSED])
def test_a_spec_becomes_estimator_arguments(changes, holds):
    parsed = S.parse(_spec(**changes), base_dir="/spec")
    assert parsed.problems == () and holds(parsed)


# (id, changes, the problem's path in the spec, a fragment of its message)
PROBLEMS = [
    ("an unknown key names the closest", dict(instance_group=[]), "instance_group", "is not a spec key; did you mean 'instance_groups'?"),
    ("a version YAML read as a number", dict(framework_version=1.1), "framework_version", "must be a string; quote it"),
    ("groups a list", dict(instance_groups={"name": "a"}), "instance_groups", "must be a list of {name, type, count}"),
    ("a group a mapping", dict(instance_groups=["a"]), "instance_groups[0]", "must be a mapping {name, type, count}"),
    ("a group's field required", dict(instance_groups=[{"name": "a", "type": "ml.c5.xlarge"}]), "instance_groups[0].count",
     "is required (or instance_count, the SDK v2's name)"),
    ("a group's field twice", dict(instance_groups=[{"name": "a", "type": "t", "instance_type": "t", "count": 1}]),
     "instance_groups[0].instance_type", "names the same field as 'type'"),
    ("a group's unknown key", dict(instance_groups=[{"name": "a", "typ": "t", "count": 1}]), "instance_groups[0].typ",
     "is not a spec key; did you mean 'type'?"),
    ("inputs of no kind", dict(inputs=["s3://b"]), "inputs", "must be an S3 URI or a mapping of channel name"),
    ("an input's URI required", dict(inputs={"t": {"instance_groups": ["cpu"]}}), "inputs['t'].s3_data", "is required"),
    ("an input's unknown key", dict(inputs={"t": {"s3_data": "s3://b", "s3_uri": "s3://b"}}), "inputs['t'].s3_uri", "is not a spec key"),
    ("an input's shuffle", dict(inputs={"t": {"s3_data": "s3://b", "shuffle_config": 3}}), "inputs['t'].shuffle_config",
     "must be a mapping {seed: <integer>}"),
    ("a generic spec's framework argument", dict(framework="generic", image_uri="a/b:1", entry_point=None, py_version=None),
     "framework_version", "the generic Estimator takes no framework_version"),
]


@pytest.mark.parametrize("changes, path, fragment", [r[1:] for r in PROBLEMS], ids=[r[0] for r in PROBLEMS])
def test_a_malformed_spec_names_the_path_in_the_spec(changes, path, fragment):
    found = [(p.path, p.message) for p in S.parse(_spec(**changes)).problems]
    at = [m for p, m in found if p == path]
    assert len(at) == 1 and fragment in at[0], found


@pytest.mark.parametrize("data, paths", [
    ([1], ["spec"]),
    ({"entry_point": "x"}, ["framework"]),
    ({"framework": "jax", "entrypoint": "x"}, ["framework", "entrypoint"]),
])
def test_no_estimator_at_all_is_a_config_error(data, paths):
    with pytest.raises(ConfigError) as info:
        S.parse(data)
    assert [p.path for p in info.value.problems] == paths


def test_the_checks_problems_come_back_in_the_specs_terms():
    parsed = S.parse(_spec(instance_groups=[{"name": "cpu", "type": "ml.c5.xlarge", "count": 0},
                                            {"name": "gpu", "instance_type": "ml.p4d.24xlarge", "instance_count": 1}]))
    _, _, found = parsed.check()
    assert [p.path for p in found] == ["instance_groups[0].count"]


@pytest.mark.parametrize("path, spec_path", [
    ("instance_groups[1].instance_type", "instance_groups[1].type"),
    ("instance_groups[0].instance_count", "instance_groups[0].count"),
    ("instance_groups[0].instance_group_name", "instance_groups[0].name"),
    ("inputs['t'].s3_data", "inputs['t'].s3_data"),
    ("max_run", "max_run"),
])
def test_spec_path(path, spec_path):
    assert S.spec_path(path) == spec_path


# -- the tuning section ------------------------------------------------------------------------------

SECTION = {"objective_metric_name": "loss", "hyperparameter_ranges": {
    "lr": {"type": "continuous", "min_value": 0.001, "max_value": 0.1, "scaling_type": "Logarithmic"},
    "bs": {"type": "integer", "min_value": 32, "max_value": 256}, "opt": {"type": "categorical", "values": ["adam", "sgd"]}},
    "max_jobs": 4, "job_name": "hpo"}


def test_a_tuning_section_becomes_tuner_arguments():
    section = T.parse(SECTION)
    assert section.problems == []
    ranges = section.kwargs["hyperparameter_ranges"]
    assert isinstance(ranges["lr"], ContinuousParameter) and (ranges["lr"].min_value, ranges["lr"].scaling_type) == (0.001,
                                                                                                                     "Logarithmic")
    assert isinstance(ranges["bs"], IntegerParameter) and isinstance(ranges["opt"], CategoricalParameter)
    assert (section.kwargs["max_jobs"], section.fit_kwargs) == (4, {"job_name": "hpo"})


TUNING_PROBLEMS = [
    (None, "tuning", "is required: the tuning job's settings"),
    ([1], "tuning", "must be a mapping of the tuner's arguments"),
    ({"hyperparameter_ranges": {"x": {"type": "integer", "min_value": 1, "max_value": 2}}}, "tuning.objective_metric_name",
     "is required"),
    (dict(SECTION, max_job=3), "tuning.max_job", "is not a key here; did you mean 'max_jobs'?"),
    (dict(SECTION, hyperparameter_ranges={"x": {"type": "float", "min_value": 1}}), "tuning.hyperparameter_ranges['x'].type",
     "must be one of"),
]


@pytest.mark.parametrize("section, path, fragment", TUNING_PROBLEMS)
def test_a_malformed_tuning_section_names_the_path_in_the_spec(section, path, fragment):
    found = [(p.path, p.message) for p in T.parse(section).problems]
    assert [m for p, m in found if p == path and fragment in m], found
