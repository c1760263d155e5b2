"""Every public class, function, method and property has a docstring in one style (numpydoc): what takes
arguments has a ``Parameters`` section naming each, in the signature's order (a class documents its
constructor's). The three estimators' sections are made from the table of arguments, so ``help()`` and
Jupyter's Shift-Tab explain every argument and a new one is documented in one place."""
import enum
import importlib
import inspect
import os
import pkgutil
import pydoc
import re
import warnings

import pytest

import sagemaker_hetero
from sagemaker_hetero._model import docstrings
from sagemaker_hetero._model.arguments import BY_NAME
from sagemaker_hetero.estimator import Estimator
from sagemaker_hetero.pytorch import PyTorch
from sagemaker_hetero.tensorflow import TensorFlow

PACKAGE = os.path.dirname(sagemaker_hetero.__file__)
ESTIMATORS = [Estimator, PyTorch, TensorFlow]
HEADING = re.compile(r"^(\*{0,2}\w+(?:, \*{0,2}\w+)*)(?: : \S.*)?$", re.M)  # numpydoc: "a, b : int" too


def _public_modules():
    """The package's public modules: those whose dotted name has no part starting with ``_``."""
    names = ["sagemaker_hetero"]
    for info in pkgutil.walk_packages([PACKAGE], "sagemaker_hetero."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return sorted(names)


def _parameters(function):
    """Parameter names as a docstring writes them (``*args``, ``**kwargs``), without a first self or cls."""
    out = []
    for i, p in enumerate(inspect.signature(function).parameters.values()):
        if i == 0 and p.name in ("self", "cls"):
            continue
        out.append({p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "") + p.name)
    return out


def _documented(doc):
    """The parameter names of the docstring's numpydoc ``Parameters`` section, in order."""
    match = re.search(r"^Parameters\n-{10}\n(.*?)(?:\n\n[A-Z][a-z]+\n-+\n|\Z)", doc, flags=re.S | re.M)
    return [name for heading in HEADING.findall(match.group(1)) for name in heading.split(", ")] if match else []


def _members(cls):
    """The public methods and properties ``cls`` defines itself (and its ``__init__``)."""
    for name, value in vars(cls).items():
        if name.startswith("_") and name != "__init__":
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if inspect.isfunction(value) or isinstance(value, property):
            yield name, value


def _api():
    """``(label, object, owner class or None)`` of everything public, each once."""
    seen = set()
    for module_name in _public_modules():
        with warnings.catch_warnings():  # the deprecated train.configs shim warns on import, as SDK v3's does
            warnings.simplefilter("ignore", DeprecationWarning)
            module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            items = [(name, obj, None)]
            if inspect.isclass(obj):
                items += [("%s.%s" % (name, k), v, obj) for k, v in _members(obj)]
            for label, item, owner in items:
                if (inspect.isclass(item) or inspect.isfunction(item) or isinstance(item, property)) and \
                        id(item) not in seen:
                    seen.add(id(item))
                    yield "%s.%s" % (module_name, label), item, owner


API = sorted(_api(), key=lambda entry: entry[0])


@pytest.mark.parametrize("label, item, owner", API, ids=[entry[0] for entry in API])
def test_every_public_object_is_documented_in_one_style(label, item, owner):
    doc = item.__doc__ if isinstance(item, property) or item.__name__ == "__init__" else inspect.getdoc(item)
    assert doc and doc.strip() and not doc.startswith("Initialize self"), label
    if isinstance(item, property) or item.__name__ == "__init__":
        return  # a class documents its constructor's parameters
    if inspect.isclass(item):
        if issubclass(item, enum.Enum) or not inspect.isfunction(vars(item).get("__init__")):
            return  # a class documents the constructor it defines (an inherited one is documented where defined)
        wanted = _parameters(item.__init__)
    else:
        wanted = _parameters(item)
    if wanted:
        assert _documented(inspect.getdoc(item)) == wanted, label
        _check_defaults(item.__init__ if inspect.isclass(item) else item, inspect.getdoc(item), label)


def _check_defaults(function, doc, label):
    """A heading's ``, default VALUE`` is the signature's default, and ``, optional`` a default's mark."""
    params = inspect.signature(function).parameters
    for name, rest in re.findall(r"^(\w+) : .*?(, default .*|, optional)?$", doc, flags=re.M):
        if name not in params or not rest:
            continue
        default = params[name].default
        assert default is not inspect.Parameter.empty, (label, name)
        if rest.startswith(", default "):
            assert rest[len(", default "):] == repr(default), (label, name, default)


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
