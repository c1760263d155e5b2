"""THE table of distribution strategies: the keys of an estimator's ``distribution`` dict that name one,
and every fact the package keeps of each. Pure: standard library only.

Read by the job model (``_model/job.STRATEGIES``, a distribution's label), the request's hyperparameters
(``_model/hyperparameters``) and their reading back (``_request/describe``), our rules
(``_checks/rules``: unknown keys, frameworks, launchers, instance groups) and the local launchers
(``local/_launchers``).
"""
import collections

__all__ = ["Strategy", "TABLE", "BY_NAME", "STRATEGIES", "LAUNCHERS", "PLAIN", "FLAG", "only_for", "UNGROUPABLE",
           "LOCAL"]

#: ``name``: the ``distribution`` key. ``frameworks``: the estimators that take it. ``launches``: its place in
#: the order the training toolkit picks a launcher in (None: it launches nothing; several enabled launchers
#: are refused). ``groupable``: whether it may be tied to one instance group of a heterogeneous cluster.
#: ``hyperparameter``: the SDK v2's hyperparameter saying it is enabled. ``plain``: its section is that one
#: flag (read back as ``{"enabled": ...}``). ``local``: the local launcher that runs it (None: none).
Strategy = collections.namedtuple("Strategy", "name frameworks launches groupable hyperparameter plain local")

_BOTH, _PYTORCH, _TENSORFLOW = ("pytorch", "tensorflow"), ("pytorch",), ("tensorflow",)
_SMDDP = "sagemaker_distributed_dataparallel_enabled"

TABLE = (
    Strategy("mpi", _BOTH, 0, True, "sagemaker_mpi_enabled", False, "mpi"),
    # smdistributed launches nothing: modelparallel runs under mpi, dataparallel alone or under torch_distributed.
    Strategy("smdistributed", _BOTH, None, True, _SMDDP, False, None),
    Strategy("torch_distributed", _PYTORCH, 1, True, "sagemaker_torch_distributed_enabled", True, "torchrun"),
    Strategy("pytorchddp", _PYTORCH, None, True, _SMDDP, False, None),  # PyTorch's name for SMDDP, sent as it
    Strategy("parameter_server", _TENSORFLOW, 3, False, "sagemaker_parameter_server_enabled", True, None),
    Strategy("multi_worker_mirrored_strategy", _TENSORFLOW, 4, False, "sagemaker_multi_worker_mirrored_strategy_enabled",
             True, None),
    Strategy("pytorchxla", _PYTORCH, 2, True, "sagemaker_pytorch_xla_multi_worker_enabled", True, None),
)

BY_NAME = dict((s.name, s) for s in TABLE)
#: The keys of a ``distribution`` dict that name strategies (``instance_groups`` names the group).
STRATEGIES = tuple(s.name for s in TABLE)
#: The strategies that launch the training, in the toolkit's order: it runs one (mpi, then torch_distributed
#: drops mpi) or both (and the container runs one), so at most one may be enabled.
LAUNCHERS = tuple(s.name for s in sorted((s for s in TABLE if s.launches is not None), key=lambda s: s.launches))
#: ``(hyperparameter, name)`` of the strategies whose section is one flag, in the launchers' order.
PLAIN = tuple((BY_NAME[name].hyperparameter, name) for name in LAUNCHERS if BY_NAME[name].plain)
#: ``{name: hyperparameter}``: the flag the request carries for each strategy.
FLAG = dict((s.name, s.hyperparameter) for s in TABLE)
#: The strategies that cannot be tied to one instance group.
UNGROUPABLE = tuple(s.name for s in TABLE if not s.groupable)
#: ``(name, hyperparameter, local launcher)`` of the strategies a local run launches, in the toolkit's order.
LOCAL = tuple((name, BY_NAME[name].hyperparameter, BY_NAME[name].local) for name in LAUNCHERS
              if BY_NAME[name].local is not None)


def only_for(framework):
    """The strategies ``framework`` alone takes, in the table's order."""
    return tuple(s.name for s in TABLE if s.frameworks == (framework,))
