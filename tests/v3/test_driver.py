"""The v3 driver's decisions on a fake /opt/ml tree ($SAGEMAKER_BASE_DIR), torchrun, mpirun, ssh and
nvidia-smi replaced by recording scripts on PATH: the launcher on one group's hosts only (its rendezvous
from that group), or on every host as SDK v3 does; the other hosts run the entry script plainly."""
import json
import os
import subprocess
import sys

import pytest

from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.local import _launchers
from sagemaker_hetero.train import _driver

# data: algo-2; gpu: algo-3 then algo-1 (a group's hosts are not sorted in resourceconfig.json)
GROUPS = [("data", "ml.c5.xlarge", ["algo-2"]), ("gpu", "ml.g5.xlarge", ["algo-3", "algo-1"])]
HOSTS = ["algo-1", "algo-2", "algo-3"]

TRAIN = """
import json, os, sys
keys = ("SM_CURRENT_INSTANCE_GROUP", "SM_MASTER_ADDR", "SM_HOST_COUNT", "SM_MODEL_DIR", "SM_HPS", "SM_CHANNEL_TRAIN",
        "SM_IS_HETERO", "SM_CURRENT_INSTANCE_GROUP_HOSTS", "SM_DISTRIBUTION_INSTANCE_GROUPS")
with open(os.path.join(os.environ["SAGEMAKER_BASE_DIR"], "ran.json"), "w") as f:
    json.dump({"argv": sys.argv[1:], "cwd": os.getcwd(), "env": {k: os.environ.get(k) for k in keys}}, f)
sys.exit(int(os.environ.get("EXIT_WITH", "0")))
"""

RECORDER = """#!%s
import json, os, sys
with open(os.path.join(os.environ["SAGEMAKER_BASE_DIR"], "%s.json"), "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\\n")
"""


@pytest.fixture
def tools(tmp_path):
    """A folder of recording torchrun, mpirun and ssh (each appends its argv to <base>/<name>.json)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in ("torchrun", "mpirun", "ssh"):
        path = folder / name
        path.write_text(RECORDER % (sys.executable, name))
        path.chmod(0o755)
    return folder


def host_tree(root, host, source, distributed, hyperparameters=None, groups=GROUPS):
    """``root/<host>`` laid out as SageMaker's /opt/ml for ``host``, the driver's channel from ``files``."""
    base = root / host
    (base / "input" / "config").mkdir(parents=True)
    (base / "output").mkdir()
    group = [name for name, _, hosts in groups if host in hosts][0]
    resource = {"current_host": host, "current_group_name": group,
                "current_instance_type": [t for name, t, _ in groups if name == group][0],
                "hosts": HOSTS, "network_interface_name": "eth0",
                "instance_groups": [{"instance_group_name": n, "instance_type": t, "hosts": h} for n, t, h in groups]}
    config = {"resourceconfig.json": resource, "hyperparameters.json": hyperparameters or {},
              "inputdataconfig.json": {"train": {"TrainingInputMode": "File"}}}
    for name, value in config.items():
        (base / "input" / "config" / name).write_text(json.dumps(value))
    drivers = base / "input" / "data" / "sm_drivers"
    drivers.mkdir(parents=True)
    for name, content in _driver.files(source, distributed).items():
        (drivers / name).write_bytes(content)
    code = base / "input" / "data" / "code"
    code.mkdir()
    (code / "train.py").write_text(TRAIN)
    (code / "train.sh").write_text('#!/bin/sh\nexec python3 "$(dirname "$0")/train.py" "$@"\n')
    return base


def run_driver(base, tools, **env):
    """Start the host's driver as the request does (bash -c 'chmod +x ... && ...'), base moved."""
    environ = {"PATH": os.pathsep.join([str(tools), os.path.dirname(sys.executable), "/usr/bin", "/bin"]),
               "SAGEMAKER_BASE_DIR": str(base), "TRAINING_JOB_NAME": "job", "SAGEMAKER_HETERO_SSHD": ""}
    environ.update(env)
    line = _driver.CONTAINER_ARGUMENTS[1].replace("/opt/ml", str(base))
    return subprocess.run(_driver.CONTAINER_ENTRYPOINT + ["-c", line], env=environ, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)


def read(base, name):
    path = base / name
    if not path.exists():
        return None
    if name == "ran.json":
        return json.loads(path.read_text())
    return [json.loads(line) for line in path.read_text().splitlines()]


SOURCE = {"source_dir": "src", "entry_script": "train.py"}


