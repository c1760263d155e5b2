"""SageMaker Python SDK v3's ``sagemaker.core.training``: the configuration classes (``configs``)."""
