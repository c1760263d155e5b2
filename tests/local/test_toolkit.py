"""A simulated host is what the sagemaker-training toolkit expects: its Environment, and ours, agree.

``test_the_real_toolkit_*`` runs ``sagemaker_training.environment.Environment`` inside every host;
it needs the toolkit, which is not a dependency of this project: it runs when this interpreter can
import ``sagemaker_training``, with ``HETERO_TOOLKIT_PYTHON`` naming an interpreter that can, or
when the repository holds a ``.venv-toolkit`` virtualenv with it (CI makes one); otherwise it is
skipped. The golden-case test always runs: it rebuilds the job behind
``tests/data/runtime/hetero_mpi_cpu_host.json`` (made by the real toolkit) and checks that our
Environment, inside the simulated host, reports the recorded values.
"""
import json
import os
import sys
import tarfile

import pytest

from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero._request.describe import job_from_description as job_of
from sagemaker_hetero.local import _cluster
from sagemaker_hetero.pytorch import PyTorch

from ._helpers import ROLE, ROOT, estimator_for, namespaces_work

TOOLKIT_SCRIPT = """
import json, os
from sagemaker_training import environment
env = environment.Environment()
names = ["current_host", "current_instance_group", "current_instance_type", "hosts", "instance_groups",
         "instance_groups_dict", "current_instance_group_hosts", "is_hetero", "channel_input_dirs",
         "input_data_config", "hyperparameters", "master_hostname", "distribution_hosts", "job_name",
         "user_entry_point", "module_name", "model_dir", "output_data_dir"]
report = {"properties": {n: getattr(env, n) for n in names}, "env_vars": env.to_env_vars(),
          "environ": {k: v for k, v in os.environ.items() if k.startswith("SM_")}}
os.makedirs(env.output_data_dir, exist_ok=True)
with open(os.path.join(env.output_data_dir, env.current_host + ".json"), "w") as f:
    json.dump(report, f, default=str)
"""
MACHINE = ("SM_NUM_CPUS", "SM_NUM_GPUS", "SM_NUM_NEURONS", "SM_TRAINING_ENV")


def toolkit_python():
    given = os.environ.get("HETERO_TOOLKIT_PYTHON")
    if given:
        return given
    beside = os.path.join(ROOT, ".venv-toolkit", "bin", "python")
    if os.path.exists(beside):
        return beside
    pytest.importorskip("sagemaker_training")
    return sys.executable


def reports(session, job_name):
    path = os.path.join(session.root, job_name, "output", "output.tar.gz")
    with tarfile.open(path) as tar:
        return {m.name[: -len(".json")]: json.load(tar.extractfile(m)) for m in tar.getmembers() if m.isfile()}


def test_the_real_toolkit_on_each_simulated_host_sees_its_group_hosts_and_channels(session_factory, write_code, tmp_path):
    python = toolkit_python()
    for name in ("train", "val"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "x").write_text("1")
    session = session_factory(python=python, assignment="shuffled", seed=5)
    estimator = estimator_for(session, write_code(TOOLKIT_SCRIPT), hyperparameters={"epochs": 3}, job_name="toolkit")
    estimator.fit({
        "train": TrainingInput(str(tmp_path / "train"), instance_groups=["cpu"]),
        "val": TrainingInput(str(tmp_path / "val"), instance_groups=["gpu"]),
    })
    desc = estimator.latest_training_job.describe()
    cluster = {h["Host"]: h for h in desc["LocalRun"]["Hosts"]}
    found = reports(session, "toolkit")
    assert sorted(found) == sorted(cluster)
    for host, report in found.items():
        props, group = report["properties"], cluster[host]["InstanceGroupName"]
        base = "/opt/ml" if cluster[host]["Namespaces"] else cluster[host]["BaseDirectory"]
        assert props["current_host"] == host
        assert props["current_instance_group"] == group
        assert props["current_instance_type"] == cluster[host]["InstanceType"]
        assert props["hosts"] == ["algo-1", "algo-2", "algo-3"]
        assert props["is_hetero"] is True
        assert sorted(props["current_instance_group_hosts"]) == sorted(
            h for h in cluster if cluster[h]["InstanceGroupName"] == group
        )
        channel = "train" if group == "cpu" else "val"
        assert props["channel_input_dirs"] == {channel: os.path.join(base, "input", "data", channel)}
        assert list(props["input_data_config"]) == [channel]
        assert props["hyperparameters"] == {"epochs": 3}
        assert props["job_name"] == "toolkit"
        assert props["user_entry_point"] == "train.py"
        assert props["model_dir"] == os.path.join(base, "model")
        # every SM_* variable the host was started with is what the toolkit itself would export
        toolkit = {k: v for k, v in report["env_vars"].items() if k not in MACHINE}
        given = {k: v for k, v in report["environ"].items() if k not in MACHINE}
        assert given == toolkit


