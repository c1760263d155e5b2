"""sagemaker-hetero's driver: what ``sm_train.sh`` runs on every host of a v3 (``ModelTrainer``) job.

Self-contained: the container's Python standard library only, nothing of ``sagemaker_hetero`` (it
runs inside the training image). It reads, under ``$SAGEMAKER_BASE_DIR`` (default ``/opt/ml``):

- ``input/config/resourceconfig.json`` (current_host, current_group_name, hosts, instance_groups),
  ``hyperparameters.json`` and ``inputdataconfig.json``, as SageMaker writes them;
- ``input/data/sm_drivers/sourcecode.json`` and ``distributed.json``, written by
  ``sagemaker_hetero.train._driver.files``.

Then it exports the ``SM_*`` variables SDK v3's driver exports (and the group's), installs the
requirements, goes to ``input/data/code`` and starts, as SDK v3's driver does:

- a ``command`` (with its ``args``) through ``/bin/sh``; else the entry script (``python`` for
  ``.py``, ``/bin/sh`` for ``.sh``) with the hyperparameters as ``--name value``;
- with ``torchrun`` or ``mpi`` and no ``instance_group_names``: the launcher over every host of the
  job (SDK v3: nnodes = all hosts, master = the first host by name, rank = index by name);
- with ``instance_group_names`` (one group): the launcher only on that group's hosts (nnodes = the
  group's hosts, node rank = index in the group's hosts, master = the group's first host); the
  hosts of other groups run the entry script plainly. ``mpirun`` is started by the group's first
  host; the group's other hosts wait until it says it is done.

``decide`` is the pure part (what to run where); ``main`` does the rest.
"""
from __future__ import print_function

import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import time

DONE_ENV = "SAGEMAKER_HETERO_MPI_DONE"  # the file a worker of an mpi group waits for (default below)
DONE_FILE = "/tmp/sagemaker-hetero-mpi-done"
SSHD_ENV = "SAGEMAKER_HETERO_SSHD"  # the sshd an mpi group's hosts start (empty: none)


class DriverError(Exception):
    """A configuration the driver cannot run (the message says what was expected and what was got)."""


def _path(base, *parts):
    return os.path.join(base, *parts)


def base_dir(environ):
    """SageMaker's ``/opt/ml``, or ``$SAGEMAKER_BASE_DIR`` (a local run's host folder): the toolkit's rule."""
    return environ.get("SAGEMAKER_BASE_DIR") or "/opt/ml"


def master_port():
    """The port of a launcher's rendezvous on its master host: SDK v3's and the toolkit's."""
    return 7777


def read_json(path, default):
    """The JSON value in ``path``; ``default`` when the file does not exist or holds ``null``."""
    try:
        with open(path, "r") as handle:
            value = json.load(handle)
    except (IOError, OSError):
        return default
    return default if value is None else value


def safe_deserialize(value):
    """``value`` JSON-decoded when it is a string that decodes, else as it is (SDK v3's rule)."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def safe_serialize(value):
    """A string as it is, anything else as JSON (``str`` when it is not JSON): SDK v3's rule."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value)
    except TypeError:
        return str(value)


def cli_args(hyperparameters):
    """The hyperparameters as SDK v3's driver passes them: ``--name value`` in the file's order."""
    args = []
    for key, value in hyperparameters.items():
        args.extend(["--%s" % key, safe_serialize(safe_deserialize(value))])
    return args


class Cluster(object):
    """The job's hosts as ``resourceconfig.json`` tells one host (an old file: one group of all)."""

    def __init__(self, resource):
        self.current = resource["current_host"]
        self.hosts = list(resource["hosts"])
        self.instance_type = resource.get("current_instance_type", "local")
        self.interface = resource.get("network_interface_name", "eth0")
        groups = resource.get("instance_groups") or []
        self.groups = dict((g["instance_group_name"], list(g["hosts"])) for g in groups)
        self.group = (resource.get("current_group_name") or resource.get("current_instance_group")
                      or "homogeneousCluster")  # the one group of a homogeneous job
        if not self.groups:
            self.groups = {self.group: list(self.hosts)}

    def launcher_hosts(self, group_names):
        """``(hosts, master)`` of a launcher: every host by name (SDK v3), or the one group's in file order."""
        if not group_names:
            ordered = sorted(self.hosts)
            return ordered, ordered[0]
        if len(group_names) != 1:
            raise DriverError("instance_group_names: expected exactly one group name, got %r" % (group_names,))
        name = group_names[0]
        if name not in self.groups:
            raise DriverError("instance_group_names: expected one of the job's groups %s, got %r"
                              % (sorted(self.groups), name))
        hosts = self.groups[name]
        return hosts, hosts[0]


