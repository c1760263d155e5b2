"""A v3 job's request (ContainerEntrypoint and ContainerArguments starting the driver in the sm_drivers
channel, the code in the code channel) on the local heterogeneous cluster: /opt/ml in the arguments is
each host's folder, every host runs the driver, and a per-group Torchrun starts torchrun on the gpu
group's hosts only (gloo on CPU) while the data host runs the script plainly."""
import json
import os
import subprocess

import pytest

from sagemaker_hetero.estimator import Estimator
from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.local import _hosts, _launchers
from sagemaker_hetero.train import _driver

from ._helpers import ROLE, namespaces_work
from .test_launchers import MPI_PYTHON, TORCH_PYTHON, torch_importable

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Every host reports how it was started and what Environment says of its group.
TRAIN = """
import json, os, sys
sys.path.insert(0, %r)
from sagemaker_hetero.training.environment import Environment
env = Environment()
report = {k: os.environ.get(k) for k in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_PORT")}
report.update(group=env.current_instance_group, host=env.current_host, argv=sys.argv[1:],
              group_hosts=env.current_instance_group_hosts)
if os.environ.get("WORLD_SIZE"):  # started by torchrun
    import torch
    import torch.distributed as dist
    dist.init_process_group("gloo")
    value = torch.tensor([float(dist.get_rank() + 1)])
    dist.all_reduce(value)
    report["sum"] = value.item()
    dist.destroy_process_group()
name = "%%s-%%s.json" %% (env.current_host, os.environ.get("LOCAL_RANK", "plain"))
with open(os.path.join(env.output_data_dir, name), "w") as f:
    json.dump(report, f)
""" % _ROOT


def v3_estimator(session, tmp_path, distributed, name="v3-ddp", train=TRAIN):
    """The v2 Estimator sending what ModelTrainer sends: the driver's entry point and arguments, and the
    code and sm_drivers channels (local folders) routed to every group."""
    code = tmp_path / "code"
    code.mkdir()
    (code / "train.py").write_text(train)
    drivers = tmp_path / "sm_drivers"
    drivers.mkdir()
    for file_name, content in _driver.files({"source_dir": str(code), "entry_script": "train.py"},
                                            distributed).items():
        (drivers / file_name).write_bytes(content)
    groups = [InstanceGroup("data", "ml.c5.xlarge", 1), InstanceGroup("gpu", "ml.c5.xlarge", 2)]
    estimator = Estimator(image_uri="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5-cpu-py311",
                          role=ROLE, instance_groups=groups, container_entry_point=_driver.CONTAINER_ENTRYPOINT,
                          container_arguments=_driver.CONTAINER_ARGUMENTS, hyperparameters={"epochs": 2},
                          sagemaker_session=session, job_name=name)
    return estimator, {"code": "file://%s" % code, "sm_drivers": "file://%s" % drivers}


def reports_of(estimator):
    desc = estimator.latest_training_job.describe()
    hosts = {h["Host"]: h for h in desc["LocalRun"]["Hosts"]}
    reports = {}
    for host in hosts.values():
        folder = os.path.join(host["BaseDirectory"], "output", "data")
        for file_name in os.listdir(folder):
            with open(os.path.join(folder, file_name)) as handle:
                reports[file_name[: -len(".json")]] = json.load(handle)
    return hosts, reports


# isolation "none": /opt/ml rewritten to each host's folder in the container command; the default isolation (each
# host sees its folder at /opt/ml) is run by tests/local/test_model_trainer_local.py's per-group torchrun job
@pytest.mark.parametrize("isolation", ["none"])
def test_a_per_group_torchrun_runs_torchrun_on_the_gpu_groups_hosts_only(session_factory, tmp_path, isolation):
    if not torch_importable(TORCH_PYTHON):
        pytest.skip("torch is not importable by %s (set SAGEMAKER_HETERO_TEST_TORCH_PYTHON)" % TORCH_PYTHON)
    session = session_factory(python=TORCH_PYTHON, keep=True, isolation=isolation, grace_period=5)
    estimator, inputs = v3_estimator(session, tmp_path, {"type": "torchrun", "process_count_per_node": 2,
                                                         "instance_group_names": ["gpu"]})
    estimator.fit(inputs)
    hosts, reports = reports_of(estimator)
    gpu = sorted(h for h in hosts if hosts[h]["InstanceGroupName"] == "gpu")
    (data,) = [h for h in hosts if hosts[h]["InstanceGroupName"] == "data"]
    assert sorted(reports) == sorted([data + "-plain"] + ["%s-%d" % (h, r) for h in gpu for r in (0, 1)])
    plain = reports.pop(data + "-plain")
    assert (plain["group"], plain["RANK"], plain["WORLD_SIZE"]) == ("data", None, None)
    assert plain["argv"] == ["--epochs", "2"]
    for name, report in reports.items():
        host, local_rank = name.rsplit("-", 1)
        assert (report["group"], report["host"], report["LOCAL_RANK"]) == ("gpu", host, local_rank)
        assert report["RANK"] == str(report["group_hosts"].index(host) * 2 + int(local_rank))
        assert report["WORLD_SIZE"] == "4" and report["sum"] == 1 + 2 + 3 + 4
        assert report["MASTER_PORT"] == "7777" and report["argv"] == ["--epochs", "2"]


