"""A running local job: one process group per host, their output, their end, the artifacts.

Threads, all daemons: one pumps every host's output (stdout and stderr, one pipe per host) to the
session's stream, each line and progress-bar update prefixed ``[<group>/<host>] `` (``_output``:
linear, what is held of an unended line bounded), control characters shown (``exceptions.shown``;
the ``\\r`` ending an update kept); one per host waits for its process; one
supervises: on the first failing host, on ``max_run`` or on :meth:`LocalJob.stop` it terminates
every host (SIGTERM to each process group, SIGKILL after the grace period), then packs the
artifacts and sets the final status. :meth:`LocalJob.wait` joins it; a ``KeyboardInterrupt`` there
stops every host before it propagates.

The hosts die with the driver (this process) too: SIGTERM and SIGHUP stop every host the same way
before the process ends by the signal (``_signals``, while a job runs and when it was started from
the main thread); a host's watchdog stops its process group when the driver is gone, whatever
killed it, SIGKILL included (``_lifeline``). Nothing a host started outlives the job, unless it left
the host's process group (``setsid``) itself.
"""
import atexit
import datetime
import os
import queue
import selectors
import signal
import subprocess
import sys
import threading
import time
import weakref

from sagemaker_hetero.exceptions import LocalJobError, shown
from sagemaker_hetero.local import _artifacts, _hostfiles, _lifeline, _output, _private, _signals, _usage

__all__ = ["LocalJob", "utc_now"]

_PUMP_DRAIN_SECONDS = 2.0
_RUNNING = weakref.WeakSet()
_SIGNAL_STOP = {"stopping": False}  # a first SIGTERM/SIGHUP is stopping the hosts


def utc_now():
    """The time now, in UTC (a described job's times)."""
    return datetime.datetime.now(datetime.timezone.utc)


def _kill_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


class _HostRun(object):
    """One host's process, what it printed and, once it failed, what its ``output/failure`` says."""

    def __init__(self, plan):
        self.plan = plan
        self.host = plan.host
        self.output = _output.HostOutput("[%s/%s] " % (plan.host.group, plan.host.name))
        self.proc = None
        self.exit_code = None
        self.exited = threading.Event()
        self.failure = None  # the failure file's text (its first FAILURE_LIMIT bytes, _hostfiles)
        self.failure_note = None  # why it was not read, or that it was cut

    label = property(lambda self: self.output.label)
    lines = property(lambda self: self.output.lines)

    def read_failure(self):
        """Read ``output/failure`` once, trusting nothing about it (:func:`_hostfiles.read_failure`)."""
        self.failure, self.failure_note = _hostfiles.read_failure(self.plan.base_dir)


