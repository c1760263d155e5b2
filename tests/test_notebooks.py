"""The published heterogeneous-cluster "hello world" notebook, its code cells with only the import
changed as docs/migrating.md says, run against the moto server as a notebook runs them:
assumed execution-role credentials, ``get_execution_role()``, ``fit()`` waiting to the end.

As published (TensorFlow 2.9.1) the SDK v2 refuses it (its image table, like ours, now has 2.9.2
for the 2.9 line); we refuse it too, before anything is uploaded, and say which version to use. With
that version it runs to the end and sends the SDK v2's request (recorded in
``conformance/notebooks``).
"""
import json
import os
import re
import sys

import pytest

from sagemaker_hetero import _apps
from sagemaker_hetero.exceptions import ConfigError

HERE = os.path.dirname(os.path.abspath(__file__))
NOTEBOOKS = os.path.join(HERE, "conformance", "notebooks")

sys.path.insert(0, os.path.join(HERE, "conformance"))
from normalize import normalize  # noqa: E402

sys.path.pop(0)


def cells(name, **replace):
    """The notebook's code (``conformance/notebooks/NAME.py``) with its imports changed as
    docs/migrating.md says (``import sagemaker`` -> ``import sagemaker_hetero as sagemaker``,
    ``from sagemaker... import`` -> ``from sagemaker_hetero... import``), and the given literal
    replacements."""
    with open(os.path.join(NOTEBOOKS, name + ".py")) as handle:
        source = handle.read()
    for old, new in replace.items():
        assert old in source
        source = source.replace(old, new)
    source = re.sub(r"^(\s*)import\s+sagemaker\s*$", r"\1import sagemaker_hetero as sagemaker", source, flags=re.M)
    return re.sub(r"^(\s*)from\s+sagemaker\b", r"\1from sagemaker_hetero", source, flags=re.M)


def run(name, source):
    namespace = {"__name__": "__main__"}
    exec(compile(source, os.path.join(NOTEBOOKS, name + ".py"), "exec"), namespace)
    return namespace


def recorded(name):
    with open(os.path.join(NOTEBOOKS, name + ".json")) as handle:
        return json.load(handle)


@pytest.fixture
def notebook(aws, tmp_path, monkeypatch):
    """A working folder, no notebook metadata (the role comes from STS), credentials restored after."""
    work = tmp_path / "notebook"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setattr(_apps, "STUDIO_METADATA_FILE", str(tmp_path / "no-metadata.json"))
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, os.environ.get(name, "testing"))  # the cells' setup changes them
    import boto3

    monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)
    return aws


def test_hello_world_as_published_is_refused_before_anything_is_uploaded(notebook):
    sdk_v2 = recorded("hello_world.as_published")
    assert sdk_v2["error_type"] == "ValueError" and "PutObject" in sdk_v2["calls"]  # the SDK v2 uploads first
    with pytest.raises(ConfigError) as info:
        run("hello_world", cells("hello_world"))
    assert isinstance(info.value, ValueError)  # what the SDK v2 raises; code catching it still does
    [problem] = info.value.problems
    assert problem.path == "framework_version" and problem.value == "2.9.1"
    assert "framework_version='2.9.2'" in str(info.value)
    assert not {"PutObject", "CreateBucket", "CreateTrainingJob"} & set(notebook.operations())


def test_hello_world_runs_to_the_end_and_sends_the_sdk_v2_request(notebook, capsys):
    namespace = run("hello_world", cells("hello_world", **{"'2.9.1'": "'2.9.2'"}))
    received = notebook.last_json("CreateTrainingJob")
    assert received is not None
    got = json.loads(re.sub(r"-\d{8}T\d{6}Z", "-{utcnow}", json.dumps(normalize(received), sort_keys=True)))
    assert got == recorded("hello_world")
    # the role came from STS and IAM (its path), as in a notebook
    assert received["RoleArn"] == "arn:aws:iam::123456789012:role/service-role/HelloWorldNotebookRole"
    # fit() waited to the end and said where the model is (moto reports no training or billable
    # seconds, so neither SDK prints them)
    out = capsys.readouterr().out
    assert "%s: Completed" % received["TrainingJobName"] in out
    assert out.rstrip().endswith("Model artifacts: s3://sagemaker-us-west-2-123456789012/%s/output/model.tar.gz"
                                 % received["TrainingJobName"])
    job = namespace["estimator"].latest_training_job
    assert job.name == received["TrainingJobName"]
    assert job.describe()["TrainingJobStatus"] == "Completed"
