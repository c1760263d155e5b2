"""Inside the training job: the environment of this host, and forking the entry point by instance group.

Standard library only (importing it pulls neither boto3, botocore nor attrs), so it can run in any
training container::

    from sagemaker_hetero.training import Environment, run_by_group

    run_by_group({"data_group": serve_data, "dnn_group": train})

``wait_for_group`` and ``signal_done`` let a helper group (serving data) wait until the trainers are done.
"""
from ..exceptions import RuntimeConfigError
from ._dispatch import cluster_groups, run_by_group
from ._marker import MARKER_PREFIX, format_marker, parse_marker
from ._rendezvous import RENDEZVOUS_PORT, signal_done, wait_for_group
from .environment import HOMOGENEOUS_GROUP, Environment, to_cmd_args

__all__ = [
    "Environment",
    "HOMOGENEOUS_GROUP",
    "MARKER_PREFIX",
    "RENDEZVOUS_PORT",
    "RuntimeConfigError",
    "cluster_groups",
    "format_marker",
    "parse_marker",
    "run_by_group",
    "signal_done",
    "to_cmd_args",
    "wait_for_group",
]
