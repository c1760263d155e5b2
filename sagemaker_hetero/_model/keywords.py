"""An unknown keyword argument, refused with the closest known one named. Pure: standard library only.

:func:`keywords_checked` decorates an ``__init__`` written out in full (the estimators') or generated
(``InstanceGroup``, ``TrainingInput``, ``ShuffleConfig``): a keyword it does not name is a ``TypeError``
saying ``did you mean 'instance_groups'?``, as Python's own would be but with the hint. Typed so that
mypy and IDEs keep checking calls against the signature itself (no ``**kwargs`` catch-all in it).
"""
import functools
from typing import Any, Callable, TypeVar, cast

__all__ = ["did_you_mean", "keywords_checked"]

F = TypeVar("F", bound=Callable[..., Any])


def did_you_mean(word, choices, cutoff=0.6):
    """``"; did you mean 'x'?"`` naming the choice closest to ``word``, or ``""`` if none is close."""
    import difflib  # only when a name is wrong

    close = difflib.get_close_matches(str(word), sorted(choices), n=1, cutoff=cutoff)
    return "; did you mean %r?" % close[0] if close else ""


def keywords_checked(init: F) -> F:
    """Decorate an ``__init__`` so that an unknown keyword is a ``TypeError`` naming the closest argument.
    The signature stays the function's own (``functools.wraps``), and its type the decorated one's."""
    code = init.__code__
    known = frozenset(code.co_varnames[1:code.co_argcount + code.co_kwonlyargcount])

    @functools.wraps(init)
    def checked(self, *args, **kwargs):
        for name in kwargs:
            if name not in known:
                hint = did_you_mean(name, known, cutoff=0.5)
                raise TypeError("%s() got an unexpected keyword argument %r%s" % (type(self).__name__, name, hint))
        return init(self, *args, **kwargs)

    return cast(F, checked)
