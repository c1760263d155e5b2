"""Published client code for heterogeneous clusters, with only the import changed as docs/migrating.md
says, run against the moto server as its authors run it (conformance/notebooks/README.md lists each
scenario, its source and what its setup provides): the hello-world, PyTorch gRPC and TensorFlow
tf.data.service notebooks and start scripts of aws/amazon-sagemaker-examples, and heterogeneous-cluster
integration tests of aws/deep-learning-containers.

Each sends the SDK v2's recorded CreateTrainingJob request, with the default preflight on, run three ways
(:data:`MOTOS`): against the moto server with its answers for what moto lacks, against moto alone (an
HTML page for Service Quotas and SimulatePrincipalPolicy) and under moto's in-process ``mock_aws``
(``NotImplementedError`` for them), the caller an assumed role as in a notebook: a check that cannot be
made never stops the job, as many teams test their training code so. Where the SDK v2 refuses the code as
published (TensorFlow 2.9.1 is no longer in its image table), we refuse it too, before anything is
uploaded, with a hint; the literal replacement the hint names makes both accept it. Where the code as
published depends on something we refuse on purpose (a misspelt keyword argument, max_wait without
spot training, which the service refuses), the refusal is checked and the corrected code is compared.
"""
import json
import os
import re
import sys

import pytest

from sagemaker_hetero._aws import apps
from sagemaker_hetero.exceptions import ConfigError
from tests._aws import InProcessMoto

HERE = os.path.dirname(os.path.abspath(__file__))
NOTEBOOKS = os.path.join(HERE, "conformance", "notebooks")

sys.path.insert(0, os.path.join(HERE, "conformance"))
from normalize import code_key_as_sdk_v2, normalize as _normalize  # noqa: E402

sys.path.pop(0)


def cells(name, folder=NOTEBOOKS, **replace):
    """The notebook's code (``conformance/notebooks/NAME.py``, or ``folder``'s) with its imports changed as
    docs/migrating.md says (``import sagemaker`` -> ``import sagemaker_hetero as sagemaker``,
    ``from sagemaker... import`` -> ``from sagemaker_hetero... import``), and the given literal
    replacements."""
    with open(os.path.join(folder, name + ".py")) as handle:
        source = handle.read()
    for old, new in replace.items():
        assert old in source
        source = source.replace(old, new)
    source = re.sub(r"^(\s*)import\s+sagemaker\s*$", r"\1import sagemaker_hetero as sagemaker", source, flags=re.M)
    return re.sub(r"^(\s*)from\s+sagemaker\b", r"\1from sagemaker_hetero", source, flags=re.M)


def run(name, source, folder=NOTEBOOKS):
    namespace = {"__name__": "__main__"}
    exec(compile(source, os.path.join(folder, name + ".py"), "exec"), namespace)
    return namespace


def recorded(name, folder=NOTEBOOKS):
    with open(os.path.join(folder, name + ".json")) as handle:
        return code_key_as_sdk_v2(json.load(handle))  # D6: the code key compared as <code>


def normalize(request):
    """normalize.py's, with the code key compared as <code> (D6)."""
    return code_key_as_sdk_v2(_normalize(request))


def sent(server):
    """Every CreateTrainingJob request the server received, normalised as the recordings are: the
    ``utcnow`` stamp of a job name as ``{utcnow}``, the stamp and random suffix ``unique_name_from_base``
    adds as ``{unique}``, the working folder as ``{cwd}``."""
    text = json.dumps([normalize(call.json) for call in server.calls(operation="CreateTrainingJob")], sort_keys=True)
    text = re.sub(r"-\d{8}T\d{6}Z", "-{utcnow}", text)
    text = re.sub(r"-\d{10}-[0-9a-f]{4}\b", "-{unique}", text)
    return json.loads(text.replace(os.getcwd(), "{cwd}"))


def nothing_uploaded_or_created(server):
    return not {"PutObject", "CreateMultipartUpload", "CreateBucket", "CreateTrainingJob"} & set(server.operations())


