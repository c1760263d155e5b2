"""The jobs whose cost the tests compute by hand: a two-group and a five-group cluster."""
from sagemaker_hetero import Estimator, InstanceGroup
from tests.cost import _price_list

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
IMAGE = "123456789012.dkr.ecr.us-west-2.amazonaws.com/trainer:1"
#: The recorded us-west-2 prices as a ``prices=`` mapping (floats, as a user gives them).
PRICES = dict((t, float(p)) for t, p in _price_list.US_WEST_2.items())
TWO = [InstanceGroup("cpu", "ml.c5.xlarge", 2), InstanceGroup("gpu", "ml.p3.2xlarge", 1)]
FIVE = [
    InstanceGroup("ingest", "ml.c5.xlarge", 4),
    InstanceGroup("decode", "ml.c5.18xlarge", 2),
    InstanceGroup("shuffle", "ml.m5.2xlarge", 3),
    InstanceGroup("small", "ml.g5.2xlarge", 2),
    InstanceGroup("big", "ml.p4d.24xlarge", 1),
]


def estimator(groups, **kwargs):
    kwargs.setdefault("output_path", "s3://cost-bucket/out")
    return Estimator(image_uri=IMAGE, role=ROLE, instance_groups=groups, **kwargs)
