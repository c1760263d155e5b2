"""The pure stages read the world only through what the edge hands in (``_model.outside``): the package's
data, a file's first bytes, the AWS config file, the installed botocore's model. Handed other readers,
they read those: no file, variable or botocore of this machine is reached."""
import pytest

from sagemaker_hetero._aws import files
from sagemaker_hetero._checks import service, text
from sagemaker_hetero._model import images, outside
from sagemaker_hetero._request import names


@pytest.fixture
def given(monkeypatch):
    """Readers handed in for one test (the edge's are back afterwards), each call recorded."""
    monkeypatch.setattr(outside, "_given", dict(outside._given))
    calls = []

    def hand_in(**readers):
        outside.hand_in(**dict((name, _recorded(name, reader, calls)) for name, reader in readers.items()))
        return calls

    return hand_in


def _recorded(name, reader, calls):
    def call(*args):
        calls.append((name,) + args)
        return reader(*args)

    return call


@pytest.mark.parametrize("environ, config, region", [
    ({"AWS_DEFAULT_REGION": "us-east-2", "AWS_REGION": "us-west-1"}, None, "us-east-2"),
    ({"AWS_REGION": "us-west-1"}, None, "us-west-1"),
    ({}, "[default]\nregion = eu-west-1\n", "eu-west-1"),
    ({"AWS_PROFILE": "dev"}, "[profile dev]\nregion = ap-south-1 \n", "ap-south-1"),
    ({"AWS_PROFILE": "dev"}, "[default]\nregion = eu-west-1\n", None),
    ({}, "[default\nregion = eu-west-1\n", None),  # not a config file
    ({}, None, None),  # none to read
])
def test_the_region_rule_reads_the_config_handed_in(given, environ, config, region):
    calls = given(aws_config=lambda path: config)
    assert names.configured_region(environ) == region
    variables = any(environ.get(k) for k in ("AWS_DEFAULT_REGION", "AWS_REGION"))
    assert calls == ([] if variables else [("aws_config", None)])  # read only when no variable names it


def test_the_config_files_place_is_the_variables(given):
    calls = given(aws_config=lambda path: None)
    names.configured_region({"AWS_CONFIG_FILE": "/elsewhere/config"})
    assert calls == [("aws_config", "/elsewhere/config")]


def test_the_edge_reads_the_config_file(tmp_path):
    (tmp_path / "config").write_text("[default]\nregion = sa-east-1\n")
    assert files.region_from_environment({"AWS_CONFIG_FILE": str(tmp_path / "config")}) == "sa-east-1"
    assert files.aws_config(str(tmp_path / "missing")) is None


def test_the_snapshot_and_the_image_table_are_the_data_handed_in(given, monkeypatch):
    monkeypatch.setattr(service, "_cache", {})
    monkeypatch.setattr(service, "_live_enums", {})  # (what another test of this process asked is not kept)
    monkeypatch.setattr(images, "_cache", {})
    calls = given(data_text=files.data_text, live_service_model=lambda: None)
    assert service.input_shape("CreateTrainingJob") == "CreateTrainingJobRequest"
    assert images.image_facts() and service.check({"TrainingInputMode": "Nope"}, "AlgorithmSpecification")
    assert [c for c in calls if c[0] == "data_text"] == [("data_text", "service_model.json"),
                                                         ("data_text", "dlc_training_images.json")]
    assert ("live_service_model",) in calls  # an enum value the snapshot does not know: asked once


def test_a_spec_files_bytes_come_from_the_edge(given):
    calls = given(file_head=lambda path, size, regular_only: b"{}")
    assert text.read_bounded("spec.json", regular_only=True) == b"{}"
    assert calls == [("file_head", "spec.json", text.MAX_SPEC_BYTES + 1, True)]


def test_only_known_readers_are_handed_in_and_a_missing_one_is_named(monkeypatch):
    with pytest.raises(TypeError, match="hand_in\\(\\) takes data_text, file_head, aws_config, live_service_model, "
                                        "not data"):
        outside.hand_in(data=len)
    monkeypatch.setattr(outside, "_given", {})
    with pytest.raises(RuntimeError, match="no aws_config was handed in"):
        names.configured_region({})