def _entry_command(entry_script, hyperparameters, python):
    args = cli_args(hyperparameters)
    if entry_script.endswith(".py"):
        return [python, entry_script] + args
    if entry_script.endswith(".sh"):
        line = "chmod +x %s && ./%s %s" % (shlex.quote(entry_script), shlex.quote(entry_script),
                                           " ".join(shlex.quote(a) for a in args))
        return ["/bin/sh", "-c", line.rstrip()]
    raise DriverError("entry_script: expected a .py or .sh file, got %r" % (entry_script,))


def plain_command(source, hyperparameters, python):
    """The command a host runs without a launcher: the ``command`` with its args, else the entry script."""
    if source.get("command"):
        parts = source["command"].split() + [shlex.quote(str(a)) for a in (source.get("args") or [])]
        return ["/bin/sh", "-c", " ".join(parts)]
    if source.get("entry_script"):
        return _entry_command(source["entry_script"], hyperparameters, python)
    raise DriverError("sourcecode.json: expected an entry_script or a command, got %r" % (source,))


def process_count(distributed, gpus):
    """Processes per host: ``process_count_per_node``, else the GPUs, else 1 (SDK v3's rule)."""
    return int(distributed.get("process_count_per_node") or 0) or int(gpus or 0) or 1


def torchrun_command(distributed, hosts, master, current, entry, torchrun, master_addr=None):
    """The ``torchrun`` line of ``current`` among ``hosts`` (``master_addr``: how ``master`` is reached)."""
    nproc = process_count(distributed, distributed.get("_gpus"))
    line = list(torchrun) + ["--nnodes=%d" % len(hosts), "--nproc_per_node=%d" % nproc]
    if len(hosts) > 1:
        line += ["--master_addr=%s" % (master_addr or master), "--master_port=%d" % master_port(),
                 "--node_rank=%d" % hosts.index(current)]
    return line + entry


def mpirun_command(distributed, hosts, cluster, entry, python, agent=None):
    """The ``mpirun`` line the first host of ``hosts`` starts: every host of them, ``-np`` all ranks.

    ``entry``: the entry script and its arguments, run as ``python -m mpi4py`` (SDK v3's). ``agent``:
    a local run's way to the hosts in place of ``ssh`` (its hosts are this machine's loopback addresses).
    """
    nproc = process_count(distributed, distributed.get("_gpus"))
    interface = "lo" if agent else cluster.interface
    local = ["--mca", "plm_rsh_agent", agent, "--bind-to", "none", "--map-by", "slot"] if agent else []
    line = ["mpirun", "--host", ",".join("%s:%d" % (h, nproc) for h in hosts), "-np", str(nproc * len(hosts)),
            "--allow-run-as-root", "--tag-output"] + local + [
            "-mca", "btl_tcp_if_include", interface, "-mca", "oob_tcp_if_include", interface,
            "-mca", "plm_rsh_no_tree_spawn", "1", "-mca", "pml", "ob1", "-mca", "btl", "^openib",
            "-mca", "orte_abort_on_non_zero_status", "1", "-mca", "btl_vader_single_copy_mechanism", "none",
            "-mca", "plm_rsh_num_concurrent", str(len(hosts)),
            "-x", "NCCL_SOCKET_IFNAME=%s" % interface, "-x", "LD_LIBRARY_PATH", "-x", "PATH"]
    line += list(distributed.get("mpi_additional_options") or [])
    if distributed.get("_efa"):
        line += ["-x", "FI_PROVIDER=efa", "-x", "NCCL_PROTO=simple"]
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        if name in os.environ:
            line += ["-x", name]
    return line + [python, "-m", "mpi4py"] + entry


