"""What a host's processes see of the machine: the chosen interpreter on PATH, and (Linux) the
per-host namespaces: ``/opt/ml``, ``/etc/hosts`` and the host name as on SageMaker."""
import json
import os
import subprocess
import sys

import pytest

from ._helpers import estimator_for

SHELL_PYTHON = """
import json, os, subprocess
out = subprocess.run("python -c 'import sys; print(sys.executable)'", shell=True, stdout=subprocess.PIPE,
                     universal_newlines=True, check=True).stdout.strip()
with open(os.path.join(os.environ["SM_OUTPUT_DATA_DIR"], os.environ["SM_CURRENT_HOST"]), "w") as f:
    f.write(out)
"""


def test_the_sessions_python_is_the_python_a_host_starts_by_name(session_factory, write_code, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    session = session_factory(python=python, keep=True)
    estimator = estimator_for(session, write_code(SHELL_PYTHON), groups=None, job_name="which-python")
    estimator.fit()
    base = estimator.latest_training_job.describe()["LocalRun"]["Hosts"][0]["BaseDirectory"]
    with open(os.path.join(base, "output", "data", "algo-1")) as handle:
        seen = handle.read()
    assert seen == python != sys.executable
