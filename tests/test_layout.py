"""The stages import downward only (docs/architecture.md): _model < _request < _checks, each
subpackage's ``__init__`` empty, read from the code's import statements (those inside functions too)."""
import ast
import os

import pytest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "sagemaker_hetero")
GROUND = ("sagemaker_hetero._defaults", "sagemaker_hetero.exceptions", "sagemaker_hetero.utils")
#: stage -> what its modules may import of the package (besides the ground floor)
ALLOWED = {
    "_model": ("_model",),
    "_request": ("_request", "_model"),
    "_checks": ("_checks", "_request", "_model"),
}


def _imports(path):
    """The package modules ``path`` imports (``from sagemaker_hetero import x`` as ``sagemaker_hetero.x``)."""
    tree = ast.parse(open(path).read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("sagemaker_hetero"):
            if node.module == "sagemaker_hetero":
                for alias in node.names:
                    yield "sagemaker_hetero." + alias.name
            else:
                yield node.module


@pytest.mark.parametrize("stage", sorted(ALLOWED))
def test_a_stage_imports_only_the_stages_below_it(stage):
    folder = os.path.join(PACKAGE, stage)
    allowed = tuple("sagemaker_hetero.%s" % s for s in ALLOWED[stage]) + GROUND
    upward = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            for module in _imports(os.path.join(folder, name)):
                if module.startswith("sagemaker_hetero") and not any(
                        module == a or module.startswith(a + ".") for a in allowed):
                    upward.append("%s/%s imports %s" % (stage, name, module))
    assert upward == []


@pytest.mark.parametrize("stage", sorted(ALLOWED))
def test_a_stages_init_holds_a_docstring_at_most(stage):
    tree = ast.parse(open(os.path.join(PACKAGE, stage, "__init__.py")).read())
    assert all(isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) for node in tree.body)
