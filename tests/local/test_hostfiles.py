"""What the driver reads of a host's folder: a regular file only, no link followed, bounded, no wait.

``read_regular`` on every kind of path a host can leave, then real hosts that fail leaving a FIFO or
a link to a file they could not read themselves as ``output/failure``.
"""
import os
import socket
import stat
import threading

import pytest

from sagemaker_hetero.exceptions import LocalJobError
from sagemaker_hetero.local import _hostfiles
from sagemaker_hetero.local._hostfiles import NotRegular, read_regular

from ._helpers import estimator_for


@pytest.fixture
def host(tmp_path):
    """A host's folder with ``output/``, and a secret file outside it."""
    (tmp_path / "algo-1" / "output").mkdir(parents=True)
    (tmp_path / "secret").write_text("the driver's secret")
    return tmp_path / "algo-1"


def test_a_regular_file_is_read_up_to_the_limit_with_its_size(host):
    (host / "output" / "failure").write_bytes(b"x" * 100000)
    data, size = read_regular(str(host), "output/failure", 65536)
    assert (data, size) == (b"x" * 65536, 100000)
    (host / "output" / "failure").write_bytes(b"short")
    assert read_regular(str(host), "output/failure", 65536) == (b"short", 5)
    with pytest.raises(FileNotFoundError):
        read_regular(str(host), "output/absent", 10)


def test_a_fifo_is_refused_without_waiting_for_a_writer(host):
    os.mkfifo(str(host / "output" / "failure"))
    with pytest.raises(NotRegular, match="^output/failure is a FIFO, not a regular file$"):
        read_regular(str(host), "output/failure", 65536)  # an open(2) of it would wait forever


def test_links_anywhere_on_the_path_are_not_followed(host, tmp_path):
    os.symlink(str(tmp_path / "secret"), str(host / "output" / "failure"))
    with pytest.raises(NotRegular, match="^output/failure is a symbolic link, not a regular file$"):
        read_regular(str(host), "output/failure", 65536)
    os.rename(str(host / "output"), str(host / "real-output"))
    os.symlink(str(host / "real-output"), str(host / "output"))
    with pytest.raises(NotRegular, match="^output is a symbolic link, not a folder$"):
        read_regular(str(host), "output/failure", 65536)
    os.symlink(str(host), str(tmp_path / "linked-host"))
    with pytest.raises(OSError):  # the host's folder itself replaced by a link
        read_regular(str(tmp_path / "linked-host"), "real-output/failure", 65536)


def test_folders_sockets_and_devices_are_refused(host):
    target = host / "output" / "failure"
    target.mkdir()
    with pytest.raises(NotRegular, match="is a folder, not a regular file"):
        read_regular(str(host), "output/failure", 10)
    target.rmdir()
    listener = socket.socket(socket.AF_UNIX)
    try:
        listener.bind(str(target))
        with pytest.raises(NotRegular, match="is a socket, not a regular file"):
            read_regular(str(host), "output/failure", 10)
    finally:
        listener.close()
        os.unlink(str(target))
    try:
        os.mknod(str(target), 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero: never ends
    except OSError as exc:  # CAP_MKNOD
        pytest.skip("cannot make a device here: %s" % exc)
    with pytest.raises(NotRegular, match="is a character device, not a regular file"):
        read_regular(str(host), "output/failure", 10)


def test_kind_of_names_what_a_mode_says():
    assert _hostfiles.kind_of(stat.S_IFBLK) == "a block device"
    assert _hostfiles.kind_of(stat.S_IFREG) == "a regular file"


FAILS_LEAVING = """
import os, sys
output = os.path.join(os.environ["SAGEMAKER_BASE_DIR"], "output")
print("leaving", os.environ["LEAVE"])
if os.environ["LEAVE"] == "fifo":
    os.mkfifo(os.path.join(output, "failure"))
else:
    os.symlink(os.environ["LEAVE"], os.path.join(output, "failure"))
sys.exit(4)
"""


def fit_in_thread(estimator):
    """``(finished event, outcome list)`` of ``estimator.fit()`` run in a thread."""
    done, outcome = threading.Event(), []

    def run():
        try:
            estimator.fit()
        except BaseException as exc:
            outcome.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, daemon=True).start()
    return done, outcome


def test_a_host_failing_with_a_fifo_as_its_failure_file_fails_the_job_at_once(session_factory, write_code):
    session = session_factory()
    estimator = estimator_for(session, write_code(FAILS_LEAVING), groups=None, job_name="fifo",
                              environment={"LEAVE": "fifo"})
    done, outcome = fit_in_thread(estimator)
    if not done.wait(120):  # it would wait for a writer of the FIFO forever: be the writer, then fail
        fifo = os.path.join(session.root, "fifo", "algo-1", "output", "failure")
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        done.wait(30)
        pytest.fail("fit() waited on the FIFO left as output/failure")
    error = outcome[0]
    assert isinstance(error, LocalJobError) and (error.host, error.exit_code, error.failure) == ("algo-1", 4, None)
    note = "output/failure is a FIFO, not a regular file: not read"
    assert error.failure_reason == "AlgorithmError: algo-1 (homogeneousCluster) exited with code 4 (%s)" % note
    assert "algo-1: " + note in str(error) and error.last_lines == ["leaving fifo"]
    assert session.describe_training_job("fifo")["TrainingJobStatus"] == "Failed"  # and its lock released


def test_a_failure_file_linked_to_a_file_outside_is_not_read(session_factory, write_code, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("not for the host")
    session = session_factory()
    estimator = estimator_for(session, write_code(FAILS_LEAVING), groups=None, environment={"LEAVE": str(secret)})
    with pytest.raises(LocalJobError) as info:
        estimator.fit()
    assert info.value.failure is None and "not for the host" not in str(info.value)
    assert "output/failure is a symbolic link, not a regular file: not read" in info.value.failure_reason


def test_a_failed_hosts_reason_says_why_its_failure_file_was_not_read_or_was_cut(host):
    from sagemaker_hetero.local._cluster import Host
    from sagemaker_hetero.local._hosts import HostPlan
    from sagemaker_hetero.local._job import _HostRun

    def read():
        run = _HostRun(HostPlan(host=Host("algo-1", "g", "ml.m5.large"), base_dir=str(host), argv=[], cwd="", env={}))
        run.read_failure()
        return run.failure, run.failure_note

    assert read() == (None, None)  # no file: nothing to say
    (host / "output" / "failure").write_text("  bad shard\n" + "x" * 70000)
    text, note = read()
    assert text == "bad shard\n" + "x" * (65536 - 12)
    assert note == "output/failure holds 70012 bytes: the first 65536 are shown"
    (host / "output" / "failure").unlink()
    (host / "output" / "failure").mkdir()
    assert read() == (None, "output/failure is a folder, not a regular file: not read")
