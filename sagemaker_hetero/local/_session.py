"""``LocalSession``: run a training job's hosts as processes on this machine.

The estimator builds and checks the job exactly as for AWS, with this session's own rules in the
same round (:meth:`LocalSession.check`), then hands it to :meth:`LocalSession.execute`, which
renders the request, lays out one folder per host and starts one process per host (see ``_job``).
"""
import os
import posixpath
import random
import shutil
import socket
import stat
import sys
import tempfile
import threading

import attrs

from sagemaker_hetero import utils
from sagemaker_hetero._aws import code_archive as _archive
from sagemaker_hetero._aws import sdk_config
from sagemaker_hetero._aws.files import region_from_environment
from sagemaker_hetero._request import plan as _plan
from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model.job import CODE
from sagemaker_hetero.exceptions import AWSError, ConfigError, Problem
from sagemaker_hetero.local import (_cluster, _hosts, _interpreter, _isolation, _job, _launchers, _passable, _private,
                                    _protocol, _resolver, _storage, _trees, _untar)

__all__ = ["LocalSession", "DEFAULT_REGION", "LOCAL_ACCOUNT", "DEFAULT_GRACE_PERIOD", "default_root"]

DEFAULT_REGION = "us-west-2"
LOCAL_ACCOUNT = D.ZERO_ACCOUNT_ID
DEFAULT_GRACE_PERIOD = 10.0
LOCAL_SUBJECT = "the local session"  # what LocalSession's own arguments are problems with (no job yet)
JOB_MARKER = ".sagemaker-hetero-job"
_CODE_DIR = ".code"  # the code archive, unpacked once per job; each host gets a linked copy
_DATA_DIR = ".data"
_ESCAPES = _passable.ESCAPES
_LOCK_DIR = ".locks"  # <root>/.locks/<job name>.lock: held while the job of that name runs
_NO_PIPE = "Pipe mode is not simulated locally; use File or FastFile"
_UPLOAD_DIR = ".upload"
_HOSTS_DIR = ".etc"  # the job's /etc/hosts, bound onto each host's /etc/hosts


