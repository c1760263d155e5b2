"""``_model.keywords``: a misspelt keyword names the closest argument; a framework estimator's argument given to
the generic Estimator says what to use instead."""
import pytest

from sagemaker_hetero._model import keywords
from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup

CHOICES = ("instance_groups", "instance_type", "instance_count", "entry_point", "source_dir")


@pytest.mark.parametrize("word, hint", [
    ("instance_group", "; did you mean 'instance_groups'?"),
    ("entrypoint", "; did you mean 'entry_point'?"),
    ("sourcedir", "; did you mean 'source_dir'?"),
    ("zzz", ""),
    (42, ""),
])
def test_did_you_mean(word, hint):
    assert keywords.did_you_mean(word, CHOICES) == hint


@pytest.mark.parametrize("word, cutoff, close", [("instance_countt", 0.6, "instance_count"), ("inst", 0.6, None),
                                                 ("inst", 0.3, "instance_type")])
def test_closest_and_its_cutoff(word, cutoff, close):
    assert keywords.closest(word, CHOICES, cutoff) == close


@pytest.mark.parametrize("name, fragment", [
    ("distribution", "the generic Estimator takes no distribution, as in the SDK v2: use the PyTorch or TensorFlow estimator"),
    ("framework_version", "the generic Estimator takes no framework_version"),
    ("py_version", "give image_uri (the image it runs)"),
    ("instance_groups", None),
])
def test_instead(name, fragment):
    text = keywords.instead(name)
    assert text is None if fragment is None else fragment in text


@pytest.mark.parametrize("cls, kwargs, message", [
    (InstanceGroup, {"name": "a"}, "InstanceGroup() got an unexpected keyword argument 'name'"),
    (InstanceGroup, {"instance_typ": "ml.c5.xlarge"}, "did you mean 'instance_type'?"),
    (TrainingInput, {"s3_uri": "s3://b/t"}, "TrainingInput() got an unexpected keyword argument 's3_uri'"),
    (TrainingInput, {"instance_group": ["a"]}, "did you mean 'instance_groups'?"),
])
def test_a_user_class_refuses_a_misspelt_keyword_naming_the_closest(cls, kwargs, message):
    with pytest.raises(TypeError) as info:
        cls(**kwargs)
    assert message in str(info.value)
