"""SageMaker Python SDK v3's ``sagemaker.core.helper``: the session (``session_helper``)."""
