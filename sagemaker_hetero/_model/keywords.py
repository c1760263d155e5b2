"""An unknown keyword argument, refused with the closest known one named. Pure: standard library only.

:func:`keywords_checked` decorates an ``__init__`` written out in full (the estimators') or generated
(``InstanceGroup``, ``TrainingInput``, ``ShuffleConfig``): a keyword it does not name is a ``TypeError``
saying ``did you mean 'instance_groups'?``, as Python's own would be but with the hint; a framework
estimator's argument given to the generic ``Estimator`` says what to use instead (:data:`GENERIC_INSTEAD`).
Typed so that mypy and IDEs keep checking calls against the signature itself (no ``**kwargs`` catch-all
in it).
"""
import functools
from typing import Any, Callable, TypeVar, cast

__all__ = ["closest", "did_you_mean", "keywords_checked", "GENERIC_INSTEAD", "FRAMEWORK_ESTIMATORS", "instead"]

F = TypeVar("F", bound=Callable[..., Any])


#: The framework estimators, as the Python API names them (a spec says ``framework: pytorch or tensorflow``).
FRAMEWORK_ESTIMATORS = "the PyTorch or TensorFlow estimator"
_IMAGE_INSTEAD = ("the generic Estimator takes no %s, as in the SDK v2: give image_uri (the image it runs), or use "
          "%%(framework)s, which finds the image from framework_version and py_version")
#: A framework estimator's argument given to the generic Estimator: what to use instead (``%(framework)s``:
#: :data:`FRAMEWORK_ESTIMATORS` or the spec's words). docs/validation.md says the same.
GENERIC_INSTEAD = {
    "distribution": "the generic Estimator takes no distribution, as in the SDK v2: use %(framework)s (its "
                    "distribution starts the strategy's launcher, torchrun, mpirun, ..., on the hosts), or start the "
                    "launcher from your image's own entry point",
    "framework_version": _IMAGE_INSTEAD % "framework_version",
    "py_version": _IMAGE_INSTEAD % "py_version",
}


def instead(name, framework=FRAMEWORK_ESTIMATORS):
    """What to use instead of the framework estimator's argument ``name`` given to the generic
    Estimator (``framework``: how to name the framework estimators), or ``None``."""
    text = GENERIC_INSTEAD.get(name)
    return text % {"framework": framework} if text else None


def closest(word, choices, cutoff=0.6):
    """The choice closest to ``word``, or ``None`` if none is close."""
    import difflib  # only when a name is wrong

    close = difflib.get_close_matches(str(word), sorted(choices), n=1, cutoff=cutoff)
    return close[0] if close else None


def did_you_mean(word, choices, cutoff=0.6):
    """``"; did you mean 'x'?"`` naming the choice closest to ``word``, or ``""`` if none is close."""
    close = closest(word, choices, cutoff)
    return "; did you mean %r?" % close if close is not None else ""


def keywords_checked(init: F) -> F:
    """Decorate an ``__init__`` so that an unknown keyword is a ``TypeError`` naming the closest argument.
    The signature stays the function's own (``functools.wraps``), and its type the decorated one's."""
    code = init.__code__
    known = frozenset(code.co_varnames[1:code.co_argcount + code.co_kwonlyargcount])

    @functools.wraps(init)
    def checked(self, *args, **kwargs):
        for name in kwargs:
            if name not in known:
                advice = instead(name) if getattr(self, "framework", "") is None else None
                hint = ": " + advice if advice else did_you_mean(name, known, cutoff=0.5)
                raise TypeError("%s() got an unexpected keyword argument %r%s" % (type(self).__name__, name, hint))
        return init(self, *args, **kwargs)

    return cast(F, checked)
