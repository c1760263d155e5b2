"""SageMaker Python SDK v3's ``sagemaker.core`` names the training API uses (docs/v3.md)."""

__all__ = []  # the modules are imported by name
