"""Counting CPUs, GPUs and Neuron cores, and finding launchers, cheaply: no subprocess, only ``os``.

The toolkit asks ``nvidia-smi`` and ``neuron-ls``; inside a container the device nodes it would
report are exactly those under /dev, so counting them gives the same numbers without spawning
anything. Likewise it runs ``which smddprun``; :func:`on_path` walks ``$PATH`` the way ``which``
does.
"""
import os
import re

from .._model import instance_types

__all__ = ["cpu_count", "gpu_count", "neuron_core_count", "on_path", "SHELL_DEFAULT_PATH"]

_NVIDIA_DEVICE = re.compile(r"^nvidia[0-9]+$")
_NEURON_DEVICE = re.compile(r"^neuron([0-9]+)$")
NEURON_SYSFS_DIR = "/sys/devices/virtual/neuron_device"


def cpu_count():
    """Number of CPUs of the machine (what ``multiprocessing.cpu_count()`` reports), at least 1."""
    return os.cpu_count() or 1


def _list_dir(path):
    try:
        return os.listdir(path)
    except OSError:
        return []


def gpu_count(dev_dir="/dev"):
    """Number of NVIDIA GPUs visible in this container: the ``/dev/nvidia<N>`` device nodes."""
    return sum(1 for name in _list_dir(dev_dir) if _NVIDIA_DEVICE.match(name))


def neuron_core_count(instance_type, dev_dir="/dev", sysfs_dir=NEURON_SYSFS_DIR):
    """Number of AWS Neuron cores visible in this container (0 without Neuron devices).

    Each ``/dev/neuron<N>`` counts for the ``core_count`` its driver reports in sysfs, or, if that
    is unreadable, for the usual number of cores per device of the instance family.
    """
    fixed = instance_types.neuron_cores_fixed(instance_type)
    if fixed is not None:
        return fixed
    total = 0
    for name in _list_dir(dev_dir):
        match = _NEURON_DEVICE.match(name)
        if match:
            total += _cores_of_device(name, instance_type, sysfs_dir)
    return total


def _cores_of_device(device, instance_type, sysfs_dir):
    try:
        with open(os.path.join(sysfs_dir, device, "core_count")) as handle:
            return int(handle.read().strip())
    except (OSError, ValueError):
        pass
    return instance_types.neuron_cores_per_device(instance_type) or 1


# The search path /bin/sh (dash, as in the Ubuntu-based framework images) uses when PATH is unset;
# ``which`` is a /bin/sh script, so that is where it looks then.
SHELL_DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def on_path(name, path):
    """Whether ``which <name>`` finds ``name``: a regular file, executable by us, in a ``path`` folder.

    ``path`` is the value of ``$PATH``, ``None`` if it is unset (then :data:`SHELL_DEFAULT_PATH`).
    As the debianutils ``which`` does: folders are tried in order, an empty entry (``a::b``, a
    leading or trailing ``:``) is the current directory, an empty ``path`` finds nothing, and a
    symlink counts if its target is an executable regular file.
    """
    if path is None:
        path = SHELL_DEFAULT_PATH
    if not path:
        return False
    for folder in path.split(os.pathsep):
        candidate = os.path.join(folder or os.curdir, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return True
    return False
