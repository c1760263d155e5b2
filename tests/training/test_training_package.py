"""The in-job package is light (stdlib only) and its public names are in sync with __all__."""
import subprocess
import sys
import types

import sagemaker_hetero.training as training
from sagemaker_hetero.training import environment

HEAVY = ("boto3", "botocore", "attr", "attrs")


def test_import_pulls_no_aws_sdk_and_no_attrs(subprocess_env):
    code = (
        "import sagemaker_hetero.training, sys; "
        "from sagemaker_hetero.training import environment; "
        "heavy = [m for m in %r if m in sys.modules]; "
        "print(heavy); sys.exit(1 if heavy else 0)" % (HEAVY,)
    )
    result = subprocess.run(
        [sys.executable, "-c", code], env=subprocess_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert result.stdout.decode().strip() == "[]"


def test_training_all_is_in_sync():
    public = {
        name
        for name, value in vars(training).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    assert sorted(training.__all__) == sorted(public)


def test_environment_all_is_exported():
    for name in environment.__all__:
        assert hasattr(environment, name), name
    assert "Environment" in environment.__all__ and "to_cmd_args" in environment.__all__
    assert environment.Environment is training.Environment
