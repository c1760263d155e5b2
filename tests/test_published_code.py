"""A second, held-out set of published heterogeneous-cluster client code, with only the import changed
(docs/migrating.md), run against the moto server: the Deep Learning Containers' PyTorch integration tests
not in the first set, the Developer Guide's SDK v2 snippets, and the moved PyTorch gRPC notebook of the
examples repository. ``conformance/published/README.md`` lists each scenario, its source, what its setup
provides and how it was recorded with the real SDK v2.

Each sends the SDK v2's recorded CreateTrainingJob requests, the deliberate differences of docs/migrating.md
aside (D1: a job name given to the constructor names the job; D4: torch_distributed names its group). Where
the code as published is refused, it is refused by both SDKs, or by us on purpose before anything is
uploaded (a misspelt keyword the SDK v2 silently drops), and the literal replacement the recording names
makes both send the same request. The code that sends a request runs three ways, as the first set does
(``tests.test_notebooks.MOTOS``: with the moto server's answers for what moto lacks, moto alone and moto's
in-process ``mock_aws``, the caller an assumed role), with the default preflight on.
"""
import json
import os
import re

import boto3
import pytest

from sagemaker_hetero.exceptions import ConfigError
from tests._answers import SAGEMAKER_TRUST
from tests.test_notebooks import (cells, every_moto, normalize, notebook, nothing_uploaded_or_created,  # noqa: F401
                                  recorded, run)

PUBLISHED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "conformance", "published")
MISSPELT = {"hyperparamters=": "hyperparameters="}
ROUTED_NAMES = {"instance_group_names=": "instance_groups="}
WITH_MPI = {'"instance_groups": [instance_group_2]}': '"mpi": {"enabled": True}, "instance_groups": [instance_group_2]}'}
D1_NAME = "my-training-job-with-heterogeneous-cluster"

#: name -> the replacements that make the code as published run (the same as in NAME.json's recording)
SCENARIOS = {
    "dlc_pt_hc_mnist_gpu": MISSPELT,
    "dlc_pt_hc_mnist_inductor_cpu": MISSPELT,
    "dlc_pt_hc_mnist_inductor_gpu": MISSPELT,
    "dlc_pt_hc_mnist_v2_cpu": {},
    "dlc_pt_hc_mnist_v2_gpu": {},
    "dlc_pt_hc_smdmp": {},
    "docs_hc_configure_pytorch": ROUTED_NAMES,
    "docs_hc_configure_tensorflow": ROUTED_NAMES,
    "docs_hc_mpi_pytorch": {},
    "docs_hc_mpi_tensorflow": {},
    "docs_hc_smddp_pytorch": {},
    "docs_hc_smddp_tensorflow": {},
    "docs_hc_smp_pytorch": WITH_MPI,
    "docs_hc_smp_tensorflow": WITH_MPI,
    "sm_hc_pytorch_notebook": {},
}


@pytest.fixture
def published(notebook):
    """The notebook fixture with the buckets the recordings' harness made (the Developer Guide's data bucket)."""
    for bucket in ("your-training-data-storage",):
        boto3.client("s3").create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    notebook.clear_requests()
    return notebook



def _sent(server):
    """Every CreateTrainingJob request received, normalised as the recordings are."""
    text = json.dumps([normalize(call.json) for call in server.calls(operation="CreateTrainingJob")], sort_keys=True)
    text = re.sub(r"-\d{8}T\d{6}Z", "-{utcnow}", text)
    text = re.sub(r"-\d{10}-[0-9a-f]{4}\b", "-{unique}", text)
    return json.loads(text.replace(os.getcwd(), "{cwd}"))


def _as_sdk_v2_names(got, expected):
    """D1 (docs/migrating.md): a job name given to the constructor names our job; the SDK v2 ignores it and
    names the job by default. Our name is replaced by the recorded default one (where the name went too)."""
    text = json.dumps(got)
    for ours, theirs in zip(got, expected):
        if ours["TrainingJobName"] == D1_NAME:
            text = text.replace(D1_NAME, theirs["TrainingJobName"])
    return json.loads(text)


