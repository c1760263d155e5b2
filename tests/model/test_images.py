"""``_model.images``: the deep learning containers' training images, looked up from the package's facts."""
import pytest

from sagemaker_hetero._model import images
from tests._pure import CPU, GPU, PYTORCH, job


@pytest.mark.parametrize("types, processor", [
    (["ml.c5.xlarge"], "cpu"), (["ml.c5.xlarge", "ml.p4d.24xlarge"], "gpu"), (["ml.g5.xlarge"], "gpu"),
    (["ml.m5.large", "ml.trn1.32xlarge"], "cpu"), ([None, 3], "cpu"), ([], "cpu"),
])
def test_processor_for(types, processor):
    assert images.processor_for(types) == processor


@pytest.mark.parametrize("version, parts", [("1.13.1", (1, 13, 1)), ("2.9", (2, 9)), ("2.0.1rc1", (2, 0, 1)), ("x", ()),
                                            ("1.x.2", (1,))])
def test_version_tuple(version, parts):
    assert images.version_tuple(version) == parts


IMAGES = [
    ("pytorch", "1.13.1", "py39", "gpu", "us-west-2", "763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:1.13.1-gpu-py39"),
    ("pytorch", "2.2.0", "py310", "cpu", "eu-west-1", "763104351884.dkr.ecr.eu-west-1.amazonaws.com/pytorch-training:2.2.0-cpu-py310"),
    ("tensorflow", "2.9", "py39", "gpu", "us-west-2", "763104351884.dkr.ecr.us-west-2.amazonaws.com/tensorflow-training:2.9-gpu-py39"),
    ("pytorch", "2.2.0", "py310", "gpu", "cn-north-1",
     "727897471807.dkr.ecr.cn-north-1.amazonaws.com.cn/pytorch-training:2.2.0-gpu-py310"),
    ("pytorch", "2.2.0", "py310", "gpu", "<region>", "<registry-account>.dkr.ecr.<region>.amazonaws.com/pytorch-training:2.2.0-gpu-py310"),
]


@pytest.mark.parametrize("framework, version, py, processor, region, uri", IMAGES)
def test_image_uri(framework, version, py, processor, region, uri):
    assert images.image_uri(framework, version, py, processor, region) == uri


LOOKUP_ERRORS = [
    (("pytorch", "0.1", "py39", "gpu", "us-west-2"), "no pytorch training image for framework_version 0.1"),
    (("pytorch", "1.13.1", "py27", "gpu", "us-west-2"), "no pytorch 1.13.1 training image for py_version py27 (available: py39)"),
    (("pytorch", "1.13.1", "py39", "gpu", "mars-north-1"), "no pytorch 1.13.1 training image in region mars-north-1"),
]


@pytest.mark.parametrize("args, message", LOOKUP_ERRORS)
def test_no_image_says_why(args, message):
    with pytest.raises(images.ImageLookupError) as info:
        images.image_uri(*args)
    assert message in str(info.value)


def test_an_alias_resolves_and_a_newer_line_is_named():
    assert images.resolve_version("tensorflow", "2.9") != "2.9"
    assert images.resolve_version("pytorch", "2.2.0") == "2.2.0"
    assert "py310" in images.py_versions("pytorch", "2.2.0")


def test_the_training_image_of_a_job_is_gpu_if_any_group_has_gpus():
    hetero = job("pytorch", **PYTORCH)
    assert images.training_image(hetero, "us-west-2").endswith("pytorch-training:2.2.0-gpu-py310")
    cpu_only = job("pytorch", **dict(PYTORCH, instance_groups=[CPU]))
    assert images.training_image(cpu_only, "us-west-2").endswith("pytorch-training:2.2.0-cpu-py310")
    own = job("pytorch", **dict(PYTORCH, image_uri="my/own:1", instance_groups=[GPU]))
    assert images.training_image(own, "us-west-2") == "my/own:1"
    with pytest.raises(images.ImageLookupError, match="the generic Estimator needs an image_uri"):
        images.training_image(job(None, role="r", instance_groups=[CPU]), "us-west-2")
