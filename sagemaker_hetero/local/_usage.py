"""What each host of a local job used: CPU and resident memory of its process tree, about once a second.

**Reading** (:func:`samples`): ``samples(job_dir)`` -> ``{"hosts": {host: {"group": str or None, "series":
{"cpu": [(t, pct)], "memory": [(t, pct)]}}}, "note": str or None}``, ``t`` in seconds since the epoch
(a float), ``pct`` from 0 to 100 of what the host may use: CPU, the share of the cores its processes may
run on (``os.sched_getaffinity`` of the host's first process, else ``os.cpu_count()``); memory, the
resident set of its whole process tree (each process's, summed: pages shared between processes count once
per process, as ``ps`` shows them) as a share of the machine's memory. A job with no samples answers no
hosts, not an error; ``note`` says why there are none when the job said so (not Linux).

**Writing** (:class:`Sampler`): one thread for every host of a job reads ``/proc`` (no dependency, Linux
only) once per interval: every process whose session is the host's (each host is a session of its own)
or whose parent is one of the host's, so a launcher's workers (torchrun) count, and the lifeline's
watchdog, orphaned but in the session; a process of no host is read again in one reading of 30 only.
CPU is what the tree's processes and the children they reaped used since the previous reading. Each
reading is one line appended to ``<job dir>/usage/<host>.jsonl`` (the folder made private, each file
new, never through a link: ``_private``); the sampler holds only the previous reading in memory.
After :data:`LINES_PER_STEP` readings the interval doubles, so a job of any length writes a number of
lines that grows with the logarithm of its length.

A line is ``{"host", "group", "cores", "memory_bytes", "interval"}`` first, then ``{"t", "cpu", "memory",
"rss", "processes"}`` per reading (``rss`` in bytes).
"""
import json
import os
import sys
import threading
import time

from sagemaker_hetero.local import _private

__all__ = ["USAGE_DIR", "NOTE_FILE", "INTERVAL", "LINES_PER_STEP", "samples", "Sampler", "start"]

USAGE_DIR = "usage"  # <job dir>/usage/<host>.jsonl
NOTE_FILE = "not-sampled.txt"  # <job dir>/usage/not-sampled.txt: why no host was sampled
INTERVAL = 1.0  # seconds between readings, at first
LINES_PER_STEP = 36000  # readings at one interval before it doubles (10 hours at 1 s)
_SAMPLES_SUFFIX = ".jsonl"
_PROC = "/proc"
_RESCAN = 30  # every process is read in one reading of so many (see Sampler.tick)
_MAX_LINE = 4096  # a longer line is not one the sampler wrote: skipped


# -- reading -------------------------------------------------------------------------------------


def samples(job_dir):
    """Every host's CPU and memory series of the local job in ``job_dir`` (see the module).

    Parameters
    ----------
    job_dir : str
        The job's folder (``LocalJob.job_dir``, or ``describe()["LocalRun"]["JobDirectory"]``).
    """
    folder = os.path.join(job_dir, USAGE_DIR)
    hosts, note = {}, None
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    for name in names:
        path = os.path.join(folder, name)
        if name == NOTE_FILE:
            note = _read_note(path)
        elif name.endswith(_SAMPLES_SUFFIX) and not os.path.islink(path):
            host = _read_host(path)
            if host is not None:
                hosts[name[:-len(_SAMPLES_SUFFIX)]] = host
    return {"hosts": hosts, "note": note}


def _read_note(path):
    try:
        with open(path, "rb") as handle:
            return handle.read(_MAX_LINE).decode("utf-8", "replace").strip() or None
    except OSError:
        return None


def _read_host(path):
    """``{"group", "series"}`` (and ``"instance_type"`` when its first line names it) of one host's file, or None when it cannot be read; lines that
    are not readings (cut short by the job's end, or foreign) are skipped."""
    group, instance_type, cpu, memory = None, None, [], []
    try:
        handle = open(path, "rb")
    except OSError:
        return None
    with handle:
        for raw in handle:
            if len(raw) > _MAX_LINE:
                continue
            try:
                line = json.loads(raw.decode("utf-8"))
            except ValueError:
                continue
            if not isinstance(line, dict):
                continue
            if "group" in line and isinstance(line["group"], str):
                group = line["group"]
            if isinstance(line.get("instance_type"), str):
                instance_type = line["instance_type"]
            t = line.get("t")
            if not _is_number(t):
                continue
            if _is_number(line.get("cpu")):
                cpu.append((float(t), float(line["cpu"])))
            if _is_number(line.get("memory")):
                memory.append((float(t), float(line["memory"])))
    found = {"group": group, "series": {"cpu": cpu, "memory": memory}}
    if instance_type is not None:  # written since the samples name it
        found["instance_type"] = instance_type
    return found


