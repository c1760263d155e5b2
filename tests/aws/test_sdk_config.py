"""The SageMaker defaults configuration (config.yaml), read and applied as the SDK v2 does.

The SDK v2's behaviour for a whole job is recorded in tests/conformance/extra/config_defaults; these
tests pin the rules one by one: where the files are, which wins, what is applied, what is refused.
"""
import os
import re

import pytest

from sagemaker_hetero._aws import sdk_config
from sagemaker_hetero._checks.text import MAX_SPEC_BYTES
from sagemaker_hetero.estimator import Estimator
from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.pytorch import PyTorch

pytestmark = pytest.mark.usefixtures("workdir")  # tests/conftest.py
ROLE = "arn:aws:iam::123456789012:role/Mine"
ORG_ROLE = "arn:aws:iam::123456789012:role/OrgRole"
IMAGE = "123456789012.dkr.ecr.us-west-2.amazonaws.com/my-image:latest"


def write_config(folder, text, name="config.yaml"):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("SchemaVersion: '1.0'\nSageMaker:\n" + text)
    return str(folder)


@pytest.fixture
def admin(tmp_path, monkeypatch):
    def set_admin(text):
        monkeypatch.setenv(sdk_config.ADMIN_OVERRIDE, write_config(tmp_path / "admin", text))
    return set_admin


@pytest.fixture
def user(tmp_path, monkeypatch):
    def set_user(text):
        monkeypatch.setenv(sdk_config.USER_OVERRIDE, write_config(tmp_path / "user", text))
    return set_user


def generic(**overrides):
    kwargs = dict(image_uri=IMAGE, instance_type="ml.m5.xlarge", instance_count=1)
    kwargs.update(overrides)
    return Estimator(**kwargs)


def test_a_role_from_the_configuration_and_an_explicit_one_wins(admin):
    admin("  TrainingJob:\n    RoleArn: %s\n" % ORG_ROLE)
    assert generic().role == ORG_ROLE
    assert generic(role=ROLE).role == ROLE
    assert generic().fit(dry_run=True)["RoleArn"] == ORG_ROLE


def test_the_users_file_wins_over_the_admins_key_by_key(admin, user):
    admin("  TrainingJob:\n    RoleArn: %s\n    EnableNetworkIsolation: true\n" % ORG_ROLE)
    user("  TrainingJob:\n    RoleArn: %s\n" % ROLE)
    est = generic()
    assert (est.role, est.enable_network_isolation()) == (ROLE, True)


def test_an_explicit_false_wins_over_a_configured_true(admin):
    admin("  TrainingJob:\n    RoleArn: %s\n    EnableNetworkIsolation: true\n"
          "    EnableInterContainerTrafficEncryption: true\n" % ORG_ROLE)
    request = generic(enable_network_isolation=False, encrypt_inter_container_traffic=False).fit(dry_run=True)
    assert "EnableNetworkIsolation" not in request and "EnableInterContainerTrafficEncryption" not in request
    request = generic().fit(dry_run=True)
    assert request["EnableNetworkIsolation"] is True and request["EnableInterContainerTrafficEncryption"] is True


def test_tags_are_appended_unless_a_tag_of_that_key_is_given(admin):
    admin("  TrainingJob:\n    RoleArn: %s\n    Tags:\n      - {Key: team, Value: org}\n"
          "      - {Key: cost, Value: '42'}\n" % ORG_ROLE)
    request = generic(tags={"team": "ml"}).fit(dry_run=True)
    assert request["Tags"] == [{"Key": "team", "Value": "ml"}, {"Key": "cost", "Value": "42"}]
    assert generic().tags is None  # the estimator keeps what was given; the request gets the merge


