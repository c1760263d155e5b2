"""Each host's CPU and memory, sampled from /proc while a local job runs (``local/_usage``)."""
import os
import sys

import pytest

from sagemaker_hetero.local import _usage

from ._helpers import estimator_for

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sampling reads Linux's /proc")

# The "data" host burns CPU in a child of its own (a descendant counts), the "train" host sleeps; each
# ends once the sampler wrote 4 more readings of it, waiting on its file.
BURN_OR_SLEEP = """
import os, subprocess, sys, time

path = os.path.join(os.environ["USAGE_DIR"], os.environ["SM_CURRENT_HOST"] + ".jsonl")


def readings():
    if not os.path.exists(path):  # the sampler starts once every host has started
        return 0
    with open(path) as f:
        return len(f.readlines())


burner = None
if os.environ["SM_CURRENT_INSTANCE_GROUP"] == "data":
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
first = readings()
deadline = time.monotonic() + 60
while time.monotonic() < deadline and readings() < first + 4:
    time.sleep(0.05)
if burner is not None:
    burner.kill()
"""


def mean(series):
    return sum(pct for _, pct in series) / len(series)


@linux_only
@pytest.mark.parametrize("isolation", ["auto", "none"])
def test_a_data_group_burning_cpu_reads_higher_than_a_train_group_sleeping(session_factory, write_code, tmp_path,
                                                                           monkeypatch, isolation):
    monkeypatch.setattr(_usage, "INTERVAL", 0.2)
    session = session_factory(isolation=isolation)  # keep=False: the host folders go, the samples stay
    job_dir = os.path.join(session.root, "usage-job")
    estimator = estimator_for(session, write_code(BURN_OR_SLEEP), groups=(("train", "ml.p3.2xlarge", 1),
                                                                          ("data", "ml.c5.xlarge", 2)),
                              environment={"USAGE_DIR": os.path.join(job_dir, "usage")}, job_name="usage-job")
    estimator.fit()
    job = estimator.latest_training_job
    assert job.describe()["LocalRun"]["JobDirectory"] == job_dir == job.job_dir
    assert session.job_directory("usage-job") == job_dir
    later = session_factory()  # another run, the same root: the job's folder is found by its marker
    assert later.job_directory("usage-job") == job_dir
    for name in ("nope", "..", "usage-job/usage", ""):
        with pytest.raises(KeyError, match="no local training job named"):
            later.job_directory(name)
    found = _usage.samples(job_dir)
    groups = {host: entry["group"] for host, entry in found["hosts"].items()}
    assert groups == {"algo-1": "train", "algo-2": "data", "algo-3": "data"}
    assert found["note"] is None
    for entry in found["hosts"].values():
        assert len(entry["series"]["cpu"]) >= 4
        assert len(entry["series"]["memory"]) == len(entry["series"]["cpu"])
        assert all(0 < pct <= 100 for _, pct in entry["series"]["memory"])
        assert all(0 <= pct <= 100 for _, pct in entry["series"]["cpu"])
        times = [t for t, _ in entry["series"]["cpu"]]
        assert times == sorted(times) and isinstance(times[0], float)
    train = mean(found["hosts"]["algo-1"]["series"]["cpu"])
    assert all(mean(found["hosts"][host]["series"]["cpu"]) > train for host in ("algo-2", "algo-3"))


def test_a_job_with_no_samples_answers_no_hosts(tmp_path):
    assert _usage.samples(str(tmp_path)) == {"hosts": {}, "note": None}
    assert _usage.samples(str(tmp_path / "missing")) == {"hosts": {}, "note": None}
    usage = tmp_path / "usage"
    usage.mkdir()
    (usage / "algo-1.jsonl").write_text("")
    (usage / "algo-2.jsonl").write_text('{"host": "algo-2", "group": "g", "cores": 1}\nnot json\n[1]\n{"t": 5, "cpu"')
    assert _usage.samples(str(tmp_path)) == {"hosts": {
        "algo-1": {"group": None, "series": {"cpu": [], "memory": []}},
        "algo-2": {"group": "g", "series": {"cpu": [], "memory": []}},
    }, "note": None}


