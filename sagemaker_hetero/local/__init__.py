"""Run a training job's instance groups as real processes on this machine, as SageMaker would.

::

    from sagemaker_hetero.local import LocalSession

    estimator = PyTorch(..., instance_groups=[cpu, gpu], sagemaker_session=LocalSession())
    estimator.fit({"train": TrainingInput("file:///data/train", instance_groups=["cpu"])})

The estimator validates and renders the same CreateTrainingJob request as for AWS; the session
runs it: one process per host, each with its own SageMaker-like base folder, ``SM_*`` variables,
``algo-N`` name and loopback address. See docs/local.md for what is and is not faithful.
Importing this module does not import boto3 (it is imported only for ``s3://`` data).
``sagemaker_hetero.local.data`` has the SageMaker Python SDK v2's data sources by URI
(``get_data_source_instance``).
"""
from sagemaker_hetero.local import data
from sagemaker_hetero.local._job import LocalJob
from sagemaker_hetero.local._session import LocalSession, default_root
from sagemaker_hetero.local._storage import LOCAL_BUCKET

__all__ = ["LOCAL_BUCKET", "LocalJob", "LocalSession", "default_root"]
