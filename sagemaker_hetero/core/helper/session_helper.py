"""SageMaker Python SDK v3's ``sagemaker.core.helper.session_helper``: ``Session`` and ``get_execution_role``.

They are this package's (``sagemaker_hetero.session``): the same session serves the SDK v2 estimators
and ``ModelTrainer``, so preflight, cost, logs by group and ``attach`` work on both.
"""
from sagemaker_hetero.session import Session, get_execution_role

__all__ = ["Session", "get_execution_role"]
