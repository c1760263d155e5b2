"""What a local host's process cannot be given is refused by the LocalSession's check, so the dry run
refuses what the run would crash on (``ValueError: illegal environment variable name``, ``embedded
null byte``, "Argument list too long"), before anything is created; what it can be given still runs."""
import json
import os

import pytest

from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.local import _passable

from ._helpers import estimator_for

# (estimator arguments, fit's inputs, the problem's path, the value it shows)
REFUSED = [
    (dict(hyperparameters={"a=b": 1}), None, "hyperparameters['a=b']", "a=b"),
    (dict(hyperparameters={"a\x00b": 1}), None, "hyperparameters['a\\x00b']", "a\x00b"),
    (dict(hyperparameters={"a": "x\x00y"}), None, "hyperparameters['a']", "x\x00y"),
    (dict(hyperparameters={"a": {"k": "x\x00y"}}), None, "hyperparameters['a']", {"k": "x\x00y"}),  # argv k=v
    (dict(hyperparameters={"a": "\ud800"}), None, "hyperparameters['a']", "\ud800"),
    (dict(environment={"A": "x\x00"}), None, "environment['A']", "x\x00"),
    (dict(groups=(("g\x00", "ml.c5.xlarge", 1),)), None, "instance_groups[0].instance_group_name", "g\x00"),
    (dict(output_path="s3://sagemaker-hetero-local/out\x00"), None, "output_path",
     "s3://sagemaker-hetero-local/out\x00"),
    (dict(code_location="s3://sagemaker-hetero-local/code\x00"), None, "code_location",
     "s3://sagemaker-hetero-local/code\x00"),
    (dict(), {"..": "DATA"}, "inputs['..']", ".."),
]


@pytest.mark.parametrize("kwargs, inputs, path, value", REFUSED, ids=lambda v: repr(v)[:40])
def test_a_value_no_host_process_can_take_is_refused_before_anything_runs(
        session_factory, write_code, tmp_path, kwargs, inputs, path, value):
    session = session_factory()
    kwargs = dict(kwargs)
    groups = kwargs.pop("groups", None)
    source_dir = write_code("print('ran')\n")
    estimator_for(None, source_dir, groups=groups, **kwargs).fit(dry_run=True)  # AWS takes it
    if inputs is not None:
        (tmp_path / "data").mkdir()
        inputs = {name: "file://%s" % (tmp_path / "data") for name in inputs}
    with pytest.raises(ConfigError) as caught:  # the estimator checks with its session when it is made
        estimator_for(session, source_dir, groups=groups, job_name="refused", **kwargs).fit(inputs, dry_run=True)
    [problem] = caught.value.problems
    assert (problem.path, problem.value) == (path, value)
    assert not os.path.exists(os.path.join(session.root, "refused"))  # nothing ran


@pytest.mark.parametrize("hyperparameters, environment", [({"a=b": 1}, None), ({"a\x00b": 1}, None),
                                                          ({}, {"A": "x\x00"})])
def test_the_dry_run_and_the_run_refuse_alike(session_factory, write_code, hyperparameters, environment):
    """The crashes of the issue: values set after the estimator was made, refused by fit(dry_run=True)
    and by fit() alike, which once crashed in the run."""
    session = session_factory()
    estimator = estimator_for(session, write_code("pass\n"), groups=None, job_name="later")
    estimator.set_hyperparameters(**hyperparameters)
    if environment is not None:
        estimator.environment = environment
    for dry_run in (True, False):
        with pytest.raises(ConfigError) as caught:
            estimator.fit(dry_run=dry_run)
        assert len(caught.value.problems) == 1
    assert not os.path.exists(os.path.join(session.root, "later"))


def test_a_hyperparameter_key_with_equals_is_refused_saying_why(session_factory, write_code):
    with pytest.raises(ConfigError) as caught:
        estimator_for(session_factory(), write_code("pass\n"), groups=None, hyperparameters={"a=b": 1})
    message = caught.value.problems[0].message
    assert "'='" in message and "SM_HP_<KEY>" in message


def test_hyperparameters_too_large_for_one_variable_are_refused(session_factory, write_code):
    # 60 x 2,400 characters: within the service's limits, but SM_TRAINING_ENV would hold some 145 KB.
    hyperparameters = {"k%02d" % i: "v" * 2400 for i in range(60)}
    with pytest.raises(ConfigError) as caught:
        estimator_for(session_factory(), write_code("pass\n"), groups=None, hyperparameters=hyperparameters)
    [problem] = caught.value.problems
    assert problem.path == "hyperparameters" and "SM_TRAINING_ENV" in problem.message
    assert "{:,}".format(_passable.MAX_ARG_STRLEN) in problem.message


def test_values_a_host_process_can_take_still_run(session_factory, write_code):
    script = """
    import json, os, sys
    seen = {"argv": sys.argv[1:], "E": os.environ["E"], "group": os.environ["SM_CURRENT_INSTANCE_GROUP"],
            "hp": {k: v for k, v in os.environ.items() if k.startswith("SM_HP_")}, "hps": os.environ["SM_HPS"]}
    with open(os.path.join(os.environ["SM_OUTPUT_DATA_DIR"], "seen.json"), "w") as f:
        json.dump(seen, f)
    """
    hyperparameters = {"a-b.c": "x=y", "\u00fc": "\u2202 \u00e9", "n": {"k": "v=w"}}
    estimator = estimator_for(session_factory(keep=True), write_code(script), groups=(("g\u00e9", "ml.c5.xlarge", 1),),
                              hyperparameters=hyperparameters, environment={"E": "caf\u00e9 = 1"}, job_name="takes")
    estimator.fit()
    [host] = estimator.latest_training_job.describe()["LocalRun"]["Hosts"]
    with open(os.path.join(host["BaseDirectory"], "output", "data", "seen.json")) as handle:
        seen = json.load(handle)
    assert (seen["E"], seen["group"]) == ("caf\u00e9 = 1", "g\u00e9")
    assert json.loads(seen["hps"]) == hyperparameters and seen["hp"]["SM_HP_N"] == '{"k":"v=w"}'
    # names no shell keeps (dash drops them) reach the entry point too, as on SageMaker
    assert seen["hp"] == {"SM_HP_A-B.C": "x=y", "SM_HP_N": '{"k":"v=w"}', "SM_HP_\u00dc": "\u2202 \u00e9"}
    assert seen["argv"] == ["--a-b.c", "x=y", "-n", "k=v=w", "-\u00fc", "\u2202 \u00e9"]



ESCAPE = "s3://sagemaker-hetero-local/../outside/x"


@pytest.mark.parametrize("kwargs, inputs, path", [
    (dict(output_path=ESCAPE), None, "output_path"),
    (dict(code_location=ESCAPE), None, "code_location"),
    (dict(), {"train": ESCAPE}, "inputs['train']"),
])
def test_a_local_bucket_key_with_dot_dot_is_refused_as_it_would_leave_the_root(session_factory, write_code, tmp_path,
                                                                                kwargs, inputs, path):
    """s3://sagemaker-hetero-local/KEY is <root>/KEY: on S3 '..' is a name like any other, here it left the root."""
    session = session_factory()
    source_dir = write_code("print('ran')\n")
    with pytest.raises(ConfigError) as caught:
        estimator_for(session, source_dir, groups=None, job_name="escape", **kwargs).fit(inputs, dry_run=True)
    [problem] = caught.value.problems
    assert (problem.path, problem.value) == (path, ESCAPE)
    assert "'..' in its key of the local bucket" in problem.message
    assert not os.path.exists(os.path.join(os.path.dirname(session.root), "outside"))
