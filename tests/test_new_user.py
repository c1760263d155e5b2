"""What a new user trips over (issue 28): a spec's instance groups in the SDK v2's names too, a wrong
key said once, fit's inputs shown as given, the generic Estimator's distribution answered with what
to use instead (as docs/validation.md says), ``validate --output json`` writing only JSON, and the
command line's messages in its own words (``--root``, ``--python``, YAML)."""
import json
import os
import sys

import pytest

from sagemaker_hetero import cli
from sagemaker_hetero.exceptions import ConfigError
from tests.test_cli import ROLE, ROOT, region, run, small_spec, spec_dir, write_spec  # noqa: F401 (fixtures)


def problems_of(capsys, path, *options):
    """``(exit code, [(path, message, value)], stderr)`` of ``validate --output json``; stdout must be one JSON
    document and nothing else."""
    code, out, err = run(capsys, "validate", path, "--output", "json", *options)
    found = json.loads(out, parse_constant=lambda name: pytest.fail("not JSON: %s" % name))
    return code, [(p["path"], p["message"], p["value"]) for p in found.get("problems", [])], err


# -- a spec's instance groups ----------------------------------------------------------------


def test_a_specs_groups_take_the_sdk_v2_names_too(capsys, spec_dir):
    short = small_spec()
    sdk = small_spec(instance_groups=[
        {"instance_group_name": "data", "instance_type": "ml.c5.xlarge", "instance_count": 1},
        {"name": "train", "instance_type": "ml.g5.xlarge", "count": 1},  # the two spellings mixed
    ])
    code, out, err = run(capsys, "render", write_spec(spec_dir, sdk, "sdk.json"))
    assert code == cli.EXIT_OK, err
    assert run(capsys, "render", write_spec(spec_dir, short))[1] == out
    bad = small_spec(instance_groups=[
        {"instance_group_name": "data", "instance_type": "ml.c5.xlarge", "instance_count": 0},
        {"name": "train", "type": "ml.g5.xlarge", "count": 1},
    ])
    code, problems, _ = problems_of(capsys, write_spec(spec_dir, bad, "bad.json"))
    assert code == cli.EXIT_USAGE
    assert [p[:2] for p in problems] == [("instance_groups[0].instance_count", "must be an integer >= 1")]


def test_both_spellings_of_one_field_are_a_problem(capsys, spec_dir):
    spec = small_spec(instance_groups=[
        {"name": "data", "type": "ml.c5.xlarge", "instance_type": "ml.c5.2xlarge", "count": 1},
        {"name": "train", "type": "ml.g5.xlarge", "count": 1},
    ])
    code, problems, _ = problems_of(capsys, write_spec(spec_dir, spec))
    assert code == cli.EXIT_USAGE
    assert problems == [("instance_groups[0].instance_type", "names the same field as 'type' (the SDK v2's name "
                         "and the spec's short one): give one of them", "ml.c5.2xlarge")]


@pytest.mark.parametrize("wrong, right, value", [
    ("instance_typ", "instance_type", "ml.c5.xlarge"),
    ("tpye", "type", "ml.c5.xlarge"),
    ("instance_cont", "instance_count", 1),
    ("nme", "name", "data"),
])
def test_a_wrong_group_key_is_one_did_you_mean_and_nothing_else(capsys, spec_dir, wrong, right, value):
    group = {"name": "data", "type": "ml.c5.xlarge", "count": 1}
    del group[{"instance_type": "type", "instance_count": "count", "nme": "name"}.get(right, right)]
    group[wrong] = value
    spec = small_spec(instance_groups=[group, {"name": "train", "type": "ml.g5.xlarge", "count": 1}])
    code, problems, err = problems_of(capsys, write_spec(spec_dir, spec))
    assert code == cli.EXIT_USAGE
    assert problems == [("instance_groups[0].%s" % wrong, "is not a spec key; did you mean %r?" % right, wrong)]
    assert "None" not in err and err.count("\n  - ") == 1


def test_a_wrong_groups_value_is_checked_once_the_key_is_right(capsys, spec_dir):
    """The value under a wrong key is not judged (one problem: the key); under the SDK v2's key it is,
    and the problem names that key."""
    group = {"name": "data", "instance_type": "ml.c5.xlarg", "count": 1}
    spec = small_spec(instance_groups=[group, {"name": "train", "type": "ml.g5.xlarge", "count": 1}])
    _, problems, _ = problems_of(capsys, write_spec(spec_dir, spec))
    assert [p[0] for p in problems] == ["instance_groups[0].instance_type"]
    assert "TrainingInstanceType" in problems[0][1]


# -- the generic Estimator's distribution, fit's inputs ---------------------------------------


def _validation_doc():
    with open(os.path.join(ROOT, "docs", "validation.md")) as handle:
        return handle.read()


