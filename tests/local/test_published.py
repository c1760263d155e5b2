"""The published heterogeneous-cluster examples' training code, run unmodified on a LocalSession.

The code is kept verbatim under ``tests/local/published/`` (see its README for the source and the
commit); each test skips with the reason when the files, the interpreter's modules or the Linux
namespaces it needs are missing (the published code reads ``/opt/ml/...`` by absolute path).
"""
import os
import shutil
import struct
import subprocess
import sys

import pytest

from sagemaker_hetero.instance_group import InstanceGroup

from ._helpers import ROLE, ROOT, namespaces_work
from .test_toolkit import toolkit_python

PUBLISHED = os.path.join(ROOT, "tests", "local", "published")


def _beside(venv):
    path = os.path.join(ROOT, venv, "bin", "python")
    return path if os.path.exists(path) else None


# Read at import: the autouse fixture clears SAGEMAKER_* variables before each test.
TORCH_PYTHON = os.environ.get("SAGEMAKER_HETERO_TEST_TORCH_PYTHON") or _beside(".venv-torch") or sys.executable
GRPC_EXAMPLE_MODULES = ("torch", "torchvision", "grpc", "google.protobuf", "numpy", "sagemaker_training")


def published(*parts):
    """The published files under ``tests/local/published/<parts>``, or skip saying which are missing."""
    folder = os.path.join(PUBLISHED, *parts[:-1])
    missing = [name for name in parts[-1] if not os.path.isfile(os.path.join(folder, name))]
    if missing:
        pytest.skip("published example files missing from %s: %s (see tests/local/published/README.md)"
                    % (folder, ", ".join(missing)))
    return folder


def missing_modules(python, modules):
    """The modules of ``modules`` that ``python`` cannot import (all of them if it does not run)."""
    script = "import importlib, sys\nfor m in sys.argv[1:]:\n    try:\n        importlib.import_module(m)\n" \
             "    except Exception:\n        print(m)\n"
    try:
        result = subprocess.run([python, "-c", script] + list(modules), stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, universal_newlines=True)
    except OSError:
        return list(modules)
    return result.stdout.split() if result.returncode == 0 else list(modules)


def namespaced_session(session_factory, python):
    session = session_factory(python=python, keep=True, isolation="auto", grace_period=5)
    if not namespaces_work(session):
        pytest.skip("the published code reads /opt/ml by absolute path: it needs the hosts' own namespaces")
    return session


def test_hello_world_train_py_runs_unmodified_on_both_groups(session_factory):
    from sagemaker_hetero.tensorflow import TensorFlow

    source_dir = published("hello.world.sagemaker", "source_dir", ["train.py"])
    session = namespaced_session(session_factory, toolkit_python())
    # As the example's start_job.py sets it up, less max_wait (only valid with spot training, which it
    # has commented out) and with 2.9 for 2.9.1 (no such image; the 2.9 line's is 2.9.2).
    estimator = TensorFlow(entry_point="train.py", source_dir=source_dir, framework_version="2.9", py_version="py39",
                           instance_groups=[InstanceGroup("data_group", "ml.c5.xlarge", 1),
                                            InstanceGroup("dnn_group", "ml.m4.xlarge", 1)],
                           role=ROLE, volume_size=10, max_run=3600, disable_profiler=True, sagemaker_session=session)
    estimator.fit(job_name="hello-world-heterogenous")
    out = session.out.getvalue()
    assert estimator.latest_training_job.describe()["TrainingJobStatus"] == "Completed"
    for group, host, instance_type in (("data_group", "algo-1", "ml.c5.xlarge"), ("dnn_group", "algo-2", "ml.m4.xlarge")):
        prefix = "[%s/%s] " % (group, host)
        assert prefix + "env.is_hetero: True" in out
        assert prefix + "env.current_host: %s" % host in out
        assert prefix + "env.current_instance_group: %s" % group in out
        assert prefix + "env.current_instance_group_hosts: ['%s']" % host in out
        assert prefix + "env.instance_groups: ['data_group', 'dnn_group']" in out
        assert prefix + "current_instance_type=%s" % instance_type in out  # read from /opt/ml/input/config


def write_idx(path, dims, payload):
    """An MNIST-format (IDX) file: magic (0, 0, 8 = unsigned byte, rank), the dimensions, the bytes."""
    with open(path, "wb") as handle:
        handle.write(struct.pack(">BBBB", 0, 0, 8, len(dims)) + struct.pack(">" + "I" * len(dims), *dims) + payload)


