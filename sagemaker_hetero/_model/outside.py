"""What the pure stages read from outside the process, handed in by the edge.

``_model``, ``_request`` and ``_checks`` import no I/O module (no ``os``, ``io``, ``pathlib``, ...,
``botocore``: tests/test_layout.py): what they need of the world comes through here, as functions
the edge hands in with :func:`hand_in`. ``sagemaker_hetero/__init__`` hands in ``_aws.files``' when
the package is first imported, before any stage runs; a test may hand in others. The inputs:

- ``data_text(name)``: the text of the package data file ``name`` (``service_model.json``, ...);
- ``file_head(path, size, regular_only)``: at most ``size`` first bytes of the file at ``path``
  (``regular_only``: refuse a FIFO, device or folder); raises ``OSError``;
- ``aws_config(path)``: the text of the AWS config file (``path``; None: the default place), or None;
- ``live_service_model()``: the installed botocore's SageMaker service model, or None.

Pure: holds the functions and calls them when asked.
"""
__all__ = ["hand_in", "data_text", "file_head", "aws_config", "live_service_model"]

_NAMES = ("data_text", "file_head", "aws_config", "live_service_model")
_given = {}


def hand_in(**readers):
    """Hand in readers by name (see the module docstring); each replaces the one given before."""
    unknown = sorted(set(readers) - set(_NAMES))
    if unknown:
        raise TypeError("hand_in() takes %s, not %s" % (", ".join(_NAMES), ", ".join(unknown)))
    _given.update(readers)


def _reader(name):
    try:
        return _given[name]
    except KeyError:
        raise RuntimeError("no %s was handed in: sagemaker_hetero's __init__ hands in _aws.files' readers "
                           "(outside.hand_in)" % name)


def data_text(name):
    """The text of the package data file ``name``."""
    return _reader("data_text")(name)


def file_head(path, size, regular_only=False):
    """At most ``size`` first bytes of the file at ``path``; raises ``OSError``."""
    return _reader("file_head")(path, size, regular_only)


def aws_config(path=None):
    """The AWS config file's text (at ``path``; None: the default place), or None when it cannot be read."""
    return _reader("aws_config")(path)


def live_service_model():
    """The installed botocore's SageMaker service model, or None (no botocore, or no model in it)."""
    return _reader("live_service_model")()
