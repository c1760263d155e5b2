"""A ModelTrainer job run by the local heterogeneous cluster (a LocalSession, or Mode.LOCAL_CONTAINER):
the code channel is the source folder itself, the driver's folder is written under
``local_container_root``, every host runs the driver, and a per-group Torchrun starts torchrun on the
gpu group's hosts only (gloo on CPU torch) while the other group's host runs the script plainly."""
import json
import os

import pytest

from sagemaker_hetero.core.training.configs import Compute, InputData, InstanceGroup, SourceCode
from sagemaker_hetero.train import ModelTrainer
from sagemaker_hetero.train.distributed import Torchrun

from ._helpers import ROLE
from .test_launchers import TORCH_PYTHON, torch_importable
from .test_v3_driver import TRAIN, reports_of

IMAGE = "763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5-cpu-py311"


def _trainer(session, tmp_path, distributed=None, name="mt-local"):
    code = tmp_path / "code"
    code.mkdir()
    (code / "train.py").write_text(TRAIN)
    data = tmp_path / "data"
    data.mkdir()
    (data / "part-0").write_text("x")
    return ModelTrainer(
        training_image=IMAGE, role=ROLE, base_job_name=name, sagemaker_session=session,
        source_code=SourceCode(source_dir=str(code), entry_script="train.py"), distributed=distributed,
        compute=Compute(instance_groups=[InstanceGroup(instance_group_name="data", instance_type="ml.c5.xlarge",
                                                       instance_count=1),
                                         InstanceGroup(instance_group_name="gpu", instance_type="ml.c5.xlarge",
                                                       instance_count=2)]),
        hyperparameters={"epochs": 2}, local_container_root=str(tmp_path / "root"),
    ), [InputData(channel_name="train", data_source=str(data))]


def test_a_model_trainer_job_runs_on_the_local_cluster(session_factory, tmp_path):
    session = session_factory(keep=True)
    trainer, inputs = _trainer(session, tmp_path)
    request = trainer.train(inputs, dry_run=True)
    uris = dict((c["ChannelName"], c["DataSource"]["FileDataSource"]["FileUri"]) if "FileDataSource" in
                c["DataSource"] else (c["ChannelName"], c["DataSource"]["S3DataSource"]["S3Uri"])
                for c in request["InputDataConfig"])
    assert uris["code"] == "file://%s" % (tmp_path / "code") and uris["train"] == "file://%s" % (tmp_path / "data")
    assert uris["sm_drivers"].startswith("file://%s/" % (tmp_path / "root"))
    assert trainer.train(inputs) is None
    hosts, reports = reports_of(trainer)
    assert sorted(reports) == ["%s-plain" % h for h in sorted(hosts)]  # no launcher: the script on every host
    assert sorted(r["group"] for r in reports.values()) == ["data", "gpu", "gpu"]
    assert all(r["argv"] == ["--epochs", "2"] for r in reports.values())
    assert os.path.isfile(uris["sm_drivers"][len("file://"):] + "/sm_train.sh")


def test_a_per_group_torchrun_runs_on_the_gpu_groups_hosts_only(session_factory, tmp_path):
    if not torch_importable(TORCH_PYTHON):
        pytest.skip("torch is not importable by %s (set SAGEMAKER_HETERO_TEST_TORCH_PYTHON)" % TORCH_PYTHON)
    session = session_factory(python=TORCH_PYTHON, keep=True, grace_period=5)
    trainer, inputs = _trainer(session, tmp_path, Torchrun(process_count_per_node=2, instance_group_names=["gpu"]),
                               name="mt-ddp")
    trainer.train(inputs)
    hosts, reports = reports_of(trainer)
    gpu = sorted(h for h in hosts if hosts[h]["InstanceGroupName"] == "gpu")
    (data,) = [h for h in hosts if hosts[h]["InstanceGroupName"] == "data"]
    assert sorted(reports) == sorted([data + "-plain"] + ["%s-%d" % (h, r) for h in gpu for r in (0, 1)])
    assert reports.pop(data + "-plain")["WORLD_SIZE"] is None
    assert {r["WORLD_SIZE"] for r in reports.values()} == {"4"} and {r["sum"] for r in reports.values()} == {10.0}
    assert json.loads(json.dumps(sorted(r["group"] for r in reports.values()))) == ["gpu"] * 4