def tiny_mnist(folder, dataset_class, count=64):
    """``count`` 28x28 images with labels 0-9 under ``<folder>/data``, where torchvision's MNIST subclass
    named ``dataset_class`` looks first (so no download): torchvision names the folder after the class."""
    raw = os.path.join(folder, "data", dataset_class, "raw")
    os.makedirs(raw)
    images = bytes((i * 7 + j) % 256 for i in range(count) for j in range(28 * 28))
    labels = bytes(i % 10 for i in range(count))
    for split in ("train", "t10k"):
        write_idx(os.path.join(raw, "%s-images-idx3-ubyte" % split), (count, 28, 28), images)
        write_idx(os.path.join(raw, "%s-labels-idx1-ubyte" % split), (count,), labels)


def test_tiny_mnist_is_where_train_data_pys_mnist_subclass_reads_it(tmp_path):
    """torchvision reads ``<root>/<class name>/raw``: the published ``MyMNIST`` does not look in ``MNIST/``."""
    missing = missing_modules(TORCH_PYTHON, ("torchvision",))
    if missing:
        pytest.skip("%s cannot import torchvision (set SAGEMAKER_HETERO_TEST_TORCH_PYTHON)" % TORCH_PYTHON)
    tiny_mnist(str(tmp_path), "MyMNIST", count=12)
    script = ("import sys\nfrom torchvision import datasets\nclass MyMNIST(datasets.MNIST):\n    pass\n"
              "for train in (True, False):\n    d = MyMNIST(root=sys.argv[1], train=train, download=False)\n"
              "    print(len(d), d[11][1], tuple(d[11][0].size))\n")
    result = subprocess.run([TORCH_PYTHON, "-c", script, str(tmp_path / "data")], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, universal_newlines=True)
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[-2:] == ["12 1 (28, 28)"] * 2


def test_pytorch_grpc_example_trains_the_dnn_group_from_the_data_groups_grpc_server(session_factory, tmp_path):
    from sagemaker_hetero.pytorch import PyTorch

    names = ["launcher.py", "train_data.py", "train_dnn.py", "dataset_feed_pb2.py", "dataset_feed_pb2_grpc.py"]
    code = published("pt.grpc.sagemaker", "code", names)
    missing = missing_modules(TORCH_PYTHON, GRPC_EXAMPLE_MODULES)
    if missing:
        pytest.skip("%s cannot import %s (set SAGEMAKER_HETERO_TEST_TORCH_PYTHON)" % (TORCH_PYTHON, ", ".join(missing)))
    session = namespaced_session(session_factory, TORCH_PYTHON)
    source_dir = str(tmp_path / "code")
    shutil.copytree(code, source_dir)
    tiny_mnist(source_dir, "MyMNIST")  # train_data.py's MyMNIST(root='./data'): ./data/MyMNIST/raw in the code folder
    training = tmp_path / "training"
    training.mkdir()
    (training / "unused").write_text("train_dnn.py requires SM_CHANNEL_TRAINING but reads nothing from it")
    estimator = PyTorch(
        framework_version="1.11.0", py_version="py38", role=ROLE, entry_point="launcher.py", source_dir=source_dir,
        # max_run: start_job.py's 4800 s, cut so that a host left waiting for data fails the test in minutes
        volume_size=10, max_run=600, disable_profiler=True, debugger_hook_config=False,
        instance_groups=[InstanceGroup("data_group", "ml.c5.9xlarge", 1), InstanceGroup("dnn_group", "ml.p3.2xlarge", 1)],
        # start_job.py's hyperparameters, shrunk to a few small batches on one CPU worker each; with two or more
        # dnn workers the published code can stall (one gRPC stream per worker, batches taken in turn: when the
        # data group is ahead, one stream takes more than its turn and the last steps wait for the other)
        hyperparameters={"batch-size": 8, "num-data-workers": 1, "grpc-workers": 1, "num-dnn-workers": 1,
                         "pin-memory": True, "iterations": 10},
        sagemaker_session=session)
    estimator.fit(inputs="file://%s" % training, job_name="pt-heterogenous")
    out = session.out.getvalue()
    assert estimator.latest_training_job.describe()["TrainingJobStatus"] == "Completed", out
    assert "[dnn_group/algo-2] 10: avg step time:" in out
    assert "[dnn_group/algo-2] Training job completed!" in out
