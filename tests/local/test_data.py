"""``sagemaker.local.data`` after ``import sagemaker_hetero as sagemaker``: the SageMaker Python SDK v2's data
sources by URI, as the Deep Learning Containers' TensorFlow 2 tests read a job's model artifacts, and
``TensorFlow.model_dir`` holding what the request sent once ``fit`` started the job (as the SDK v2 sets it)."""
import os
import subprocess
import sys

import boto3
import pytest

import sagemaker_hetero as sagemaker
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.local.data import LocalFileDataSource, S3DataSource, get_data_source_instance
from sagemaker_hetero.tensorflow import TensorFlow

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"


def test_a_file_uri_is_a_local_source_of_the_files_at_its_top(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "b.txt").write_text("b")
    (tmp_path / "a.txt").write_text("a")
    (tmp_path / "sub" / "c.txt").write_text("c")
    source = sagemaker.local.data.get_data_source_instance("file://%s" % tmp_path, None)
    assert isinstance(source, LocalFileDataSource)
    assert source.get_file_list() == [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    assert source.get_root_dir() == str(tmp_path)
    one = get_data_source_instance("file://%s" % (tmp_path / "a.txt"), None)
    assert (one.get_file_list(), one.get_root_dir()) == ([str(tmp_path / "a.txt")], str(tmp_path))


def test_a_missing_file_or_another_scheme_is_refused(tmp_path):
    with pytest.raises(RuntimeError, match="does not exist"):
        get_data_source_instance("file://%s" % (tmp_path / "none"), None)
    with pytest.raises(ValueError, match="file:// or s3://.*'https'"):
        get_data_source_instance("https://example.com/x", None)


def test_the_model_artifacts_of_a_tensorflow_job_read_back_as_published_code_reads_them(aws, workdir):
    session = sagemaker.Session()
    estimator = TensorFlow(entry_point="train.py", role=ROLE, framework_version="2.13", py_version="py310",
                           instance_groups=[InstanceGroup("data", "ml.c5.xlarge", 1),
                                            InstanceGroup("dnn", "ml.p3.2xlarge", 1)],
                           output_path="s3://my-bucket/runs", sagemaker_session=session)
    boto3.client("s3").create_bucket(Bucket="my-bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    assert estimator.model_dir is None
    estimator.fit(job_name="tf-model-dir", wait=False)
    sent = aws.last_json("CreateTrainingJob")["HyperParameters"]["model_dir"]
    assert sent == '"s3://my-bucket/runs/tf-model-dir/model"'
    assert estimator.model_dir == "s3://my-bucket/runs/tf-model-dir/model"  # as the SDK v2 sets it
    # the job's artifacts, as SageMaker leaves them (moto runs no container)
    boto3.client("s3").put_object(Bucket="my-bucket", Key="runs/tf-model-dir/output/model.tar.gz", Body=b"model")
    assert estimator.model_data == "s3://my-bucket/runs/tf-model-dir/output/model.tar.gz"
    source = sagemaker.local.data.get_data_source_instance(estimator.model_data, session)
    assert isinstance(source, S3DataSource)
    assert [os.path.basename(f) for f in source.get_file_list()] == ["model.tar.gz"]
    with open(source.get_file_list()[0], "rb") as handle:
        assert handle.read() == b"model"
    folder = get_data_source_instance("s3://my-bucket/runs/tf-model-dir/output", session)
    assert [os.path.basename(f) for f in folder.get_file_list()] == ["model.tar.gz"]


def test_a_dry_run_leaves_model_dir_as_given(workdir):
    estimator = TensorFlow(entry_point="train.py", role=ROLE, framework_version="2.13", py_version="py310",
                           instance_type="ml.c5.xlarge", instance_count=1)
    request = estimator.fit(job_name="dry", dry_run=True)
    assert request["HyperParameters"]["model_dir"].endswith('/dry/model"') and estimator.model_dir is None


def test_the_lazy_local_submodule_and_its_data_import_no_boto3():
    code = ("import sys, sagemaker_hetero as sagemaker\n"
            "sagemaker.local.data.get_data_source_instance\n"
            "assert 'boto3' not in sys.modules and 'botocore' not in sys.modules, 'boto3 imported'\n"
            "assert 'importlib' not in dir(sagemaker) and {'local', 'workflow'} <= set(dir(sagemaker))\n"
            "assert sagemaker.workflow.pipeline.Pipeline and 'importlib' not in dir(sagemaker.workflow)\n")
    subprocess.run([sys.executable, "-c", code], check=True)
