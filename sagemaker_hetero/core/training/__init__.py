"""SageMaker Python SDK v3's ``sagemaker.core.training``: the configuration classes (``configs``)."""

__all__ = []  # the modules are imported by name
