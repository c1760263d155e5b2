"""The in-job package is light (stdlib only) and its public names are in sync with __all__; docs/runtime.md
says how it gets into a training image, and the copy it names imports with the standard library alone."""
import os
import re
import shutil
import subprocess
import sys
import types

import sagemaker_hetero.training as training
from sagemaker_hetero.training import environment

HEAVY = ("boto3", "botocore", "attr", "attrs")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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


# -- how the package gets into a training image (docs/runtime.md) ------------------------------

RUNTIME_DOC = os.path.join(ROOT, "docs", "runtime.md")
#: What the entry point imports in the image; the copied code must hold what it needs, nothing installed.
IN_JOB = ("import sys; sys.path.insert(0, '.'); from sagemaker_hetero.training import Environment, run_by_group; "
          "print(sorted(m for m in %r if m in sys.modules))" % (HEAVY + ("yaml",),))


def _section():
    with open(RUNTIME_DOC) as handle:
        text = handle.read()
    return text.split("## Getting it into the training image", 1)[1].split("\n## ", 1)[0]


def _imports_alone(folder):
    """Whether ``from sagemaker_hetero.training import ...`` works in ``folder`` with no site-packages."""
    return subprocess.run([sys.executable, "-I", "-S", "-c", IN_JOB], cwd=str(folder), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)


def test_the_runtime_doc_says_how_the_package_gets_into_an_image():
    from sagemaker_hetero import __version__

    section = _section()
    assert "**`requirements.txt` in `source_dir`**" in section
    assert "`sagemaker-hetero==%s`" % __version__ in section  # the pin shown is this version's
    assert "dependencies=[os.path.dirname(sagemaker_hetero.__file__)]" in section


def _copy_training(package):
    shutil.copytree(os.path.join(ROOT, "sagemaker_hetero", "training"), str(package / "training"),
                    ignore=shutil.ignore_patterns("__pycache__"))


def test_the_smallest_copy_the_runtime_doc_names_imports_with_the_standard_library_alone(tmp_path):
    section = " ".join(_section().split())
    smallest = re.search(r"The smallest copy that works is (.*?), in a `sagemaker_hetero/` folder", section).group(1)
    names = re.findall(r"`([^`]+)`", smallest)
    assert names == ["sagemaker_hetero/__init__.py", "exceptions.py", "_defaults.py", "_model/__init__.py",
                     "_model/instance_types.py", "training/"]
    alone = tmp_path / "alone" / "sagemaker_hetero"  # training/ alone is not enough, as the doc says
    alone.mkdir(parents=True)
    (alone / "__init__.py").write_text("")
    _copy_training(alone)
    assert _imports_alone(alone.parent).returncode != 0
    package = tmp_path / "smallest" / "sagemaker_hetero"  # with the five files it is
    (package / "_model").mkdir(parents=True)
    for name in ["__init__.py"] + names[1:-1]:
        shutil.copy(os.path.join(ROOT, "sagemaker_hetero", name), str(package / name))
    _copy_training(package)
    result = _imports_alone(package.parent)
    assert (result.returncode, result.stdout.strip()) == (0, "[]"), result.stderr
    whole = tmp_path / "whole"  # the whole package, as dependencies= puts it beside the entry point
    shutil.copytree(os.path.join(ROOT, "sagemaker_hetero"), str(whole / "sagemaker_hetero"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    result = _imports_alone(whole)
    assert (result.returncode, result.stdout.strip()) == (0, "[]"), result.stderr