def test_the_driver_starts_as_sdk_v3_starts_it():
    assert _driver.CONTAINER_ENTRYPOINT == ["/bin/bash"]
    assert _driver.CONTAINER_ARGUMENTS == [
        "-c", "chmod +x /opt/ml/input/data/sm_drivers/sm_train.sh && /opt/ml/input/data/sm_drivers/sm_train.sh"]
    assert sorted(_driver.files(SOURCE, None)) == ["distributed.json", "sm_driver.py", "sm_train.sh", "sourcecode.json"]


def test_without_distribution_the_entry_script_runs_with_the_hyperparameters_as_arguments(tmp_path, tools):
    base = host_tree(tmp_path, "algo-2", SOURCE, None, {"epochs": "2", "lr": "0.1", "name": "x"})
    result = run_driver(base, tools)
    assert result.returncode == 0, result.stdout
    ran = read(base, "ran.json")
    assert ran["argv"] == ["--epochs", "2", "--lr", "0.1", "--name", "x"]
    assert ran["cwd"] == str(base / "input" / "data" / "code")
    assert ran["env"]["SM_CURRENT_INSTANCE_GROUP"] == "data"
    assert ran["env"]["SM_MODEL_DIR"] == str(base / "model")
    assert ran["env"]["SM_CHANNEL_TRAIN"] == str(base / "input" / "data" / "train")
    assert json.loads(ran["env"]["SM_HPS"]) == {"epochs": 2, "lr": 0.1, "name": "x"}
    assert ran["env"]["SM_IS_HETERO"] == "true"
    assert ran["env"]["SM_MASTER_ADDR"] == "algo-1"  # SDK v3's master: the first host by name
    assert read(base, "torchrun.json") is None


def test_a_command_runs_with_its_args_quoted_and_a_shell_entry_script_runs_with_sh(tmp_path, tools):
    command = dict(SOURCE, command="python3 train.py --mode fast", args=["a b", "$HOME"])
    base = host_tree(tmp_path / "c", "algo-2", command, {"type": "torchrun", "instance_group_names": None})
    assert run_driver(base, tools).returncode == 0
    assert read(base, "ran.json")["argv"] == ["--mode", "fast", "a b", "$HOME"]
    assert read(base, "torchrun.json") is None  # a command runs as it is, distributed or not (SDK v3)
    base = host_tree(tmp_path / "s", "algo-2", dict(SOURCE, entry_script="train.sh"), None, {"k": "v w"})
    assert run_driver(base, tools).returncode == 0
    assert read(base, "ran.json")["argv"] == ["--k", "v w"]


@pytest.mark.parametrize("host, rank", [("algo-1", 0), ("algo-2", 1), ("algo-3", 2)])
def test_torchrun_without_groups_puts_every_host_in_the_rendezvous_as_sdk_v3(tmp_path, tools, host, rank):
    base = host_tree(tmp_path, host, SOURCE, {"type": "torchrun", "process_count_per_node": 2}, {"epochs": "3"})
    assert run_driver(base, tools).returncode == 0
    assert read(base, "torchrun.json") == [[
        "--nnodes=3", "--nproc_per_node=2", "--master_addr=algo-1", "--master_port=%d" % _launchers.MASTER_PORT,
        "--node_rank=%d" % rank, "train.py", "--epochs", "3"]]
    assert read(base, "ran.json") is None


@pytest.mark.parametrize("host, rank", [("algo-3", 0), ("algo-1", 1)])
def test_torchrun_on_one_group_runs_on_its_hosts_with_its_own_rendezvous(tmp_path, tools, host, rank):
    base = host_tree(tmp_path, host, SOURCE, {"type": "torchrun", "instance_group_names": ["gpu"]}, {"epochs": "3"})
    assert run_driver(base, tools).returncode == 0
    assert read(base, "torchrun.json") == [[
        "--nnodes=2", "--nproc_per_node=1", "--master_addr=algo-3", "--master_port=%d" % _launchers.MASTER_PORT,
        "--node_rank=%d" % rank, "train.py", "--epochs", "3"]]


def test_the_other_groups_hosts_run_the_entry_script_plainly_and_know_the_launchers_master(tmp_path, tools):
    base = host_tree(tmp_path, "algo-2", SOURCE, {"type": "torchrun", "instance_group_names": ["gpu"]}, {"e": "1"})
    assert run_driver(base, tools).returncode == 0
    assert read(base, "torchrun.json") is None
    ran = read(base, "ran.json")
    assert ran["argv"] == ["--e", "1"]
    assert ran["env"]["SM_CURRENT_INSTANCE_GROUP"] == "data"
    assert ran["env"]["SM_MASTER_ADDR"] == "algo-3"
    assert json.loads(ran["env"]["SM_DISTRIBUTION_INSTANCE_GROUPS"]) == ["gpu"]
    assert json.loads(ran["env"]["SM_CURRENT_INSTANCE_GROUP_HOSTS"]) == ["algo-2"]