def _is_number(value):
    """A finite number (a foreign line's NaN or Infinity, which JSON lets Python read, is none)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < float("inf")


# -- writing -------------------------------------------------------------------------------------


def _read_stat(proc, pid):
    """``(ppid, session, cpu ticks of it and its reaped children, rss pages, start)`` of ``pid`` from
    ``<proc>/<pid>/stat``, or None when it is gone or unreadable."""
    try:
        fd = os.open("%s/%s/stat" % (proc, pid), os.O_RDONLY)
    except OSError:
        return None
    try:
        text = os.read(fd, 2048)
    except OSError:
        return None
    finally:
        os.close(fd)
    fields = text[text.rfind(b")") + 2:].split()  # the name, in parentheses, may hold anything
    try:  # fields[n - 3] is proc(5)'s field n
        ticks = int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        return int(fields[1]), int(fields[3]), ticks, int(fields[21]), int(fields[19])
    except (IndexError, ValueError):
        return None


def _scan(proc, skip):
    """``({pid: _read_stat(...)}, every pid listed)`` of the processes ``proc`` shows, those of ``skip`` not read."""
    table, listed = {}, set()
    try:
        names = os.listdir(proc)
    except OSError:
        return table, listed
    for name in names:
        if name.isdigit():
            pid = int(name)
            listed.add(pid)
            if pid not in skip:
                info = _read_stat(proc, name)
                if info is not None:
                    table[pid] = info
    return table, listed


def _members(table, children, root):
    """The pids of the host whose first process is ``root``: its session's and its descendants."""
    found = set(pid for pid, info in table.items() if info[1] == root)
    found.add(root)
    todo = list(found)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


class _Host(object):
    """One host being sampled: its file, its first process, its previous reading."""

    def __init__(self, name, group, pid, cores, fd):
        self.name, self.group, self.pid, self.cores, self.fd = name, group, pid, cores, fd
        self.start = None  # its first process's start time (a pid used again is not it)
        self.previous = None  # (t, {pid: (ppid, ticks)}, total ticks)
        self.done = False


