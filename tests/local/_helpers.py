"""Helpers for the local-session tests: estimators and process checks (a /proc scan, no psutil)."""
import os

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
