"""SageMaker Python SDK v3's ``sagemaker.train.distributed``: ``Torchrun``, ``MPI`` and ``SMP``.

One addition SDK v3 lacks: ``instance_group_names=["gpu"]`` (exactly one group, as the SDK v2's
``distribution["instance_groups"]``) starts the launcher on that group's hosts only, with a rendezvous
of that group alone; the other groups run the entry script or command plainly. Without it every host
joins the launcher, as in SDK v3 (a heterogeneous dry run warns that CPU hosts join the GPU
rendezvous). Either way the request is the same: only the driver files differ (docs/v3.md).
"""
import json
from typing import Any, Dict, List, Optional

from sagemaker_hetero.core.training.configs import BaseConfig

__all__ = ["SMP", "DistributedConfig", "Torchrun", "MPI"]


class SMP(BaseConfig):
    """SageMaker model parallelism v2's parameters (sent as the hyperparameter ``mp_parameters``)."""

    def __init__(self, *, hybrid_shard_degree: Optional[int] = None, sm_activation_offloading: Optional[bool] = None,
                 activation_loading_horizon: Optional[int] = None, fsdp_cache_flush_warnings: Optional[bool] = None,
                 allow_empty_shards: Optional[bool] = None, tensor_parallel_degree: Optional[int] = None,
                 context_parallel_degree: Optional[int] = None, expert_parallel_degree: Optional[int] = None,
                 random_seed: Optional[int] = None) -> None:
        self._keep(locals())

    def _to_mp_hyperparameters(self):
        # type: () -> Dict[str, Any]
        """``{"mp_parameters": <the parameters given, as JSON>}``, as SDK v3 writes them."""
        given = dict((k, v) for k, v in self.model_dump().items() if v is not None)
        return {"mp_parameters": json.dumps(given)}


class DistributedConfig(BaseConfig):
    """What ``Torchrun`` and ``MPI`` share: the launcher's name (``type``) and the one instance group."""

    type = ""  # type: str

    def _driver_config(self):
        # type: () -> Dict[str, Any]
        """What the driver reads (``distributed.json``): the type, the fields, the group."""
        config = dict(self.model_dump(), type=self.type)
        groups = config.get("instance_group_names")
        config["instance_group_names"] = list(groups) if isinstance(groups, (list, tuple)) else groups
        return config


class Torchrun(DistributedConfig):
    """Launch the entry script with ``torchrun``: on every host (SDK v3), or on one instance group's.

    Parameters
    ----------
    process_count_per_node : int, optional
        Processes per host (default: the host's GPUs).
    smp : SMP, optional
        SageMaker model parallelism v2's parameters.
    instance_group_names : list of str, optional
        Exactly one instance group whose hosts run torchrun (this package's addition).
    """

    type = "torchrun"

    def __init__(self, *, process_count_per_node: Optional[int] = None, smp: Optional[SMP] = None,
                 instance_group_names: Optional[List[str]] = None) -> None:
        self._keep(locals())


class MPI(DistributedConfig):
    """Launch the entry script with ``mpirun``: on every host (SDK v3), or on one instance group's.

    Parameters
    ----------
    process_count_per_node : int, optional
        Processes per host (default: the host's GPUs).
    mpi_additional_options : list of str, optional
        More options of ``mpirun``.
    instance_group_names : list of str, optional
        Exactly one instance group whose hosts run mpirun (this package's addition).
    """

    type = "mpi"

    def __init__(self, *, process_count_per_node: Optional[int] = None,
                 mpi_additional_options: Optional[List[str]] = None,
                 instance_group_names: Optional[List[str]] = None) -> None:
        self._keep(locals())
