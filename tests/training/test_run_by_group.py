"""run_by_group dispatches on the current instance group; announce prints the marker line."""
import io

import pytest

from sagemaker_hetero.training import (
    MARKER_PREFIX,
    Environment,
    cluster_groups,
    format_marker,
    parse_marker,
    run_by_group,
)

DATA_HOST = {
    "current_host": "algo-3",
    "current_group_name": "data_group",
    "current_instance_type": "ml.c5.18xlarge",
    "hosts": ["algo-1", "algo-2", "algo-3"],
    "instance_groups": [
        {"instance_group_name": "data_group", "instance_type": "ml.c5.18xlarge", "hosts": ["algo-3", "algo-1"]},
        {"instance_group_name": "dnn_group", "instance_type": "ml.p4d.24xlarge", "hosts": ["algo-2"]},
    ],
}
DNN_HOST = dict(DATA_HOST, current_host="algo-2", current_group_name="dnn_group", current_instance_type="ml.p4d.24xlarge")
LEGACY = {"current_host": "algo-1", "hosts": ["algo-1", "algo-2"]}


def handlers(calls):
    return {
        "data_group": lambda env: calls.append(("serve", env)) or "served",
        "dnn_group": lambda env: calls.append(("train", env)) or "trained",
    }


@pytest.mark.parametrize(
    "config, role, result, line",
    [
        (DATA_HOST, "serve", "served", "[sagemaker-hetero] host=algo-3 group=data_group instance_type=ml.c5.18xlarge"),
        (DNN_HOST, "train", "trained", "[sagemaker-hetero] host=algo-2 group=dnn_group instance_type=ml.p4d.24xlarge"),
    ],
)
def test_calls_the_handler_of_the_current_group(make_base, capsys, config, role, result, line):
    env = Environment(base_dir=make_base({"resourceconfig.json": config}))
    calls = []
    assert run_by_group(handlers(calls), env) == result
    assert calls == [(role, env)]
    assert capsys.readouterr().out == line + "\n"


def test_marker_comes_before_the_handler_output(make_base, capsys):
    env = Environment(base_dir=make_base({"resourceconfig.json": DNN_HOST}))
    run_by_group({"data_group": print, "dnn_group": lambda env: print("training")}, env)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(MARKER_PREFIX) and lines[1:] == ["training"]


def test_builds_the_environment_when_none_is_given(make_base, monkeypatch, capsys):
    monkeypatch.setenv("SAGEMAKER_BASE_DIR", make_base({"resourceconfig.json": DATA_HOST}))
    assert run_by_group(handlers([])) == "served"
    assert "group=data_group" in capsys.readouterr().out


def test_homogeneous_jobs_have_one_group(make_base, capsys):
    homogeneous = {
        "current_host": "algo-1",
        "current_group_name": "homogeneousCluster",
        "current_instance_type": "ml.m5.xlarge",
        "hosts": ["algo-1"],
        "instance_groups": [{"instance_group_name": "homogeneousCluster", "instance_type": "ml.m5.xlarge", "hosts": ["algo-1"]}],
    }
    for config, instance_type in ((homogeneous, "ml.m5.xlarge"), (LEGACY, "local")):
        env = Environment(base_dir=make_base({"resourceconfig.json": config}))
        assert cluster_groups(env) == ["homogeneousCluster"]
        assert run_by_group({"homogeneousCluster": lambda env: 7}, env) == 7
        expected = "[sagemaker-hetero] host=algo-1 group=homogeneousCluster instance_type=%s\n" % instance_type
        assert capsys.readouterr().out == expected


def test_refuses_with_every_problem_and_runs_nothing(make_base, capsys):
    env = Environment(base_dir=make_base({"resourceconfig.json": DATA_HOST}))
    calls = []
    with pytest.raises(ValueError) as info:
        run_by_group({"data_group": 42, "gpu_group": lambda env: calls.append(env)}, env)
    message = str(info.value)
    assert "3 problems" in message
    assert "['data_group', 'dnn_group']" in message
    assert "no handler for instance group 'dnn_group'" in message
    assert "'gpu_group', which is not an instance group of this cluster" in message
    assert "the handler for 'data_group' is not callable (got 42)" in message
    assert calls == [] and capsys.readouterr().out == ""


@pytest.mark.parametrize("handlers_value", [None, [("data_group", print)], print])
def test_refuses_what_is_not_a_mapping(make_base, handlers_value):
    env = Environment(base_dir=make_base({"resourceconfig.json": DATA_HOST}))
    with pytest.raises(ValueError, match="expected a mapping of instance group name to handler"):
        run_by_group(handlers_value, env)


def test_a_missing_group_alone(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": DATA_HOST}))
    with pytest.raises(ValueError, match=r"1 problem with the handlers"):
        run_by_group({"data_group": print}, env)


def test_handler_errors_propagate(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": DATA_HOST}))

    def boom(env):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        run_by_group({"data_group": boom, "dnn_group": print}, env)


def test_announce(make_base, capsys):
    env = Environment(base_dir=make_base({"resourceconfig.json": DNN_HOST}))
    line = env.announce()
    assert line == "[sagemaker-hetero] host=algo-2 group=dnn_group instance_type=ml.p4d.24xlarge"
    assert capsys.readouterr().out == line + "\n"


def test_announce_to_a_stream_flushes(make_base):
    class Stream(io.StringIO):
        flushed = False

        def flush(self):
            self.flushed = True

    env = Environment(base_dir=make_base({"resourceconfig.json": DATA_HOST}))
    stream = Stream()
    env.announce(stream)
    assert stream.getvalue().count("\n") == 1 and stream.flushed


def test_marker_round_trip():
    line = format_marker("algo-1", "instance_group_2", "ml.p3dn.24xlarge")
    assert parse_marker(line) == {"host": "algo-1", "group": "instance_group_2", "instance_type": "ml.p3dn.24xlarge"}
    assert parse_marker("2024-01-01T00:00:00 " + line + "\n")["group"] == "instance_group_2"
    assert parse_marker("training epoch 1") is None
    assert parse_marker(line + " and more") is None