def _seed_for(request, groups):
    for seed in range(200):
        cluster = _cluster.assign_hosts(job_of(request), "shuffled", seed)
        if [hosts for _, _, hosts in cluster.groups] == groups:
            return seed
    raise AssertionError("no seed gives %r" % (groups,))


OUR_SCRIPT = """
import json, os
from sagemaker_hetero.training import Environment
env = Environment()
os.makedirs(env.output_data_dir, exist_ok=True)
with open(os.path.join(env.output_data_dir, env.current_host + ".json"), "w") as f:
    json.dump({"properties": dict(env), "env_vars": env.to_env_vars()}, f)
"""


# Stands in for Open MPI in the recorded mpi job, whose mpi group is not what is checked: it starts
# no rank, and lets each other host of the group end as mpirun's daemon there would.
STAND_IN_MPIRUN = """#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = --host ] && hosts=$2; shift; done
first=1
for h in $(echo "$hosts" | tr ',' ' '); do
  h=${h%%:*}
  if [ $first = 1 ]; then first=0; continue; fi
  echo true > "$SAGEMAKER_HETERO_MPI_DIR/$h.cmd"
  read -r code < "$SAGEMAKER_HETERO_MPI_DIR/$h.done"
done
"""


def test_our_environment_on_a_simulated_host_reports_what_the_toolkit_recorded(session_factory, write_code, tmp_path,
                                                                                monkeypatch):
    stand_in = tmp_path / "mpi-bin"
    stand_in.mkdir()
    (stand_in / "mpirun").write_text(STAND_IN_MPIRUN)
    (stand_in / "mpirun").chmod(0o755)
    monkeypatch.setenv("PATH", "%s%s%s" % (stand_in, os.pathsep, os.environ.get("PATH", "")))
    # The stand-in runs no Python, but a local mpi run asks the interpreter for mpi4py first: a stub answers.
    (tmp_path / "stub-site" / "mpi4py").mkdir(parents=True)
    (tmp_path / "stub-site" / "mpi4py" / "__init__.py").write_text("")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(tmp_path / "stub-site"),
                                                                 os.environ.get("PYTHONPATH")) if p))
    with open(os.path.join(ROOT, "tests", "data", "runtime", "hetero_mpi_cpu_host.json")) as handle:
        case = json.load(handle)
    (tmp_path / "training").mkdir()
    ig1 = InstanceGroup("instance_group_1", "ml.c5.18xlarge", 1)
    ig2 = InstanceGroup("instance_group_2", "ml.p3dn.24xlarge", 2)
    request = {"ResourceConfig": {"InstanceGroups": [
        {"InstanceGroupName": "instance_group_1", "InstanceType": "ml.c5.18xlarge", "InstanceCount": 1},
        {"InstanceGroupName": "instance_group_2", "InstanceType": "ml.p3dn.24xlarge", "InstanceCount": 2},
    ]}}
    # the recorded host algo-2 of instance_group_1; instance_group_2 is algo-3 then algo-1
    seed = _seed_for(request, [("algo-2",), ("algo-3", "algo-1")])
    session = session_factory(assignment="shuffled", seed=seed)
    if not namespaces_work(session):
        pytest.skip("the recorded job is an mpi job: locally that needs per-host namespaces")
    hyperparameters = {"epochs": 10, "flag": True, "lr": 0.001, "mode": "service", "nothing": None,
                       "cfg": {"layers": [1, 2], "act": "relu"}}
    estimator = PyTorch(
        entry_point="train.py", source_dir=write_code(OUR_SCRIPT), framework_version="1.12.1", py_version="py38",
        role=ROLE, instance_groups=[ig1, ig2], hyperparameters=hyperparameters, job_name="golden",
        distribution={"mpi": {"enabled": True, "processes_per_host": 8}, "instance_groups": [ig2]},
        sagemaker_session=session,
    )
    estimator.fit({"training": TrainingInput(str(tmp_path / "training"), instance_groups=["instance_group_1"])})
    report = reports(session, "golden")["algo-2"]
    host = {h["Host"]: h for h in estimator.latest_training_job.describe()["LocalRun"]["Hosts"]}["algo-2"]
    assert host["BaseDirectory"] == os.path.join(session.root, "golden", "algo-2")
    base = "/opt/ml" if host["Namespaces"] else host["BaseDirectory"]  # on SageMaker: /opt/ml

    def at_base(value):
        return json.loads(json.dumps(value).replace("<base>", base))

    differ = ("hyperparameters", "job_name", "module_dir")  # values of this job, not of the recorded one
    for name, expected in case["properties"].items():
        if name not in differ:
            assert report["properties"][name] == at_base(expected), name
    assert report["properties"]["hyperparameters"] == {
        k: v for k, v in case["properties"]["hyperparameters"].items() if k in hyperparameters
    }
    for name, expected in case["env_vars"].items():
        if name.startswith("SM_HP") or name in ("SM_USER_ARGS", "SM_MODULE_DIR"):
            continue
        assert report["env_vars"][name] == at_base(expected), name