@every_moto
@pytest.mark.filterwarnings("ignore::pytest.PytestUnknownMarkWarning")
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_published_code_sends_the_sdk_v2_requests(published, name):
    source = cells(name, folder=PUBLISHED, **SCENARIOS[name])
    if "create_role" not in open(os.path.join(PUBLISHED, name + ".py")).read():
        # the Developer Guide's snippets name the role SageMakerRole and leave it to their readers, who have it:
        # the preflight fit makes by default finds it
        boto3.client("iam").create_role(RoleName="SageMakerRole", AssumeRolePolicyDocument=json.dumps(SAGEMAKER_TRUST))
    run(name, source, folder=PUBLISHED)
    expected = recorded(name, folder=PUBLISHED)
    expected = expected if isinstance(expected, list) else [expected]
    got = _sent(published)
    assert [r["TrainingJobName"] for r in got if r["TrainingJobName"] == D1_NAME] == (
        [D1_NAME] if name.startswith("docs_") else [])
    for request in got:  # D4: torch_distributed names its one group; the SDK v2 leaves it out
        if "sagemaker_torch_distributed_enabled" in request["HyperParameters"]:
            assert request["HyperParameters"].pop("sagemaker_distribution_instance_groups") == '["train_group"]'
    assert _as_sdk_v2_names(got, expected) == expected


@every_moto
def test_the_notebook_in_homogeneous_mode_sends_the_sdk_v2_request(published):
    run("sm_hc_pytorch_notebook", cells("sm_hc_pytorch_notebook", folder=PUBLISHED,
                                        **{"IS_HETERO = True": "IS_HETERO = False"}), folder=PUBLISHED)
    assert _sent(published) == [recorded("sm_hc_pytorch_notebook.homogeneous", folder=PUBLISHED)]


def _refusal(server, name):
    """The error our package raises for ``name`` as published, with nothing uploaded or created (the scenario's
    setup reset: its role deleted, the server's log cleared)."""
    try:
        boto3.client("iam").delete_role(RoleName="SageMakerRole")
    except boto3.client("iam").exceptions.NoSuchEntityException:
        pass
    server.clear_requests()
    with pytest.raises((TypeError, ConfigError)) as info:
        run(name, cells(name, folder=PUBLISHED), folder=PUBLISHED)
    assert nothing_uploaded_or_created(server), name
    return info.value


@pytest.mark.filterwarnings("ignore::pytest.PytestUnknownMarkWarning")
def test_the_code_as_published_is_refused_as_the_sdk_v2_refuses_it_or_on_purpose(published):
    # "hyperparamters": the SDK v2 takes the misspelt keyword through **kwargs and sends no hyperparameters
    for name in ("dlc_pt_hc_mnist_gpu", "dlc_pt_hc_mnist_inductor_cpu", "dlc_pt_hc_mnist_inductor_gpu"):
        sdk_v2 = recorded(name + ".as_published", folder=PUBLISHED)
        assert sdk_v2["ok"] and "backend" not in sdk_v2["request"]["HyperParameters"]
        error = _refusal(published, name)
        assert "unexpected keyword argument 'hyperparamters'; did you mean 'hyperparameters'" in str(error)
    # the Developer Guide's instance_group_names=: a TypeError in both (ours names the argument meant)
    for name in ("docs_hc_configure_pytorch", "docs_hc_configure_tensorflow"):
        sdk_v2 = recorded(name + ".as_published", folder=PUBLISHED)
        assert sdk_v2["error_type"] == "TypeError" and "instance_group_names" in sdk_v2["error"]
        error = _refusal(published, name)
        assert isinstance(error, TypeError) and "'instance_group_names'; did you mean 'instance_groups'" in str(error)
    # model parallelism tied to a group without mpi: a ValueError in both (ours a ConfigError, a ValueError)
    for name in ("docs_hc_smp_pytorch", "docs_hc_smp_tensorflow"):
        sdk_v2 = recorded(name + ".as_published", folder=PUBLISHED)
        assert sdk_v2["error_type"] == "ValueError" and "no distribution strategies enabled" in sdk_v2["error"]
        [problem] = _refusal(published, name).problems
        assert problem.path == "distribution.mpi" and "enable mpi too" in problem.message