def test_without_groups_every_host_joins_the_rendezvous_as_in_sdk_v3(session_factory, tmp_path):
    if not torch_importable(TORCH_PYTHON):
        pytest.skip("torch is not importable by %s (set SAGEMAKER_HETERO_TEST_TORCH_PYTHON)" % TORCH_PYTHON)
    session = session_factory(python=TORCH_PYTHON, keep=True, grace_period=5)
    estimator, inputs = v3_estimator(session, tmp_path, {"type": "torchrun", "instance_group_names": None},
                                     name="v3-all")
    estimator.fit(inputs)
    hosts, reports = reports_of(estimator)
    # every host is a torchrun node (its one process has a LOCAL_RANK), the data host too
    assert sorted(reports) == ["%s-0" % h for h in sorted(hosts)]
    assert sorted(r["RANK"] for r in reports.values()) == ["0", "1", "2"]
    assert {r["WORLD_SIZE"] for r in reports.values()} == {"3"}


def test_the_entry_point_is_still_required_without_a_container_entry_point(session_factory):
    with pytest.raises(ConfigError, match="entry_point: is required for a local run"):
        Estimator(image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/x:1", role=ROLE, instance_count=1,
                  instance_type="ml.c5.xlarge", sagemaker_session=session_factory())


def test_opt_ml_in_the_container_command_is_the_hosts_folder_unless_the_host_sees_its_folder_there():
    spec = {"ContainerEntrypoint": ["/bin/bash"], "ContainerArguments": _driver.CONTAINER_ARGUMENTS}
    script = "/jobs/j/algo-2/input/data/sm_drivers/sm_train.sh"
    expected = ["/bin/bash", "-c", "chmod +x %s && %s" % (script, script)]
    assert _hosts.container_command(spec, "/jobs/j/algo-2") == expected
    assert _hosts.container_command(spec, None) == ["/bin/bash"] + _driver.CONTAINER_ARGUMENTS
    assert _hosts.container_command({"ContainerEntrypoint": ["/opt/mlx", "/opt/ml"]}, "/b") == ["/opt/mlx", "/b"]


MPI_TRAIN = """
import json, os, socket, sys
sys.path.insert(0, %r)
from sagemaker_hetero.training.environment import Environment
env = Environment()
report = {"group": env.current_instance_group, "hostname": socket.gethostname(), "argv": sys.argv[1:]}
if "OMPI_COMM_WORLD_RANK" in os.environ:  # started by mpirun
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    report.update(rank=comm.rank, size=comm.size, sum=comm.allreduce(comm.rank + 1))
    name = "rank-%%d" %% comm.rank
else:
    name = "plain-" + env.current_host
with open(os.path.join(env.output_data_dir, name + ".json"), "w") as f:
    json.dump(report, f)
""" % _ROOT


def test_a_per_group_mpi_runs_mpirun_over_the_gpu_groups_hosts_only(session_factory, tmp_path):
    if _launchers.mpirun_for(MPI_PYTHON, os.environ)[0] is None or subprocess.run(
            [MPI_PYTHON, "-c", "import mpi4py.MPI"], stderr=subprocess.DEVNULL).returncode != 0:
        pytest.skip("no mpirun and mpi4py for %s (set SAGEMAKER_HETERO_TEST_MPI_PYTHON)" % MPI_PYTHON)
    session = session_factory(python=MPI_PYTHON, keep=True, isolation="namespaces", grace_period=5)
    if not namespaces_work(session):
        pytest.skip("mpirun needs per-host namespaces locally, not available here")
    estimator, inputs = v3_estimator(session, tmp_path, {"type": "mpi", "process_count_per_node": 2,
                                                         "instance_group_names": ["gpu"]}, name="v3-mpi",
                                     train=MPI_TRAIN)
    estimator.fit(inputs)
    hosts, reports = reports_of(estimator)
    assert sorted(reports) == ["plain-algo-1", "rank-0", "rank-1", "rank-2", "rank-3"]
    assert reports.pop("plain-algo-1")["group"] == "data"
    for name, report in reports.items():
        rank = int(name[-1])
        assert (report["rank"], report["size"], report["sum"]) == (rank, 4, 1 + 2 + 3 + 4)
        assert report["hostname"] == ("algo-2" if rank < 2 else "algo-3")  # 2 ranks on each gpu host
        assert (report["group"], report["argv"]) == ("gpu", ["--epochs", "2"])
