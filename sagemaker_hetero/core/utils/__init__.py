"""SageMaker Python SDK v3's ``sagemaker.core.utils``: its exceptions (``exceptions``)."""

__all__ = []  # the modules are imported by name
