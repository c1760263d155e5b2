"""Instance groups: the parts of a heterogeneous cluster."""
from sagemaker_hetero._model.user import InstanceGroup

__all__ = ["InstanceGroup"]