def test_vpc_kms_and_environment_come_from_the_configuration(admin):
    admin("  TrainingJob:\n    RoleArn: %s\n    VpcConfig: {Subnets: [subnet-1], SecurityGroupIds: [sg-1]}\n"
          "    OutputDataConfig: {KmsKeyId: out-key}\n    ResourceConfig: {VolumeKmsKeyId: vol-key}\n"
          "    Environment: {A: b}\n" % ORG_ROLE)
    request = generic(subnets=["subnet-mine"]).fit(dry_run=True)
    assert request["VpcConfig"] == {"Subnets": ["subnet-mine"], "SecurityGroupIds": ["sg-1"]}
    assert request["OutputDataConfig"]["KmsKeyId"] == "out-key"
    assert request["ResourceConfig"]["VolumeKmsKeyId"] == "vol-key"
    assert request["Environment"] == {"A": "b"}
    assert generic(environment={"X": "y"}).fit(dry_run=True)["Environment"] == {"X": "y"}  # not merged


@pytest.mark.parametrize("itype", ["ml.g5.xlarge", "ml.p4d.24xlarge", "ml.r5d.large", "ml.trn1.32xlarge"])
def test_no_configured_volume_key_for_instances_without_an_ebs_volume(admin, itype):
    admin("  TrainingJob:\n    RoleArn: %s\n    ResourceConfig: {VolumeKmsKeyId: vol-key}\n" % ORG_ROLE)
    request = generic(instance_type=itype).fit(dry_run=True)
    assert "VolumeKmsKeyId" not in request["ResourceConfig"]
    groups = [InstanceGroup("a", itype, 1), InstanceGroup("b", "ml.c5.xlarge", 1)]
    est = PyTorch(entry_point="train.py", framework_version="2.0.1", py_version="py310", instance_groups=groups)
    assert est.volume_kms_key == "vol-key"  # one group takes it: the SDK v2 applies it


def test_a_session_reads_its_default_bucket_and_prefix_from_the_configuration(aws, admin):
    from sagemaker_hetero.session import Session

    admin("  PythonSDK:\n    Modules:\n      Session:\n        DefaultS3Bucket: org-bucket\n"
          "        DefaultS3ObjectKeyPrefix: team/a\n  TrainingJob:\n    RoleArn: %s\n" % ORG_ROLE)
    session = Session()
    assert session.default_bucket_prefix == "team/a"
    request = PyTorch(entry_point="train.py", framework_version="2.0.1", py_version="py310",
                      instance_type="ml.c5.xlarge", instance_count=1, sagemaker_session=session).fit(
        dry_run=True, job_name="prefixed")
    assert request["OutputDataConfig"]["S3OutputPath"] == "s3://org-bucket/team/a/"
    assert re.match(r'^"s3://org-bucket/team/a/code/[0-9a-f]{64}/sourcedir\.tar\.gz"$',
                    request["HyperParameters"]["sagemaker_submit_directory"])
    assert Session(sagemaker_config={}).default_bucket_prefix is None  # a given configuration is the one


def test_a_location_named_by_a_variable_must_exist_and_hold_a_mapping(tmp_path, monkeypatch):
    monkeypatch.setenv(sdk_config.USER_OVERRIDE, str(tmp_path / "missing.yaml"))
    with pytest.raises(ConfigError, match="SAGEMAKER_USER_CONFIG_OVERRIDE: the SageMaker defaults configuration"):
        generic(role=ROLE)
    (tmp_path / "list.yaml").write_text("- 1\n")
    monkeypatch.setenv(sdk_config.USER_OVERRIDE, str(tmp_path / "list.yaml"))
    with pytest.raises(ConfigError, match="must be a mapping"):
        generic(role=ROLE)
    (tmp_path / "bad.yaml").write_text("a: [\n")
    monkeypatch.setenv(sdk_config.USER_OVERRIDE, str(tmp_path / "bad.yaml"))
    with pytest.raises(ConfigError, match="is not valid YAML"):
        generic(role=ROLE)


def test_default_locations_follow_the_platform_folders():
    env = {"XDG_CONFIG_HOME": "/home/u/.cfg", "XDG_CONFIG_DIRS": "/etc/site:/etc/other"}
    assert sdk_config.default_paths(env, "linux") == ("/etc/site/sagemaker/config.yaml",
                                                       "/home/u/.cfg/sagemaker/config.yaml")
    admin, user = sdk_config.default_paths({}, "darwin")
    assert admin == "/Library/Application Support/sagemaker/config.yaml"
    assert user.endswith("Library/Application Support/sagemaker/config.yaml")


