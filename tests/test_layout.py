"""The private subpackages import downward only (docs/architecture.md): _model < _request < _checks <
_cost < _usage < _aws < _preflight, _tuning above the runner, and _cli (the command line's parts) above the public
modules it drives; the pure stages never reach the AWS edge; _model, _request and _checks import no I/O
module (what they read is handed in: _model.outside); boto3 and botocore are imported in the AWS edge
alone; each private stage's ``__init__`` holds a docstring at most. Read from the code's import statements (those inside
functions too)."""
import ast
import os

import pytest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "sagemaker_hetero")
GROUND = ("sagemaker_hetero._defaults", "sagemaker_hetero.exceptions", "sagemaker_hetero.utils")
#: subpackage -> what its modules may import of the package (besides the ground floor)
ALLOWED = {
    "_model": ("_model",),
    "_request": ("_request", "_model"),
    "_checks": ("_checks", "_request", "_model"),
    "_cost": ("_cost", "_checks", "_request", "_model"),
    "_usage": ("_usage", "_cost", "_request", "_model"),
    "_aws": ("_aws", "_usage", "_cost", "_checks", "_request", "_model", "training"),
    "_preflight": ("_preflight", "_aws", "_cost", "_checks", "_request", "_model"),
    "_tuning": ("_tuning", "_runner", "_checks", "_request", "_model", "parameter"),
    "_capacity": ("_capacity", "_runner", "_preflight", "_aws", "_cost", "_checks", "_request", "_model"),
    "_cli": ("_cli", "_capacity", "_tuning", "_runner", "_aws", "_usage", "_cost", "_checks", "_request", "_model",
             "inputs", "instance_group", "parameter", "tuner", "session", "local", "train", "core"),
}
#: the stages that are pure: none of them may import the AWS edge
PURE = ("_model", "_request", "_checks", "_cost", "_usage")
#: the stages that do no I/O: they import none of IO_MODULES (files, the environment, the installed
#: botocore's model are handed in from the edge, through _model.outside)
NO_IO = ("_model", "_request", "_checks")
IO_MODULES = ("os", "io", "pathlib", "shutil", "subprocess", "tempfile", "socket", "boto3", "botocore")
#: where boto3 and botocore may be imported: the AWS edge
BOTO_ALLOWED = ("_aws/",)


def _imports(path):
    """The modules ``path`` imports, by their full names (``from sagemaker_hetero import x`` and a
    relative ``from . import x`` as ``sagemaker_hetero.x``)."""
    package = os.path.relpath(os.path.dirname(path), os.path.dirname(PACKAGE)).replace(os.sep, ".")
    tree = ast.parse(open(path).read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]) if node.level else ""
            module = ".".join(part for part in (base, node.module) if part)
            if module == "sagemaker_hetero" or not node.module:
                for alias in node.names:
                    yield module + "." + alias.name
            else:
                yield module


def _modules(folder):
    for name in sorted(os.listdir(os.path.join(PACKAGE, folder))):
        if name.endswith(".py"):
            yield name, os.path.join(PACKAGE, folder, name)


def _within(module, names):
    return any(module == n or module.startswith(n + ".") for n in names)


@pytest.mark.parametrize("stage", sorted(ALLOWED))
def test_a_stage_imports_only_the_stages_below_it(stage):
    allowed = tuple("sagemaker_hetero.%s" % s for s in ALLOWED[stage]) + GROUND
    upward = []
    for name, path in _modules(stage):
        for module in _imports(path):
            if module.startswith("sagemaker_hetero") and not _within(module, allowed):
                upward.append("%s/%s imports %s" % (stage, name, module))
    assert upward == []


def test_the_pure_stages_never_import_the_aws_edge():
    found = ["%s/%s" % (stage, name) for stage in PURE for name, path in _modules(stage)
             if any(_within(m, ("sagemaker_hetero._aws",)) for m in _imports(path))]
    assert found == []


def _imported_roots(path):
    """``(line, top-level module)`` of every import in ``path`` (``import os.path`` and ``from os import
    sep`` are ``os``), those inside functions too; relative imports are the package's own."""
    for node in ast.walk(ast.parse(open(path).read(), path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            yield node.lineno, node.module.split(".")[0]


@pytest.mark.parametrize("stage", NO_IO)
def test_the_pure_stages_import_no_io_module(stage):
    found = ["%s/%s:%d imports %s" % (stage, name, line, module) for name, path in _modules(stage)
             for line, module in _imported_roots(path) if module in IO_MODULES]
    assert found == []


#: standard-library modules that import an I/O module of IO_MODULES when they are imported (os, io, shutil):
#: a pure stage imports them, if at all, inside the function that writes or reads through them
IO_AT_IMPORT = ("gzip", "tarfile", "zipfile", "shutil", "tempfile", "subprocess", "socket", "glob")

FRESH_IMPORT = """
import sys
import sagemaker_hetero
after_package = set(sys.modules)
for stage in sys.argv[1:]:
    __import__(stage)
print(" ".join(sorted(m for m in set(sys.modules) - after_package if m.split(".")[0] in sys.argv[0].split(","))))
"""


def test_importing_the_pure_stages_pulls_in_no_io_module_indirectly():
    # os and io are loaded before any import of ours, so the stages' own imports are read: _model/archive.py
    # imported gzip (which imports os and io) for every dry run's checks, which only ask its archive_name
    import subprocess
    import sys

    stages = ["sagemaker_hetero.%s.%s" % (stage, name[:-3]) for stage in NO_IO for name, _ in _modules(stage)
              if name != "__init__.py"]
    watched = ",".join(IO_AT_IMPORT + IO_MODULES)
    result = subprocess.run([sys.executable, "-c", FRESH_IMPORT.replace("sys.argv[0]", repr(watched))] + stages,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=60,
                            cwd=os.path.dirname(PACKAGE))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []


def test_the_io_imports_check_sees_every_form(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("import os.path\nfrom io import BytesIO\nimport json, socket as s\nfrom . import os\n"
                    "def f():\n    import subprocess\n    from botocore.session import get_session\n")
    assert sorted(m for _, m in _imported_roots(str(path)) if m in IO_MODULES) == [
        "botocore", "io", "os", "socket", "subprocess"]


def test_boto3_and_botocore_are_imported_in_the_aws_edge_alone():
    found = []
    for folder, _, files in os.walk(PACKAGE):
        for name in files:
            path = os.path.join(folder, name)
            where = os.path.relpath(path, PACKAGE).replace(os.sep, "/")
            if name.endswith(".py") and not where.startswith(BOTO_ALLOWED):
                found.extend("%s imports %s" % (where, m) for m in _imports(path) if _within(m, ("boto3", "botocore")))
    assert found == []


@pytest.mark.parametrize("stage", sorted(ALLOWED))
def test_a_stages_init_holds_a_docstring_at_most(stage):
    tree = ast.parse(open(os.path.join(PACKAGE, stage, "__init__.py")).read())
    assert all(isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) for node in tree.body)