def decide(source, distributed, resource, hyperparameters, gpus, python, torchrun=("torchrun",), master_addr=None,
           agent=None, efa=False):
    """What this host runs: ``{"role", "argv", "hosts", "master"}``.

    ``role``: ``"plain"`` (no launcher here), ``"torchrun"``, ``"mpi-master"`` (starts ``mpirun``)
    or ``"mpi-worker"`` (waits for the master). ``master_addr``: a function of the master's name
    giving how it is reached (default: the name); ``agent``: mpirun's way to the hosts in a local run;
    ``efa``: whether the host has EFA devices.
    """
    cluster = Cluster(resource)
    plain = plain_command(source, hyperparameters, python)
    distributed = distributed or {}
    kind = distributed.get("type")
    if kind not in (None, "torchrun", "mpi"):
        raise DriverError("distributed.json type: expected 'torchrun' or 'mpi', got %r" % (kind,))
    hosts, master = cluster.launcher_hosts(distributed.get("instance_group_names"))
    if not kind or source.get("command") or cluster.current not in hosts:  # a command runs as it is (SDK v3)
        return {"role": "plain", "argv": plain, "hosts": hosts, "master": master}
    if not source.get("entry_script"):
        raise DriverError("sourcecode.json: %s needs an entry_script, got %r" % (kind, source))
    options = dict(distributed, _gpus=gpus, _efa=efa)
    entry = [source["entry_script"]] + cli_args(hyperparameters)
    if kind == "torchrun":
        address = master_addr(master) if master_addr else master
        argv = torchrun_command(options, hosts, master, cluster.current, entry, torchrun, address)
        return {"role": "torchrun", "argv": argv, "hosts": hosts, "master": master}
    if cluster.current != master:
        return {"role": "mpi-worker", "argv": [], "hosts": hosts, "master": master}
    argv = mpirun_command(options, hosts, cluster, entry, python, agent)
    return {"role": "mpi-master", "argv": argv, "hosts": hosts, "master": master}


def gpu_count():
    """The GPUs ``nvidia-smi --list-gpus`` lists (0 without it), as SDK v3's driver counts them."""
    try:
        out = subprocess.check_output(["nvidia-smi", "--list-gpus"], stderr=subprocess.STDOUT)
    except (OSError, subprocess.CalledProcessError):
        return 0
    return sum(1 for line in out.decode("utf-8", "replace").splitlines() if line.startswith("GPU "))


def exports(base, resource, channels, hyperparameters, source, distributed, plan, gpus):
    """The ``SM_*`` variables SDK v3's driver exports (under ``base``), with the host's group added."""
    cluster = Cluster(resource)
    data = _path(base, "input", "data")
    hps = dict((k, safe_deserialize(v)) for k, v in hyperparameters.items())
    ordered = sorted(cluster.hosts)
    values = {
        "SM_MODEL_DIR": _path(base, "model"), "SM_INPUT_DIR": _path(base, "input"), "SM_INPUT_DATA_DIR": data,
        "SM_INPUT_CONFIG_DIR": _path(base, "input", "config"), "SM_OUTPUT_DIR": _path(base, "output"),
        "SM_OUTPUT_FAILURE": _path(base, "output", "failure"), "SM_OUTPUT_DATA_DIR": _path(base, "output", "data"),
        "SM_MASTER_ADDR": plan["master"], "SM_MASTER_PORT": master_port(),
        "SM_SOURCE_DIR": _path(data, "code"), "SM_ENTRY_SCRIPT": source.get("entry_script") or "",
        "SM_CHANNELS": list(channels), "SM_HPS": hps,
        "SM_CURRENT_HOST": cluster.current, "SM_CURRENT_INSTANCE_TYPE": cluster.instance_type,
        "SM_HOSTS": ordered, "SM_NETWORK_INTERFACE_NAME": cluster.interface, "SM_HOST_COUNT": len(ordered),
        "SM_CURRENT_HOST_RANK": ordered.index(cluster.current), "SM_NUM_GPUS": gpus,
        "SM_NUM_CPUS": os.cpu_count() or 1, "SM_RESOURCE_CONFIG": resource, "SM_INPUT_DATA_CONFIG": channels,
        "SM_CURRENT_INSTANCE_GROUP": cluster.group, "SM_CURRENT_INSTANCE_GROUP_HOSTS": cluster.groups[cluster.group],
        "SM_INSTANCE_GROUPS": sorted(cluster.groups), "SM_IS_HETERO": len(cluster.groups) > 1,
    }
    if distributed:
        values["SM_DISTRIBUTED_DRIVER_DIR"] = _path(data, "sm_drivers")
        values["SM_DISTRIBUTED_CONFIG"] = distributed
        # the groups whose hosts run the launcher: the one named, else every group (SDK v3)
        launching = distributed.get("instance_group_names") or sorted(cluster.groups)
        values["SM_DISTRIBUTION_INSTANCE_GROUPS"] = list(launching)
    for channel in channels:
        values["SM_CHANNEL_%s" % channel.upper()] = _path(data, channel)
    for key, value in hps.items():
        values["SM_HP_%s" % key.replace("-", "_").upper()] = value
    return dict((k, safe_serialize(v)) for k, v in values.items())


