"""A failing host, max_run, stop() and Ctrl-C: every host ends, nothing is left behind, the error says why."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from sagemaker_hetero.exceptions import LocalJobError

from ._helpers import (ROOT, SLEEPER, assert_all_gone, environment, estimator_for, pid_alive, pids_in,
                       wait_for_files)


def test_a_failing_host_stops_the_others_and_the_error_names_it(session_factory, write_code, pid_dir):
    session = session_factory(grace_period=1)
    env = environment(pid_dir, FAIL_GROUP="cpu", FAIL_HOST="algo-2", IGNORE_TERM="gpu")
    estimator = estimator_for(session, write_code(SLEEPER), environment=env, job_name="failing")
    with pytest.raises(LocalJobError) as info:
        estimator.fit()  # the other hosts sleep 120 s: they end because they are stopped (exit codes below)
    error = info.value
    assert (error.host, error.group, error.exit_code) == ("algo-2", "cpu", 3)
    assert error.failure == "bad record in part-3\nline 2 of the reason"
    assert error.last_lines[-2:] == ["started", "about to fail"]
    assert (error.status, error.reason, error.job_name) == ("Failed", "failed", "failing")
    assert error.exit_codes["algo-2"] == 3 and error.exit_codes["algo-1"] == -signal.SIGTERM
    assert error.exit_codes["algo-3"] == -signal.SIGKILL  # ignored SIGTERM: killed after the grace period
    text = str(error)
    assert "host algo-2 (group cpu) exited with code 3" in text
    assert "  bad record in part-3" in text and "[cpu/algo-2] about to fail" in text
    desc = estimator.latest_training_job.describe()
    assert desc == session.describe_training_job("failing")
    assert desc["TrainingJobStatus"] == "Failed"
    assert desc["FailureReason"].startswith("AlgorithmError: algo-2 (cpu) exited with code 3: bad record in part-3")
    assert "ModelArtifacts" not in desc
    assert os.path.isdir(os.path.join(session.root, "failing", "algo-2"))  # kept for a look
    assert_all_gone(pids_in(pid_dir), env["LOCAL_TEST_MARKER"])


def test_max_run_stops_every_host(session_factory, write_code, pid_dir):
    session = session_factory(grace_period=0.5)
    env = environment(pid_dir, IGNORE_TERM="gpu")
    estimator = estimator_for(session, write_code(SLEEPER), environment=env, max_run=1, job_name="too-long")
    with pytest.raises(LocalJobError, match="timeout: the job ran past max_run") as info:
        estimator.fit()  # the hosts sleep 120 s: only max_run ends them
    assert (info.value.reason, info.value.status, info.value.host) == ("timeout", "Stopped", None)
    desc = session.describe_training_job("too-long")
    assert (desc["TrainingJobStatus"], desc["SecondaryStatus"]) == ("Stopped", "MaxRuntimeExceeded")
    assert desc["ModelArtifacts"]["S3ModelArtifacts"].endswith("/too-long/output/model.tar.gz")
    assert_all_gone(pids_in(pid_dir), env["LOCAL_TEST_MARKER"])


def test_stop_ends_a_background_job(session_factory, write_code, pid_dir):
    session = session_factory()
    env = environment(pid_dir)
    estimator = estimator_for(session, write_code(SLEEPER), environment=env, job_name="stopped")
    estimator.fit(wait=False)
    wait_for_files(pid_dir, 3)
    estimator.latest_training_job.stop()
    with pytest.raises(LocalJobError, match="stopped: every host was stopped") as info:
        estimator.latest_training_job.wait()
    assert info.value.status == "Stopped"
    assert session.describe_training_job("stopped")["TrainingJobStatus"] == "Stopped"
    assert_all_gone(pids_in(pid_dir), env["LOCAL_TEST_MARKER"])


DRIVER = """
import signal, sys
sys.path.insert(0, %(tests)r)
from sagemaker_hetero.local import LocalSession
from tests.local._helpers import estimator_for
signal.signal(signal.SIGINT, signal.default_int_handler)  # a runner started in the background ignores it
session = LocalSession(root=%(root)r, grace_period=%(grace)s)
estimator = estimator_for(session, %(code)r, environment=%(env)r, job_name="interrupted")
try:
    estimator.fit()
