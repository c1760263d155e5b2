"""LocalSession without running hosts: options, the offline dry run, local inputs, refusals, imports."""
import os
import subprocess
import sys
import time
import types

import pytest

import sagemaker_hetero.local as local
from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.local import LOCAL_BUCKET, LocalSession
from sagemaker_hetero.local._session import localize

from ._helpers import ROOT, estimator_for


def test_public_names_are_in_all():
    public = {n for n, v in vars(local).items() if not n.startswith("_") and not isinstance(v, types.ModuleType)}
    assert sorted(local.__all__) == sorted(public) == local.__all__


def test_importing_it_imports_no_boto3():
    code = (
        "import sys, sagemaker_hetero.local, sagemaker_hetero.local._job, sagemaker_hetero.local._hosts; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('boto3', 'botocore')))"
    )
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, universal_newlines=True, check=True)
    assert out.stdout.strip() == "[]"


def test_bad_options_are_all_reported_at_once():
    with pytest.raises(ConfigError) as info:
        LocalSession(assignment="random", grace_period=-1, python="/no/such/python", seed=1.5, out=42)
    paths = [p.path for p in info.value.problems]
    assert paths == ["assignment", "seed", "grace_period", "python", "out"]
    assert "must be one of 'ordered', 'shuffled'" in str(info.value)


def test_region_defaults(monkeypatch, tmp_path):
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    assert LocalSession().boto_region_name == "us-west-2"
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-west-1")
    assert LocalSession().boto_region_name == "eu-west-1"
    assert LocalSession(region="ap-south-1").boto_region_name == "ap-south-1"


def test_dry_run_is_offline_and_shows_the_local_bucket_and_file_channels(monkeypatch, tmp_path, write_code):
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    session = LocalSession(root=str(tmp_path / "jobs"))
    estimator = estimator_for(session, write_code("print(1)\n"), role="SageMakerRole", job_name="dry")
    for name in ("train", "val"):
        (tmp_path / name).mkdir()
    request = estimator.fit(
        {
            "train": TrainingInput("file://%s/train" % tmp_path, instance_groups=["cpu"]),
            "val": TrainingInput("file://%s/val" % tmp_path, instance_groups=["gpu"]),
        },
        dry_run=True,
    )
    assert request["OutputDataConfig"] == {"S3OutputPath": "s3://%s/" % LOCAL_BUCKET}
    assert request["HyperParameters"]["sagemaker_submit_directory"] == '"s3://%s/dry/source/sourcedir.tar.gz"' % LOCAL_BUCKET
    assert request["HyperParameters"]["sagemaker_region"] == '"us-west-2"'
    assert request["RoleArn"] == "arn:aws:iam::000000000000:role/SageMakerRole"
    assert request["InputDataConfig"][0]["DataSource"] == {
        "FileDataSource": {
            "FileUri": "file://%s/train" % tmp_path,
            "FileDataDistributionType": "FullyReplicated",
            "InstanceGroupNames": ["cpu"],
        }
    }
    assert not os.path.exists(str(tmp_path / "jobs"))


def test_local_paths_become_absolute_file_uris(tmp_path, monkeypatch):
    from sagemaker_hetero._model import build as _build
    from sagemaker_hetero._model.settings import JobSettings

    monkeypatch.chdir(tmp_path)
    settings = JobSettings(
        channels=(("a", "data/a"), ("b", TrainingInput("file://data/b", instance_groups=["g"])), ("c", "s3://bkt/c")),
        model_uri="model.tar.gz",
        output_path="file://out",
        instance_groups=[InstanceGroup("g", "ml.m5.large", 1)],
    )
    job, _ = _build.build(settings)
    out = localize(job)
    here = str(tmp_path)
    assert [(c.name, c.uri) for c in out.channels] == [
        ("a", "file://%s/data/a" % here),
        ("b", "file://%s/data/b" % here),
        ("c", "s3://bkt/c"),
        ("model", "file://%s/model.tar.gz" % here),
    ]
    assert out.channels[1].groups == ("g",)
    assert out.output_path == "file://%s/out" % here


