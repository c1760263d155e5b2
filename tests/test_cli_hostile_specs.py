"""Hostile and broken specs through the sagemaker-hetero command line: exit 2 with a problem naming
its path in the spec, never a crash (alias bombs, deep nesting, the exact limits, a wrong type
anywhere). Moved out of tests/test_cli.py, whose helpers these tests share."""
import io
import json
import sys

import pytest

from tests.test_cli import run, small_spec, write_spec


@pytest.fixture(autouse=True)
def region(monkeypatch):
    monkeypatch.setenv("AWS_REGION", "us-west-2")


@pytest.fixture
def spec_dir(tmp_path):
    (tmp_path / "train.py").write_text("print('train')\n")
    return tmp_path


# -- hostile specs: exit 2 with a problem, never a crash -----------------------------------------

YAML_HEAD = """framework: pytorch
role: arn:aws:iam::123456789012:role/SageMakerRole
entry_point: train.py
framework_version: "2.2.0"
py_version: py310
instance_type: ml.c5.xlarge
instance_count: 1
"""


def alias_bomb(key):
    """A billion-laughs spec: nine levels of nine aliases each, 9**9 strings once expanded."""
    levels = ["&a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        levels.append("&%s [%s]" % (name, ", ".join(["*" + prev] * 9)))
    if key == "tags":
        return YAML_HEAD + "tags: [%s]\n" % ", ".join(levels)
    return YAML_HEAD + "%s:\n%s" % (key, "".join("  %s: %s\n" % (name, level) for name, level in zip("abcdefghi", levels)))


@pytest.mark.parametrize("key", ["hyperparameters", "tags"])
def test_a_yaml_alias_bomb_is_refused_before_it_expands(capsys, spec_dir, key):
    text = alias_bomb(key)
    assert len(text) < 700
    code, _, err = run(capsys, "validate", write_spec(spec_dir, text, "bomb.yaml"))
    assert code == 2
    assert ("  - %s: holds 4" % key) in err  # hundreds of millions of values: refused by measuring, not expanding
    assert "once its YAML aliases are expanded; a spec may hold at most 10,000" in err


def test_yaml_anchors_aliases_and_merge_keys_within_the_limits_work(capsys, spec_dir):
    dry = YAML_HEAD.replace("instance_type: ml.c5.xlarge\ninstance_count: 1\n", "") + (
        "job_name: cli-job\n"
        "instance_groups:\n"
        "  - {name: &data data, type: ml.c5.xlarge, count: 1}\n"
        "  - {name: &train train, type: ml.g5.xlarge, count: 1}\n"
        "inputs:\n"
        "  raw: &channel {s3_data: s3://bucket/raw, input_mode: File, instance_groups: [*data]}\n"
        "  dummy: {<<: *channel, s3_data: s3://bucket/dummy, instance_groups: [*train]}\n"
    )
    wet = dry.replace("&data ", "").replace("&train ", "").replace("&channel ", "")
    wet = wet.replace("*data", "data").replace("{<<: *channel, s3_data: s3://bucket/dummy, instance_groups: [*train]}",
                                                "{s3_data: s3://bucket/dummy, input_mode: File, instance_groups: [train]}")
    assert "*" not in wet and "&" not in wet
    code, out, err = run(capsys, "render", write_spec(spec_dir, dry, "dry.yaml"))
    assert code == 0, err
    assert out == run(capsys, "render", write_spec(spec_dir, wet, "wet.yaml"))[1]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("hyperparameters: &a {x: *a}\n", "hyperparameters: contains itself: a YAML alias inside its own anchor"),
        ("tags: &t [1, [2, *t]]\n", "tags: contains itself: a YAML alias inside its own anchor"),
        ("hyperparameters: {a: %s}\n" % ("[" * 5000 + "]" * 5000), "hyperparameters: nests deeper than 32 levels"),
        ("hyperparameters:\n" + "".join("  " * i + " a:\n" for i in range(1, 60)) + "  " * 60 + " b: 1\n",
         "hyperparameters: nests deeper than 32 levels"),
        # hyperparameters' scalar is at level 32, the most; through the alias it is at level 36
        ("hyperparameters: &h {a: %s1%s}\nenvironment: {a: [[[*h]]]}\n" % ("[" * 29, "]" * 29),
         "environment: nests 36 levels deep once its YAML aliases are expanded; a spec may nest at most 32"),
    ],
)
def test_yaml_that_contains_itself_or_nests_too_deep_is_refused(capsys, spec_dir, text, expected):
    code, _, err = run(capsys, "validate", write_spec(spec_dir, YAML_HEAD + text, "spec.yaml"))
    assert code == 2
    assert expected in err


