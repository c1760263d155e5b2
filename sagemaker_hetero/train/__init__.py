"""SageMaker Python SDK v3's training API, with this package's checks and runs."""
