"""ModelTrainer's dry-run request against SDK v3's, recorded (tests/conformance/v3, record.py).

Each scenario is SDK v3 user code; run with its imports changed to ``sagemaker_hetero`` and
``train(..., dry_run=True)``, its request must equal the recorded CreateTrainingJob request field by
field, but for the keys of the SDK-managed ``code`` and ``sm_drivers`` channels (each SDK's own,
normalised by normalize_v3.py), the job name's timestamp, and the account a dry run does not know.
``mixed_routing`` is SDK v3's bug (issues 5225, 6089): a channel routed to no group next to routed
ones, which the service refuses; ours routes it to every group, and that is its one difference.
"""
import json
import os
import re
import sys
import warnings

import pytest

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "conformance", "v3")
sys.path.insert(0, HERE)
from normalize_v3 import normalize  # noqa: E402

SCENARIOS = sorted(name[:-5] for name in os.listdir(HERE) if name.endswith(".json"))
ACCOUNT = "123456789012"  # moto's, in the recordings
#: scenario -> (path, SDK v3's value, ours): the differences that are fixes of SDK v3's bugs
FIXED = {
    "mixed_routing": {("InputDataConfig", 1, "DataSource", "S3DataSource", "InstanceGroupNames"): ["gpu", "cpu"]},
}


def _dry_run(name, workdir):
    with open(os.path.join(HERE, name + ".py")) as handle:
        source = handle.read()
    source = re.sub(r"^(\s*)(from|import)\s+sagemaker\b", r"\1\2 sagemaker_hetero", source, flags=re.M)
    body, last = source.rstrip().rsplit("\n", 1)
    assert last.startswith("trainer.train(input_data_config=inputs")
    namespace = {"__name__": "__main__"}
    exec(compile(body, name + ".py", "exec"), namespace)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        request = namespace["trainer"].train(input_data_config=namespace["inputs"], wait=False, dry_run=True)
    text = json.dumps(dict(request)).replace("<account-id>", ACCOUNT)
    return normalize(json.loads(text))


def _at(request, path):
    for key in path[:-1]:
        request = request[key]
    return request, path[-1]


def test_every_scenario_has_its_recording():
    scripts = sorted(n[:-3] for n in os.listdir(HERE) if n.endswith(".py") and "_" in n
                     and not n.startswith(("normalize", "record")))
    assert scripts == SCENARIOS and len(SCENARIOS) >= 8


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_dry_run_request_is_sdk_v3s(name, workdir):
    with open(os.path.join(HERE, name + ".json")) as handle:
        recorded = json.load(handle)
    assert recorded["ok"] and recorded["sdk"]["sagemaker"].startswith("3.")
    expected = recorded["CreateTrainingJob"]
    for path, ours in FIXED.get(name, {}).items():
        node, key = _at(expected, path)
        assert key not in node  # SDK v3 leaves it out: the bug
        node[key] = ours
    assert _dry_run(name, workdir) == expected


def test_no_scenario_sends_a_default_instance_type_next_to_groups(workdir):
    """SDK v3's issue 5555: ResourceConfig holds InstanceGroups alone."""
    for name in SCENARIOS:
        config = _dry_run(name, workdir)["ResourceConfig"]
        if "InstanceGroups" in config:
            assert "InstanceType" not in config and "InstanceCount" not in config, name


def test_the_managed_channels_go_to_every_group(workdir):
    request = _dry_run("five_groups", workdir)
    groups = [g["InstanceGroupName"] for g in request["ResourceConfig"]["InstanceGroups"]]
    managed = dict((c["ChannelName"], c["DataSource"]["S3DataSource"]) for c in request["InputDataConfig"]
                   if c["ChannelName"] in ("code", "sm_drivers"))
    assert sorted(managed) == ["code", "sm_drivers"]
    assert all(source["InstanceGroupNames"] == groups for source in managed.values())