def test_json_that_nests_too_deep_is_refused(capsys, spec_dir):
    deep = small_spec(hyperparameters={"a": json.loads("[" * 31 + "]" * 31)})  # the spec is level 1
    code, _, err = run(capsys, "validate", write_spec(spec_dir, deep))
    assert code == 2 and "hyperparameters: nests 33 levels deep; a spec may nest at most 32" in err
    path = spec_dir / "deeper.json"
    path.write_text(json.dumps(small_spec())[:-1] + ', "environment": ' + "[" * 100000 + "]" * 100000 + "}")
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2 and "SPEC: nests too deep to read: a spec may nest at most 32 levels" in err


def test_the_limits_are_exact():
    from sagemaker_hetero._checks import text as _spec
    from sagemaker_hetero.exceptions import ConfigError

    def depth(levels):  # the spec's mapping, then levels - 1 lists
        return json.dumps({"hyperparameters": json.loads("[" * (levels - 1) + "]" * (levels - 1))})

    assert _spec.loads(depth(_spec.MAX_SPEC_DEPTH), "spec.json", "json")
    with pytest.raises(ConfigError, match="nests 33 levels deep"):
        _spec.loads(depth(_spec.MAX_SPEC_DEPTH + 1), "spec.json", "json")
    for kind in ("json", "yaml"):  # the mapping, its key and list, and the list's items
        fits = json.dumps({"k": [0] * (_spec.MAX_SPEC_VALUES - 3)})
        assert len(_spec.loads(fits, "spec", kind)["k"]) == _spec.MAX_SPEC_VALUES - 3
        with pytest.raises(ConfigError, match="holds (10,001|more than 10,000) values"):
            _spec.loads(json.dumps({"k": [0] * (_spec.MAX_SPEC_VALUES - 2)}), "spec", kind)
    text = "a" * (_spec.MAX_SPEC_CHARS - 1)  # and the key's one character
    assert _spec.loads(json.dumps({"k": text}), "spec", "json")
    with pytest.raises(ConfigError, match="holds 1,048,577 characters of text"):
        _spec.loads(json.dumps({"k": text + "a"}), "spec", "json")


def test_a_spec_file_larger_than_the_limit_is_not_read(capsys, spec_dir, monkeypatch):
    from sagemaker_hetero._checks.text import MAX_SPEC_BYTES

    path = spec_dir / "big.json"
    path.write_text(json.dumps(small_spec(description="x" * MAX_SPEC_BYTES)))
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2 and "SPEC: is larger than 1,048,576 bytes, the most a spec may be" in err
    monkeypatch.setattr(sys, "stdin", io.StringIO(path.read_text()))
    code, _, err = run(capsys, "validate", "-")
    assert code == 2 and "SPEC: is larger than 1,048,576 bytes" in err
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(small_spec())))
    monkeypatch.chdir(spec_dir)  # a spec from stdin finds its files from the working directory
    assert run(capsys, "validate", "-")[0] == 0


