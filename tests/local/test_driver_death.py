"""The hosts die with the program that started them: SIGTERM, SIGHUP, SIGKILL, a fork left behind.

Drivers run in a subprocess; every host starts a grandchild and records both pids (``SLEEPER``).
In-process tests check when the handlers are in place and that the entry point sees no watchdog.
"""
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from sagemaker_hetero.local import _signals

from ._helpers import ROOT, SLEEPER, assert_all_gone, environment, estimator_for, pid_alive, pids_in, wait_for_files

DRIVER = """
import os, signal, sys, time
sys.path.insert(0, %(tests)r)
from sagemaker_hetero.local import LocalSession
from tests.local._helpers import estimator_for
for signum in (signal.SIGTERM, signal.SIGHUP):  # whatever the test runner left ignored
    signal.signal(signum, signal.SIG_DFL)
signal.signal(signal.SIGINT, signal.default_int_handler)
mode = %(mode)r
if mode == "own-handler":
    def mine(signum, frame):
        print("own handler: %%s" %% signal.Signals(signum).name, flush=True)
        sys.exit(7)
    signal.signal(signal.SIGTERM, mine)
session = LocalSession(root=%(root)r, grace_period=600 if mode == "long-grace" else 1)
estimator = estimator_for(session, %(code)r, environment=%(env)r, job_name="driven")
estimator.fit(wait=False)
if mode == "fork":  # a child that outlives the driver must not keep the hosts alive
    child = os.fork()
    if child == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)  # the test reads the driver's output to its end
        os.dup2(null, 2)
        time.sleep(120)
        os._exit(0)
    with open(%(forked)r + ".part", "w") as f:
        f.write(str(child))
    os.rename(%(forked)r + ".part", %(forked)r)
estimator.latest_training_job.wait()
"""


def start_driver(tmp_path, write_code, pid_dir, mode="plain"):
    """A driver running a 3-host SLEEPER job (the gpu host ignores SIGTERM); returns it with the
    hosts' environment once every host is set up."""
    env = environment(pid_dir, IGNORE_TERM="gpu")
    script = tmp_path / "driver.py"
    script.write_text(textwrap.dedent(DRIVER % {
        "tests": ROOT, "root": str(tmp_path / "jobs"), "code": write_code(SLEEPER), "env": env, "mode": mode,
        "forked": str(tmp_path / "forked"),
    }))
    driver = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
        env=dict(os.environ, PYTHONPATH=ROOT),
    )
    try:
        wait_for_files(pid_dir, 3)
        deadline = time.monotonic() + 20
        while mode == "fork" and not (tmp_path / "forked").exists():
            assert time.monotonic() < deadline, "the driver did not fork"
            time.sleep(0.05)
    except BaseException:
        driver.kill()
        driver.communicate()
        raise
    return driver, env


def finish(driver, sig, timeout=60):
    try:
        driver.send_signal(sig)
        return driver.communicate(timeout=timeout)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.communicate()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_term_or_hup_to_the_driver_stops_every_host_then_the_driver_dies_by_it(tmp_path, write_code, pid_dir, sig):
    driver, env = start_driver(tmp_path, write_code, pid_dir)
    pids = pids_in(pid_dir)
    assert all(pid_alive(p) for p in pids)
    out, err = finish(driver, sig)
    assert driver.returncode == -sig, err
    name = signal.Signals(sig).name
    assert "[local] driven: Stopped (interrupted (%s)); host folders kept in" % name in out
    assert_all_gone(pids, env["LOCAL_TEST_MARKER"])


def test_the_drivers_own_handler_runs_after_the_hosts_are_stopped(tmp_path, write_code, pid_dir):
    driver, env = start_driver(tmp_path, write_code, pid_dir, mode="own-handler")
    pids = pids_in(pid_dir)
    out, err = finish(driver, signal.SIGTERM)
    assert driver.returncode == 7, err
    stopped = out.index("Stopped (interrupted (SIGTERM))")
    assert out.index("own handler: SIGTERM") > stopped
    assert_all_gone(pids, env["LOCAL_TEST_MARKER"])


def test_a_second_sigterm_skips_the_grace_period(tmp_path, write_code, pid_dir):
    driver, env = start_driver(tmp_path, write_code, pid_dir, mode="long-grace")
    pids = pids_in(pid_dir)
    hosts = {name: [int(p) for p in (tmp_path / "pids" / name).read_text().split()] for name in ("algo-1", "algo-3")}
    try:
        driver.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 20
        while pid_alive(hosts["algo-1"][0]):  # a cpu host ended on SIGTERM; the gpu host ignores it
            assert time.monotonic() < deadline, "the first SIGTERM did not reach the hosts"
            time.sleep(0.05)
        assert pid_alive(hosts["algo-3"][0])
    except BaseException:
        finish(driver, signal.SIGKILL)
        raise
    out, err = finish(driver, signal.SIGTERM, timeout=30)  # far within the 600 s grace period
    assert driver.returncode == -signal.SIGTERM, err
    assert_all_gone(pids, env["LOCAL_TEST_MARKER"])


