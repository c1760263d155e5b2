"""SageMaker Pipelines for heterogeneous training jobs, with the SageMaker Python SDK v2's names.

``TrainingStep(name, estimator=..., inputs=...)`` is a pipeline step whose arguments are the
estimator's CreateTrainingJob request (without the job's name); ``Pipeline(name, steps,
parameters).definition()`` is the pipeline definition SageMaker takes, ``upsert(role_arn)`` and
``start()`` create and run it. ``ParameterString`` / ``ParameterInteger`` stand for instance
counts, instance types and input URIs an execution chooses (docs/pipelines.md).

The names below, and the modules ``parameters``, ``pipeline`` and ``steps`` as attributes
(``sagemaker.workflow.pipeline.Pipeline`` after ``import sagemaker_hetero as sagemaker``), are imported
on first use (PEP 562), so importing one module of this package does not import the others.
"""
import importlib as _importlib

_LAZY = {
    "Pipeline": "sagemaker_hetero.workflow.pipeline",
    "PipelineExecution": "sagemaker_hetero.workflow.pipeline",
    "TrainingStep": "sagemaker_hetero.workflow.steps",
    "Parameter": "sagemaker_hetero.workflow.parameters",
    "ParameterString": "sagemaker_hetero.workflow.parameters",
    "ParameterInteger": "sagemaker_hetero.workflow.parameters",
}

__all__ = sorted(_LAZY)


_LAZY_MODULES = ("parameters", "pipeline", "steps")


def __getattr__(name):
    if name in _LAZY_MODULES:
        return _importlib.import_module("sagemaker_hetero.workflow." + name)
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError("module 'sagemaker_hetero.workflow' has no attribute %r" % (name,))
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_LAZY_MODULES))
