"""Static checkers see the estimators' real signatures: mypy flags a misspelt keyword argument, as the
runtime does with a "did you mean" (no ``**kwargs`` catch-all hides it). One mypy run over a small file,
following only the modules that define the signatures (the rest is skipped), cached under pytest's cache."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

USER_CODE = '''\
from sagemaker_hetero.estimator import Estimator
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.pytorch import PyTorch
from sagemaker_hetero.tensorflow import TensorFlow

groups = [InstanceGroup("data", "ml.c5.xlarge", 1), InstanceGroup("dnn", "ml.p3.2xlarge", 1)]
PyTorch(entry_point="train.py", framework_version="2.1", py_version="py310", instance_groups=groups)
TensorFlow(entry_point="train.py", framework_version="2.13", py_version="py310", instance_groups=groups)
Estimator(image_uri="img", role="r", instance_groups=groups)
PyTorch(entry_point="train.py", framework_version="2.1", py_version="py310", instance_grups=groups)
TensorFlow(entry_point="train.py", framework_version="2.13", py_version="py310", distributon={})
Estimator(image_uri="img", role="r", instance_groups=groups, hyperparamters={})
'''
CONFIG = '''\
[mypy]
follow_imports = skip
ignore_missing_imports = True
[mypy-sagemaker_hetero.estimator,sagemaker_hetero.pytorch,sagemaker_hetero.tensorflow,sagemaker_hetero.instance_group,sagemaker_hetero._model.keywords]
follow_imports = silent
'''


def _cache_dir(request, tmp_path):
    cache = getattr(request.config, "cache", None)  # absent under -p no:cacheprovider
    return str(cache.mkdir("mypy")) if cache is not None else str(tmp_path / "mypy-cache")


def test_mypy_flags_a_misspelt_keyword_of_each_estimator(request, tmp_path):
    (tmp_path / "user_code.py").write_text(USER_CODE)
    (tmp_path / "mypy.ini").write_text(CONFIG)
    env = dict(os.environ, MYPYPATH=ROOT)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", _cache_dir(request, tmp_path),
         "--no-error-summary", "user_code.py"],
        cwd=str(tmp_path), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    errors = re.findall(r"^user_code\.py:(\d+): error: (.*)$", result.stdout, flags=re.M)
    assert errors == [
        ("10", 'Unexpected keyword argument "instance_grups" for "PyTorch"; did you mean "instance_groups"?  [call-arg]'),
        ("11", 'Unexpected keyword argument "distributon" for "TensorFlow"; did you mean "distribution"?  [call-arg]'),
        ("12", 'Unexpected keyword argument "hyperparamters" for "Estimator"; did you mean "hyperparameters"?  '
               '[call-arg]'),
    ], result.stdout
    assert result.returncode == 1


@pytest.mark.parametrize("name, typo, meant", [("PyTorch", "instance_grups", "instance_groups"),
                                               ("TensorFlow", "distributon", "distribution"),
                                               ("Estimator", "hyperparamters", "hyperparameters")])
def test_the_runtime_names_the_closest_argument_too(name, typo, meant):
    import sagemaker_hetero

    with pytest.raises(TypeError, match=r"%s\(\) got an unexpected keyword argument '%s'; did you mean '%s'\?"
                       % (name, typo, meant)):
        getattr(sagemaker_hetero, name)(**{typo: None})
