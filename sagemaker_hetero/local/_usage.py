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
watchdog, orphaned but in the session. CPU is what the tree's processes and the children they reaped
used since the previous reading. Each reading is one line appended to ``<job dir>/usage/<host>.jsonl``
(the folder made private, each file new, never through a link: ``_private``); the sampler holds only
the previous reading in memory. After :data:`LINES_PER_STEP` readings the interval doubles, so a job of
any length writes a number of lines that grows with the logarithm of its length.

A line is ``{"host", "group", "cores", "memory_bytes", "interval"}`` first, then ``{"t", "cpu", "memory",
"rss", "processes"}`` per reading (``rss`` in bytes).
"""
import errno
import json
import os
import sys
import threading
import time

from sagemaker_hetero.local import _private

__all__ = ["USAGE_DIR", "NOTE_FILE", "INTERVAL", "LINES_PER_STEP", "samples"]

USAGE_DIR = "usage"  # <job dir>/usage/<host>.jsonl
NOTE_FILE = "not-sampled.txt"  # <job dir>/usage/not-sampled.txt: why no host was sampled
INTERVAL = 1.0  # seconds between readings, at first
LINES_PER_STEP = 36000  # readings at one interval before it doubles (10 hours at 1 s)
_SUFFIX = ".jsonl"
_PROC = "/proc"
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
        elif name.endswith(_SUFFIX) and not os.path.islink(path):
            host = _read_host(path)
            if host is not None:
                hosts[name[:-len(_SUFFIX)]] = host
    return {"hosts": hosts, "note": note}


def _read_note(path):
    try:
        with open(path, "rb") as handle:
            return handle.read(_MAX_LINE).decode("utf-8", "replace").strip() or None
    except OSError:
        return None


def _read_host(path):
    """``{"group", "series"}`` of one host's file, or None when it cannot be read; lines that are not
    readings (cut short by the job's end, or foreign) are skipped."""
    group, cpu, memory = None, [], []
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
            t = line.get("t")
            if not _is_number(t):
                continue
            if _is_number(line.get("cpu")):
                cpu.append((float(t), float(line["cpu"])))
            if _is_number(line.get("memory")):
                memory.append((float(t), float(line["memory"])))
    return {"group": group, "series": {"cpu": cpu, "memory": memory}}


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)
