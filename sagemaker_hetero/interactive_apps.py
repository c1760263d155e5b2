"""The SageMaker Studio apps a training job can be opened in (``estimator.get_app_url``)."""
import enum

__all__ = ["SupportedInteractiveAppTypes"]


class SupportedInteractiveAppTypes(enum.Enum):
    """The apps ``get_app_url`` gives a URL for, as the SageMaker Python SDK v2 names them."""

    TENSORBOARD = 1
