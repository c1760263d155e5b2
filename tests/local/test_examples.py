"""The local examples run: the README's first command (the seed job, locally) and the TCP streaming job."""
import json
import os
import re
import subprocess
import sys

import pytest

from sagemaker_hetero.training import parse_marker

from ._helpers import ROOT, loopback_network_routed


def run_example(name, tmp_path, *args):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SM_", "SAGEMAKER_"))}
    env.update(PYTHONPATH=ROOT, TMPDIR=str(tmp_path))  # the default root lives in the temporary folder
    result = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", name)] + list(args),
        cwd=str(tmp_path), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_the_readmes_first_command_runs_the_seed_example_locally():
    with open(os.path.join(ROOT, "README.md")) as handle:
        block = re.search(r"```bash\n(.*?)```", handle.read(), re.S).group(1)
    first = [line for line in block.splitlines() if line and not line.startswith("#")][0]
    assert first.endswith(".venv/bin/python examples/seed_local.py")


def test_seed_local_runs_every_host_with_its_groups_channel(tmp_path):
    out = run_example("seed_local.py", tmp_path)
    lines = out.splitlines()
    assert "[instance_group_1/algo-1] algo-1: preprocessing data on the CPU group; channels ['training']" in lines
    assert "[instance_group_1/algo-2] algo-2: 8 rows preprocessed" in lines
    assert "[instance_group_2/algo-3] algo-3: training on the GPU group; channels ['dummy-input-channel']" in lines
    job = os.path.join(str(tmp_path), "sagemaker-hetero-local-%d" % os.getuid(), "my-training-job-with-heterogeneous-cluster")
    assert lines[-1] == "model: file://%s/output/model.tar.gz" % job
    assert os.path.isfile(os.path.join(job, "output", "output.tar.gz"))
    again = run_example("seed_local.py", tmp_path, "--shuffled")  # the same job name runs again
    assert "shuffled, seed" in again and again.splitlines()[-1] == lines[-1]


@pytest.mark.skipif(not loopback_network_routed(), reason="two hosts need two loopback addresses for one port")
def test_cpu_hosts_stream_data_over_tcp_to_the_gpu_host_by_name(tmp_path):
    out = run_example("local_tcp_stream.py", tmp_path, "--seed", "4")
    markers = [parse_marker(line) for line in out.splitlines() if parse_marker(line)]
    data_hosts = sorted(m["host"] for m in markers if m["group"] == "data_group")
    (trainer,) = [m["host"] for m in markers if m["group"] == "dnn_group"]
    assert len(data_hosts) == 2
    for host in data_hosts:
        assert "[data_group/%s] serving 40 records on port 9100" % host in out
        assert "[data_group/%s] trainers %s are done; stopping" % (host, trainer) in out
    assert "[dnn_group/%s] epoch 40: 80 records from " % trainer in out
    model = json.loads(out.splitlines()[-1].split("trained model: ", 1)[1])
    assert abs(model["w"] - 3) < 0.1 and abs(model["b"] - 2) < 0.2 and model["records"] == 80