def test_a_default_location_that_does_not_exist_is_no_configuration(tmp_path):
    assert sdk_config.load({"XDG_CONFIG_HOME": str(tmp_path), "XDG_CONFIG_DIRS": str(tmp_path)}) == {}


def test_an_s3_location_is_read_through_the_reader_given():
    read = {"s3://org/cfg/": b"SchemaVersion: '1.0'\nSageMaker:\n  TrainingJob:\n    RoleArn: x\n"}
    config = sdk_config.load({sdk_config.ADMIN_OVERRIDE: "s3://org/cfg/", "XDG_CONFIG_HOME": "/nonexistent"},
                              read_s3=read.__getitem__)
    assert sdk_config.value(config, ("SageMaker", "TrainingJob", "RoleArn")) == "x"


def test_a_yaml_alias_bomb_in_the_configuration_is_refused_before_it_is_expanded(tmp_path, monkeypatch):
    # Nine levels of nine aliases: 9**9 strings once expanded, a few hundred bytes written.
    lines = ["SchemaVersion: '1.0'", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += ["a%d: &a%d [%s]" % (i, i, ", ".join(["*a%d" % (i - 1)] * 9)) for i in range(1, 9)]
    lines.append("SageMaker: {PythonSDK: {Modules: {Bomb: *a8}}}")
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n")
    monkeypatch.setenv(sdk_config.USER_OVERRIDE, str(tmp_path / "bomb.yaml"))
    with pytest.raises(ConfigError) as info:
        generic(role=ROLE)
    paths = [problem.path for problem in info.value.problems]
    assert paths and all(path.startswith("SAGEMAKER_USER_CONFIG_OVERRIDE") for path in paths)
    assert "once its YAML aliases are expanded; a configuration file may hold at most" in str(info.value)


def _refusal(tmp_path, monkeypatch, content, name="config.yaml"):
    """The ConfigError an estimator raises with ``content`` (bytes) as the user's configuration."""
    path = tmp_path / name
    path.write_bytes(content)
    monkeypatch.setenv(sdk_config.USER_OVERRIDE, str(path))
    with pytest.raises(ConfigError) as info:
        generic(role=ROLE)
    return info.value, str(path)


def test_a_configuration_that_is_not_utf8_is_refused_naming_the_file(tmp_path, monkeypatch):
    error, path = _refusal(tmp_path, monkeypatch, b"SchemaVersion: '1.0'\nSageMaker:\n  TrainingJob:\n    RoleArn: caf\xe9\n")
    [problem] = error.problems
    assert (problem.path, problem.value) == (sdk_config.USER_OVERRIDE, path)
    assert problem.message.startswith("is not UTF-8 text")


def test_a_configuration_over_the_size_limit_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    # A valid file (the rest is one YAML comment) one byte over the limit: refused by its size alone.
    head = b"SchemaVersion: '1.0'\n#"
    error, path = _refusal(tmp_path, monkeypatch, head + b"x" * (MAX_SPEC_BYTES + 1 - len(head)))
    [problem] = error.problems
    assert (problem.path, problem.value) == (sdk_config.USER_OVERRIDE, path)
    assert problem.message == "is larger than 1,048,576 bytes, the most a configuration file may be"


def test_a_configuration_that_is_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path, monkeypatch):
    # Opened without blocking and refused as not a regular file: reading it would wait forever.
    path = tmp_path / "config.yaml"
    os.mkfifo(str(path))
    monkeypatch.setenv(sdk_config.USER_OVERRIDE, str(path))
    with pytest.raises(ConfigError) as info:
        generic(role=ROLE)
    [problem] = info.value.problems
    assert problem.path == sdk_config.USER_OVERRIDE and "not a regular file" in problem.message


