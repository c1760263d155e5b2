"""The estimators' parameter docs, made from the table's ``doc`` column and the written-out signatures.

numpydoc style: a ``Parameters`` section listing each argument of the signature, in its order (the
SageMaker Python SDK v2's), as ``name : type, optional`` (or ``, default VALUE``) with its table line
wrapped below. :func:`documented` puts the section in a class's docstring and gives ``__init__`` a
docstring of its own, so ``help(PyTorch)`` and Jupyter's Shift-Tab explain every argument while a new
argument is documented once, in its row of ``_model.arguments``. The class docstring is made when first
read (``type.__doc__`` calls the ``__get__`` of what the class holds), so an import pays nothing for it,
and ``inspect`` is imported only then (a dry run never imports it). Pure: reads annotations, calls nothing.
"""
import typing

from sagemaker_hetero._model.arguments import BY_NAME

__all__ = ["type_text", "parameters_section", "documented"]

_WIDTH = 100
_INDENT = "    "
#: Parameters whose annotation says less than their meaning.
_TYPES = {"sagemaker_session": "Session or LocalSession"}


def type_text(annotation):
    """An annotation in words: ``Optional[List[str]]`` -> ``"list of str"``, ``Union[str, bool]`` ->
    ``"str or bool"``, ``Dict[str, Any]`` -> ``"dict"``, ``Any`` -> ``"object"``."""
    import inspect  # when a docstring is made: an import pays nothing for it

    origin = getattr(annotation, "__origin__", None)
    args = [a for a in getattr(annotation, "__args__", None) or () if a is not type(None)]
    if origin is typing.Union:
        return " or ".join(type_text(a) for a in args)
    if origin in (list, tuple):
        return "list of %s" % type_text(args[0]) if args else "list"
    if origin is dict:
        return "dict"
    if annotation is typing.Any or annotation is inspect.Parameter.empty:
        return "object"
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def _heading(parameter):
    import inspect

    text = "%s : %s" % (parameter.name, _TYPES.get(parameter.name) or type_text(parameter.annotation))
    if parameter.default is None:
        return text + ", optional"
    if parameter.default is not inspect.Parameter.empty:
        return text + ", default %r" % (parameter.default,)
    return text


def parameters_section(function, docs=None):
    """The numpydoc ``Parameters`` section of ``function``'s signature (``self`` left out): each
    parameter's heading, then its line of ``docs`` (``{name: text}``; default: the table's ``doc``)."""
    import inspect  # when a docstring is first read: an import pays nothing for either
    import textwrap

    lines = ["Parameters", "----------"]
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name == "self":
            continue
        text = docs[parameter.name] if docs is not None else BY_NAME[parameter.name].doc
        lines.append(_heading(parameter))
        lines.extend(textwrap.wrap(text, _WIDTH, initial_indent=_INDENT, subsequent_indent=_INDENT))
    return "\n".join(lines)


class _ClassDoc(object):
    """A class's docstring, its summary and the ``Parameters`` of its ``__init__``, made when first read."""

    def __init__(self, summary, init):
        self.summary = summary
        self.init = init
        self.text = None

    def __get__(self, instance, owner):
        if self.text is None:
            import inspect

            self.text = "%s\n\n%s" % (inspect.cleandoc(self.summary), parameters_section(self.init))
        return self.text


def documented(cls):
    """Class decorator: ``cls``'s docstring followed by the ``Parameters`` of its ``__init__`` (made
    from the table), and a docstring for ``__init__`` pointing there, in place of "Initialize self"."""
    cls.__doc__ = _ClassDoc(cls.__doc__ or "", cls.__init__)
    cls.__init__.__doc__ = "Describe a training job run by %s; help(%s) documents every parameter." % (
        cls.__name__, cls.__name__)
    return cls
