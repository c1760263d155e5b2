"""sagemaker-hetero: SageMaker training jobs on heterogeneous clusters.

The public names below are imported lazily (PEP 562), so ``import sagemaker_hetero`` and
``import sagemaker_hetero.training`` stay light: neither imports boto3, botocore or attrs. The pure stages
read the world through what the edge hands in (``_model.outside``): ``_aws.files`` hands it in here,
before any stage runs (a copy of the training runtime alone has no stages, and no ``_aws``).
"""
import importlib as _importlib

try:
    from sagemaker_hetero._aws import files as _files
except ModuleNotFoundError as _missing:  # the smallest copy of the training runtime (docs/runtime.md)
    if _missing.name != "sagemaker_hetero._aws":
        raise
else:
    _files.hand_in()
    del _files

__version__ = "0.1.0"

_EXPORTS = {
    "InstanceGroup": "sagemaker_hetero.instance_group",
    "TrainingInput": "sagemaker_hetero.inputs",
    "ShuffleConfig": "sagemaker_hetero.inputs",
    "Estimator": "sagemaker_hetero.estimator",
    "PyTorch": "sagemaker_hetero.pytorch",
    "TensorFlow": "sagemaker_hetero.tensorflow",
    "Session": "sagemaker_hetero.session",
    "get_execution_role": "sagemaker_hetero.session",
    "TrainingJob": "sagemaker_hetero.session",
    "LocalSession": "sagemaker_hetero.local",
    "ConfigError": "sagemaker_hetero.exceptions",
    "UnexpectedStatusException": "sagemaker_hetero.exceptions",
}

# Modules SDK v2 code reaches as attributes after ``import sagemaker`` (``sagemaker.s3.S3Uploader``,
# ``sagemaker.utils.name_from_base``, ``sagemaker.exceptions.UnexpectedStatusException``,
# ``sagemaker.inputs.TrainingInput``, ``sagemaker.tuner.HyperparameterTuner``,
# ``sagemaker.local.data.get_data_source_instance``, ``sagemaker.workflow.pipeline.Pipeline``), imported on first use.
_SUBMODULES = ("estimator", "exceptions", "inputs", "instance_group", "local", "parameter", "pytorch", "s3", "session",
               "tensorflow", "tuner", "utils", "workflow")

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name):
    if name in _SUBMODULES:
        return _importlib.import_module("sagemaker_hetero." + name)
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError("module 'sagemaker_hetero' has no attribute %r" % (name,))
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS) | set(_SUBMODULES))
