"""``_request.describe``: a request (or a DescribeTrainingJob answer) read back as the job model, called
directly: render -> describe -> the same estimator arguments, and the same request again."""
import pytest

from sagemaker_hetero._model import build
from sagemaker_hetero._request import describe, plan
from tests._pure import FACTS, job
from tests.request._scenarios import SCENARIOS


def _plan(framework, arguments, inputs, job_name):
    return plan.make_plan(job(framework, inputs, job_name, **arguments), FACTS, 0)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_rendered_request_reads_back_as_the_arguments_that_made_it(name):
    framework = SCENARIOS[name][0]
    first = _plan(*SCENARIOS[name])
    read = describe.job_from_description(first.request, framework=describe.AUTO, region="us-west-2")
    assert read.framework == framework
    kwargs, inputs = build.arguments(read)
    original_kwargs, original_inputs = build.arguments(first.job)
    assert kwargs.pop("role") == original_kwargs.pop("role")
    for key in ("source_dir", "job_name"):  # the code is read back as where it is; the name as given
        kwargs.pop(key, None), original_kwargs.pop(key, None)
    kwargs.pop("base_job_name", None), original_kwargs.pop("base_job_name", None)
    if "output_path" not in original_kwargs:  # the default bucket's, as the request holds it
        assert kwargs.pop("output_path") == first.request["OutputDataConfig"]["S3OutputPath"]
    assert kwargs == original_kwargs
    assert inputs == original_inputs


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_job_read_back_renders_the_same_request(name):
    first = _plan(*SCENARIOS[name])
    read = describe.job_from_description(first.request, region="us-west-2")
    again = plan.make_plan(read, FACTS, 0)
    assert again.request == first.request


@pytest.mark.parametrize("image, facts", [
    ("763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.2.0-gpu-py310",
     ("pytorch", "2.2.0", "gpu", "py310", "us-west-2")),
    ("763104351884.dkr.ecr.eu-west-1.amazonaws.com/tensorflow-training:2.9-cpu-py39", ("tensorflow", "2.9", "cpu", "py39", "eu-west-1")),
    ("123456789012.dkr.ecr.us-west-2.amazonaws.com/my-trainer:latest", None),
    ("763104351884.dkr.ecr.us-west-2.amazonaws.com/mystery-training:2.2.0-gpu-py310", None),
    (None, None),
])
def test_image_framework(image, facts):
    assert describe.image_framework(image) == facts


@pytest.mark.parametrize("desc, path, value", [
    ({"A": {"B": 1}}, ("A", "B"), 1), ({"A": {"B": 1}}, ("A", "C"), None), ({"A": [1]}, ("A", "B"), None), ({}, (), {}),
])
def test_value_at(desc, path, value):
    assert describe.value_at(desc, path) == value


@pytest.mark.parametrize("desc, names", [
    ({"ResourceConfig": {"InstanceType": "ml.c5.xlarge", "InstanceCount": 1}}, ["homogeneousCluster"]),
    ({"ResourceConfig": {"InstanceGroups": [{"InstanceGroupName": "a"}, {"InstanceGroupName": "b"}]}}, ["a", "b"]),
])
def test_group_names(desc, names):
    assert describe.group_names(desc) == names


@pytest.mark.parametrize("arn, region", [("arn:aws:sagemaker:eu-west-1:123456789012:training-job/x", "eu-west-1"), (None, None)])
def test_region_of(arn, region):
    assert describe.region_of({"TrainingJobArn": arn} if arn else {}) == region


def test_a_framework_other_than_the_images_is_refused():
    request = _plan(*SCENARIOS["torch_distributed_group"]).request
    from sagemaker_hetero.exceptions import ConfigError

    with pytest.raises(ConfigError):
        describe.job_from_description(request, framework="tensorflow")