@pytest.mark.parametrize("mode", ["plain", "fork"])
def test_sigkill_to_the_driver_kills_every_host_and_what_it_started(tmp_path, write_code, pid_dir, mode):
    driver, env = start_driver(tmp_path, write_code, pid_dir, mode=mode)
    pids = pids_in(pid_dir)
    forked = int((tmp_path / "forked").read_text()) if mode == "fork" else None
    try:
        assert all(pid_alive(p) for p in pids)
        finish(driver, signal.SIGKILL)
        assert driver.returncode == -signal.SIGKILL
        assert_all_gone(pids, env["LOCAL_TEST_MARKER"])  # the watchdogs too: they carry the hosts' environment
        if forked is not None:
            assert pid_alive(forked)  # the driver's child lived on; the hosts did not wait for it
    finally:
        if forked is not None:
            os.kill(forked, signal.SIGKILL)


GATED = """
import os, time
while not os.path.exists(os.environ["GO"]):
    time.sleep(0.02)
"""


def test_the_handlers_are_in_place_only_while_a_job_runs_and_an_ignored_signal_stays_ignored(
    session_factory, write_code, tmp_path
):
    go = tmp_path / "go"
    before = signal.getsignal(signal.SIGTERM)
    previous_hup = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup
    try:
        estimator = estimator_for(session_factory(), write_code(GATED), groups=None, environment={"GO": str(go)})
        estimator.fit(wait=False)
        assert _signals.installed() == [signal.SIGTERM]
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
        os.kill(os.getpid(), signal.SIGHUP)  # ignored, as asked: the job runs on
        go.write_text("")
        assert estimator.latest_training_job.wait()["TrainingJobStatus"] == "Completed"
        assert signal.getsignal(signal.SIGTERM) == before
        assert _signals.installed() == []
    finally:
        signal.signal(signal.SIGHUP, previous_hup)


def test_a_job_started_off_the_main_thread_installs_no_handler_and_outlives_that_thread(
    session_factory, write_code, tmp_path
):
    go = tmp_path / "go"
    estimator = estimator_for(session_factory(), write_code(GATED), groups=None, environment={"GO": str(go)})
    before = signal.getsignal(signal.SIGTERM)
    thread = threading.Thread(target=estimator.fit, kwargs={"wait": False})
    thread.start()
    thread.join()
    assert signal.getsignal(signal.SIGTERM) == before and _signals.installed() == []
    job = estimator.latest_training_job
    pid = job.describe()["LocalRun"]["Hosts"][0]["Pid"]
    assert pid_alive(pid) and job.describe()["TrainingJobStatus"] == "InProgress"
    go.write_text("")
    assert job.wait()["TrainingJobStatus"] == "Completed"


REPORT = """
import json, os
me = os.getpid()
fds = []
for fd in range(256):
    try:
        os.fstat(fd)
        fds.append(fd)
    except OSError:
        pass
children = []
for entry in os.listdir("/proc"):
    try:
        with open("/proc/%s/stat" % entry) as f:
            if int(f.read().rsplit(")", 1)[1].split()[1]) == me:
                children.append(int(entry))
    except (OSError, ValueError, IndexError):
        pass
report = {"pid": me, "ppid": os.getppid(), "pgid": os.getpgrp(), "sid": os.getsid(0), "fds": fds,
          "stdin": os.readlink("/proc/self/fd/0"), "children": children}
with open(os.path.join(os.environ["REPORT_DIR"], os.environ["SM_CURRENT_HOST"] + ".json"), "w") as f:
    json.dump(report, f)
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads /proc")
def test_the_entry_point_sees_no_watchdog(session_factory, write_code, tmp_path):
    reports = tmp_path / "reports"
    reports.mkdir()
    estimator = estimator_for(session_factory(), write_code(REPORT), environment={"REPORT_DIR": str(reports)})
    estimator.fit()
    hosts = estimator.latest_training_job.describe()["LocalRun"]["Hosts"]
    for host in hosts:
        report = json.loads((reports / (host["Host"] + ".json")).read_text())
        assert report["pid"] == host["Pid"] == report["pgid"] == report["sid"]  # started by this process
        assert report["ppid"] == os.getpid()
        assert report["fds"] == [0, 1, 2] and report["stdin"] == "/dev/null"
        assert report["children"] == []


def test_ctrl_c_is_noted_while_recording_and_raised_after_it():
    noted = []
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        put_back = _signals.record_interrupts(noted)
        signal.raise_signal(signal.SIGINT)  # noted: no KeyboardInterrupt wherever the main thread is
        assert noted == [signal.SIGINT]
        put_back()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_programs_own_ctrl_c_handler_is_kept_and_other_threads_record_nothing():
    def mine(signum, frame):
        pass

    previous = signal.signal(signal.SIGINT, mine)
    try:
        noted = []
        _signals.record_interrupts(noted)()
        assert signal.getsignal(signal.SIGINT) is mine
        signal.signal(signal.SIGINT, signal.default_int_handler)
        result = []
        thread = threading.Thread(target=lambda: result.append(_signals.record_interrupts(noted)))
        thread.start()
        thread.join()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        result[0]()
        assert noted == []
    finally:
        signal.signal(signal.SIGINT, previous)