def test_processes_per_host_are_the_gpus_nvidia_smi_lists_when_not_given(tmp_path, tools):
    smi = tools / "nvidia-smi"
    smi.write_text("#!/bin/sh\nfor i in 0 1 2 3; do echo \"GPU $i: NVIDIA A10G (UUID: GPU-$i)\"; done\n")
    smi.chmod(0o755)
    base = host_tree(tmp_path, "algo-1", SOURCE, {"type": "torchrun", "instance_group_names": ["gpu"]})
    assert run_driver(base, tools).returncode == 0
    assert "--nproc_per_node=4" in read(base, "torchrun.json")[0]


def mpi_prefix(hosts, per_host):
    return ["--host", ",".join("%s:%d" % (h, per_host) for h in hosts), "-np", str(per_host * len(hosts))]


@pytest.mark.parametrize("groups, hosts", [(["gpu"], ["algo-3", "algo-1"]), (None, HOSTS)])
def test_mpirun_is_started_by_the_launchers_first_host_over_its_hosts_only(tmp_path, tools, groups, hosts):
    distributed = {"type": "mpi", "process_count_per_node": 2, "mpi_additional_options": ["-x", "NCCL_DEBUG=INFO"],
                   "instance_group_names": groups}
    base = host_tree(tmp_path, hosts[0], SOURCE, distributed, {"epochs": "3"})
    result = run_driver(base, tools, SAGEMAKER_HETERO_MPI_DONE="/tmp/done-flag")
    assert result.returncode == 0, result.stdout
    (mpirun,) = read(base, "mpirun.json")
    assert mpirun[:4] == mpi_prefix(hosts, 2)
    assert os.path.dirname(mpirun[-6]) == os.path.dirname(sys.executable)  # the python sm_train.sh found
    assert mpirun[-5:] == ["-m", "mpi4py", "train.py", "--epochs", "3"]
    assert ["-x", "NCCL_DEBUG=INFO"] == mpirun[mpirun.index("NCCL_DEBUG=INFO") - 1:][:2]
    ssh = read(base, "ssh.json")
    workers = [h for h in hosts if h != hosts[0]]
    assert [c[-2:] for c in ssh if c[-1] == "true"] == [[w, "true"] for w in workers]
    assert [c[-3:] for c in ssh if c[-2] == "touch"] == [[w, "touch", "/tmp/done-flag"] for w in workers]
    assert read(base, "ran.json") is None


def test_an_mpi_groups_other_host_waits_until_the_first_says_it_is_done(tmp_path, tools):
    base = host_tree(tmp_path, "algo-1", SOURCE, {"type": "mpi", "instance_group_names": ["gpu"]})
    done = tmp_path / "done"
    environ = {"PATH": os.pathsep.join([str(tools), os.path.dirname(sys.executable), "/usr/bin", "/bin"]),
               "SAGEMAKER_BASE_DIR": str(base), "SAGEMAKER_HETERO_MPI_DONE": str(done), "SAGEMAKER_HETERO_SSHD": ""}
    script = str(base / "input" / "data" / "sm_drivers" / "sm_train.sh")
    worker = subprocess.Popen(["/bin/bash", script], env=environ, stdout=subprocess.PIPE, universal_newlines=True)
    try:
        for line in worker.stdout:
            if "waiting for algo-3" in line:
                break
        assert worker.poll() is None
        done.write_text("")
        assert worker.wait() == 0
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
        worker.stdout.close()
    assert read(base, "mpirun.json") is None and read(base, "ran.json") is None


def test_a_failing_script_fails_the_host_with_its_status_and_a_reason(tmp_path, tools):
    base = host_tree(tmp_path, "algo-2", SOURCE, None)
    result = run_driver(base, tools, EXIT_WITH="3")
    assert result.returncode == 3
    assert "exited with status 3" in (base / "output" / "failure").read_text()


def test_a_group_the_job_does_not_have_fails_every_host_naming_it(tmp_path, tools):
    base = host_tree(tmp_path, "algo-2", SOURCE, {"type": "torchrun", "instance_group_names": ["gpus"]})
    result = run_driver(base, tools)
    assert result.returncode == 1
    failure = (base / "output" / "failure").read_text()
    assert "expected one of the job's groups ['data', 'gpu'], got 'gpus'" in failure


@pytest.mark.parametrize("source, distributed, path", [
    ({"source_dir": "src"}, None, "source_code"),
    ({"entry_script": "train.ipynb"}, None, "source_code.entry_script"),
    (SOURCE, {"type": "pytorchddp"}, "distributed.type"),
    (SOURCE, {"type": "torchrun", "instance_group_names": ["gpu", "data"]}, "distributed.instance_group_names"),
    (SOURCE, {"type": "mpi", "instance_group_names": "gpu"}, "distributed.instance_group_names"),
    (SOURCE, {"type": "mpi", "process_count_per_node": 0}, "distributed.process_count_per_node"),
])
def test_files_refuses_what_the_driver_could_not_run_naming_the_argument(source, distributed, path):
    with pytest.raises(ConfigError) as error:
        _driver.files(source, distributed)
    assert [p.path for p in error.value.problems] == [path]


