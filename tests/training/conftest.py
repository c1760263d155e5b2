"""Fixtures for the in-job runtime tests: fake base directories and a clean environment."""
import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:  # the package is not installed in the test virtualenv
    sys.path.insert(0, ROOT)

RUNTIME_DATA = os.path.join(ROOT, "tests", "data", "runtime")

# Variables the Environment reads; none may leak in from the machine running the tests.
READ_VARIABLES = (
    "SAGEMAKER_BASE_DIR",
    "SAGEMAKER_PROGRAM",
    "SAGEMAKER_TRAINING_MODULE",
    "SM_HP_MP_PARAMETERS",
    "TRAINING_JOB_NAME",
)


@pytest.fixture(autouse=True)
def clean_environ(monkeypatch):
    for name in READ_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def write_config(base, files):
    """Write ``{file name: object, or str written verbatim}`` under ``<base>/input/config``."""
    config_dir = os.path.join(str(base), "input", "config")
    if not os.path.isdir(config_dir):
        os.makedirs(config_dir)
    for name, content in files.items():
        with open(os.path.join(config_dir, name), "w") as handle:
            handle.write(content if isinstance(content, str) else json.dumps(content))
    return str(base)


def load_case(name):
    with open(os.path.join(RUNTIME_DATA, name + ".json")) as handle:
        return json.load(handle)


@pytest.fixture
def make_base(tmp_path):
    """``make_base(files)`` -> a fresh base directory holding those config files."""
    counter = [0]

    def make(files):
        counter[0] += 1
        return write_config(tmp_path / ("base%d" % counter[0]), files)

    return make


@pytest.fixture
def case_base(make_base):
    """``case_base(name)`` -> (base directory with a golden case's files, the case)."""

    def make(name):
        case = load_case(name)
        return make_base(case["files"]), case

    return make


@pytest.fixture
def root_dir():
    return ROOT


@pytest.fixture
def subprocess_env(root_dir):
    """os.environ for a child Python that imports this checkout of sagemaker_hetero."""
    env = dict(os.environ)
    for name in READ_VARIABLES:
        env.pop(name, None)
    env["PYTHONPATH"] = os.pathsep.join([root_dir] + [p for p in [env.get("PYTHONPATH")] if p])
    return env