def test_what_a_local_run_cannot_do_is_refused_before_anything_is_created(tmp_path, write_code):
    session = LocalSession(root=str(tmp_path / "jobs"))
    with pytest.raises(ConfigError, match="input_mode: Pipe mode is not simulated locally"):
        estimator_for(session, write_code("print(1)\n"), input_mode="Pipe").fit(dry_run=True)
    estimator = estimator_for(session, write_code("print(1)\n"))
    data = tmp_path / "data"
    data.mkdir()
    inputs = {
        "train": TrainingInput(str(data), instance_groups=["cpu"], input_mode="Pipe"),
        "missing": TrainingInput(str(tmp_path / "nope"), instance_groups=["gpu"]),
        "manifest": TrainingInput("s3://bkt/m", s3_data_type="ManifestFile", instance_groups=["gpu"]),
    }
    for dry_run in (True, False):  # the dry run refuses what the run would refuse
        with pytest.raises(ConfigError) as info:
            estimator.fit(inputs, dry_run=dry_run)
        text = str(info.value)
        assert "inputs['train'].input_mode: Pipe mode is not simulated locally" in text
        assert "inputs['missing']: is not a file or folder on this machine" in text
        assert "inputs['manifest'].s3_data_type: a local run reads S3Prefix channels only" in text
    assert not os.path.exists(str(tmp_path / "jobs"))


def test_an_image_without_entry_point_cannot_run_locally(tmp_path):
    from sagemaker_hetero.estimator import Estimator

    from ._helpers import IMAGE, ROLE

    with pytest.raises(ConfigError, match="entry_point: is required for a local run"):
        Estimator(IMAGE, ROLE, 1, "ml.m5.large", sagemaker_session=LocalSession(root=str(tmp_path)))


def test_dry_run_and_run_render_plain_local_paths_alike(tmp_path, monkeypatch, write_code):
    data = tmp_path / "data"
    data.mkdir()
    (data / "x.csv").write_text("1\n")
    monkeypatch.chdir(tmp_path)
    session = LocalSession(root=str(tmp_path / "jobs"))
    estimator = estimator_for(session, write_code("print(1)\n"), role="SageMakerRole", job_name="paths")
    request = estimator.fit({"train": TrainingInput("data", instance_groups=["cpu"]),
                             "val": TrainingInput("data", instance_groups=["gpu"])}, dry_run=True)
    source = request["InputDataConfig"][0]["DataSource"]
    assert source == {"FileDataSource": {"FileUri": "file://" + str(data), "FileDataDistributionType": "FullyReplicated",
                                         "InstanceGroupNames": ["cpu"]}}
    estimator.fit({"train": TrainingInput("data", instance_groups=["cpu"]),
                   "val": TrainingInput("data", instance_groups=["gpu"])}, logs=False)
    assert estimator.latest_training_job.request["InputDataConfig"] == request["InputDataConfig"]



class _StoppedClock(object):
    """The ``time`` module with ``time()`` stopped: every fit stamps its default name alike."""

    def __getattr__(self, name):
        return getattr(time, name)

    def time(self):
        return 1700000000.0


def test_two_local_fits_in_the_same_millisecond_get_distinct_default_names(tmp_path, write_code, monkeypatch):
    from sagemaker_hetero import estimator as estimator_module

    monkeypatch.setattr(estimator_module, "time", _StoppedClock())
    session = LocalSession(root=str(tmp_path / "jobs"))
    source = write_code("print('done')\n")
    first = estimator_for(session, source, groups=None)
    second = estimator_for(session, source, groups=None)
    first.fit(wait=False)
    second.fit(wait=False)
    names = [e.latest_training_job.name for e in (first, second)]
    first.latest_training_job.wait()
    second.latest_training_job.wait()
    assert names[0] != names[1], names
