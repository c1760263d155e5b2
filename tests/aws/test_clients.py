"""The boto3 sessions the SDK builds share botocore's loader: models are read once per process."""

from sagemaker_hetero._aws import clients
from sagemaker_hetero.session import Session


def _loader(boto_session):
    return boto_session._session.get_component("data_loader")


def test_new_sessions_share_one_loader_with_its_models_and_keep_their_own_settings(aws, monkeypatch):
    first = clients.new_boto_session(region_name="eu-west-1")
    first.client("sagemaker")
    second = clients.new_boto_session(region_name="ap-south-1")
    assert _loader(second) is _loader(first)
    assert second._session is not first._session  # credentials, config and region stay per session
    assert (first.region_name, second.region_name) == ("eu-west-1", "ap-south-1")
    assert second.client("sagemaker").meta.region_name == "ap-south-1"
    # boto3 adds its data folder to the loader for every session: the list does not grow
    paths = list(_loader(first).search_paths)
    for _ in range(3):
        clients.new_boto_session()
    assert _loader(first).search_paths == paths and len(set(paths)) == len(paths)
    # the SDK's own sessions use it
    assert _loader(Session().boto_session) is _loader(first)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "other")
    assert clients.new_boto_session().get_credentials().access_key == "other"


def test_another_data_path_gets_its_own_loader(aws, monkeypatch, tmp_path):
    default = clients.new_boto_session()
    monkeypatch.setenv("AWS_DATA_PATH", str(tmp_path))
    custom = clients.new_boto_session()
    assert _loader(custom) is not _loader(default)
    assert str(tmp_path) in _loader(custom).search_paths
    assert _loader(clients.new_boto_session()) is _loader(custom)


def test_a_profile_is_read_per_session(aws, monkeypatch, tmp_path):
    config = tmp_path / "config"
    config.write_text("[profile other]\nregion = eu-central-1\n")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(config))
    monkeypatch.delenv("AWS_DEFAULT_REGION")
    monkeypatch.delenv("AWS_REGION")
    assert clients.new_boto_session(profile_name="other").region_name == "eu-central-1"
    assert clients.new_boto_session().region_name is None
