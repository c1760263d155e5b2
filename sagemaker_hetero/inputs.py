"""Training inputs (channels), with the SageMaker Python SDK v2's names and argument order."""
from sagemaker_hetero._model.user import ShuffleConfig, TrainingInput

__all__ = ["TrainingInput", "ShuffleConfig"]
