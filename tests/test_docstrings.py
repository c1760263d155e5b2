"""The three estimators' numpydoc ``Parameters`` sections are made from the table of arguments, so
``help()`` and Jupyter's Shift-Tab explain every argument and a new one is documented in one place."""
import inspect
import pydoc
import re

import pytest

from sagemaker_hetero._model import docstrings
from sagemaker_hetero._model.arguments import BY_NAME
from sagemaker_hetero.estimator import Estimator
from sagemaker_hetero.pytorch import PyTorch
from sagemaker_hetero.tensorflow import TensorFlow

ESTIMATORS = [Estimator, PyTorch, TensorFlow]
HEADING = re.compile(r"^(\*{0,2}\w+) : \S", re.M)


def _documented(doc):
    """The parameter names of the docstring's numpydoc ``Parameters`` section, in order."""
    match = re.search(r"^Parameters\n-{10}\n(.*?)(?:\n\n[A-Z][a-z]+\n-+\n|\Z)", doc, flags=re.S | re.M)
    return HEADING.findall(match.group(1)) if match else []


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_help_of_each_estimator_documents_every_argument_in_the_signatures_order(cls):
    names = [p for p in inspect.signature(cls).parameters]
    assert _documented(inspect.getdoc(cls)) == names
    shown = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    for name in names:  # each with the table's words, as help() shows them
        words = BY_NAME[name].doc.split()
        assert re.search(r"\b%s : .*\n\s*\|?\s*%s" % (name, re.escape(words[0])), shown), name
    assert "Initialize self" not in shown
    assert cls.__init__.__doc__.startswith("Describe a training job")


def test_the_sections_are_made_from_the_table(monkeypatch):
    monkeypatch.setitem(BY_NAME, "training_plan", BY_NAME["training_plan"].__class__("training_plan", doc="A new line."))
    section = docstrings.parameters_section(PyTorch.__init__)
    assert "training_plan : str, optional\n    A new line.\n" in section
    assert "volume_size : int, default 30\n" in section and "sagemaker_session : Session or LocalSession, optional" \
        in section


def test_an_import_does_not_make_the_docstrings():
    import subprocess
    import sys

    code = ("import sagemaker_hetero.pytorch as m, sagemaker_hetero._model.docstrings as d\n"
            "assert m.PyTorch.__dict__['__doc__'].text is None\n"
            "assert 'Parameters' in m.PyTorch.__doc__ and m.PyTorch.__dict__['__doc__'].text is not None\n")
    subprocess.run([sys.executable, "-c", code], check=True)