class Sampler(object):
    """Samples the process trees of a job's hosts into ``<job dir>/usage/`` (see the module).

    Parameters
    ----------
    job_dir : str
        The job's folder (private: made by the session).
    hosts : list of (str, str, int) or (str, str, int, str)
        Each host's name, group and first process's pid (the leader of its session), and its instance type
        (written in its file's first line, so that a later process reads the group's type).
    interval : float, optional
        Seconds between readings at first (default :data:`INTERVAL`).
    clock : callable, default time.time
        The time now, in seconds since the epoch.
    proc : str, default '/proc'
        Where the processes are read.
    say : callable, optional
        Told, once, why sampling stopped early (a file that cannot be written).
    cores : callable, optional
        A pid -> how many cores it may run on (default: its ``os.sched_getaffinity``, else the machine's).
    """

    def __init__(self, job_dir, hosts, interval=None, clock=time.time, proc=_PROC, say=None, cores=None):
        self.interval = float(INTERVAL if interval is None else interval)
        self._clock = clock
        self._proc = proc
        self._say = say or (lambda text: None)
        self._page = os.sysconf("SC_PAGE_SIZE")
        self._tick = float(os.sysconf("SC_CLK_TCK"))
        self._memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        self._stop = threading.Event()
        self._thread = None
        self._readings = 0
        self._foreign = set()  # pids of processes of no host: not read
        self._changed = threading.Condition()
        folder = _private.open_below(job_dir, [USAGE_DIR], make=True)
        self._hosts = []
        try:
            for entry in hosts:
                name, group, pid = entry[:3]
                fd = _private.create_new(folder, name + _SAMPLES_SUFFIX, flags=os.O_APPEND)
                host = _Host(name, group, pid, (cores or _cores)(pid), fd)
                self._hosts.append(host)
                first = {"host": name, "group": group, "cores": host.cores, "memory_bytes": self._memory,
                         "interval": self.interval}
                if len(entry) > 3 and entry[3] is not None:
                    first["instance_type"] = entry[3]
                self._write(host, first)
        except BaseException:
            self.close()
            raise
        finally:
            os.close(folder)

    def _write(self, host, line):
        os.write(host.fd, (json.dumps(line, sort_keys=True) + "\n").encode("utf-8"))

    def tick(self):
        """Read every host still running once; write a line for each read before (the first reading
        is the starting point of the CPU figures). Returns whether any host is left to sample."""
        table, listed = _scan(self._proc, self._foreign)
        children = {}
        for pid, info in table.items():
            children.setdefault(info[0], []).append(pid)
        now = self._clock()
        members = set()
        for host in self._hosts:
            if not host.done:
                members.update(self._read_host(host, table, children, now))
        # A process of no host when first seen never becomes one (its session and parent are its own):
        # it is not read again while its pid is listed, except in every _RESCAN-th reading (its pid
        # might have been used again between two readings).
        self._foreign = listed - members if (self._readings + 1) % _RESCAN else set()
        with self._changed:
            self._readings += 1
            self._changed.notify_all()
        return any(not host.done for host in self._hosts)

    def _read_host(self, host, table, children, now):
        first = table.get(host.pid)
        if first is None or (host.start is not None and first[4] != host.start):
            host.done = True  # its first process is gone (reaped by the job)
            return ()
        host.start = first[4]
        members = _members(table, children, host.pid)
        seen = {pid: (table[pid][0], table[pid][2]) for pid in members}
        total = sum(ticks for _, ticks in seen.values())
        rss = sum(table[pid][3] for pid in members) * self._page
        previous, host.previous = host.previous, (now, seen, total)
        if previous is None or now <= previous[0]:
            return members
        used = total - previous[2] + _lost(previous[1], seen)
        cpu = 100.0 * max(0, used) / self._tick / (now - previous[0]) / host.cores
        line = {"t": round(now, 3), "cpu": round(min(100.0, cpu), 2),
                "memory": round(min(100.0, 100.0 * rss / self._memory), 2), "rss": rss, "processes": len(members)}
        try:
            self._write(host, line)
        except OSError as exc:
            host.done = True
            self._say("utilization of %s no longer sampled: %s" % (host.name, exc.strerror or exc))
        return members

    def wait_readings(self, count, timeout):
        """Wait until ``count`` readings were made (at most ``timeout`` seconds); whether they were."""
        with self._changed:
            return self._changed.wait_for(lambda: self._readings >= count, timeout)

    def start(self):
        """Read now, then once per interval in a thread of its own (a daemon) until :meth:`stop`."""
        self._thread = threading.Thread(target=self._run, name="sagemaker-hetero-usage")
        self._thread.daemon = True
        self._thread.start()
        return self

    def _run(self):
        try:
            count = 0
            while self.tick() and not self._stop.wait(self.interval):
                count += 1
                if count >= LINES_PER_STEP:
                    count, self.interval = 0, self.interval * 2
        except Exception as exc:  # the job runs on without its figures
            self._say("utilization no longer sampled: %r" % (exc,))
        finally:
            self.close()

    def stop(self):
        """Stop reading (waits for a reading under way) and close the files."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        self.close()

    def close(self):
        for host in self._hosts:
            fd, host.fd = host.fd, None
            if fd is not None:
                os.close(fd)


def _lost(before, now):
    """CPU ticks of the processes in ``before`` (``{pid: (ppid, ticks)}``) that are gone from ``now`` and
    were not reaped by a process in ``now`` (whose own count then holds theirs): an orphan reaped by init."""
    lost = 0
    for pid, (ppid, ticks) in before.items():
        if pid in now:
            continue
        parent, hops = ppid, 0
        while parent in before and parent not in now and hops < len(before):  # its parent, gone as well
            parent, hops = before[parent][0], hops + 1
        if parent not in now:
            lost += ticks
    return lost


def _cores(pid):
    """How many cores the process ``pid`` may run on."""
    try:
        return max(1, len(os.sched_getaffinity(pid)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def start(job_dir, hosts, say):
    """A started :class:`Sampler` of the job's hosts (``(name, group, pid)`` each), or None where
    processes cannot be read (not Linux: the job says so once, and :data:`NOTE_FILE` tells ``samples``)."""
    if not sys.platform.startswith("linux") or not os.path.isdir(os.path.join(_PROC, "self")):
        why = "utilization not sampled: reading the hosts' processes needs Linux's /proc (this is %s)" % sys.platform
        try:
            folder = _private.open_below(job_dir, [USAGE_DIR], make=True)
            try:
                _private.write_new(folder, NOTE_FILE, (why + "\n").encode("utf-8"))
            finally:
                os.close(folder)
        except OSError:
            pass
        say(why)
        return None
    try:
        return Sampler(job_dir, hosts, say=say).start()
    except OSError as exc:
        say("utilization not sampled: cannot make %s in %s: %s" % (exc.filename, os.path.join(job_dir, USAGE_DIR),
                                                                  exc.strerror or exc))
    except Exception as exc:  # the hosts run already: they run on without their figures
        say("utilization not sampled: %r" % (exc,))
    return None