@pytest.mark.parametrize("text, key, value", [
    ("  TrainingJob:\n    Tags: {team: ml}\n", "TrainingJob.Tags", {"team": "ml"}),
    ("  TrainingJob:\n    Tags: team=ml\n", "TrainingJob.Tags", "team=ml"),
    ("  TrainingJob:\n    Tags: [team]\n", "TrainingJob.Tags", ["team"]),
    ("  TrainingJob:\n    Tags: [{Key: team}]\n", "TrainingJob.Tags", [{"Key": "team"}]),
    ("  TrainingJob:\n    RoleArn: [a]\n", "TrainingJob.RoleArn", ["a"]),
    ("  TrainingJob:\n    EnableNetworkIsolation: 'yes'\n", "TrainingJob.EnableNetworkIsolation", "yes"),
    ("  TrainingJob:\n    Environment: {N: 1}\n", "TrainingJob.Environment", {"N": 1}),
    ("  TrainingJob:\n    VpcConfig: {Subnets: subnet-1}\n", "TrainingJob.VpcConfig.Subnets", "subnet-1"),
    ("  TrainingJob:\n    VpcConfig: [subnet-1]\n", "TrainingJob.VpcConfig", ["subnet-1"]),
    ("  TrainingJob: [RoleArn]\n", "TrainingJob", ["RoleArn"]),
    ("  PythonSDK: {Modules: {Estimator: {DebugHookConfig: {}}}}\n", "PythonSDK.Modules.Estimator.DebugHookConfig", {}),
    ("  PythonSDK: {Modules: {Session: {DefaultS3Bucket: 7}}}\n", "PythonSDK.Modules.Session.DefaultS3Bucket", 7),
])
def test_a_value_of_the_wrong_type_is_refused_naming_the_file_and_key(tmp_path, monkeypatch, text, key, value):
    # The SDK v2 refuses each of these files (its schema); ignoring the value would go unnoticed.
    error, path = _refusal(tmp_path, monkeypatch, ("SchemaVersion: '1.0'\nSageMaker:\n" + text).encode())
    [problem] = error.problems
    assert (problem.path, problem.value) == ("%s SageMaker.%s" % (sdk_config.USER_OVERRIDE, key), value)
    assert problem.message.endswith("as the SDK v2's schema has it (in %s)" % path)


def test_every_value_read_from_the_configuration_has_a_type_checked():
    read = [path for _, path in sdk_config.TRAINING_JOB_DEFAULTS]
    read += [sdk_config.TAGS, sdk_config.DEBUG_HOOK, sdk_config.DEFAULT_BUCKET, sdk_config.DEFAULT_BUCKET_PREFIX]
    assert sorted(read) == sorted(path for path, _ in sdk_config.KINDS)


def test_a_given_configuration_is_checked_the_same_way(aws):
    from sagemaker_hetero.session import Session

    with pytest.raises(ConfigError) as info:
        Session(sagemaker_config={"SchemaVersion": "1.0", "SageMaker": {"TrainingJob": {"Tags": {"team": "ml"}}}})
    assert [p.path for p in info.value.problems] == ["sagemaker_config SageMaker.TrainingJob.Tags"]


def test_an_s3_configuration_over_the_size_limit_is_refused_by_its_size():
    big = b"SchemaVersion: '1.0'\n#" + b"x" * MAX_SPEC_BYTES
    env = {sdk_config.ADMIN_OVERRIDE: "s3://org/cfg.yaml", "XDG_CONFIG_HOME": "/nonexistent"}
    with pytest.raises(ConfigError) as info:
        sdk_config.load(env, read_s3={"s3://org/cfg.yaml": big}.__getitem__)
    [problem] = info.value.problems
    assert (problem.path, problem.value) == (sdk_config.ADMIN_OVERRIDE, "s3://org/cfg.yaml")
    assert problem.message.startswith("is larger than 1,048,576 bytes")


def test_the_configured_paths_are_the_argument_tables_alone():
    # KINDS' training-job paths are the argument table's config column, in its order: a path written
    # again in sdk_config (or a configured argument without a type) fails here.
    from sagemaker_hetero._model.arguments import CONFIGURED

    assert sorted(sdk_config._KIND_OF) == sorted(name for name, _ in CONFIGURED)
    assert [path for path, _ in sdk_config.KINDS[: len(CONFIGURED)]] == [("SageMaker", "TrainingJob") + path
                                                                       for _, path in CONFIGURED]
    import inspect

    assert '"VpcConfig"' not in inspect.getsource(sdk_config)
