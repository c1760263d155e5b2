"""wait_for_group / signal_done on loopback, in threads (hosts named so that they resolve without a resolver)."""
import random
import socket
import threading
import time

import pytest

from sagemaker_hetero.training import RENDEZVOUS_PORT, signal_done, wait_for_group
from tests._aws import network_guard


class FakeEnv(object):
    """The part of Environment the rendezvous reads."""

    def __init__(self, host, groups, job="job-1"):
        self.current_host = host
        self._groups = groups
        self.instance_groups = list(groups)
        self.current_instance_group = [g for g, hosts in groups.items() if host in hosts][0]
        self.job_name = job

    def instance_group_hosts(self, name):
        if name not in self._groups:
            raise ValueError("unknown instance group %r" % name)
        return list(self._groups[name])


# The waiting group's one host is "localhost", so signallers reach it without a name table.
GROUPS = {"data": ["localhost"], "train": ["t1", "t2"]}


@pytest.fixture
def port():
    return random.randint(30000, 32000)


def in_thread(fn, *args, **kwargs):
    box = {}

    def run():
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # handed to the test
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, box


def _addresses(port):
    """How many connection attempts one try at ``localhost`` makes (one per address it resolves to)."""
    return len(socket.getaddrinfo("localhost", port, 0, socket.SOCK_STREAM))


def test_default_port_is_a_registered_free_looking_number():
    assert 1024 < RENDEZVOUS_PORT < 32768


def test_signals_sent_before_the_listener_is_up_are_retried(port):
    signals = [in_thread(signal_done, FakeEnv(h, GROUPS), port=port, timeout=20) for h in ("t1", "t2")]
    deadline = time.monotonic() + 15  # guards against a hang only
    while any(network_guard.loopback_connects(port, thread.ident) < 2 * _addresses(port) for thread, _ in signals):
        assert time.monotonic() < deadline, "the signallers did not try twice"
        time.sleep(0.01)
    assert all(thread.is_alive() for thread, _ in signals)  # both refused at least once, still retrying
    done = wait_for_group(FakeEnv("localhost", GROUPS), "train", port=port, timeout=20)
    assert sorted(done) == ["t1", "t2"]
    for thread, box in signals:
        thread.join(10)
        assert box == {"value": ["localhost"]}


def test_signal_done_defaults_to_every_other_group(port):
    groups = {"data": ["localhost"], "train": ["t1"], "eval": ["t1x"]}
    waiter, box = in_thread(wait_for_group, FakeEnv("localhost", groups), ["train", "eval"], port=port, timeout=20)
    signal_done(FakeEnv("t1", groups), to=["data"], port=port, timeout=20)
    signal_done(FakeEnv("t1x", groups), to="data", port=port, timeout=20)
    waiter.join(10)
    assert box == {"value": ["t1", "t1x"]}


def test_waiting_times_out_naming_the_missing_hosts(port):
    waiter, box = in_thread(wait_for_group, FakeEnv("localhost", GROUPS), "train", port=port, timeout=1.0)
    signal_done(FakeEnv("t1", GROUPS), port=port, timeout=10)
    waiter.join(10)
    error = box["error"]
    assert isinstance(error, TimeoutError)
    assert "no signal from t2" in str(error) and "port %d" % port in str(error)


def test_signalling_times_out_when_nobody_listens(port):
    with pytest.raises(TimeoutError, match=r"no answer from localhost on port %d .*is wait_for_group running there" % port):
        signal_done(FakeEnv("t1", GROUPS), to="data", port=port, timeout=0.5)
    assert network_guard.loopback_connects(port, threading.get_ident()) >= 2 * _addresses(port)  # retried


def test_a_signal_from_another_job_is_refused(port):
    waiter, box = in_thread(wait_for_group, FakeEnv("localhost", GROUPS), "train", port=port, timeout=0.7)
    with pytest.raises(ConnectionRefusedError, match="this is job job-1, not job-2"):
        signal_done(FakeEnv("t1", GROUPS, job="job-2"), port=port, timeout=10)
    waiter.join(10)
    assert isinstance(box["error"], TimeoutError)


def test_bad_arguments_are_refused_before_listening():
    env = FakeEnv("localhost", GROUPS)
    with pytest.raises(ValueError, match="unknown instance group 'nope'"):
        wait_for_group(env, "nope", timeout=1)
    with pytest.raises(ValueError, match="cannot wait for itself"):
        wait_for_group(env, "data", timeout=1)
    with pytest.raises(ValueError, match="group must be an instance group name"):
        wait_for_group(env, [], timeout=1)


def test_a_busy_port_is_a_clear_error(port):
    import socket

    holder = socket.socket()
    holder.bind(("", port))
    holder.listen(1)
    try:
        with pytest.raises(OSError, match="cannot listen on port %d on localhost" % port):
            wait_for_group(FakeEnv("localhost", GROUPS), "train", port=port, timeout=1)
    finally:
        holder.close()
