"""examples/fork_by_group.py, run as a training entry point against a fake /opt/ml, on each group."""
import json
import os
import subprocess
import sys

import pytest

from sagemaker_hetero.training import Environment, parse_marker

DATA_DNN = {
    "current_host": "algo-1",
    "current_group_name": "data_group",
    "current_instance_type": "ml.c5.18xlarge",
    "hosts": ["algo-1", "algo-2", "algo-3"],
    "instance_groups": [
        {"instance_group_name": "data_group", "instance_type": "ml.c5.18xlarge", "hosts": ["algo-1", "algo-3"]},
        {"instance_group_name": "dnn_group", "instance_type": "ml.p4d.24xlarge", "hosts": ["algo-2"]},
    ],
}


def run_example(root_dir, subprocess_env, base, tmp_path):
    """Start the example like the toolkit does: hyperparameters as arguments, base dir from the environment."""
    env = Environment(base_dir=base)
    child_env = dict(subprocess_env, SAGEMAKER_BASE_DIR=base)
    script = os.path.join(root_dir, "examples", "fork_by_group.py")
    result = subprocess.run(
        [sys.executable, script] + env.to_cmd_args(),
        cwd=str(tmp_path),
        env=child_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        universal_newlines=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    return env, lines


def test_cpu_group_preprocesses(case_base, root_dir, subprocess_env, tmp_path):
    base, _ = case_base("hetero_mpi_cpu_host")  # algo-2, instance_group_1
    os.makedirs(os.path.join(base, "input", "data", "training"))
    with open(os.path.join(base, "input", "data", "training", "part-0.csv"), "w") as handle:
        handle.write("1,2\n3,4\n")
    env, lines = run_example(root_dir, subprocess_env, base, tmp_path)
    assert parse_marker(lines[0]) == {"host": "algo-2", "group": "instance_group_1", "instance_type": "ml.c5.18xlarge"}
    assert sum(1 for line in lines if parse_marker(line)) == 1
    assert "preprocess: algo-2 has 1 file(s) in channel 'training'" in lines
    with open(os.path.join(env.output_data_dir, "preprocess-algo-2.json")) as handle:
        assert json.load(handle)["channels"] == {"training": {"files": 1, "bytes": 8}}
    assert not os.path.exists(env.model_dir)


def test_gpu_group_trains_and_its_master_saves(case_base, root_dir, subprocess_env, tmp_path):
    base, _ = case_base("hetero_mpi_gpu_master")  # algo-3, instance_group_2, MPI on that group
    env, lines = run_example(root_dir, subprocess_env, base, tmp_path)
    assert parse_marker(lines[0])["group"] == "instance_group_2"
    assert lines[1].startswith("train: algo-3 is trainer 1 of 2;")
    with open(os.path.join(env.model_dir, "model.json")) as handle:
        model = json.load(handle)
    assert model["trainers"] == ["algo-3", "algo-1"]
    assert model["hyperparameters"]["epochs"] == 10
    assert not os.path.exists(env.output_data_dir)


@pytest.mark.parametrize("host, group, role", [("algo-3", "data_group", "preprocess"), ("algo-2", "dnn_group", "train")])
def test_group_names_from_hyperparameters(make_base, root_dir, subprocess_env, tmp_path, host, group, role):
    config = dict(DATA_DNN, current_host=host, current_group_name=group)
    hyperparameters = {"data_group": '"data_group"', "train_group": '"dnn_group"', "epochs": "2"}
    base = make_base({"resourceconfig.json": config, "hyperparameters.json": hyperparameters, "inputdataconfig.json": {}})
    env, lines = run_example(root_dir, subprocess_env, base, tmp_path)
    assert parse_marker(lines[0])["group"] == group
    if role == "train":
        assert lines[1].startswith("train: algo-2 is trainer 1 of 1;") and lines[2].startswith("train: saved ")
    else:
        assert lines[1:] == []  # no channels: nothing to read, an empty summary is written
        assert os.path.exists(os.path.join(env.output_data_dir, "preprocess-algo-3.json"))


def test_refuses_a_cluster_it_does_not_know(case_base, root_dir, subprocess_env, tmp_path):
    base, _ = case_base("homogeneous_two_hosts")
    result = subprocess.run(
        [sys.executable, os.path.join(root_dir, "examples", "fork_by_group.py")],
        cwd=str(tmp_path),
        env=dict(subprocess_env, SAGEMAKER_BASE_DIR=base),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        universal_newlines=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "no handler for instance group 'homogeneousCluster'" in result.stderr
    assert result.stdout == ""


def test_the_documented_command_runs_the_example_on_a_local_two_group_job(root_dir, subprocess_env, tmp_path):
    import re
    import shlex

    with open(os.path.join(root_dir, "examples", "fork_by_group.py")) as handle:
        command = re.search(r"Try it without SageMaker::\n\n +(.*)\n", handle.read()).group(1)
    assert command == "python examples/fork_by_group.py"
    env = dict(subprocess_env, TMPDIR=str(tmp_path))  # LocalSession's default root lives in the temporary folder
    env.pop("SAGEMAKER_BASE_DIR", None)  # outside any job, as a user types it
    result = subprocess.run([sys.executable] + shlex.split(command)[1:], cwd=root_dir, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "[instance_group_1/algo-1] preprocess: algo-1 has 2 file(s) in channel 'training'" in lines
    assert "[instance_group_1/algo-2] preprocess: algo-2 has 2 file(s) in channel 'training'" in lines
    assert "[instance_group_2/algo-3] train: algo-3 is trainer 1 of 1; hyperparameters {}" in lines
    assert lines[-1].startswith("model: file://%s" % tmp_path) and lines[-1].endswith("/fork-by-group/output/model.tar.gz")