class LocalJob(object):
    """A training job running on this machine (``estimator.latest_training_job`` of a local run).

    ``describe()`` answers like DescribeTrainingJob (status ``InProgress``, ``Completed``,
    ``Failed`` or ``Stopped``); ``wait()`` blocks until the end and raises
    :class:`~sagemaker_hetero.exceptions.LocalJobError` unless the job completed; ``stop()``
    terminates every host. ``LocalSession.execute`` makes it.

    Parameters
    ----------
    session, name, request, job_dir
        The session that runs it, the job's name, its CreateTrainingJob request and its folder.
    hosts, storage, artifacts_uri, out
        Its hosts, the session's local storage, where the artifacts go, the output stream.
    grace_period, keep, transitions, removable
        The stop grace period; keep the folders; the status history so far; what to remove at the end.
    lock, prepare, scratch
        The job folder's lock; a host -> its folder made ready; folders removed when the job ends.
    """

    def __init__(self, session, name, request, job_dir, hosts, storage, artifacts_uri, out, grace_period, keep,
                 transitions, removable, lock=None, prepare=None, scratch=()):
        """Make the job (not started yet); the parameters are the class's."""
        self.sagemaker_session = session
        self.name = name
        self.request = request
        self.job_dir = job_dir
        self._storage = storage
        self._artifacts_uri = artifacts_uri  # <output path>/<job name>/output
        self._out = out
        self._echo = True
        self._shown = None  # the groups whose lines are shown; None: every group
        self._grace = grace_period
        self._keep = keep
        self._removable = removable
        self._scratch = list(scratch)  # _private.OwnedFolder's removed when the job ends, however it ends
        self._folder_lock = lock  # the job folder's lock, released when the job ends
        self._hosts = list(hosts)
        self._prepare = prepare  # host -> its HostPlan (its folder made ready)
        self._runs = []  # filled as the hosts start
        self._events = queue.Queue()
        self._lock = threading.RLock()
        self._out_lock = threading.Lock()
        self._drawn = None  # the host whose update (ended by \r) the stream shows last, if any
        self._done = threading.Event()
        self._status = "InProgress"
        self._secondary = "Starting"
        self._transitions = list(transitions)
        self._failure_reason = None
        self._error = None
        self._model_uri = None
        self._created = transitions[0]["StartTime"] if transitions else utc_now()
        self._started_at = None
        self._ended_at = None
        self._threads = []
        self._lifeline = None
        self._sampler = None  # _usage.Sampler: each host's CPU and memory, in <job dir>/usage/

    # -- names ---------------------------------------------------------------------------------

    @property
    def job_name(self):
        """The job's name (``name``)."""
        return self.name

    def __repr__(self):
        return "LocalJob(%r)" % (self.name,)

    def __str__(self):
        return self.name

    # -- starting ------------------------------------------------------------------------------

    def _set_secondary(self, status, message=""):
        now = utc_now()
        with self._lock:
            if self._transitions and "EndTime" not in self._transitions[-1]:
                self._transitions[-1]["EndTime"] = now
            self._transitions.append({"Status": status, "StartTime": now, "StatusMessage": message})
            self._secondary = status

    def start(self):
        """Prepare each host's folder and start its process as soon as it is ready, then the threads
        watching them (host N runs while host N+1 is prepared)."""
        self._set_secondary("Training", "Running the entry point on %d host(s)" % len(self._hosts))
        self._started_at = utc_now()
        self._clock = time.monotonic()
        self._lifeline = _lifeline.Lifeline()
        try:
            for host in self._hosts:
                run = _HostRun(self._prepare(host))
                self._runs.append(run)
                run.proc = subprocess.Popen(
                    _lifeline.guarded(run.plan.argv, self._grace, run.plan.prefix, run.plan.env),
                    cwd=run.plan.cwd,
                    env=run.plan.env,
                    stdin=self._lifeline.read_fd,  # the host runs its entry point with /dev/null
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    close_fds=True,
                )
        except BaseException:
            for run in self._runs:
                if run.proc is not None:
                    _kill_group(run.proc.pid, signal.SIGKILL)
                    run.proc.wait()
                    run.proc.stdout.close()
            self._lifeline.close()
            raise
        finally:
            self._lifeline.close_read()
        _RUNNING.add(self)
        self._sampler = _usage.start(self.job_dir, [(r.host.name, r.host.group, r.proc.pid, r.host.instance_type)
                                                     for r in self._runs], self.say)
        _signals.install(_stop_all_for_signal)
        self._spawn(self._pump, "pump")
        for run in self._runs:
            self._spawn(self._waiter, "wait-" + run.host.name, run)
        self._spawn(self._supervise, "supervise")
        return self

    def _spawn(self, target, label, *args):
        thread = threading.Thread(target=target, args=args, name="local-%s-%s" % (self.name, label))
        thread.daemon = True
        thread.start()
        self._threads.append(thread)
        return thread

    # -- output --------------------------------------------------------------------------------

    def _write(self, text, flush=False, source=None):
        """Write to the output stream; a stream that fails is given up (the hosts must not block).

        ``source``: the host whose records ``text`` holds. After a host's update (ended by ``\\r``:
        a progress bar drawn in place), anything but that host's next record starts on a new line,
        so the update stays on screen.
        """
        if not self._echo:
            return
        with self._out_lock:
            try:
                if text:
                    if self._drawn is not None and self._drawn is not source:
                        self._out.write("\n")
                    self._out.write(text)
                    self._drawn = source if text.endswith("\r") else None
                if flush:
                    self._out.flush()
            except Exception as exc:
                self._echo = False
                sys.stderr.write("sagemaker-hetero local: cannot write the output of %s: %r\n" % (self.name, exc))

    def say(self, text):
        """Print one ``[local] <job>: <text>`` line of the driver's among the hosts' output.

        Parameters
        ----------
        text : str
            What the driver says.
        """
        self._write(shown("[local] %s: %s\n" % (self.name, text)), flush=True)

    def ended(self):
        """Whether the job has ended (its hosts are gone)."""
        return self._done.is_set()

    def _emit(self, run, chunk):
        """Show what ``chunk`` completes of ``run``'s lines and updates (``b""``: its output ended)."""
        text = run.output.feed(chunk) if chunk else run.output.end()
        if text and (self._shown is None or run.host.group in self._shown):
            self._write(shown(text, updates=True), source=run)

    def _pump(self):
        selector = selectors.DefaultSelector()
        try:
            for run in self._runs:
                selector.register(run.proc.stdout, selectors.EVENT_READ, run)
            while selector.get_map():
                ready = selector.select(timeout=0.5)
                for key, _ in ready:
                    run = key.data
                    try:
                        chunk = os.read(key.fd, 65536)
                    except OSError:
                        chunk = b""
                    self._emit(run, chunk)
                    if not chunk:
                        selector.unregister(key.fileobj)
                        key.fileobj.close()
                if ready:
                    self._write("", flush=True)
                if self._done.is_set():  # the job is over; a stray process's output is not waited for
                    break
        except Exception as exc:  # unread pipes would block the hosts: end the job instead
            sys.stderr.write("sagemaker-hetero local: cannot read the output of %s: %r\n" % (self.name, exc))
            self._events.put(("stop", ("stopped", "stopped")))
        finally:
            for key in list(selector.get_map().values()):
                key.fileobj.close()
            selector.close()

    # -- watching ------------------------------------------------------------------------------

    def _waiter(self, run):
        run.exit_code = run.proc.wait()
        _kill_group(run.proc.pid, signal.SIGKILL)  # what the host left running dies with it
        run.exited.set()
        self._events.put(("exit", run))

    def _terminate(self, runs):
        """SIGTERM to each host's process group; SIGKILL after the grace period to what is left."""
        runs = [r for r in runs if not r.exited.is_set()]
        for run in runs:
            _kill_group(run.proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + self._grace
        for run in runs:
            run.exited.wait(max(0.0, deadline - time.monotonic()))
        for run in runs:
            if not run.exited.is_set():
                _kill_group(run.proc.pid, signal.SIGKILL)
        for run in runs:
            run.exited.wait(5.0)

    def _free_scratch(self):
        """Remove the job's folders in memory (the code unpacked there): at its end, or at exit."""
        for folder in self._scratch:
            folder.remove()

    def _kill_now(self):
        """SIGKILL to every host still running (interpreter exit, a second Ctrl-C)."""
        for run in self._runs:
            if run.proc is not None and not run.exited.is_set():
                _kill_group(run.proc.pid, signal.SIGKILL)

    def _supervise(self):
        outcome, culprit, why = "completed", None, None
        try:
            max_run = self.request["StoppingCondition"]["MaxRuntimeInSeconds"]
            deadline = self._clock + max_run
            pending = set(self._runs)
            while pending:
                left = deadline - time.monotonic()
                if left <= 0:
                    outcome = "timeout"
                    break
                try:
                    kind, item = self._events.get(timeout=min(left, 3600.0))
                except queue.Empty:
                    continue
                if kind == "stop":
                    outcome, why = item
                    break
                pending.discard(item)
                if item.exit_code != 0:
                    outcome, culprit = "failed", item
                    break
            if pending:
                if outcome == "failed":
                    self.say("%s (%s) exited with code %s; stopping the other hosts"
                              % (culprit.host.name, culprit.host.group, culprit.exit_code))
                self._terminate(pending)
            self._finish(outcome, culprit, max_run, why)
        except BaseException as exc:  # never leave hosts behind, whatever happened here
            self._kill_now()
            with self._lock:
                self._status, self._secondary = "Failed", "Failed"
                self._failure_reason = "InternalError: %r" % (exc,)
                self._error = self._make_error("internal", "the local runner failed: %r" % (exc,))
        finally:
            if self._sampler is not None:
                self._sampler.stop()
            self._lifeline.close()  # a watchdog still running stops what is left of its host
            self._free_scratch()
            self._ended_at = utc_now()
            _RUNNING.discard(self)
            if self._folder_lock is not None:
                self._folder_lock.release()
            self._done.set()

    # -- the end -------------------------------------------------------------------------------

    def _finish(self, outcome, culprit, max_run, why=None):
        elapsed = time.monotonic() - self._clock
        self._drain_output()
        if outcome != "failed":  # SageMaker saves the artifacts of completed and stopped jobs
            self._set_secondary("Uploading", "Packing model and output data")
            self._collect()
        if outcome == "completed":
            status, secondary = "Completed", "Completed"
            self.say("Completed in %.2f s; model artifacts: %s" % (elapsed, self._model_uri))
        elif outcome == "failed":
            status, secondary = "Failed", "Failed"
            self._fail(culprit)
        elif outcome == "timeout":
            status, secondary = "Stopped", "MaxRuntimeExceeded"
            self._error = self._make_error(
                "timeout",
                "timeout: the job ran past max_run (MaxRuntimeInSeconds=%s) and every host was stopped" % max_run,
            )
            self.say("Stopped: ran past max_run (%s s); host folders kept in %s" % (max_run, self.job_dir))
        else:
            status, secondary = "Stopped", "Stopped"
            self._error = self._make_error(outcome, "%s: every host was stopped" % why)
            self.say("Stopped (%s); host folders kept in %s" % (why, self.job_dir))
        with self._lock:
            if self._transitions and "EndTime" not in self._transitions[-1]:
                self._transitions[-1]["EndTime"] = utc_now()
            self._transitions.append({"Status": secondary, "StartTime": utc_now(), "StatusMessage": ""})
            self._status, self._secondary = status, secondary
        if status == "Completed" and not self._keep:
            _private.remove_later(self._removable, os.path.dirname(self.job_dir))

    def _fail(self, culprit):
        """The failure reason and error of a job whose host ``culprit`` failed."""
        culprit.read_failure()
        host = culprit.host
        reason = "AlgorithmError: %s (%s) exited with code %s" % (host.name, host.group, culprit.exit_code)
        if culprit.failure:
            reason += ": " + culprit.failure
        elif culprit.failure_note:
            reason += " (%s)" % culprit.failure_note
        self._failure_reason = reason
        self._error = self._make_error(
            "failed", "host %s (group %s) exited with code %s" % (host.name, host.group, culprit.exit_code), culprit
        )
        self.say("Failed: %s; host folders kept in %s" % (reason.splitlines()[0], self.job_dir))

    def _drain_output(self):
        """Wait briefly for the last output; a pipe a stray process still holds is not waited for."""
        deadline = time.monotonic() + _PUMP_DRAIN_SECONDS
        for thread in self._threads:
            if thread.name.endswith("-pump"):
                thread.join(max(0.0, deadline - time.monotonic()))
        self._write("", flush=True)

    def _collect(self):
        """Pack every host's ``model/`` and ``output/data/`` to ``<output path>/<job>/output/`` (``_artifacts``)."""
        runs = sorted(self._runs, key=lambda r: int(r.host.name.rsplit("-", 1)[1]))
        self._model_uri = _artifacts.collect([(r.host.name, r.plan.base_dir) for r in runs], self._storage,
                                             self._artifacts_uri, self.job_dir, self.say)

    def _make_error(self, reason, text, culprit=None):
        lines = ["Local training job %s: %s." % (self.name, text)]
        if culprit is not None:
            if culprit.failure:
                lines.append("%s:" % os.path.join(culprit.plan.base_dir, *_hostfiles.FAILURE_FILE.split("/")))
                lines.extend("  " + line for line in culprit.failure.splitlines())
            if culprit.failure_note:
                lines.append("%s: %s" % (culprit.host.name, culprit.failure_note))
            if culprit.lines:
                lines.append("Last lines of %s:" % culprit.host.name)
                lines.extend("  " + culprit.label + line for line in culprit.lines)
        lines.append("Host folders: %s" % self.job_dir)
        error = LocalJobError(
            "\n".join(lines),
            job_name=self.name,
            status="Failed" if reason in ("failed", "internal") else "Stopped",
            failure_reason=self._failure_reason,
            reason=reason,
            host=culprit.host.name if culprit else None,
            group=culprit.host.group if culprit else None,
            exit_code=culprit.exit_code if culprit else None,
            failure=culprit.failure if culprit else None,
            last_lines=culprit.lines if culprit else (),
            exit_codes={r.host.name: r.exit_code for r in self._runs},
        )
        return error

    # -- the public surface --------------------------------------------------------------------

    def utilization(self):
        """What each host used while the job ran, per instance group (a ``Usage``, as a job on AWS gives it;
        docs/usage.md): CPU as a share of the cores a host may use and resident memory, sampled about once a
        second by this driver; a job with no samples is unknown, never an error."""
        from sagemaker_hetero._usage import local as usage_of

        return usage_of.usage(self.name, _usage.samples(self.job_dir), self.describe())

    def describe(self):
        """The job as DescribeTrainingJob would show it, plus ``LocalRun`` (folders, hosts, pids)."""
        with self._lock:
            desc = {
                "TrainingJobName": self.name,
                "TrainingJobArn": "arn:aws:sagemaker:%s:%s:training-job/%s"
                % (self.sagemaker_session.boto_region_name, self.sagemaker_session.account_id(), self.name),
                "TrainingJobStatus": self._status,
                "SecondaryStatus": self._secondary,
                "CreationTime": self._created,
                "SecondaryStatusTransitions": [dict(t) for t in self._transitions],
            }
            if self._started_at is not None:
                desc["TrainingStartTime"] = self._started_at
            if self._done.is_set():
                desc["TrainingEndTime"] = self._ended_at
                desc["LastModifiedTime"] = self._ended_at
            if self._failure_reason:
                desc["FailureReason"] = self._failure_reason
            if self._model_uri and self._status in ("Completed", "Stopped"):
                desc["ModelArtifacts"] = {"S3ModelArtifacts": self._model_uri}
        for key in ("AlgorithmSpecification", "HyperParameters", "InputDataConfig", "OutputDataConfig",
                    "ResourceConfig", "StoppingCondition", "RoleArn", "Environment", "VpcConfig"):
            if key in self.request:
                desc[key] = self.request[key]
        desc["LocalRun"] = {
            "JobDirectory": self.job_dir,
            "Hosts": [
                {
                    "Host": r.host.name,
                    "InstanceGroupName": r.host.group,
                    "InstanceType": r.host.instance_type,
                    "Address": r.host.address,
                    "BaseDirectory": r.plan.base_dir,
                    "Namespaces": bool(r.plan.prefix),
                    "Pid": r.proc.pid if r.proc is not None else None,
                    "ExitCode": r.exit_code,
                }
                for r in self._runs
            ],
        }
        return desc

    def _show_only(self, instance_groups):
        names = [getattr(g, "instance_group_name", g) for g in instance_groups]
        known = sorted(set(r.host.group for r in self._runs))
        unknown = [n for n in names if n not in known]
        if unknown:
            raise ValueError("instance_groups: %s not a group of job %s (groups: %s)"
                             % (", ".join(map(repr, unknown)), self.name, ", ".join(known)))
        self._shown = frozenset(names)

    def stop(self):
        """Stop every host (SIGTERM, SIGKILL after the grace period); returns at once, like StopTrainingJob."""
        self._events.put(("stop", ("stopped", "stopped")))

    def wait(self, logs="All", poll=None, out=None, instance_groups=None):
        """Block until the job ends; return its description if it completed, else raise a ``LocalJobError``
        naming the host that failed. Ctrl-C (SIGTERM, SIGHUP) stops every host, then propagates.

        Parameters
        ----------
        logs : bool or str, default 'All'
            ``False`` or ``"None"`` silences the hosts' output from now on.
        poll : float, optional
            Accepted as the SDK v2 takes it, and ignored.
        out : file, optional
            The output stream from now on.
        instance_groups : list of str or InstanceGroup, optional
            Show only these groups' lines.
        """
        if instance_groups is not None:
            self._show_only(instance_groups)
        if out is not None:
            with self._out_lock:
                self._out, self._drawn = out, None
        if logs in (False, "None"):
            self._echo = False
        noted = []  # Ctrl-C, noted by our handler and raised here (_signals.record_interrupts)
        put_back = _signals.record_interrupts(noted)
        try:
            while not self._done.wait(0.1):
                if noted:
                    raise KeyboardInterrupt
        except KeyboardInterrupt:
            try:
                self._events.put(("stop", ("interrupted", "interrupted (Ctrl-C)")))
                deadline, first = time.monotonic() + self._grace + 10.0, len(noted)  # a second Ctrl-C: kill now
                while len(noted) <= first and not self._done.wait(0.1) and time.monotonic() < deadline:
                    pass
            finally:
                self._kill_now()
            raise
        finally:
            put_back()
            if not _RUNNING:
                _signals.release()
        if self._error is not None:
            raise self._error
        return self.describe()


def _stop_all_for_signal(signum):
    """SIGTERM or SIGHUP to the driver: stop every running job's hosts, in parallel, as Ctrl-C does.

    A second such signal while the first is being handled kills what is left at once.
    """
    jobs = list(_RUNNING)
    if _SIGNAL_STOP["stopping"]:
        for job in jobs:
            job._kill_now()
        return
    why = "interrupted (%s)" % signal.Signals(signum).name
    _SIGNAL_STOP["stopping"] = True
    try:
        for job in jobs:
            job._events.put(("stop", ("interrupted", why)))
        for job in jobs:
            job._done.wait(job._grace + 10.0)
    finally:
        _SIGNAL_STOP["stopping"] = False
        for job in jobs:
            job._kill_now()


def _stop_all_at_exit():
    """At exit, a job still running (``fit(wait=False)``, never waited for) is killed, and its folder in
    memory freed here: its supervisor, a daemon thread, may not get to it before the interpreter ends."""
    jobs = list(_RUNNING)
    for job in jobs:
        job._kill_now()
    for job in jobs:
        job._free_scratch()


atexit.register(_stop_all_at_exit)