#: Where the published code runs: the moto server with the answers of tests/_answers.py, moto alone
#: (``plain moto``: no answer for Service Quotas and SimulatePrincipalPolicy), moto's in-process mock.
MOTOS = ("answers", "plain moto", "mock_aws")
#: A test of code that reaches fit's preflight runs with each (the notebook fixture's parameter).
every_moto = pytest.mark.parametrize("notebook", MOTOS, indirect=True)


@pytest.fixture
def notebook(request, aws, tmp_path, monkeypatch):
    """A working folder, no notebook metadata (the role comes from STS), no role yet (the setups create
    the one they name), credentials restored after; the moto server with its answers, or (the fixture's
    parameter, :data:`MOTOS`) moto alone or moto's in-process mock with an assumed role as the caller.
    Yields what records the requests sent (the MotoServer, or an :class:`tests._aws.InProcessMoto`)."""
    kind = getattr(request, "param", "answers")
    work = tmp_path / "notebook"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setattr(apps, "STUDIO_METADATA_FILE", str(tmp_path / "no-metadata.json"))
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, os.environ.get(name, "testing"))  # the cells' setup changes them
    monkeypatch.delenv("SAGEMAKER_ROLE", raising=False)  # set by the start scripts' setup
    monkeypatch.setattr(sys, "argv", list(sys.argv))  # a start script's setup: its command line
    monkeypatch.setattr(sys, "path", list(sys.path))  # a notebook's setup: its folder, as Jupyter has it
    import boto3

    server = aws
    if kind == "mock_aws":
        monkeypatch.delenv("AWS_ENDPOINT_URL")
        monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)
        server = InProcessMoto(str(tmp_path / "requests.jsonl")).start()
    else:
        boto3.client("iam").delete_role(RoleName="SageMakerRole")  # the account as the setups find it: they make it
    if kind == "plain moto":
        aws.answers.plain()
    try:
        if kind != "answers":
            _an_assumed_role_is_the_caller(monkeypatch)
        monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)
        yield server
    finally:
        if server is not aws:
            server.stop()
        sys.modules.pop("start_job_utils", None)  # the notebook folder's module, imported by the cells


def _an_assumed_role_is_the_caller(monkeypatch):
    """The credentials of an assumed role in the environment, as a notebook or a CI job has (the setups
    that assume a role of their own replace them)."""
    import boto3

    trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": "*"},
                                                     "Action": "sts:AssumeRole"}]}
    arn = boto3.client("iam").create_role(RoleName="Developer", AssumeRolePolicyDocument=json.dumps(trust))["Role"]["Arn"]
    credentials = boto3.client("sts").assume_role(RoleArn=arn, RoleSessionName="developer")["Credentials"]
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", credentials["AccessKeyId"])
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", credentials["SecretAccessKey"])
    monkeypatch.setenv("AWS_SESSION_TOKEN", credentials["SessionToken"])


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


@every_moto
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


# -- hello.world.sagemaker/start_job.py ----------------------------------------------------------------------

# The script as published asks for TensorFlow 2.9.1 (no image now) and max_wait without spot training; its
# authors left "#use_spot_instances=True," commented out next to it.
HELLO_START_ACCEPTED = {"'2.9.1'": "'2.9.2'", "#use_spot_instances=True,": "use_spot_instances=True,"}


def test_hello_world_start_job_as_published_is_refused_before_anything_is_uploaded(notebook):
    sdk_v2 = recorded("hello_world_start_job.as_published")
    assert sdk_v2["error_type"] == "ValueError" and "PutObject" in sdk_v2["calls"]  # the SDK v2 uploads first
    with pytest.raises(ConfigError) as info:
        run("hello_world_start_job", cells("hello_world_start_job"))
    problems = {problem.path: problem for problem in info.value.problems}
    assert sorted(problems) == ["framework_version", "max_wait"]  # both at once
    assert "framework_version='2.9.2'" in str(info.value)
    assert "use_spot_instances=True" in problems["max_wait"].message
    assert nothing_uploaded_or_created(notebook)


