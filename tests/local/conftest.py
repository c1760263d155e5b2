"""Fixtures for the local-session tests: entry points written on the fly, sessions under tmp_path."""
import io
import os
import textwrap

import pytest


@pytest.fixture(autouse=True)
def clean_environ(monkeypatch):
    """No SageMaker variables from the machine; a region for the request."""
    for name in list(os.environ):
        if name.startswith(("SM_", "SAGEMAKER_")) or name == "TRAINING_JOB_NAME":
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_REGION", "us-west-2")


@pytest.fixture
def write_code(tmp_path):
    """``write_code(source, name="train.py", **files)`` -> a source_dir holding the dedented script."""
    counter = [0]

    def write(source, name="train.py", **files):
        counter[0] += 1
        folder = tmp_path / ("src%d" % counter[0])
        folder.mkdir()
        (folder / name).write_text(textwrap.dedent(source))
        for file_name, text in files.items():
            (folder / file_name).write_text(textwrap.dedent(text))
        return str(folder)

    return write


@pytest.fixture
def session_factory(tmp_path):
    """``session_factory(**options)`` -> a LocalSession under tmp_path writing to a StringIO (``.out``)."""
    from sagemaker_hetero.local import LocalSession

    def make(**options):
        options.setdefault("root", str(tmp_path / "jobs"))
        options.setdefault("out", io.StringIO())
        options.setdefault("grace_period", 2)
        return LocalSession(**options)

    return make


@pytest.fixture
def pid_dir(tmp_path):
    """A folder where the SLEEPER hosts of ``_helpers`` record their pids."""
    folder = tmp_path / "pids"
    folder.mkdir()
    return str(folder)


@pytest.fixture(scope="session")
def lying_archive(tmp_path_factory):
    """A valid code archive of 65 MiB unpacked whose gzip trailer says 1,024 bytes (65 KiB packed)."""
    from tests.local._archives import gzip_with_a_small_trailer

    return gzip_with_a_small_trailer(str(tmp_path_factory.mktemp("lying") / "code.tar.gz"), 65 << 20)
