"""DEPRECATED, as in SDK v3: the configuration classes moved to ``sagemaker_hetero.core.training.configs``.

Importing this module warns (``DeprecationWarning``) as ``sagemaker.train.configs`` does, and gives
the same classes.
"""
import warnings

from sagemaker_hetero.core.training.configs import *  # noqa: F401, F403
from sagemaker_hetero.core.training.configs import __all__  # noqa: F401

warnings.warn(
    "sagemaker_hetero.train.configs has been moved to sagemaker_hetero.core.training.configs. "
    "Please update your imports. This shim will be removed in a future version.",
    DeprecationWarning,
    stacklevel=2,
)
