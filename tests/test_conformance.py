"""Every conformance scenario, end to end through a moto server, gives the SDK v2's request.

Each scenario (user code written for the SageMaker Python SDK v2) runs with its imports changed to
``sagemaker_hetero``; the CreateTrainingJob body the moto server received, normalised, must equal
the expectation recorded from the SDK v2 (with the deliberate differences D1-D5 baked in). The dry
run of the same estimator must render the very same request.
"""
import glob
import json
import os
import re
import sys

import boto3
import pytest

from tests._answers import create_role

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = sorted(
    (os.path.basename(os.path.dirname(p)), os.path.basename(p)[:-3])
    for folder in ("requests", "extra")
    for p in glob.glob(os.path.join(HERE, "conformance", folder, "*.py"))
)
BUCKETS = ("my-out", "bucket", "your-training-data-storage", "my-bucket")
ROLES = ("OrgTrainingRole",)  # besides SageMakerRole, which every test's account has

sys.path.insert(0, os.path.join(HERE, "conformance"))
from normalize import OUR_CODE_KEY, SDK_CODE_KEY, code_key_as_sdk_v2, normalize  # noqa: E402

sys.path.pop(0)

_OUR_CODE_KEY, _SDK_CODE_KEY = OUR_CODE_KEY, SDK_CODE_KEY  # D6: compared as <code> (normalize.py)
_code_key_as_sdk_v2 = code_key_as_sdk_v2


def _workdir(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text("print('hello from train.py')\n")
    (tmp_path / "src" / "util.py").write_text("X = 1\n")
    (tmp_path / "train.py").write_text("print('hello')\n")


def _path(name, ext):
    folder, base = name
    return os.path.join(HERE, "conformance", folder, base + ext)


def _source(name):
    """The scenario's code with ``sagemaker`` imports changed to ``sagemaker_hetero``."""
    src = open(_path(name, ".py")).read()
    return re.sub(r"^(\s*)(from|import)\s+sagemaker\b", r"\1\2 sagemaker_hetero", src, flags=re.M)


def _run_scenario(name):
    namespace = {"__name__": "__main__"}
    exec(compile(_source(name), _path(name, ".py"), "exec"), namespace)
    return namespace


@pytest.fixture
def scenario_env(aws, tmp_path, monkeypatch):
    s3 = boto3.client("s3")
    for bucket in BUCKETS:
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    for role in ROLES:  # fit's preflight looks the role up
        create_role(aws.url, role)
    _workdir(tmp_path)
    monkeypatch.chdir(tmp_path)
    aws.clear_requests()
    return aws


@pytest.mark.parametrize("name", SCENARIOS, ids=["/".join(s) for s in SCENARIOS])
def test_request_received_by_the_server_equals_the_sdk_v2_request(name, scenario_env):
    expected = json.load(open(_path(name, ".json")))
    _run_scenario(name)
    received = scenario_env.last_json("CreateTrainingJob")
    assert received is not None, "no CreateTrainingJob reached the server"
    assert _OUR_CODE_KEY.search(json.dumps(received)) or not _SDK_CODE_KEY.search(json.dumps(expected))
    assert _code_key_as_sdk_v2(normalize(received)) == _code_key_as_sdk_v2(expected)


@pytest.mark.parametrize("name", SCENARIOS, ids=["/".join(s) for s in SCENARIOS])
def test_dry_run_renders_exactly_the_request_sent(name, scenario_env):
    namespace = _run_scenario(name)
    received = scenario_env.last_json("CreateTrainingJob")
    count = len(scenario_env.requests)
    # The scenario's own fit(...) statement, once more, as a dry run on the same estimator (whose
    # session now knows the account, so no placeholder is left).
    lines = _source(name).splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"^(est|estimator)\.fit\(", line))
    call = "\n".join(lines[start:])
    assert "wait=False" in call
    call = re.sub(r"^(est|estimator)\.fit\(", r"_rendered = \1.fit(", call).replace("wait=False", "wait=False, dry_run=True")
    exec(compile(call, _path(name, ".py"), "exec"), namespace)
    assert len(scenario_env.requests) == count, "the dry run sent a request"
    assert json.loads(json.dumps(namespace["_rendered"])) == received
