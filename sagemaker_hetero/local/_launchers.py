"""The distribution group's launcher, started on each of its hosts as the training toolkit does.

Pure: the job's ``distribution`` options and a host's view in, a command line out.

- ``torch_distributed`` and ``pytorchddp``: ``torchrun`` (``python -m torch.distributed.run``, the
  session's interpreter) on every host of the distribution groups, ``--nnodes`` = those hosts,
  ``--nproc_per_node`` = ``processes_per_host`` or the GPUs (at least 1), ``--node_rank`` = the
  host's index among them, master = the first of them on port 7777 (the toolkit's), so ``RANK``,
  ``LOCAL_RANK``, ``WORLD_SIZE``, ``MASTER_ADDR`` and ``MASTER_PORT`` are what they are on SageMaker.
- ``smdistributed`` (data or model parallel): refused, it needs SageMaker's containers and GPUs.
- Hosts of other groups (helpers) run the entry point as before.
"""
__all__ = ["TORCHRUN", "MASTER_PORT", "SMDISTRIBUTED_REFUSED", "launcher_of", "refusal", "wrap"]

TORCHRUN = "torchrun"
MASTER_PORT = 7777
SMDISTRIBUTED_REFUSED = (
    "is not run locally: SMDDP and model parallelism need SageMaker's containers and GPUs; use "
    "torch_distributed (torchrun; gloo on CPU) to try the distributed code here"
)


def _enabled(value):
    if isinstance(value, dict):
        return bool(value.get("enabled", True))
    return bool(value)


def _options(job):
    dist = getattr(job, "distribution", None)
    return dict(dist.options) if dist is not None else {}


def refusal(job):
    """``(path, reason)`` when the job's distribution cannot run locally, else ``None``."""
    options = _options(job)
    sm = options.get("smdistributed")
    if isinstance(sm, dict) and not _enabled(options.get("torch_distributed")):
        if any(_enabled(sm.get(kind)) for kind in ("dataparallel", "modelparallel") if isinstance(sm.get(kind), dict)):
            return "distribution.smdistributed", SMDISTRIBUTED_REFUSED
    return None


def launcher_of(job):
    """``(TORCHRUN, processes_per_host or None)`` for a job the toolkit runs under torchrun, else ``None``."""
    options = _options(job)
    for key in ("torch_distributed", "pytorchddp"):
        if _enabled(options.get(key)) and key in options:
            value = options[key]
            per_host = value.get("processes_per_host") if isinstance(value, dict) else None
            return TORCHRUN, per_host
    return None


def wrap(launcher, argv, python, view, master_address, gpus):
    """``argv`` (the entry point's command) as this host starts it under ``launcher``.

    ``view``: the host's :class:`~sagemaker_hetero.training.Environment`; ``master_address``: how
    the host reaches the first distribution host (its name, or its address where names do not
    resolve outside Python). Hosts outside the distribution groups keep ``argv``.
    """
    if launcher is None:
        return list(argv)
    kind, per_host = launcher
    hosts = list(view.distribution_hosts)
    if view.current_host not in hosts:
        return list(argv)
    nproc = per_host or gpus or 1
    head = [python, "-m", "torch.distributed.run", "--nnodes", str(len(hosts)), "--nproc_per_node", str(nproc),
            "--master_addr", master_address, "--master_port", str(MASTER_PORT),
            "--node_rank", str(hosts.index(view.current_host))]
    if argv[:1] == [python]:
        rest = argv[1:]
        return head + (["--module"] + rest[1:] if rest[:1] == ["-m"] else rest)
    return head + ["--no-python"] + list(argv)
