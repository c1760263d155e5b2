"""What sampling a local job's hosts costs: the sampler's own CPU per second, per host (``local/_usage``).

A local job's sampler reads ``/proc`` once a second for all its hosts: one scan of every process on
the machine, then each host's tree. Here 1, 4 and 16 hosts are started as a local job starts them
(each the leader of its own session), each with 4 workers (``sleep`` processes, as torchrun's), and
the sampler's reading is timed: CPU seconds of the reading thread (``time.thread_time``) per reading,
i.e. per second of a job at the sampler's interval of 1 s, divided by the hosts. The scan's cost
grows with the processes on the machine, so their number is printed too.

Target (issue 32): negligible, under 1% of a core per host.
usage: python benchmarks/local_sampling_cost.py [readings]
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from sagemaker_hetero.local import _usage  # noqa: E402

WORKERS = 4
HOST = "for i in %s; do sleep 600 & done; wait" % " ".join(str(i) for i in range(WORKERS))


def readings(hosts, count):
    """CPU and wall seconds per reading of ``hosts`` started hosts, medians of ``count`` readings."""
    folder = tempfile.mkdtemp(prefix="sampling-cost-")
    procs = [subprocess.Popen(["/bin/sh", "-c", HOST], start_new_session=True) for _ in range(hosts)]
    try:
        while sum(1 for name in os.listdir("/proc") if name.isdigit()) < hosts * (WORKERS + 1):
            time.sleep(0.01)
        sampler = _usage.Sampler(folder, [("algo-%d" % (i + 1), "g", p.pid) for i, p in enumerate(procs)])
        sampler.tick()  # the starting point
        cpu, wall = [], []
        for _ in range(count):
            c, w = time.thread_time(), time.perf_counter()
            sampler.tick()
            cpu.append(time.thread_time() - c)
            wall.append(time.perf_counter() - w)
        sampler.stop()
        lines = sum(1 for _ in open(os.path.join(folder, "usage", "algo-1.jsonl")))
        assert lines == count + 1, lines
        return statistics.median(cpu), statistics.median(wall)
    finally:
        for proc in procs:
            os.killpg(proc.pid, 9)
            proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    if not sys.platform.startswith("linux"):
        print("sampling reads Linux's /proc: nothing to measure on %s" % sys.platform)
        return
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    print("readings per figure: %d (medians); interval %.1f s; %d workers per host" % (count, _usage.INTERVAL,
                                                                                       WORKERS))
    for hosts in (1, 4, 16):
        cpu, wall = readings(hosts, count)
        machine = sum(1 for name in os.listdir("/proc") if name.isdigit())
        print("%2d host(s), %4d processes on the machine: %.2f ms CPU (%.2f ms wall) per reading; "
              "%.3f%% of a core per host (target < 1%%)"
              % (hosts, machine, cpu * 1e3, wall * 1e3, 100.0 * cpu / _usage.INTERVAL / hosts))


if __name__ == "__main__":
    main()
