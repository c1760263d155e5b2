"""Pipeline parameters, with the SageMaker Python SDK v2's names (``sagemaker.workflow.parameters``).

``ParameterInteger("TrainCount", default_value=2)`` and ``ParameterString("TrainType",
default_value="ml.p4d.24xlarge")`` stand for values a pipeline execution chooses (the classes live
in ``_model.parameters``, where the job model reads them).
"""
from sagemaker_hetero._model.parameters import Parameter, ParameterInteger, ParameterString

__all__ = ["Parameter", "ParameterString", "ParameterInteger"]