def default_root():
    """``<temp>/sagemaker-hetero-local-<uid>``: where jobs run when no ``root`` is given."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    return os.path.join(tempfile.gettempdir(), "sagemaker-hetero-local-%s" % ("user" if uid is None else uid))


def _is_default(root):
    """Whether ``root`` (a LocalSession's argument) names the default root."""
    return root is None or os.path.abspath(root) == default_root()


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class LocalSession(_protocol.NotAws):
    """Runs every instance group's hosts as real processes on this machine (no AWS account needed).

    Pass it as ``sagemaker_session=`` to any estimator; ``fit`` then checks and renders the same
    request as for AWS and runs it here: one process per host, each with its own SageMaker-like
    base folder, ``SM_*`` variables, loopback address and ``algo-N`` name (docs/local.md).

    Parameters
    ----------
    boto_session : boto3.Session, optional
        For ``s3://`` inputs or outputs (default: a new one, when one is needed).
    python : str, optional
        The interpreter that runs the entry point (default: this one).
    root : str, optional
        Where job folders live (default: :func:`default_root`). A job runs in ``<root>/<job name>/``, and
        the local bucket's ``s3://sagemaker-hetero-local/KEY`` is ``<root>/KEY``. It must be a folder of
        yours that no one else may write (the default one: that no one else may enter); it is made 0700
        when missing.
    keep : bool, default False
        Keep the host folders after a job completes (they are always kept when it fails or is
        stopped; the artifacts always are).
    assignment : str, default 'ordered'
        ``"ordered"``, or ``"shuffled"``: the ``algo-N`` names drawn at random for the groups, as
        SageMaker may do.
    seed : int or str, optional
        Makes the shuffled draw repeatable (else it is printed).
    region : str, optional
        Default: the boto session's, ``AWS_DEFAULT_REGION``/``AWS_REGION``, the AWS profile's, else
        ``us-west-2``.
    grace_period : float, default 10.0
        Seconds between SIGTERM and SIGKILL when hosts are stopped (SageMaker: 120).
    out : file, optional
        The stream the hosts' output goes to (default: ``sys.stdout``).
    isolation : str, optional
        ``"auto"`` (the default, unless ``$SAGEMAKER_HETERO_LOCAL_ISOLATION`` says otherwise) runs each
        host in its own Linux namespaces where that works (``/opt/ml`` is the host's folder,
        ``/etc/hosts`` names every ``algo-N``, the host name is ``algo-N``), else says why in one line
        and shares the machine's; ``"namespaces"`` requires them; ``"none"`` never uses them.
    """

    local_mode = True

    def __init__(self, boto_session=None, *, python=None, root=None, keep=False, assignment="ordered", seed=None,
                 region=None, grace_period=DEFAULT_GRACE_PERIOD, out=None, isolation=None):
        """Make the session, every argument checked at once; the parameters are the class's."""
        problems = []
        where = "isolation" if isolation is not None else _isolation.MODE_ENV
        isolation = _isolation.mode_from(isolation, os.environ)
        if isolation not in _isolation.MODES:
            problems.append(Problem(where, "must be one of %s" % ", ".join(map(repr, _isolation.MODES)), isolation))
        if assignment not in _cluster.ASSIGNMENTS:
            allowed = ", ".join(map(repr, _cluster.ASSIGNMENTS))
            problems.append(Problem("assignment", "must be one of %s" % allowed, assignment))
        if seed is not None and not isinstance(seed, (int, str)):
            problems.append(Problem("seed", "must be an integer or a string", seed))
        if not _is_number(grace_period) or grace_period < 0:
            problems.append(Problem("grace_period", "must be a number of seconds >= 0", grace_period))
        python = python or sys.executable
        if not isinstance(python, str) or not (shutil.which(python) or os.access(python, os.X_OK)):
            problems.append(Problem("python", "must be an executable Python interpreter", python))
        if root is not None and (not isinstance(root, str) or not root):
            problems.append(Problem("root", "must be a folder path", root))
        else:
            problems.extend(_private.root_problems(os.path.abspath(root or default_root()), _is_default(root)))
        if out is not None and not hasattr(out, "write"):
            problems.append(Problem("out", "must be a writable text stream", out))
        if problems:
            raise ConfigError(problems, LOCAL_SUBJECT)
        self.boto_session = boto_session
        self.boto_region_name = (
            region
            or (boto_session.region_name if boto_session is not None else None)
            or region_from_environment()
            or DEFAULT_REGION
        )
        self.python = python
        self.root = os.path.abspath(root or default_root())
        self._default_root = _is_default(root)  # checked more strictly: it sits in a folder every user may write
        self.keep = bool(keep)
        self.assignment = assignment
        self.seed = seed
        self.grace_period = float(grace_period)
        self.out = out
        self.isolation = isolation
        #: the SageMaker defaults configuration, read as a Session reads it (a role, tags, ...)
        self.sagemaker_config = sdk_config.load()
        self._storage = _storage.Storage(self.root, self.boto_region_name, boto_session)
        self._jobs = {}
        self._network = None
        self._lock = threading.Lock()
        self._modules = _interpreter.Modules()  # what the hosts' interpreter imports, asked once per module

    def __repr__(self):
        return "LocalSession(root=%r, assignment=%r)" % (self.root, self.assignment)

    # -- what the SageMaker Python SDK's sessions answer ---------------------------------------

    def account_id(self):
        """The placeholder account of local runs (``000000000000``)."""
        return LOCAL_ACCOUNT

    def default_bucket(self):
        """The local bucket: ``s3://sagemaker-hetero-local/KEY`` is the file ``<root>/KEY``."""
        return _storage.LOCAL_BUCKET

    def describe_training_job(self, job_name):
        """A local job's description, as DescribeTrainingJob would answer.

        Parameters
        ----------
        job_name : str
            A job this session started.
        """
        return self._job(job_name).describe()

    def stop_training_job(self, job_name):
        """Stop a local job: SIGTERM to every host, SIGKILL after ``grace_period``.

        Parameters
        ----------
        job_name : str
            A job this session started.
        """
        self._job(job_name).stop()

    def _job(self, job_name):
        try:
            return self._jobs[job_name]
        except KeyError:
            raise KeyError("no local training job named %r was started by this session" % (job_name,))

    # -- the session protocol the estimators use (facts, check, execute) -------------------------

    def facts(self):
        """Region, the placeholder account and the local bucket: a local run needs nothing else."""
        return _plan.Facts(region=self.boto_region_name, account_id=LOCAL_ACCOUNT, default_bucket=_storage.LOCAL_BUCKET,
                           local=True)

    def check(self, job):
        """``(job, problems)``: the job as a local run reads it (local paths as absolute ``file://``
        URIs) and what a local run cannot do, values its hosts' processes cannot be given among them
        (``_passable``). The estimator calls this in the same round as every other check, for a dry
        run too, so a dry run refuses what the run would.

        Parameters
        ----------
        job : Job
            The job model.
        """
        job = localize(job)
        problems = []
        if job.code is None and not job.container_entry_point:
            problems.append(Problem("entry_point", "is required for a local run: every host runs the entry point, "
                                    "or the container_entry_point given (LocalSession cannot run a container "
                                    "image's own program)", None))
        if job.input_mode == "Pipe":
            problems.append(Problem("input_mode", _NO_PIPE, "Pipe"))
        problems.extend(self._launcher_problems(job))
        total = job.host_count
        if total is not None and total > _cluster.MAX_HOSTS:
            where = "instance_groups" if job.heterogeneous else "instance_count"
            problems.append(Problem(where, "a local run starts at most %d hosts" % _cluster.MAX_HOSTS, total))
        for channel in job.channels:
            if channel.kind == CODE:
                continue
            path = channel.arg
            if channel.input_mode == "Pipe" and job.input_mode != "Pipe":
                problems.append(Problem(path + ".input_mode", _NO_PIPE, "Pipe"))
            if not channel.is_local and channel.data_type not in (None, "S3Prefix"):
                problems.append(Problem(path + ".s3_data_type", "a local run reads S3Prefix channels only",
                                        channel.data_type))
            if _storage.escapes_root(channel.uri):
                problems.append(Problem(path, _ESCAPES, channel.uri))
                continue
            local = self._storage.local_path(channel.uri) if isinstance(channel.uri, str) else None
            if local is not None and not os.path.exists(local):
                problems.append(Problem(path, "is not a file or folder on this machine (%s)" % local, channel.uri))
        if job.code is not None and job.code.in_s3 and _storage.escapes_root(job.code.source_dir):
            problems.append(Problem("source_dir", _ESCAPES, job.code.source_dir))
        elif job.code is not None and job.code.in_s3:
            local = self._storage.local_path(job.code.source_dir)
            if local is not None and not os.path.isfile(local):
                problems.append(Problem("source_dir", "is not a file on this machine (%s)" % local, job.code.source_dir))
        return job, problems + _passable.problems(job, self._storage.local_path, self.root)

    def _launcher_problems(self, job):
        """What the distribution's launcher cannot do here: refused locally (SMDDP, model parallelism),
        or the hosts' interpreter lacks ``mpirun`` (``torch`` and ``mpi4py`` are asked of it when the job
        runs: :meth:`execute`)."""
        refused = _launchers.refusal(job)
        if refused is not None:
            return [Problem(*refused)]
        if (_launchers.launcher_of(job) or (None,))[0] == _launchers.MPI:
            mpirun, path = _launchers.mpirun_for(self.python, os.environ)
            if mpirun is None:  # its message says to install mpi4py too
                return [Problem("distribution.mpi", _launchers.MPI_MISSING % (path, self.python),
                                job.distribution.options.get("mpi"))]
        return []

    def execute(self, job, now):
        """A checked job -> a started :class:`~sagemaker_hetero.local.LocalJob`, through the runner's
        one path (``_runner.execute``). A default name's stamp is claimed as for AWS jobs, so two
        local fits of this process never share a name.

        Parameters
        ----------
        job : Job
            The checked job model.
        now : float
            The time (seconds since the epoch) a default name is stamped with.
        """
        from sagemaker_hetero import _runner

        if job.job_name is None:
            now = utils.claim_time(now)
        return _runner.execute(self, _plan.make_plan(job, self.facts(), now))

    def create(self, plan):
        """The plan's job started here: a :class:`~sagemaker_hetero.local.LocalJob` (the session protocol).
        What the hosts' interpreter must import is asked first (once per session), before any host starts.

        Parameters
        ----------
        plan : Plan
            The job's plan.
        """
        job = plan.job
        missing = self._modules.problems(job, self.python)
        if missing:
            raise ConfigError(missing)
        return self._launch(plan, _cluster.channels_of(job, plan.code.s3_uri if plan.code is not None else None))

    # -- running -------------------------------------------------------------------------------

    def _pick_network(self):
        """``(A, B)`` for this job's ``127.A.B.0/24``, or ``None`` where only 127.0.0.1 is loopback."""
        rng = random.SystemRandom()
        a, b = rng.randint(1, 254), rng.randint(0, 255)
        with self._lock:
            if self._network is False:
                return None
            probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                probe.bind(("127.%d.%d.1" % (a, b), 0))
            except OSError:
                self._network = False
                return None
            finally:
                probe.close()
            self._network = True
        return (a, b)

    def _fresh_job_dir(self, job_dir, name):
        """Make the job's folder anew (mode 0700, its marker in it), relative to the root and never
        through a link; an earlier run's folder (it holds the marker, a file) goes to the trash."""
        job = self._jobs.get(name)
        if job is not None and not job.ended():
            raise ConfigError([Problem("job_name", "a local job of this name is still running", name)])
        root = _private.open_dir(self.root)
        try:
            if _is_job_folder(root, name) is False:
                message = "%s exists and is not a local job's folder; choose another job_name or root" % job_dir
                raise ConfigError([Problem("job_name", message, name)])
            _private.remove_later([job_dir], self.root)
            folder = _private.new_folder(root, name)
        except _private.NotPrivate as exc:
            raise ConfigError([Problem("root", "%s %s" % (job_dir, exc.strerror), self.root)])
        except FileExistsError:
            raise ConfigError([Problem("job_name", "%s could not be replaced; remove it" % job_dir, name)])
        finally:
            os.close(root)
        try:
            _private.write_new(folder, JOB_MARKER, (name + "\n").encode("utf-8"))
        finally:
            os.close(folder)

    def _code_archive(self, plan, job_dir, memory):
        """``(path of the job's code archive, its unpacked code or None)``.

        An archive built here from local code is unpacked as it is built, from the same bytes
        (``_archive.write_archive``'s ``each``): into ``memory`` (a folder in memory, or None) when
        it fits there, else into the job's folder. An archive that exists already (in S3, or
        given) is not unpacked here (None)."""
        code = plan.code
        local = self._storage.local_path(code.s3_uri)
        if not code.upload:
            if local is not None:
                return local, None
            dest = os.path.join(job_dir, "source", D.CODE_ARCHIVE)
            self._storage.fetch_object(code.s3_uri, dest)
            return dest, None
        dest = local if local is not None else os.path.join(job_dir, "source", D.CODE_ARCHIVE)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        entries = _archive.scan(plan.job.code)
        folder = _code_folder(job_dir, memory, sum(st.st_size for _, _, st in entries))
        os.makedirs(folder)
        with _untar.Writer(dest, folder) as writer:
            body, _ = _archive.write_archive(entries, writer)
        try:
            with open(dest + ".part", "wb") as handle:
                shutil.copyfileobj(body, handle)
        finally:
            body.close()
        os.replace(dest + ".part", dest)
        return dest, _trees.Tree(folder)

    def _inputs(self, channels, job_dir, archive):
        sources = {}
        for channel in channels:
            if channel.kind == CODE:
                sources[channel.name] = archive
                continue
            local = self._storage.local_path(channel.uri)
            if local is None:
                local = os.path.join(job_dir, _DATA_DIR, channel.name)
                try:
                    self._storage.fetch_prefix(channel.uri, local)
                except AWSError as exc:  # say which channel could not be read, and from where
                    raise exc.hinted("The local run could not download the channel %r from %s.%s" % (
                        channel.name, channel.uri, " " + exc.hint if exc.hint else ""))
            sources[channel.name] = local
        return sources

    def _probe(self):
        """``_isolation.probe`` of this session's root (made ready first): ``(works, why_not, map_back, overlay)``."""
        _private.ready_root(self.root, self._default_root)
        return _isolation.probe(self.root)

    def _isolate(self, job_dir, table):
        """``(isolate argument of prepare_host or None, the line saying so, the job's folder in memory
        or None)``; raises where ``isolation="namespaces"`` cannot work here."""
        if self.isolation == "none":
            return None, "hosts share this machine's namespaces (isolation='none')", None
        works, why, map_back, overlay = self._probe()
        if not works:
            if self.isolation == "namespaces":
                raise ConfigError([Problem("isolation", "cannot run hosts in their own namespaces here: %s" % why,
                                           "namespaces")])
            return None, _isolation.fallback_note(why), None
        folder = os.path.join(job_dir, _HOSTS_DIR)
        os.makedirs(folder, exist_ok=True)
        hosts_file = os.path.join(folder, "hosts")
        with open(hosts_file, "w") as handle:
            handle.write(_isolation.hosts_file_text(table))
        # The mount tables and the unpacked code cost no disk in memory (freed when the job ends).
        memory = _private.memory_folder() if overlay else None
        isolation = _isolation.Isolation(folder, hosts_file, _isolation.stage_dir(folder), map_back, overlay,
                                         _isolation.opt_layout(overlay, folder), memory and memory.path)
        line = "each host in its own namespaces: /opt/ml is its folder, /etc/hosts names every algo-N, host name algo-N"
        return isolation, line, memory

    def _launcher(self, job, job_dir, site, table, isolate, note):
        """The distribution's launcher as ``prepare_host`` takes it (mpi: with mpirun, agent, FIFOs). A
        container entry point (a v3 job's driver) starts its own, and is given mpirun's way to the hosts
        (the agent and FIFOs) where the hosts have their namespaces."""
        if job.container_entry_point:
            return None if isolate is None else (_launchers.CONTAINER,) + self._mpi_fifos(job_dir, site, table)
        launcher = _launchers.launcher_of(job)
        if launcher is None or launcher[0] != _launchers.MPI:
            return launcher
        if isolate is None:
            why = ("mpirun needs per-host namespaces locally (its hosts' names must resolve and each host must "
                   "be a node of its own); here %s" % note)
            raise ConfigError([Problem("distribution.mpi", why, job.distribution.options["mpi"])])
        mpirun, _ = _launchers.mpirun_for(self.python, os.environ)
        agent, fifo_dir = self._mpi_fifos(job_dir, site, table)
        return launcher + (mpirun, agent, fifo_dir)

    @staticmethod
    def _mpi_fifos(job_dir, site, table):
        """``(agent, FIFO folder)``: mpirun's agent and a ``<host>.cmd`` / ``<host>.done`` pair per host."""
        fifo_dir = os.path.join(job_dir, _HOSTS_DIR, "mpi")
        os.makedirs(fifo_dir, exist_ok=True)
        for name in table:
            for end in (".cmd", ".done"):
                os.mkfifo(os.path.join(fifo_dir, name + end))
        return _launchers.write_agent(site), fifo_dir

    def _launch(self, plan, channels):
        """Lock the job's folder (another run of the same name and root is refused), then start it."""
        name = plan.job_name
        _private.ready_root(self.root, self._default_root)
        lock = _private.JobLock(os.path.join(self.root, _LOCK_DIR, name + ".lock"), name).acquire()
        try:
            return self._start(plan, channels, lock)
        except BaseException:
            lock.release()
            raise

    def _start(self, plan, channels, lock):
        name = plan.job_name
        started = _job.utc_now()
        transitions = [{"Status": "Starting", "StartTime": started, "StatusMessage": "Preparing the host folders"}]
        job_dir = os.path.join(self.root, name)
        self._fresh_job_dir(job_dir, name)
        seed = self.seed
        if self.assignment == "shuffled" and seed is None:
            seed = random.SystemRandom().randint(0, 2 ** 31 - 1)
        cluster = _cluster.assign_hosts(plan.job, self.assignment, seed)
        network = self._pick_network()
        cluster = cluster.with_addresses(_cluster.host_addresses(len(cluster.hosts), network))
        site = _hosts.write_site(job_dir)
        table = {h.name: h.address for h in cluster.hosts}
        spec = _resolver.format_hosts(table)
        isolate, note, owned = self._isolate(job_dir, table)
        # Seen by the hosts through overlays only (never written), the code may be unpacked in memory.
        memory = isolate.memory if isolate is not None else None
        try:
            archive, code = self._code_archive(plan, job_dir, memory) if plan.code is not None else (None, None)
            transitions[-1]["EndTime"] = _job.utc_now()
            transitions.append({"Status": "Downloading", "StartTime": transitions[-1]["EndTime"],
                                "StatusMessage": "Linking and downloading the input data"})
            sources = self._inputs(channels, job_dir, archive)
            loops = []
            listings = {
                c.name: _hosts.list_channel(sources[c.name], loops.append)
                for c in channels
                if c.kind != CODE and c.distribution == "ShardedByS3Key"
            }
            launcher = self._launcher(plan.job, job_dir, site, table, isolate, note)
            removable = [os.path.join(job_dir, h.name) for h in cluster.hosts]
            removable += [os.path.join(job_dir, d) for d in (_CODE_DIR, _DATA_DIR, _UPLOAD_DIR, _HOSTS_DIR,
                                                             _hosts.SITE_DIR)]
            if archive is not None and code is None:
                code = _trees.Tree(_code_folder(job_dir, memory, _untar.unpacked_size(archive)))
                _untar.extract_archive(archive, code.folder, in_memory=memory is not None and
                                       code.folder.startswith(memory + os.sep))
            job = self._local_job(plan, cluster, channels, sources, code, listings, site, spec, isolate, launcher,
                                  transitions, removable, lock, [owned] if owned else [])
            job.say(_describe_cluster(cluster, network, self.assignment, seed))
            for path in loops:
                job.say("skipped %s: a symbolic link to a folder above it (a loop)" % path)
            job.say(note)
            self._jobs[name] = job
            return job.start()
        except BaseException:
            if owned is not None:
                owned.remove()
            raise

    def _local_job(self, plan, cluster, channels, sources, code, listings, site, spec, isolate, launcher, transitions,
                   removable, lock, scratch):
        request, job_dir = plan.request, os.path.join(self.root, plan.job_name)
        base_env = dict(os.environ)

        def prepare(host):
            return _hosts.prepare_host(
                job_dir, cluster, host, request, channels, sources, code, self.python, base_env, site, spec, listings,
                isolate=isolate, launcher=launcher,
            )

        output = request["OutputDataConfig"]["S3OutputPath"].rstrip("/")
        return _job.LocalJob(
            self, plan.job_name, request, job_dir, cluster.hosts, self._storage,
            posixpath.join(output, plan.job_name, "output"), self.out or sys.stdout, self.grace_period, self.keep,
            transitions, removable, lock, prepare, scratch,
        )


def _is_job_folder(root, name):
    """Whether ``name`` in the folder ``root`` (a descriptor) is a local job's folder (a folder, not a
    link, holding the marker file), or None when there is no such entry."""
    try:
        info = os.stat(name, dir_fd=root, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if not stat.S_ISDIR(info.st_mode):
        return False
    try:
        folder = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=root)
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.stat(JOB_MARKER, dir_fd=folder, follow_symlinks=False).st_mode)
    except OSError:
        return False
    finally:
        os.close(folder)


