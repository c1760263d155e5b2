"""Helpers for the local-session tests: estimators and process checks (a /proc scan, no psutil)."""
import os
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
IMAGE = "123456789012.dkr.ecr.us-west-2.amazonaws.com/my-image:latest"
GROUPS = (("cpu", "ml.c5.xlarge", 2), ("gpu", "ml.p3.2xlarge", 1))


def estimator_for(session, source_dir, groups=GROUPS, **kwargs):
    """A generic Estimator running ``train.py`` of ``source_dir`` on ``groups`` (None: 1 x ml.m5.large)."""
    from sagemaker_hetero.estimator import Estimator
    from sagemaker_hetero.instance_group import InstanceGroup

    kwargs.setdefault("entry_point", "train.py")
    kwargs.setdefault("role", ROLE)
    kwargs.setdefault("image_uri", IMAGE)
    if groups is None:
        kwargs.setdefault("instance_type", "ml.m5.large")
        kwargs.setdefault("instance_count", 1)
    else:
        kwargs["instance_groups"] = [InstanceGroup(*g) for g in groups]
    return Estimator(source_dir=source_dir, sagemaker_session=session, **kwargs)


def pid_alive(pid):
    """Whether ``pid`` is a live process (a zombie counts as dead)."""
    try:
        with open("/proc/%d/stat" % pid) as handle:
            state = handle.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def processes_with_env(marker):
    """Pids of live processes whose environment holds ``marker`` (a /proc scan, no psutil)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open("/proc/%s/environ" % entry, "rb") as handle:
                environ = handle.read()
        except OSError:
            continue
        if marker.encode() in environ and pid_alive(int(entry)):
            found.append(int(entry))
    return found


def loopback_network_routed():
    """Whether addresses beyond 127.0.0.1 are loopback here (Linux: all of 127.0.0.0/8)."""
    import socket

    probe = socket.socket()
    try:
        probe.bind(("127.77.77.1", 0))
        return True
    except OSError:
        return False
    finally:
        probe.close()


# Every host starts a grandchild (same process group) and records both pids, then sleeps; a host
# whose group is FAIL_GROUP fails once every host of the job has recorded its pids (the others are
# set up, so stopping them is what the test sees); IGNORE_TERM hosts ignore SIGTERM. The pid file
# appears (renamed into place) once the host is set up.
SLEEPER = """
import json, os, signal, subprocess, sys, time
base = os.environ["SAGEMAKER_BASE_DIR"]
host, group = os.environ["SM_CURRENT_HOST"], os.environ["SM_CURRENT_INSTANCE_GROUP"]
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
if os.environ.get("IGNORE_TERM") == group:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
path = os.path.join(os.environ["PID_DIR"], host)
with open(path + ".part", "w") as f:
    f.write("%d %d" % (os.getpid(), child.pid))
os.rename(path + ".part", path)
print("started", flush=True)
if os.environ.get("FAIL_GROUP") == group and host == os.environ.get("FAIL_HOST", host):
    with open(os.path.join(base, "input", "config", "resourceconfig.json")) as f:
        count = len(json.load(f)["hosts"])
    deadline = time.monotonic() + 60  # guards against a hang only
    while len([n for n in os.listdir(os.environ["PID_DIR"]) if not n.endswith(".part")]) < count:
        if time.monotonic() > deadline:
            sys.exit("the other hosts did not start")
        time.sleep(0.01)
    with open(os.path.join(base, "output", "failure"), "w") as f:
        f.write("bad record in part-3\\nline 2 of the reason")
    print("about to fail", flush=True)
    sys.exit(3)
time.sleep(120)
"""


def environment(pid_dir, **extra):
    """The SLEEPER hosts' environment: where to write pids, and a marker to find their processes by."""
    env = {"PID_DIR": pid_dir, "LOCAL_TEST_MARKER": uuid.uuid4().hex}
    env.update(extra)
    return env


def pid_files(folder):
    return [name for name in os.listdir(folder) if not name.endswith(".part")]


def pids_in(folder):
    """Every pid the SLEEPER hosts recorded in ``folder``: each host's and its grandchild's."""
    pids = []
    for name in pid_files(folder):
        with open(os.path.join(folder, name)) as handle:
            pids.extend(int(p) for p in handle.read().split())
    return pids


def wait_for_files(folder, count, timeout=20):
    """Wait until ``count`` SLEEPER hosts are set up (grandchild started, SIGTERM disposition set)."""
    deadline = time.monotonic() + timeout
    while len(pid_files(folder)) < count:
        assert time.monotonic() < deadline, "the hosts did not start"
        time.sleep(0.05)


def assert_all_gone(pids, marker, timeout=20):
    """Poll until every pid and every process carrying ``marker`` in its environment is gone."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and (any(pid_alive(p) for p in pids) or processes_with_env(marker)):
        time.sleep(0.05)
    assert [p for p in pids if pid_alive(p)] == []
    assert processes_with_env(marker) == []


def namespaces_work(session):
    """Whether ``session``'s hosts can run in their own namespaces on this machine."""
    return session._probe()[0]
