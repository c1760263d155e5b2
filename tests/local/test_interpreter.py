"""A local run asks the hosts' interpreter for what its launcher runs (torch for torchrun, mpi4py under
mpirun) before any host starts: a missing module is a ConfigError saying how to point python= at an
environment that has it, asked once per interpreter and module in a session."""
import os
import sys

import pytest

from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.instance_group import InstanceGroup

from ._helpers import ROLE

SCRIPT = "import torch\n"


def _bare_python(folder, log):
    """An interpreter that cannot import torch or mpi4py: this one without site-packages (``-I -S``),
    each start of it appended to ``log``."""
    folder.mkdir()
    path = folder / "python"
    path.write_text('#!/bin/sh\necho "$*" >> "%s"\nexec "%s" -I -S "$@"\n' % (log, sys.executable))
    path.chmod(0o755)
    return str(path)


def _pytorch(session, source_dir, distribution, job_name):
    from sagemaker_hetero.pytorch import PyTorch

    helper, gpu = InstanceGroup("helper", "ml.c5.xlarge", 1), InstanceGroup("gpu", "ml.p4d.24xlarge", 2)
    return PyTorch(entry_point="train.py", source_dir=source_dir, framework_version="2.1", py_version="py310",
                   role=ROLE, instance_groups=[helper, gpu], job_name=job_name, sagemaker_session=session,
                   distribution=dict(distribution, instance_groups=[gpu]))


def _starts(log):
    return open(log).read().splitlines() if os.path.exists(log) else []


@pytest.mark.parametrize("distribution", [
    {"torch_distributed": {"enabled": True}},
    {"torch_distributed": {"enabled": True}, "pytorchddp": {"enabled": True}},
], ids=["torch_distributed", "pytorchddp"])
def test_torchrun_without_torch_is_refused_before_any_host_starts(session_factory, write_code, tmp_path,
                                                                  distribution):
    log = str(tmp_path / "starts.log")
    python = _bare_python(tmp_path / "bare", log)
    session = session_factory(python=python)
    estimator = _pytorch(session, write_code(SCRIPT), distribution, "no-torch")  # made: the run is what needs torch
    assert estimator.fit(dry_run=True)["TrainingJobName"] == "no-torch"  # a dry run starts no host
    assert _starts(log) == []
    with pytest.raises(ConfigError) as caught:
        estimator.fit(wait=False)
    text = str(caught.value)
    assert text.startswith("1 problem with the training job:"), text
    assert "distribution.torch_distributed: torch_distributed runs torchrun" in text
    assert "their interpreter %s cannot import 'torch'" % python in text
    assert "point LocalSession(python=...) at the interpreter of an environment that has it" in text
    assert "'%s -m pip install torch'" % python in text
    assert not os.path.exists(os.path.join(session.root, "no-torch"))  # no host started, no folder made
    assert len(_starts(log)) == 1  # the probe only
    with pytest.raises(ConfigError):  # asked once per session: the answer is kept
        _pytorch(session, write_code(SCRIPT), distribution, "no-torch").fit(wait=False)
    assert len(_starts(log)) == 1


def test_mpi_without_mpi4py_is_refused_before_any_host_starts(session_factory, write_code, tmp_path, monkeypatch):
    log = str(tmp_path / "starts.log")
    python = _bare_python(tmp_path / "bare", log)
    mpirun = tmp_path / "bare" / "mpirun"  # found first: beside the interpreter
    mpirun.write_text("#!/bin/sh\nexit 1\n")
    mpirun.chmod(0o755)
    session = session_factory(python=python)
    with pytest.raises(ConfigError) as caught:
        _pytorch(session, write_code(SCRIPT), {"mpi": {"enabled": True}}, "no-mpi4py").fit(wait=False)
    text = str(caught.value)
    assert text.startswith("1 problem with the training job:"), text
    assert "distribution.mpi: mpi runs the entry point as 'python -m mpi4py' under mpirun" in text
    assert "cannot import 'mpi4py'" in text and "LocalSession(python=...)" in text
    assert not os.path.exists(os.path.join(session.root, "no-mpi4py"))


def test_an_entry_point_run_as_a_module_needs_no_mpi4py(write_code):
    """With a setup.py the hosts run ``python -m <module>`` under mpirun (no mpi4py wrapper)."""
    from sagemaker_hetero.local import _interpreter

    from sagemaker_hetero._model.job import Code

    packaged = write_code(SCRIPT, **{"setup.py": "from setuptools import setup\nsetup()\n"})
    plain = write_code(SCRIPT)
    assert _interpreter._runs_python_file(Code(entry_point="train.py", source_dir=plain)) is True
    assert _interpreter._runs_python_file(Code(entry_point="train.py", source_dir=packaged)) is False
    assert _interpreter._runs_python_file(Code(entry_point="run.sh", source_dir=plain)) is False


def test_an_interpreter_with_the_module_passes_and_is_asked_once(tmp_path):
    from sagemaker_hetero.local import _interpreter

    log = str(tmp_path / "starts.log")
    folder = tmp_path / "py"
    folder.mkdir()
    python = folder / "python"
    python.write_text('#!/bin/sh\necho "$*" >> "%s"\nexec "%s" "$@"\n' % (log, sys.executable))
    python.chmod(0o755)
    modules = _interpreter.Modules()
    assert modules.missing(str(python), ["json", "no_such_module_here"]) == ["no_such_module_here"]
    assert modules.missing(str(python), ["json", "no_such_module_here"]) == ["no_such_module_here"]
    assert modules.missing(str(python), ["json"]) == []
    assert len(_starts(log)) == 1
    # an interpreter that cannot be asked is no answer (the run goes on), and is not asked again
    broken = folder / "broken"
    broken.write_text('#!/bin/sh\necho "$*" >> "%s"\nexit 3\n' % log)
    broken.chmod(0o755)
    assert modules.missing(str(broken), ["torch"]) == [] and modules.missing(str(broken), ["torch"]) == []
    assert len(_starts(log)) == 2


def test_the_sessions_own_problems_are_the_sessions(tmp_path):
    from sagemaker_hetero.local import LocalSession

    with pytest.raises(ConfigError) as caught:
        LocalSession(python=str(tmp_path / "no-python"), root=str(tmp_path / "jobs"))
    assert str(caught.value).startswith("1 problem with the local session:\n  - python: must be an executable")
