"""The table of estimator arguments (``_model.arguments``) and what is made from it agree with the
three written-out signatures, the job model and the service model."""
import inspect

import attrs
import pytest

from sagemaker_hetero._checks import service as _service
from sagemaker_hetero._model.arguments import (ARGUMENTS, AS_GIVEN, BY_NAME, ESTIMATOR_FIELDS, FIELDS, FIT, SAME,
                                               settings_default, takes)
from sagemaker_hetero._model.job import Job
from sagemaker_hetero._model.settings import JobSettings
from sagemaker_hetero.estimator import Estimator
from sagemaker_hetero.pytorch import PyTorch
from sagemaker_hetero.tensorflow import TensorFlow

ESTIMATORS = [Estimator, PyTorch, TensorFlow]


def _parameters(cls):
    params = inspect.signature(cls.__init__).parameters
    return [p for p in params.values() if p.name != "self" and p.kind != p.VAR_KEYWORD]


def _taken(cls):
    return [a for a in ARGUMENTS if takes(a, cls.framework)]


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_each_signature_names_the_arguments_the_table_gives_it(cls):
    assert sorted(p.name for p in _parameters(cls)) == sorted(a.name for a in _taken(cls))


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_each_signature_has_the_tables_defaults(cls):
    for p in _parameters(cls):
        row = BY_NAME[p.name]
        default = row.generic_default if cls is Estimator and row.generic_default is not SAME else row.default
        assert p.default == default and type(p.default) is type(default), p.name


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_keyword_arguments_follow_the_tables_order(cls):
    """The generic Estimator's whole signature is in the table's order; the framework estimators put
    their own arguments first (the SDK v2's positional order) and the rest in the table's order."""
    params = _parameters(cls)
    table = [a.name for a in ARGUMENTS]
    names = [p.name for p in params] if cls is Estimator else [p.name for p in params if p.kind == p.KEYWORD_ONLY]
    assert names == sorted(names, key=table.index)


def test_settings_and_job_are_made_from_the_table():
    settings = attrs.fields_dict(JobSettings)
    job = attrs.fields_dict(Job)
    for row in ARGUMENTS:
        if not row.setting:
            assert row.name not in settings
            continue
        assert settings[row.name].default == settings_default(row), row.name
        if row.attribute is not None:
            assert row.attribute in job, row.name
    assert set(ESTIMATOR_FIELDS) == set(a.name for a in ARGUMENTS if a.setting and a.takes != FIT)
    assert all(job[attr].default == settings[arg].default for attr, arg in AS_GIVEN)


def test_every_request_path_of_the_table_is_a_field_of_the_service_model():
    for path, attr, _, _ in FIELDS:
        name = _service.input_shape("CreateTrainingJob")
        for key in path:
            members = _service.shape(name)["members"]
            assert key in members, (attr, path)
            name = members[key]
