"""Shared pytest fixtures.

AWS: integration tests talk to a real moto server over HTTP on 127.0.0.1
(see tests/_aws.py); no test touches the internet (network guard installed
for the whole session in pytest_configure).

* ``moto_server`` (session): the recording :class:`tests._aws.MotoServer`.
* ``aws`` (function): resets moto state (a healthy account: the answers of
  tests/_answers.py, and the role ``SageMakerRole`` the tests name, trusting
  SageMaker) and the recorded requests, and makes the environment hermetic
  (fake credentials, us-west-2, ``AWS_ENDPOINT_URL`` = the moto server, no
  ~/.aws files, no IMDS); yields the MotoServer.
* ``workdir`` (function): a working directory holding ``train.py`` and ``src/train.py``, with
  ``AWS_REGION`` set (what a dry run needs); modules use it with ``pytest.mark.usefixtures``.
* ``fault_proxy`` (function): a :class:`tests._aws.FaultProxy` in front of
  the moto server, with ``AWS_ENDPOINT_URL`` pointing at the proxy.
* ``plain_moto`` (function): the ``aws`` server without its answers for what moto
  lacks (Service Quotas, SimulatePrincipalPolicy: ``Answers.plain``), as a team
  testing its code against moto has it.
"""

import os

import pytest

from tests._answers import create_role
from tests._aws import REGION, FaultProxy, MotoServer, network_guard


def pytest_configure(config):
    network_guard.install()


def pytest_unconfigure(config):
    network_guard.uninstall()


# Environment variables that could make boto3 pick up a developer's real
# identity, profile or endpoints.
_AWS_ENV_TO_REMOVE = (
    "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE",
    "AWS_SESSION_TOKEN",
    "AWS_SECURITY_TOKEN",
    "AWS_ROLE_ARN",
    "AWS_ROLE_SESSION_NAME",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_CONTAINER_AUTHORIZATION_TOKEN",
    "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
    "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
    "AWS_CA_BUNDLE",
    "AWS_MAX_ATTEMPTS",
    "AWS_RETRY_MODE",
)


@pytest.fixture(autouse=True)
def no_sagemaker_defaults_configuration(monkeypatch, tmp_path_factory):
    """No developer's or machine's SageMaker config.yaml reaches a test (the SDK reads them from the
    XDG folders and the two override variables), nor the preflight's quota-name file (the XDG cache
    folder); a test that wants one sets it."""
    empty = str(tmp_path_factory.mktemp("xdg"))
    monkeypatch.setenv("XDG_CONFIG_HOME", empty)
    monkeypatch.setenv("XDG_CONFIG_DIRS", empty)
    monkeypatch.setenv("SAGEMAKER_ADMIN_CONFIG_OVERRIDE", "")
    monkeypatch.setenv("SAGEMAKER_USER_CONFIG_OVERRIDE", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture(autouse=True)
def no_price_cache_or_file(monkeypatch, tmp_path_factory):
    """No developer's price cache (~/.cache/sagemaker-hetero) or price file reaches a test, and no test
    writes to theirs: every test has an empty cache folder of its own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.delenv("SAGEMAKER_HETERO_PRICES", raising=False)


@pytest.fixture(scope="session")
def moto_server():
    server = MotoServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def aws(moto_server, monkeypatch, tmp_path):
    moto_server.reset()
    create_role(moto_server.url, "SageMakerRole")
    moto_server.clear_requests()
    for name in list(os.environ):
        if name in _AWS_ENV_TO_REMOVE or name.startswith("AWS_ENDPOINT_URL_"):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_server.url)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_REGION", REGION)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-such-aws-config"))
    monkeypatch.setenv(
        "AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-such-aws-credentials")
    )
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    # boto3's module-level default session caches credentials/config; start
    # each test with a fresh one (restored afterwards by monkeypatch), built as
    # the SDK builds its own: sharing the process's botocore loader, so its
    # clients do not read and parse botocore's JSON models again.
    import boto3

    from sagemaker_hetero._aws import clients

    monkeypatch.setattr(boto3, "DEFAULT_SESSION", clients.new_boto_session())
    yield moto_server


@pytest.fixture
def fault_proxy(aws, monkeypatch):
    proxy = FaultProxy(aws).start()
    monkeypatch.setenv("AWS_ENDPOINT_URL", proxy.url)
    try:
        yield proxy
    finally:
        proxy.stop()


@pytest.fixture
def plain_moto(aws):
    aws.answers.plain()
    return aws


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    (tmp_path / "train.py").write_text("print('hello')\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text("print('hello')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AWS_REGION", "us-west-2")
    return tmp_path