def efa_devices(root="/sys/class/infiniband"):
    """Whether the host has EFA devices (``rdmap*`` under ``root``). SDK v3 decides it from a list of
    instance types; the devices themselves say it of every type, and libfabric turns RDMA on where
    the device has it."""
    try:
        return any(name.startswith("rdmap") for name in os.listdir(root))
    except OSError:
        return False


def launcher_env(resource, role, efa):
    """The variables SDK v3's torchrun driver sets for NCCL, and EFA's provider on a host with EFA."""
    if role != "torchrun":
        return {}
    env = {"NCCL_SOCKET_IFNAME": Cluster(resource).interface, "NCCL_PROTO": "simple"}
    if efa:
        env["FI_PROVIDER"] = "efa"
    return env


def write_failure(base, message):
    """``message`` into ``<base>/output/failure`` unless a reason is there already (the first one counts)."""
    path = _path(base, "output", "failure")
    try:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return
        with open(path, "a") as handle:
            handle.write(message)
    except (IOError, OSError):
        pass


def run(argv, env, cwd):
    """Run ``argv``, passing SIGTERM and SIGINT on to it; its exit status (128 + n when killed by n)."""
    import signal

    child = subprocess.Popen(argv, env=env, cwd=cwd)

    def forward(number, _frame):
        try:
            child.send_signal(number)
        except OSError:
            pass

    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, forward)
    code = child.wait()
    return 128 - code if code < 0 else code


def _address(name):
    """How a host is reached by a launcher outside Python: its address when this Python resolves it."""
    try:
        return socket.gethostbyname(name)
    except (OSError, UnicodeError):
        return name


def _ssh(host, *command):
    """``ssh host command`` (mpirun's way to the other hosts); True when it exited 0."""
    argv = ["ssh", "-o", "StrictHostKeyChecking=no", "-o", "BatchMode=yes", host] + list(command)
    with open(os.devnull, "wb") as null:
        return subprocess.call(argv, stdout=null, stderr=null) == 0


def _wait(check, what, timeout, interval=1.0):
    """Call ``check`` until it is true; DriverError after ``timeout`` seconds (None: no limit)."""
    start = time.time()
    while not check():
        if timeout is not None and time.time() - start > timeout:
            raise DriverError("expected %s within %d seconds, got nothing" % (what, timeout))
        time.sleep(interval)


def _start_sshd(environ):
    """The image's ``sshd`` in the background (mpirun reaches the group's hosts through it), when there is
    one: ``$SAGEMAKER_HETERO_SSHD``, else ``/usr/sbin/sshd`` (an empty value: start none)."""
    sshd = environ.get(SSHD_ENV, "/usr/sbin/sshd")
    if sshd and os.path.exists(sshd):
        subprocess.Popen([sshd, "-D"])


def local_mpi(environ):
    """``(agent, FIFO folder)`` a local run gives its hosts for mpirun (sagemaker_hetero.local), else None."""
    agent, fifos = environ.get("SAGEMAKER_HETERO_MPI_AGENT"), environ.get("SAGEMAKER_HETERO_MPI_DIR")
    return (agent, fifos) if agent and fifos else None


def local_mpi_worker(fifos, host, env):
    """A local run's mpi host but the first: run the daemon mpirun sends through its FIFO, report its status."""
    with open(os.path.join(fifos, host + ".cmd")) as handle:
        line = handle.readline().rstrip("\n")
    code = subprocess.call(["/bin/sh", "-c", line], env=env)
    with open(os.path.join(fifos, host + ".done"), "w") as handle:
        handle.write("%d\n" % code)
    return code


def mpi_worker(plan, environ):
    """A host of the mpi group but its first: serve ``mpirun`` until the first host says it is done."""
    local = local_mpi(environ)
    if local:
        return local_mpi_worker(local[1], environ["SM_CURRENT_HOST"], environ)
    _start_sshd(environ)
    done = environ.get(DONE_ENV) or "%s.%s" % (DONE_FILE, plan["master"])
    print("sagemaker-hetero driver: waiting for %s to finish mpirun (until %s exists)" % (plan["master"], done))
    sys.stdout.flush()
    _wait(lambda: os.path.exists(done), "the file %s" % done, None)
    return 0


