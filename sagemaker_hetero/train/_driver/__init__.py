"""The ``sm_drivers`` channel of a v3 (``ModelTrainer``) job: this package's driver and what it reads.

::

    files({"entry_script": "train.py", "source_dir": "src"},
          {"type": "torchrun", "process_count_per_node": None, "instance_group_names": ["gpu"]})
    # {"sm_train.sh": b"#!/bin/bash...", "sm_driver.py": b"...", "sourcecode.json": b"{...}",
    #  "distributed.json": b"{...}"}

The request starts it on every host as SDK v3 does: ``ContainerEntrypoint`` :data:`CONTAINER_ENTRYPOINT`,
``ContainerArguments`` :data:`CONTAINER_ARGUMENTS`, the channel at ``/opt/ml/input/data/sm_drivers``
and the code at ``/opt/ml/input/data/code``. ``sm_train.sh`` and ``sm_driver.py`` (package data) are
bash and the container's Python standard library only: see ``sm_driver.py`` for what runs on which host.
``$SAGEMAKER_BASE_DIR`` (:data:`BASE_DIR_ENV`) moves ``/opt/ml``, as local runs need.
"""
import json
import os

from sagemaker_hetero._defaults import CODE_CHANNEL
from sagemaker_hetero.exceptions import ConfigError, Problem
from sagemaker_hetero.training.environment import BASE_DIR_ENV

__all__ = ["files", "CHANNEL", "CODE_CHANNEL", "TRAIN_SCRIPT", "DRIVER", "CONTAINER_ENTRYPOINT",
           "CONTAINER_ARGUMENTS", "BASE_DIR_ENV"]

CHANNEL = "sm_drivers"
TRAIN_SCRIPT = "sm_train.sh"
DRIVER = "sm_driver.py"
_SCRIPT_PATH = "/opt/ml/input/data/%s/%s" % (CHANNEL, TRAIN_SCRIPT)
#: Exactly SDK v3's (``sagemaker.train.constants.DEFAULT_CONTAINER_ENTRYPOINT`` / ``..._ARGUMENTS``).
CONTAINER_ENTRYPOINT = ["/bin/bash"]
CONTAINER_ARGUMENTS = ["-c", "chmod +x %s && %s" % (_SCRIPT_PATH, _SCRIPT_PATH)]

_SOURCE_KEYS = ("source_dir", "requirements", "entry_script", "command", "args", "ignore_patterns")
_DISTRIBUTED_KEYS = ("type", "process_count_per_node", "smp", "mpi_additional_options", "instance_group_names")
_LAUNCHERS = ("torchrun", "mpi")


def _package_file(name):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), name), "rb") as handle:
        return handle.read()


def _problems(source, distributed):
    """What the driver could not run, as :class:`Problem` s naming the v3 argument."""
    found = []
    if not source.get("entry_script") and not source.get("command"):
        found.append(Problem("source_code", "needs an entry_script or a command", source))
    script = source.get("entry_script")
    if script and not source.get("command") and not str(script).endswith((".py", ".sh")):
        found.append(Problem("source_code.entry_script", "must be a .py or .sh file", script))
    if distributed is None:
        return found
    if distributed.get("type") not in _LAUNCHERS:
        found.append(Problem("distributed.type", "must be one of %s" % ", ".join(_LAUNCHERS), distributed.get("type")))
    groups = distributed.get("instance_group_names")
    if groups is not None and (not isinstance(groups, (list, tuple)) or len(groups) != 1
                               or not isinstance(groups[0], str) or not groups[0]):
        found.append(Problem("distributed.instance_group_names",
                             "must name exactly one instance group, e.g. ['gpu'] (or be None: every host)", groups))
    count = distributed.get("process_count_per_node")
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
        found.append(Problem("distributed.process_count_per_node", "must be an integer >= 1 or None", count))
    if distributed.get("type") in _LAUNCHERS and not script and not source.get("command"):
        found.append(Problem("source_code.entry_script", "is needed by %s" % distributed.get("type"), script))
    return found


def _json(value):
    return (json.dumps(value, sort_keys=True, indent=1) + "\n").encode("utf-8")


def files(source_code, distributed):
    """The ``sm_drivers`` channel's files, name -> content: ``sm_train.sh``, ``sm_driver.py`` and their inputs.

    Parameters
    ----------
    source_code : dict
        v3 ``SourceCode.model_dump()``: ``source_dir``, ``requirements``, ``entry_script``,
        ``command``, ``args``, ``ignore_patterns`` (missing keys are None).
    distributed : dict or None
        None, or ``{"type": "torchrun" | "mpi", "process_count_per_node": int | None, "smp": ...,
        "mpi_additional_options": [...], "instance_group_names": ["gpu"] | None}``.

    Raises
    ------
    ConfigError
        What the driver could not run (no entry script nor command; a type other than torchrun or
        mpi; ``instance_group_names`` naming other than one group), each problem naming the argument.
    """
    source = dict((key, source_code.get(key)) for key in _SOURCE_KEYS)
    dist = None if distributed is None else dict((key, distributed.get(key)) for key in _DISTRIBUTED_KEYS)
    if dist is not None and isinstance(dist["instance_group_names"], tuple):
        dist["instance_group_names"] = list(dist["instance_group_names"])
    problems = _problems(source, dist)
    if problems:
        raise ConfigError(problems)
    return {
        TRAIN_SCRIPT: _package_file(TRAIN_SCRIPT),
        DRIVER: _package_file(DRIVER),
        "sourcecode.json": _json(source),
        "distributed.json": _json(dist),
    }