def test_a_line_of_nan_or_infinity_is_no_reading(tmp_path):
    usage = tmp_path / "usage"
    usage.mkdir()
    (usage / "algo-1.jsonl").write_text('{"host": "algo-1", "group": "g"}\n{"t": 5, "cpu": NaN, "memory": Infinity}\n'
                                        '{"t": NaN, "cpu": 5, "memory": 5}\n{"t": 6, "cpu": 50, "memory": -Infinity}\n')
    assert _usage.samples(str(tmp_path))["hosts"]["algo-1"]["series"] == {"cpu": [(6.0, 50.0)], "memory": []}


# -- the figures, against a /proc written here --------------------------------------------------


class FakeProc(object):
    """A /proc of ``stat`` files: ``set(pid, ppid, session, ticks, rss)``; the clock is ``now``."""

    def __init__(self, folder):
        self.folder = folder
        self.now = 1000.0
        os.makedirs(folder)

    def set(self, pid, ppid, session, ticks, rss, start=7, name="py thon"):
        os.makedirs(os.path.join(self.folder, str(pid)), exist_ok=True)
        utime, stime, cutime, cstime = ticks
        fields = ["S", ppid, pid, session, 0, -1, 0, 0, 0, 0, 0, utime, stime, cutime, cstime, 20, 0, 1, 0, start,
                  1 << 20, rss] + [0] * 30
        with open(os.path.join(self.folder, str(pid), "stat"), "w") as handle:
            handle.write("%d (%s) %s\n" % (pid, name, " ".join(map(str, fields))))

    def gone(self, pid):
        os.remove(os.path.join(self.folder, str(pid), "stat"))
        os.rmdir(os.path.join(self.folder, str(pid)))


def lines_of(job_dir, host):
    import json

    with open(os.path.join(job_dir, "usage", host + ".jsonl")) as handle:
        return [json.loads(line) for line in handle]


@linux_only
def test_cpu_counts_the_session_and_descendants_and_reaped_children_once(tmp_path):
    hz = float(os.sysconf("SC_CLK_TCK"))
    page, phys = os.sysconf("SC_PAGE_SIZE"), os.sysconf("SC_PHYS_PAGES")
    quarter = phys // 4  # pages: 25% of the machine's memory
    proc = FakeProc(str(tmp_path / "proc"))
    job_dir = str(tmp_path / "job")
    os.makedirs(job_dir)
    proc.set(100, 1, 100, (4, 6, 0, 0), quarter - 30, name="a) b (c")  # the host's first process
    proc.set(101, 100, 100, (50, 0, 0, 0), 10)  # its child
    proc.set(102, 1, 100, (5, 0, 0, 0), 10)  # an orphan of its session (the watchdog)
    proc.set(104, 101, 104, (1, 0, 0, 0), 10)  # a descendant that left the session
    proc.set(200, 1, 200, (900, 0, 0, 0), quarter)  # another program
    sampler = _usage.Sampler(job_dir, [("algo-1", "data", 100)], clock=lambda: proc.now, proc=proc.folder,
                             cores=lambda pid: 4)
    assert sampler.tick()  # the starting point: no reading written
    proc.now = 1002.0
    proc.set(100, 1, 100, (4, 6, 60, 0), quarter - 30)  # reaped 101 (which had used 60 in all)
    proc.gone(101)
    proc.gone(104)  # reaped by 101 before, counted in its 60
    proc.set(102, 1, 100, (45, 0, 0, 0), 10)
    proc.set(103, 100, 100, (20, 0, 0, 0), 10)  # new since
    proc.set(200, 1, 200, (2000, 0, 0, 0), quarter)
    assert sampler.tick()
    proc.now = 1003.0
    proc.gone(102)  # reaped by init: its 45 are not in a count of the host's any more
    proc.set(103, 100, 100, (50, 0, 0, 0), 10)
    assert sampler.tick()
    proc.gone(100)
    assert not sampler.tick()  # the host's first process is gone: nothing more to read
    sampler.stop()
    header, first, second = lines_of(job_dir, "algo-1")
    assert header == {"host": "algo-1", "group": "data", "cores": 4, "memory_bytes": page * phys,
                      "interval": 1.0}
    used = (60 - 51) + (45 - 5) + 20  # reaped 101 and 104: 9 more; the orphan 40; the new one 20
    assert first["cpu"] == round(100.0 * used / hz / 2.0 / 4, 2)
    assert first["rss"] == (quarter - 30 + 20) * page and first["processes"] == 3
    assert first["memory"] == round(100.0 * (quarter - 10) * page / (page * phys), 2)
    assert second["cpu"] == round(100.0 * 30 / hz / 1.0 / 4, 2)
    assert (first["t"], second["t"]) == (1002.0, 1003.0)
    assert _usage.samples(job_dir)["hosts"]["algo-1"]["series"]["cpu"] == [(1002.0, first["cpu"]),
                                                                           (1003.0, second["cpu"])]