@pytest.mark.parametrize(
    "text, expected",
    [
        ("tags: [{Key: [a, b], Value: v}]\n", "tags[0].Key: must be a string (got ['a', 'b'])"),
        ("tags: [{Key: k, Value: {a: 1}}]\n", "tags[0].Value: must be a string (got {'a': 1})"),
        ("tags: [[Key, k]]\n", "tags[0]: must be a dict (got ['Key', 'k'])"),
        ("tags: [{Key: 2024-01-01, Value: v}]\n", "tags[0].Key: must be a string (got datetime.date(2024, 1, 1))"),
        ("hyperparameters: {d: !!binary aGVsbG8=}\n", "hyperparameters['d']: must be JSON-serialisable"),
        ("environment: {A: [1]}\n", "environment['A']: must be a string (got [1])"),
        ("environment: {1: a}\n", "environment[1]: key must be a string (got 1)"),
        ("inputs: {train: {s3_data: [s3://a/b]}}\n", "inputs['train'].s3_data: must be a string (got ['s3://a/b'])"),
        ("inputs: [s3://a/b]\n", "inputs: must be an S3 URI or a mapping"),
        ("metric_definitions: [{Name: [n], Regex: r}]\n", "metric_definitions[0]['Name']: must be a string"),
        ("experiment_config: {ExperimentName: [e]}\n", "experiment_config['ExperimentName']: must be a string"),
        ("volume_size: [30]\n", "volume_size: must be an integer (got [30])"),
        ("1: 2\n", "1: is not a spec key"),
        ("tags: [{? [a] : b}]\n", "SPEC: is not valid YAML"),
        ("hyperparameters: !!python/object/apply:os.system [echo]\n", "SPEC: is not valid YAML"),
    ],
)
def test_a_wrong_type_anywhere_is_a_problem_with_its_path(capsys, spec_dir, text, expected):
    code, _, err = run(capsys, "validate", write_spec(spec_dir, YAML_HEAD + text, "spec.yaml"))
    assert code == 2
    assert expected in err


@pytest.mark.parametrize("framework", ["[pytorch]", "{pytorch: 1}", "2024-01-01", "1.10", "null"])
def test_a_framework_that_is_not_a_name_is_a_problem(capsys, spec_dir, framework):
    text = YAML_HEAD.replace("framework: pytorch", "framework: " + framework)
    code, _, err = run(capsys, "validate", write_spec(spec_dir, text, "spec.yaml"))
    assert code == 2
    assert "framework: must be one of pytorch, tensorflow, generic" in err


def _json_values():
    from hypothesis import strategies as st

    scalars = st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats() | st.text(max_size=6)
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.text(max_size=6), inner, max_size=3), max_leaves=8)


def _spec_paths(value, prefix=()):
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        for path in _spec_paths(item, prefix + (key,)):
            yield path


FULL_SPEC = small_spec(
    tags=[{"Key": "team", "Value": "ml"}], environment={"A": "b"}, metric_definitions=[{"Name": "loss", "Regex": "l=(.*)"}],
    experiment_config={"ExperimentName": "e"}, output_path="s3://bucket/out", volume_size=30, max_run=3600,
    checkpoint_s3_uri="s3://bucket/ckpt", subnets=["subnet-1"], security_group_ids=["sg-1"], dependencies=["train.py"],
    use_spot_instances=True, max_wait=7200, keep_alive_period_in_seconds=60,
)
FULL_SPEC["inputs"]["raw"]["shuffle_config"] = {"seed": 1}
SPEC_PATHS = [path for path in _spec_paths(FULL_SPEC) if path]


def test_any_value_anywhere_in_a_spec_exits_0_or_2(capsys, spec_dir):
    import copy

    from hypothesis import HealthCheck, given, note, settings
    from hypothesis import strategies as st

    @settings(max_examples=150, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.lists(st.tuples(st.sampled_from(SPEC_PATHS), _json_values()), min_size=1, max_size=3))
    def check(changes):
        spec = copy.deepcopy(FULL_SPEC)
        for path, value in changes:
            node = spec
            for key in path[:-1]:
                if not isinstance(node, (dict, list)) or (isinstance(node, list) and key >= len(node)):
                    break
                node = node[key] if isinstance(node, list) or key in node else None
            else:
                if isinstance(node, dict) or (isinstance(node, list) and path[-1] < len(node)):
                    node[path[-1]] = value
        note(json.dumps(spec, default=repr))
        code, _, err = run(capsys, "validate", write_spec(spec_dir, spec))
        assert code in (0, 2), err
        assert "unexpected error" not in err

    check()