def test_hello_world_start_job_max_wait_without_spot_is_refused_where_the_sdk_v2_sends_it(notebook):
    # The SDK v2 sends MaxWaitTimeInSeconds without EnableManagedSpotTraining, which SageMaker refuses
    # ("Invalid MaxWaitTimeInSeconds. It is only supported when EnableManagedSpotTraining is set to true").
    sdk_v2 = recorded("hello_world_start_job.max_wait_without_spot")
    assert sdk_v2["StoppingCondition"]["MaxWaitTimeInSeconds"] == 3600 and "EnableManagedSpotTraining" not in sdk_v2
    with pytest.raises(ConfigError) as info:
        run("hello_world_start_job", cells("hello_world_start_job", **{"'2.9.1'": "'2.9.2'"}))
    [problem] = info.value.problems
    assert problem.path == "max_wait" and problem.value == 3600
    assert nothing_uploaded_or_created(notebook)


@every_moto
def test_hello_world_start_job_sends_the_sdk_v2_request_in_the_region_it_sets(notebook):
    run("hello_world_start_job", cells("hello_world_start_job", **HELLO_START_ACCEPTED))
    assert sent(notebook) == [recorded("hello_world_start_job")]
    # the script's os.environ["AWS_DEFAULT_REGION"] = 'us-east-1' chose the region, as boto3 reads it
    assert "us-east-1" in notebook.last_json("CreateTrainingJob")["AlgorithmSpecification"]["TrainingImage"]


def test_hello_world_start_job_region_when_aws_region_is_also_set(notebook):
    # In a shell that also has AWS_REGION=us-west-2 (CodeBuild, Lambda and others set it), the SDK v2 still
    # runs the job in us-east-1, the region the script sets.
    source = cells("hello_world_start_job", **dict(HELLO_START_ACCEPTED, **{'_os.environ.pop("AWS_REGION", None)': "pass"}))
    run("hello_world_start_job", source)
    assert sent(notebook) == [recorded("hello_world_start_job.with_aws_region")]


# -- pt.grpc.sagemaker --------------------------------------------------------------------------------------


@every_moto
def test_pytorch_grpc_notebook_runs_to_the_end_and_sends_the_sdk_v2_request(notebook, capsys):
    namespace = run("pt_grpc_notebook", cells("pt_grpc_notebook"))
    assert sent(notebook) == [recorded("pt_grpc_notebook")]
    out = capsys.readouterr().out
    assert out.startswith("arn:aws:iam::123456789012:role/service-role/HeteroPyTorchNotebookRole\n"
                          "s3://sagemaker-us-west-2-123456789012/DEMO-MNIST\n")
    assert namespace["loc"] == "s3://sagemaker-us-west-2-123456789012/DEMO-MNIST"
    assert namespace["estimator"].latest_training_job.describe()["TrainingJobStatus"] == "Completed"


@every_moto
def test_pytorch_grpc_start_job_sends_the_sdk_v2_request(notebook):
    run("pt_grpc_start_job", cells("pt_grpc_start_job"))
    assert sent(notebook) == [recorded("pt_grpc_start_job")]


# -- tf.data.service.sagemaker ------------------------------------------------------------------------------


def test_tf_data_service_notebook_as_published_is_refused_before_anything_is_uploaded(notebook):
    sdk_v2 = recorded("tf_data_service_notebook.as_published")
    assert sdk_v2["error_type"] == "ValueError" and "PutObject" in sdk_v2["calls"]
    with pytest.raises(ConfigError) as info:  # fit_with_retries retries only capacity errors
        run("tf_data_service_notebook", cells("tf_data_service_notebook"))
    [problem] = info.value.problems
    assert problem.path == "framework_version" and "framework_version='2.9.2'" in str(info.value)
    assert nothing_uploaded_or_created(notebook)


