"""SageMaker Python SDK v3's training API, with this package's checks and runs (docs/v3.md).

``from sagemaker_hetero.train import ModelTrainer``: imported on first use (PEP 562), so importing
``sagemaker_hetero.train.distributed`` alone imports no more than it needs.
"""
import importlib as _importlib

_ON_FIRST_USE = {"ModelTrainer": "sagemaker_hetero.train.model_trainer", "Mode": "sagemaker_hetero.train.model_trainer"}

__all__ = ["ModelTrainer"]


def __getattr__(name):
    module = _ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError("module 'sagemaker_hetero.train' has no attribute %r" % (name,))
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_ON_FIRST_USE))
