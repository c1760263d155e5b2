"""SageMaker Python SDK v3's ``sagemaker.core.utils``: its exceptions (``exceptions``)."""