def mpi_master(plan, env, cwd):
    """The first host of the mpi group: reach the others, run ``mpirun``, then tell them it is done."""
    if local_mpi(env):  # a local run: mpirun reaches the hosts through the agent
        return run(plan["argv"], env, cwd)
    _start_sshd(env)
    workers = [h for h in plan["hosts"] if h != plan["master"]]
    for host in workers:
        _wait(lambda: _ssh(host, "true"), "ssh to %s" % host, 300, 5.0)
    code = run(plan["argv"], env, cwd)
    done = env.get(DONE_ENV) or "%s.%s" % (DONE_FILE, plan["master"])
    for host in workers:
        _ssh(host, "touch", done)
    return code


def _install_requirements(requirements, python, env, cwd):
    """``pip install -r requirements`` with the driver's Python, in the code folder."""
    print("sagemaker-hetero driver: installing %s" % requirements)
    sys.stdout.flush()
    code = subprocess.call([python, "-m", "pip", "install", "-r", requirements], env=env, cwd=cwd)
    if code != 0:
        raise DriverError("requirements: expected 'pip install -r %s' to succeed, got exit status %d"
                          % (requirements, code))


def _unpack(name, env, cwd):
    """``tar -xzf name`` in the code folder, as SDK v3's ``sm_train.sh`` does."""
    code = subprocess.call(["tar", "-xzf", name], env=env, cwd=cwd)
    if code != 0:
        raise DriverError("source_dir: expected 'tar -xzf %s' to unpack the code, got exit status %d" % (name, code))


def _read(base):
    """The job's files under ``base``: ``(source, distributed, resource, hyperparameters, channels)``."""
    drivers = _path(base, "input", "data", "sm_drivers")
    config = _path(base, "input", "config")
    resource = read_json(_path(config, "resourceconfig.json"), None)
    if not isinstance(resource, dict) or "current_host" not in resource:
        raise DriverError("expected the host's %s with current_host, got %r"
                          % (_path(config, "resourceconfig.json"), resource))
    return (read_json(_path(drivers, "sourcecode.json"), {}), read_json(_path(drivers, "distributed.json"), {}),
            resource, read_json(_path(config, "hyperparameters.json"), {}),
            read_json(_path(config, "inputdataconfig.json"), {}))


def execute(environ):
    """Everything after reading: decide, export, install, run; the exit status."""
    base = base_dir(environ)
    source, distributed, resource, hyperparameters, channels = _read(base)
    python = sys.executable or "python3"
    gpus = gpu_count()
    found = shutil.which("torchrun", path=environ.get("PATH"))
    torchrun = [found] if found else [python, "-m", "torch.distributed.run"]
    efa = efa_devices()
    plan = decide(source, distributed, resource, hyperparameters, gpus, python, torchrun, _address,
                  (local_mpi(environ) or (None,))[0], efa)
    env = dict(environ)
    env.update(exports(base, resource, channels, hyperparameters, source, distributed, plan, gpus))
    env.update(launcher_env(resource, plan["role"], efa))
    code_dir = _path(base, "input", "data", "code")
    cwd = code_dir if os.path.isdir(code_dir) else os.getcwd()
    archive = source.get("source_dir") or ""
    if archive.endswith(".tar.gz"):  # SDK v3 uploads such a source_dir as it is, and unpacks it here
        _unpack(os.path.basename(archive), env, cwd)
    if source.get("requirements"):
        _install_requirements(source["requirements"], python, env, cwd)
    print("sagemaker-hetero driver: %s on %s (group %s): %s" % (
        plan["role"], resource["current_host"], env["SM_CURRENT_INSTANCE_GROUP"], " ".join(plan["argv"])))
    sys.stdout.flush()
    if plan["role"] == "mpi-worker":
        return mpi_worker(plan, env)
    if plan["role"] == "mpi-master":
        return mpi_master(plan, env, cwd)
    return run(plan["argv"], env, cwd)


def main(environ=None):
    """The driver: run this host's part of the job; a failure's reason goes to ``output/failure``."""
    environ = dict(os.environ if environ is None else environ)
    base = base_dir(environ)
    try:
        code = execute(environ)
    except DriverError as error:
        print("sagemaker-hetero driver: %s" % error, file=sys.stderr)
        write_failure(base, "sagemaker-hetero driver: %s\n" % error)
        return 1
    if code != 0:
        write_failure(base, "Training Execution failed: the training process exited with status %d. For more "
                      "details, see CloudWatch logs at 'aws/sagemaker/TrainingJobs'.\nTrainingJob - %s\n"
                      % (code, environ.get("TRAINING_JOB_NAME", "")))
    return code


if __name__ == "__main__":
    sys.exit(main())
