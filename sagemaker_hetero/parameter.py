"""Hyperparameter ranges for tuning jobs, with the SageMaker Python SDK v2's names and arguments.

``ContinuousParameter(0.001, 0.1, scaling_type="Logarithmic")``, ``IntegerParameter(32, 256)`` and
``CategoricalParameter(["adam", "sgd"])`` are values of a ``HyperparameterTuner``'s
``hyperparameter_ranges``. They only hold what was given: the ranges are checked with the tuner
(``fit`` or a dry run), together with everything else, and written into the request there.
"""
from typing import Any, List, Union

import attrs

__all__ = ["ParameterRange", "ContinuousParameter", "IntegerParameter", "CategoricalParameter"]

#: The scaling of a range the SDK v2 sends when none is given.
DEFAULT_SCALING = "Auto"


class ParameterRange(object):
    """What every range is (``isinstance(r, ParameterRange)``). Use a subclass."""

    #: ``"Continuous"``, ``"Integer"`` or ``"Categorical"`` (the SDK v2's ``__name__`` of a range)
    kind = None


@attrs.frozen
class _Bounded(ParameterRange):
    """A range from ``min_value`` to ``max_value`` searched with ``scaling_type`` (``"Auto"``,
    ``"Linear"``, ``"Logarithmic"`` or ``"ReverseLogarithmic"``)."""

    min_value: Union[int, float] = attrs.field()
    max_value: Union[int, float] = attrs.field()
    scaling_type: str = attrs.field(default=DEFAULT_SCALING)

    def is_valid(self, value: Any) -> bool:
        """Whether a value lies in the range (the SDK v2's method).

        Parameters
        ----------
        value : int or float
            The value.
        """
        return self.min_value <= value <= self.max_value


@attrs.frozen
class ContinuousParameter(_Bounded):
    """A hyperparameter tuned over the real numbers of a range.

    Parameters
    ----------
    min_value : int or float
        The lowest value tried.
    max_value : int or float
        The highest value tried.
    scaling_type : str, default 'Auto'
        How the range is searched: ``"Auto"``, ``"Linear"``, ``"Logarithmic"`` or ``"ReverseLogarithmic"``.
    """

    kind = "Continuous"


@attrs.frozen
class IntegerParameter(_Bounded):
    """A hyperparameter tuned over the integers of a range.

    Parameters
    ----------
    min_value : int or float
        The lowest value tried.
    max_value : int or float
        The highest value tried.
    scaling_type : str, default 'Auto'
        How the range is searched: ``"Auto"``, ``"Linear"``, ``"Logarithmic"`` or ``"ReverseLogarithmic"``.
    """

    kind = "Integer"


def _as_list(values):
    return list(values) if isinstance(values, (list, tuple)) else [values]


@attrs.frozen
class CategoricalParameter(ParameterRange):
    """A hyperparameter tuned over a list of values.

    Parameters
    ----------
    values : list
        The values tried (one value is a list of one).
    """

    kind = "Categorical"

    values: List[Any] = attrs.field(converter=_as_list)

    def is_valid(self, value: Any) -> bool:
        """Whether a value is one of the values (the SDK v2's method).

        Parameters
        ----------
        value : object
            The value.
        """
        return value in self.values
