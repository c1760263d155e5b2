"""SageMaker Python SDK v3's ``sagemaker.core.helper``: the session (``session_helper``)."""

__all__ = []  # the modules are imported by name