def _code_folder(job_dir, memory, size):
    """Where the job's code of ``size`` bytes unpacked (None: unknown) goes: into ``memory`` (a folder
    in memory, or None) when it fits there, else into the job's folder."""
    if memory is not None and _trees.fits_in_memory(size):
        return os.path.join(memory, "code")
    return os.path.join(job_dir, _CODE_DIR)


def _describe_cluster(cluster, network, assignment, seed):
    groups = "; ".join(
        "%s: %s (%s)" % (group, ", ".join(hosts), itype) for group, itype, hosts in cluster.groups
    )
    where = "127.%d.%d.0/24" % network if network else "127.0.0.1 (shared)"
    how = "shuffled, seed %s" % seed if assignment == "shuffled" else "ordered"
    return "%d host(s) on %s, %s: %s" % (len(cluster.hosts), where, how, groups)


# -- the job as a local run reads it -----------------------------------------------------------


def _local_uri(value):
    """A plain local path or relative ``file://`` URI as an absolute ``file://`` URI; S3 URIs unchanged."""
    if not isinstance(value, str) or not value or value.startswith("s3://") or value.startswith("https://"):
        return value
    if value.startswith("file://"):
        return _storage.file_uri(_storage.path_of_file_uri(value))
    return _storage.file_uri(value)


def localize(job):
    """``job`` with its local inputs (channels, the model) and a ``file://`` output path as absolute
    ``file://`` URIs."""
    channels = tuple(
        c if c.kind == CODE or _local_uri(c.uri) == c.uri else attrs.evolve(c, uri=_local_uri(c.uri))
        for c in job.channels
    )
    changes = {"channels": channels}
    if isinstance(job.output_path, str) and job.output_path.startswith("file://"):
        changes["output_path"] = _local_uri(job.output_path)
    return attrs.evolve(job, **changes)
