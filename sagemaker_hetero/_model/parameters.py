"""Pipeline parameters, with the SageMaker Python SDK v2's names (``sagemaker.workflow.parameters``).

``ParameterInteger("TrainCount", default_value=2)`` and ``ParameterString("TrainType",
default_value="ml.p4d.24xlarge")`` stand for values a pipeline execution chooses. An estimator
takes them as instance counts, instance types and input URIs; a ``TrainingStep`` writes them into
its arguments as ``{"Get": "Parameters.<name>"}`` and the estimator's checks use their default
values (a parameter without a default is not checked). They live here, low in the house, because
the job model reads them (``_model.variables``); ``sagemaker_hetero.workflow.parameters`` (and
``sagemaker_hetero.workflow``) re-export them, each class naming that public module as its
``__module__``.
"""
from typing import Any, Dict, List, Optional

import attrs

__all__ = ["Parameter", "ParameterString", "ParameterInteger"]


@attrs.frozen
class Parameter(object):
    """A pipeline parameter. Use a subclass.

    Parameters
    ----------
    name : str
        The parameter's name in the pipeline.
    default_value : object, optional
        Its value when an execution gives none.
    """

    #: the parameter's type in a pipeline definition
    parameter_type = None

    name: str = attrs.field()
    default_value: Any = attrs.field(default=None)

    @property
    def expr(self) -> Dict[str, str]:
        """How a pipeline definition refers to the parameter's value."""
        return {"Get": "Parameters.%s" % (self.name,)}

    def to_request(self) -> Dict[str, Any]:
        """The parameter as a pipeline definition declares it."""
        request = {"Name": self.name, "Type": self.parameter_type}
        if self.default_value is not None:
            request["DefaultValue"] = self.default_value
        return request


@attrs.frozen
class ParameterString(Parameter):
    """A string parameter (an instance type, an input URI).

    Parameters
    ----------
    name : str
        The parameter's name in the pipeline.
    default_value : str, optional
        Its value when an execution gives none.
    enum_values : list of str, optional
        The values it may take.
    """

    parameter_type = "String"

    enum_values: Optional[List[str]] = attrs.field(default=None)

    def to_request(self) -> Dict[str, Any]:
        request = super(ParameterString, self).to_request()
        if self.enum_values:
            request["EnumValues"] = list(self.enum_values)
        return request


@attrs.frozen
class ParameterInteger(Parameter):
    """An integer parameter (an instance count).

    Parameters
    ----------
    name : str
        The parameter's name in the pipeline.
    default_value : int, optional
        Its value when an execution gives none.
    """

    parameter_type = "Integer"


for _cls in (Parameter, ParameterString, ParameterInteger):
    _cls.__module__ = "sagemaker_hetero.workflow.parameters"