except KeyboardInterrupt:
    print("interrupted", flush=True)
    raise
"""


def _interrupted_driver(tmp_path, write_code, pid_dir, grace):
    """A driver waiting for a 3-host SLEEPER job (its gpu host ignores SIGTERM), once every host is set up."""
    env = environment(pid_dir, IGNORE_TERM="gpu")
    script = tmp_path / "driver.py"
    script.write_text(textwrap.dedent(DRIVER % {
        "tests": ROOT, "root": str(tmp_path / "jobs"), "code": write_code(SLEEPER), "env": env, "grace": grace,
    }))
    driver = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
        env=dict(os.environ, PYTHONPATH=ROOT),
    )
    try:
        wait_for_files(pid_dir, 3)
    except BaseException:
        driver.kill()
        driver.communicate()
        raise
    return driver, env


def test_ctrl_c_while_waiting_stops_every_host_and_leaves_no_process(tmp_path, write_code, pid_dir):
    driver, env = _interrupted_driver(tmp_path, write_code, pid_dir, grace=1)
    try:
        pids = pids_in(pid_dir)
        assert all(pid_alive(p) for p in pids)
        driver.send_signal(signal.SIGINT)
        out, err = driver.communicate(timeout=60)
    finally:
        if driver.poll() is None:
            driver.kill()
    assert "interrupted" in out and "KeyboardInterrupt" in err
    assert "Stopped (interrupted (Ctrl-C))" in out
    assert_all_gone(pids, env["LOCAL_TEST_MARKER"])


def test_a_second_ctrl_c_kills_what_is_left_without_the_grace_period(tmp_path, write_code, pid_dir):
    driver, env = _interrupted_driver(tmp_path, write_code, pid_dir, grace=600)
    try:
        pids = pids_in(pid_dir)
        cpu_host = int((tmp_path / "pids" / "algo-1").read_text().split()[0])
        driver.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 30
        while pid_alive(cpu_host):  # a cpu host ended on SIGTERM; the gpu host ignores it
            assert time.monotonic() < deadline, "the first Ctrl-C did not reach the hosts"
            time.sleep(0.05)
        driver.send_signal(signal.SIGINT)
        out, err = driver.communicate(timeout=60)  # far within the 600 s grace period
    finally:
        if driver.poll() is None:
            driver.kill()
    assert "interrupted" in out and err.rstrip().endswith("KeyboardInterrupt")
    assert_all_gone(pids, env["LOCAL_TEST_MARKER"])


ABANDONED = """
import os, sys, time
sys.path.insert(0, %(tests)r)
from sagemaker_hetero.local import LocalSession
from tests.local._helpers import estimator_for
session = LocalSession(root=%(root)r)
estimator = estimator_for(session, %(code)r, environment=%(env)r, job_name="abandoned")
estimator.fit(wait=False)
while len([n for n in os.listdir(%(pids)r) if not n.endswith(".part")]) < 3:
    time.sleep(0.05)
print("leaving", flush=True)
"""


def test_a_background_job_never_waited_for_dies_with_the_python_process(tmp_path, write_code, pid_dir):
    env = environment(pid_dir)
    script = tmp_path / "driver.py"
    script.write_text(textwrap.dedent(ABANDONED % {
        "tests": ROOT, "root": str(tmp_path / "jobs"), "code": write_code(SLEEPER), "env": env, "pids": pid_dir,
    }))
    result = subprocess.run(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
        env=dict(os.environ, PYTHONPATH=ROOT), timeout=30,
    )
    assert result.returncode == 0 and "leaving" in result.stdout, result.stderr
    assert_all_gone(pids_in(pid_dir), env["LOCAL_TEST_MARKER"])