@linux_only
def test_a_pid_used_again_is_not_the_host(tmp_path):
    proc = FakeProc(str(tmp_path / "proc"))
    os.makedirs(str(tmp_path / "job"))
    proc.set(100, 1, 100, (1, 0, 0, 0), 1, start=7)
    sampler = _usage.Sampler(str(tmp_path / "job"), [("algo-1", "g", 100)], clock=lambda: proc.now,
                             proc=proc.folder, cores=lambda pid: 1)
    sampler.tick()
    proc.set(100, 1, 100, (1, 0, 0, 0), 1, start=9)
    proc.now += 1
    assert not sampler.tick()
    sampler.stop()
    assert len(lines_of(str(tmp_path / "job"), "algo-1")) == 1


@linux_only
def test_the_thread_reads_until_stopped_and_the_interval_doubles_after_each_step(tmp_path, monkeypatch):
    monkeypatch.setattr(_usage, "LINES_PER_STEP", 2)
    proc = FakeProc(str(tmp_path / "proc"))
    os.makedirs(str(tmp_path / "job"))
    proc.set(100, 1, 100, (1, 0, 0, 0), 1)
    ticks = iter(range(10 ** 6))
    sampler = _usage.Sampler(str(tmp_path / "job"), [("algo-1", "g", 100)], interval=0.001,
                             clock=lambda: 1000.0 + next(ticks), proc=proc.folder, cores=lambda pid: 1).start()
    assert sampler.wait_readings(7, timeout=60)
    assert sampler.interval >= 0.008
    sampler.stop()
    count = len(lines_of(str(tmp_path / "job"), "algo-1"))
    assert count >= 7
    assert len(lines_of(str(tmp_path / "job"), "algo-1")) == count  # stopped: nothing more written


@linux_only
def test_a_link_planted_where_a_file_goes_is_not_followed_and_the_job_runs_without_figures(tmp_path):
    job_dir = tmp_path / "job"
    (job_dir / "usage").mkdir(parents=True)
    target = tmp_path / "elsewhere"
    target.write_text("mine\n")
    os.symlink(str(target), str(job_dir / "usage" / "algo-1.jsonl"))
    said = []
    assert _usage.start(str(job_dir), [("algo-1", "g", os.getpid())], said.append) is None
    assert target.read_text() == "mine\n"
    assert said == ["utilization not sampled: cannot make algo-1.jsonl in %s: File exists" % (job_dir / "usage")]
    assert _usage.samples(str(job_dir)) == {"hosts": {}, "note": None}


def test_elsewhere_than_linux_nothing_is_sampled_and_the_job_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(_usage.sys, "platform", "darwin")
    said = []
    assert _usage.start(str(tmp_path), [("algo-1", "g", os.getpid())], said.append) is None
    assert said == ["utilization not sampled: reading the hosts' processes needs Linux's /proc (this is darwin)"]
    assert _usage.samples(str(tmp_path)) == {"hosts": {}, "note": said[0]}