def test_files_carries_the_source_code_and_the_distribution_as_given():
    source = dict(SOURCE, requirements="requirements.txt", args=["--x"], ignore_patterns=[".git"], extra="dropped")
    out = _driver.files(source, {"type": "torchrun", "process_count_per_node": 4, "instance_group_names": ("gpu",)})
    assert json.loads(out["sourcecode.json"].decode()) == {
        "source_dir": "src", "requirements": "requirements.txt", "entry_script": "train.py", "command": None,
        "args": ["--x"], "ignore_patterns": [".git"]}
    assert json.loads(out["distributed.json"].decode()) == {
        "type": "torchrun", "process_count_per_node": 4, "smp": None, "mpi_additional_options": None,
        "instance_group_names": ["gpu"]}
    assert json.loads(_driver.files(SOURCE, None)["distributed.json"].decode()) is None


def test_the_requirements_are_installed_with_pip_in_the_code_folder_before_the_script(tmp_path, tools):
    base = host_tree(tmp_path, "algo-2", dict(SOURCE, requirements="requirements.txt"), None)
    (base / "input" / "data" / "code" / "requirements.txt").write_text("./no-such-project\n")
    result = run_driver(base, tools, PIP_NO_INDEX="1")
    assert result.returncode == 1
    assert "requirements: expected 'pip install -r requirements.txt' to succeed, got exit status" in (
        base / "output" / "failure").read_text()
    assert read(base, "ran.json") is None


def test_a_source_dir_archive_is_unpacked_in_the_code_folder_before_the_script_runs(tmp_path, tools):
    import tarfile

    base = host_tree(tmp_path, "algo-2", {"source_dir": "s3://bucket/src/code.tar.gz", "entry_script": "inner.py"},
                     None, {"n": "1"})
    code = base / "input" / "data" / "code"
    (tmp_path / "inner.py").write_text(TRAIN)
    with tarfile.open(str(code / "code.tar.gz"), "w:gz") as archive:
        archive.add(str(tmp_path / "inner.py"), arcname="inner.py")
    result = run_driver(base, tools)
    assert result.returncode == 0, result.stdout
    assert read(base, "ran.json")["argv"] == ["--n", "1"]


def _driver_module():
    import importlib.util

    path = os.path.join(os.path.dirname(_driver.__file__), _driver.DRIVER)
    spec = importlib.util.spec_from_file_location("sm_driver_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_efa_is_told_by_the_hosts_devices_and_sets_the_provider_of_the_launchers(tmp_path):
    driver = _driver_module()
    devices = tmp_path / "infiniband"
    devices.mkdir()
    assert driver.efa_devices(str(devices)) is False
    (devices / "rdmap0s6").mkdir()
    assert driver.efa_devices(str(devices)) is True
    assert driver.efa_devices(str(tmp_path / "none")) is False
    resource = {"current_host": "algo-3", "hosts": HOSTS, "current_group_name": "gpu",
                "instance_groups": [{"instance_group_name": n, "instance_type": t, "hosts": h} for n, t, h in GROUPS]}
    mpi = {"type": "mpi", "instance_group_names": ["gpu"]}
    with_efa = driver.decide(SOURCE, mpi, resource, {}, 0, "python3", efa=True)["argv"]
    assert with_efa[with_efa.index("FI_PROVIDER=efa") - 1] == "-x"
    assert "FI_PROVIDER=efa" not in driver.decide(SOURCE, mpi, resource, {}, 0, "python3")["argv"]
    assert driver.launcher_env(resource, "torchrun", True)["FI_PROVIDER"] == "efa"
    assert driver.launcher_env(resource, "torchrun", False) == {"NCCL_SOCKET_IFNAME": "eth0", "NCCL_PROTO": "simple"}


def test_the_drivers_files_are_package_data():
    import configparser
    import fnmatch

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    config = configparser.ConfigParser()
    config.read(os.path.join(root, "setup.cfg"))
    patterns = [p.strip() for p in config["options.package_data"]["sagemaker_hetero"].split(",")]
    folder = os.path.dirname(_driver.__file__)
    data = [name for name in os.listdir(folder) if not name.endswith((".py", ".pyc")) and name != "__pycache__"]
    assert _driver.TRAIN_SCRIPT in data
    for name in data:
        assert any(fnmatch.fnmatch("train/_driver/" + name, p) for p in patterns), name