@every_moto
def test_tf_data_service_notebook_sends_the_sdk_v2_requests_of_both_jobs(notebook):
    namespace = run("tf_data_service_notebook", cells("tf_data_service_notebook", **{'"2.9.1"': '"2.9.2"'}))
    assert sent(notebook) == recorded("tf_data_service_notebook")  # homogeneous, then heterogeneous
    assert namespace["estimator2"].latest_training_job.name.startswith("heterogeneous-")


@pytest.mark.skipif(sys.version_info < (3, 9), reason="the script uses argparse.BooleanOptionalAction (Python 3.9)")
def test_tf_data_service_start_job_as_published_is_refused_before_anything_is_uploaded(notebook):
    assert recorded("tf_data_service_start_job.as_published")["error_type"] == "ValueError"
    with pytest.raises(ConfigError) as info:
        run("tf_data_service_start_job", cells("tf_data_service_start_job"))
    [problem] = info.value.problems
    assert problem.path == "framework_version" and "framework_version='2.9.2'" in str(info.value)
    assert nothing_uploaded_or_created(notebook)


@every_moto
@pytest.mark.skipif(sys.version_info < (3, 9), reason="the script uses argparse.BooleanOptionalAction (Python 3.9)")
def test_tf_data_service_start_job_sends_the_sdk_v2_request(notebook):
    run("tf_data_service_start_job", cells("tf_data_service_start_job", **{"'2.9.1'": "'2.9.2'"}))
    assert sent(notebook) == [recorded("tf_data_service_start_job")]


# -- aws/deep-learning-containers heterogeneous-cluster tests ----------------------------------------------

# Their pytest marks (processor, multinode, efa, ...) are registered by their own conftest, not ours.
dlc = pytest.mark.filterwarnings("ignore::pytest.PytestUnknownMarkWarning")


@dlc
def test_dlc_hc_mnist_misspelt_hyperparameters_are_refused_where_the_sdk_v2_drops_them(notebook):
    # The helper passes "hyperparamters": the SDK v2 takes it through **kwargs and sends a job without them.
    sdk_v2 = recorded("dlc_pt_hc_mnist.as_published")
    assert sdk_v2["ok"] and "backend" not in sdk_v2["request"]["HyperParameters"]
    with pytest.raises(TypeError, match="unexpected keyword argument 'hyperparamters'; did you mean 'hyperparameters'"):
        run("dlc_pt_hc_mnist", cells("dlc_pt_hc_mnist"))
    assert nothing_uploaded_or_created(notebook)


@every_moto
@dlc
def test_dlc_hc_mnist_torch_distributed_on_one_group_sends_the_sdk_v2_request(notebook):
    run("dlc_pt_hc_mnist", cells("dlc_pt_hc_mnist", **{'"hyperparamters"': '"hyperparameters"'}))
    [got] = sent(notebook)
    # D4 (docs/migrating.md): torch_distributed names its group; the SDK v2 leaves it out (here the
    # toolkit's default, every group, is that one group).
    assert got["HyperParameters"].pop("sagemaker_distribution_instance_groups") == '["train_group"]'
    assert got == recorded("dlc_pt_hc_mnist")


@every_moto
@dlc
def test_dlc_hc_smdataparallel_sends_the_sdk_v2_request(notebook):
    run("dlc_pt_hc_smdataparallel", cells("dlc_pt_hc_smdataparallel"))
    assert sent(notebook) == [recorded("dlc_pt_hc_smdataparallel")]
    # D5: the SDK v2 sends null for a heterogeneous cluster (normalize() hides the value)
    hps = notebook.last_json("CreateTrainingJob")["HyperParameters"]
    assert hps["sagemaker_instance_type"] == '"ml.p3.16xlarge"'


@every_moto
@dlc
def test_dlc_hc_smdebug_sends_the_sdk_v2_request(notebook):
    run("dlc_pt_hc_smdebug", cells("dlc_pt_hc_smdebug"))
    assert sent(notebook) == [recorded("dlc_pt_hc_smdebug")]