def test_the_generic_estimators_distribution_says_what_to_use_instead():
    from sagemaker_hetero.estimator import Estimator

    with pytest.raises(TypeError) as caught:
        Estimator(image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/i:1", role=ROLE, instance_count=1,
                  instance_type="ml.m5.large", distribution={"mpi": {"enabled": True}})
    text = str(caught.value)
    assert text.startswith("Estimator() got an unexpected keyword argument 'distribution': the generic Estimator "
                           "takes no distribution, as in the SDK v2: use the PyTorch or TensorFlow estimator")
    assert "start the launcher from your image's own entry point" in text
    doc = _validation_doc()  # says the same
    assert "use the `PyTorch` or `TensorFlow` estimator" in doc and "your image's own entry point" in doc
    assert "`framework: pytorch` or `tensorflow`" in doc


def test_a_generic_specs_distribution_says_what_to_use_instead(capsys, spec_dir):
    spec = {"framework": "generic", "role": ROLE, "image_uri": "123456789012.dkr.ecr.us-west-2.amazonaws.com/i:1",
            "instance_type": "ml.m5.large", "instance_count": 1, "distribution": {"mpi": {"enabled": True}}}
    code, problems, _ = problems_of(capsys, write_spec(spec_dir, spec))
    assert code == cli.EXIT_USAGE
    assert [p[0] for p in problems] == ["distribution"]
    assert problems[0][1].startswith("the generic Estimator takes no distribution, as in the SDK v2: use framework: "
                                     "pytorch or tensorflow")


@pytest.mark.parametrize("inputs", [42, 4.5, ["s3://bucket/x"], b"s3://bucket/x"])
def test_fit_shows_the_inputs_it_was_given(inputs):
    from sagemaker_hetero.pytorch import PyTorch

    estimator = PyTorch(entry_point=os.path.join(ROOT, "examples", "seed_src", "train.py"), role=ROLE,
                        framework_version="2.1", py_version="py310", instance_type="ml.m5.large", instance_count=1)
    with pytest.raises(ConfigError) as caught:
        estimator.fit(inputs, dry_run=True)
    assert [(p.path, p.value) for p in caught.value.problems] == [("inputs", inputs)]
    assert str(caught.value).endswith("(got %r)" % (inputs,))


# -- the command line's output and words ------------------------------------------------------


@pytest.mark.parametrize("count", [".inf", ".nan", "-.inf"])
def test_validate_json_is_only_json_whatever_the_spec_holds(capsys, spec_dir, count):
    text = ("framework: pytorch\nrole: %s\nentry_point: train.py\nframework_version: '2.1'\npy_version: py310\n"
            "instance_groups:\n  - {name: a, type: ml.c5.xlarge, count: %s}\n  - {name: b, type: ml.c5.xlarge, "
            "count: 1}\n" % (ROLE, count))
    code, problems, err = problems_of(capsys, write_spec(spec_dir, text, "spec.yaml"))
    assert code == cli.EXIT_USAGE
    assert problems == [("instance_groups[0].count", "must be an integer", {".inf": "inf", ".nan": "nan",
                                                                            "-.inf": "-inf"}[count])]
    assert "problem with the training job" in err  # the human text goes to stderr


def test_the_local_command_says_its_options(capsys, spec_dir, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    spec = small_spec(inputs=None)
    del spec["inputs"]
    path = write_spec(spec_dir, spec)
    code, _, err = run(capsys, "local", path, "--root", str(shared))
    assert code == cli.EXIT_USAGE
    assert "1 problem with the command line:\n  - --root: %s may be written by other users" % shared in err
    assert "pass --root another folder" in err and "root=" not in err
    # torch_distributed with an interpreter that has no torch (this one, without site-packages)
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "python").write_text('#!/bin/sh\nexec "%s" -I -S "$@"\n' % sys.executable)
    (bare / "python").chmod(0o755)
    code, _, err = run(capsys, "local", path, "--root", str(tmp_path / "jobs"), "--python", str(bare / "python"))
    assert code == cli.EXIT_USAGE, err
    assert "distribution.torch_distributed: torch_distributed runs torchrun" in err
    assert "point --python at the interpreter of an environment that has it, e.g. --python /path/to/venv/bin/python" in err
    assert "LocalSession(" not in err and "python=" not in err
    assert not os.path.exists(str(tmp_path / "jobs" / "cli-job"))


def test_spot_advice_is_said_as_a_spec_key(capsys, spec_dir):
    code, problems, err = problems_of(capsys, write_spec(spec_dir, small_spec(max_wait=7200)))
    assert code == cli.EXIT_USAGE
    assert ("max_wait", "is only for managed spot training (use_spot_instances: true)", 7200) in problems
    assert "use_spot_instances=True" not in err
