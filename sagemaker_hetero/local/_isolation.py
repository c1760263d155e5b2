"""Per-host namespaces (Linux, no root, no container): ``/opt/ml``, ``/etc/hosts`` and ``algo-N``.

With ``isolation="namespaces"`` each host's process starts under ``unshare`` in its own user, mount
and UTS namespaces, where :data:`SETUP` (``/bin/sh``) mounts what the host's table of mounts
(:func:`mounts`, written as an fstab file and mounted by one ``mount -a``) lists, so that

- ``/opt`` has an ``ml`` folder: ``/opt`` itself where ``/opt/ml`` exists; else an overlay of
  ``/opt`` whose writes go to the host's own layer (where nothing is mounted under ``/opt``);
  else a ``tmpfs`` on ``/opt`` holding the original ``/opt``'s entries, bound back (symbolic links
  copied). No root and no change to the machine are needed;
- ``/opt/ml`` is the host's folder, and ``/opt/ml/code`` an overlay of the job's unpacked code
  whose writes land in the host's ``code`` folder (where the kernel lets an unprivileged user mount
  overlays, Linux >= 5.11; else ``code`` is filled with hard links by the driver);
- ``/etc/hosts`` is a file of the job naming every ``algo-N`` with its loopback address, so every
  resolver (C, Java, Go, ``getent``) finds the cluster's names;
- the host name is ``algo-N``.

The same shell then leaves the lifeline's watchdog (``_lifeline.WATCHDOG``) and ``exec``\\ s the
entry point. The first namespace maps the current user to root (what an unprivileged user may do;
the mounts need it); a second, nested user namespace then maps it back to the current user and
group (``unshare --map-user``, util-linux >= 2.38; with an older ``unshare`` the entry point runs as
root inside its namespace, as it does in a SageMaker container). The rest of the machine is visible
as it is. The pid the driver started stays the host's pid (``unshare`` and the shell ``exec``), so
the watchdog and the process-group signals work as without namespaces.

Whether this works, and whether overlays may be mounted, is checked once per process and root by
running it (unprivileged user namespaces may be disabled, or confined by AppArmor); ``"auto"`` falls
back to the shared mode with one line saying why and what will not resolve.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

import attrs

from sagemaker_hetero.local import _lifeline, _private

__all__ = ["MODES", "MODE_ENV", "SEEN_BASE", "STAGE_DIR", "SETUP", "Isolation", "mode_from", "probe",
           "hosts_file_text", "mounts", "write_fstab", "host_prefix", "prefix", "overlay_ok", "opt_layout",
           "stage_dir", "fallback_note"]

MODES = ("auto", "namespaces", "none")
MODE_ENV = "SAGEMAKER_HETERO_LOCAL_ISOLATION"
SEEN_BASE = "/opt/ml"
STAGE_DIR = "opt-mount"  # in the job's .etc folder: an empty folder the original /opt is bound onto meanwhile
_OPT = "/opt"
_NAME = "sagemaker-hetero-namespaces"  # $0 of the setup shell
_PROBE_SECONDS = 20.0
# Paths an overlay's options can name as they are (libmount splits options at "," and overlayfs
# its layers at ":"): other paths get the fallbacks (tmpfs /opt, hard-linked code).
_PLAIN_PATH = re.compile(r"^/[A-Za-z0-9_./+@%=~-]*$")

# Run by /bin/sh -c inside the new namespaces with $1 = the host's fstab, $2 = the host name,
# $3 = the staging folder where /opt needs a tmpfs (else empty), $4 $5 = the uid and gid to map
# back to (empty: stay root in the namespace), $6 = the watchdog's grace period, then the command.
SETUP = (
    "set -e\n"
    "f=$1 n=$2 s=$3 u=$4 g=$5 w=$6\n"
    "shift 6\n"
    "if [ -n \"$s\" ]; then\n"
    "  mount --rbind /opt \"$s\"\n"
    "  mount -t tmpfs -o mode=755 tmpfs /opt\n"
    "  for e in \"$s\"/* \"$s\"/.[!.]* \"$s\"/..?*; do\n"
    "    t=/opt/${e##*/}\n"
    "    if [ -L \"$e\" ]; then cp -P \"$e\" \"$t\"\n"
    "    elif [ -d \"$e\" ]; then mkdir \"$t\"; mount --rbind \"$e\" \"$t\"\n"
    "    elif [ -e \"$e\" ]; then : > \"$t\"; mount --bind \"$e\" \"$t\"\n"
    "    fi\n"
    "  done\n"
    "  mkdir /opt/ml\n"
    "  umount -l \"$s\"\n"
    "fi\n"
    "mount -a -T \"$f\"\n"
    "hostname \"$n\"\n"
    "cd /opt/ml/code\n"
    + _lifeline.WATCHDOG
    + "if [ -n \"$u\" ]; then exec unshare --map-user=\"$u\" --map-group=\"$g\" \"$@\"; fi\n"
    "exec \"$@\"\n"
)


@attrs.frozen
class Isolation(object):
    """What starting hosts in namespaces needs (from :func:`probe`, per job).

    ``folder``: the job's folder (on disk) of the overlays' own folders (per host);
    ``memory``: a folder in memory for the hosts' mount tables and the unpacked code (None: ``folder``);
    ``hosts_file``: the job's ``/etc/hosts``; ``stage``: a folder ``/opt`` is bound onto meanwhile;
    ``map_back``: whether ``unshare --map-user`` exists; ``overlay``: whether overlays may be mounted;
    ``opt``: how ``/opt`` gets its ``ml`` folder, ``"exists"``, ``"overlay"`` or ``"tmpfs"``.
    """

    folder = attrs.field()
    hosts_file = attrs.field()
    stage = attrs.field()
    map_back = attrs.field()
    overlay = attrs.field()
    opt = attrs.field()
    memory = attrs.field(default=None)


_probed = {}  # root -> probe()'s answer
_probe_lock = threading.Lock()


def mode_from(value, environ):
    """The isolation mode: ``value``, else ``$SAGEMAKER_HETERO_LOCAL_ISOLATION``, else ``"auto"``."""
    return value if value is not None else (environ.get(MODE_ENV) or "auto")


def hosts_file_text(table):
    """An ``/etc/hosts`` naming every host of ``{name: address}``, and ``localhost``."""
    lines = ["127.0.0.1\tlocalhost", "::1\tlocalhost ip6-localhost ip6-loopback"]
    lines.extend("%s\t%s" % (address, name) for name, address in table.items())
    return "\n".join(lines) + "\n"


def _fstab_field(text):
    """A path as an fstab field: space, tab, newline and backslash written as octal escapes."""
    return "".join("\\%03o" % ord(c) if c in " \t\n\\" else c for c in text)


def write_fstab(path, entries):
    """Write ``entries`` (``(source, target, type, options)``) as an fstab file at ``path``."""
    with open(path, "w") as handle:
        for source, target, kind, options in entries:
            handle.write("%s %s %s %s 0 0\n" % (_fstab_field(source), _fstab_field(target), kind, options))


def overlay_ok(*paths):
    """Whether an overlay's options can name each of ``paths`` as it is."""
    return all(_PLAIN_PATH.match(p) for p in paths)


def opt_layout(overlay, work_dir):
    """How ``/opt`` gets its ``ml`` folder in a host's namespaces (see :class:`Isolation`)."""
    if os.path.isdir(os.path.join(_OPT, "ml")):
        return "exists"
    if overlay and overlay_ok(work_dir) and not _mounts_under(_OPT):
        return "overlay"
    return "tmpfs"


def _mounts_under(folder):
    """Whether anything is mounted below ``folder`` (an overlay of it would hide it)."""
    try:
        with open("/proc/self/mountinfo") as handle:
            points = [fields[4] for fields in (line.split() for line in handle) if len(fields) > 4]
    except OSError:
        return True
    below = folder.rstrip("/") + "/"
    return any(p.replace("\\040", " ").startswith(below) for p in points)


def mounts(isolation, base_dir, host_name, code_dir=None):
    """The mounts of one host (:func:`write_fstab` entries), in order: ``/opt``'s overlay (where
    ``isolation.opt`` says), the host's folder on ``/opt/ml``, the code's overlay (``code_dir``: the
    job's unpacked code, whose writes land in the host's ``code`` folder; None: no overlay), the
    hosts file. The overlays' own folders are made here."""
    entries = []
    if isolation.opt == "overlay":  # its writes on disk: a host may install gigabytes under /opt
        own = os.path.join(isolation.folder, host_name)
        upper, work = os.path.join(own, "opt"), os.path.join(own, "opt-work")
        os.makedirs(os.path.join(upper, "ml"))
        os.mkdir(work)
        entries.append(_overlay(_OPT, _OPT, upper, work))
    entries.append((base_dir, SEEN_BASE, "none", "bind"))
    if code_dir is not None:
        work = os.path.join(isolation.folder, host_name + ".code-work")  # beside its upper: one file system
        os.mkdir(work)
        upper = os.path.join(base_dir, "code")
        entries.append(_overlay(SEEN_BASE + "/code", code_dir, upper, work))
    entries.append((isolation.hosts_file, "/etc/hosts", "none", "bind"))
    return entries


def _overlay(target, lower, upper, work):
    """The mount table entry of an overlay on ``target``."""
    return ("overlay", target, "overlay", "lowerdir=%s,upperdir=%s,workdir=%s" % (lower, upper, work))


def host_prefix(isolation, base_dir, host_name, code_dir=None):
    """The command line that starts ``host_name`` in its namespaces (:func:`prefix`), its mount table
    written beside its overlays' folders; ``code_dir``: the job's unpacked code, overlaid on the
    host's ``code`` folder (None: the driver fills that folder itself)."""
    fstab = os.path.join(isolation.memory or isolation.folder, host_name + ".fstab")
    write_fstab(fstab, mounts(isolation, base_dir, host_name, code_dir))
    return prefix(isolation, fstab, host_name)


def prefix(isolation, fstab, host_name):
    """The command line that runs the rest (the grace period, then the command) in the host's
    namespaces, the mounts of ``fstab`` made and the watchdog left."""
    ids = [str(os.getuid()), str(os.getgid())] if isolation.map_back else ["", ""]
    stage = isolation.stage if isolation.opt == "tmpfs" else ""
    return [shutil.which("unshare") or "unshare", "--user", "--map-root-user", "--mount", "--uts", "/bin/sh", "-c",
            SETUP, _NAME, fstab, host_name, stage] + ids


def stage_dir(folder):
    """``<folder>/opt-mount`` (made if missing): where ``/opt`` is bound while a host's tmpfs ``/opt`` is made."""
    path = os.path.join(folder, STAGE_DIR)
    os.makedirs(path, exist_ok=True)
    return path


def probe(root):
    """``(works, why_not, map_back, overlay)``: whether hosts can run in namespaces here, and whether
    they can mount overlays on the file system of ``root`` (an existing folder: the root of local
    jobs), checked once per root by starting a host in a new folder of it."""
    with _probe_lock:
        if root not in _probed:
            _probed[root] = _probe(root)
        return _probed[root]


def _probe(root):
    if not sys.platform.startswith("linux"):
        return False, "namespaces are Linux only (this is %s)" % sys.platform, False, False
    if shutil.which("unshare") is None:
        return False, "no 'unshare' program (util-linux) on PATH", False, False
    try:
        usage = subprocess.run(["unshare", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=_PROBE_SECONDS).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return False, "'unshare --help' failed: %s" % exc, False, False
    map_back = "--map-user" in usage
    why = None
    for overlay in (True, False):  # with overlays if the kernel lets this user mount them
        why = _try(root, map_back, overlay)
        if why is None:
            return True, None, map_back, overlay
    return False, why, False, False


def _try(root, map_back, overlay):
    """Start one host as a job would (with overlays or not): None if it works, else why not."""
    work = tempfile.mkdtemp(prefix=".probe-", dir=root)
    try:
        base, lower, own = (os.path.join(work, d) for d in ("host", "lower", "own"))
        for folder in (os.path.join(base, "code"), lower, own):
            os.makedirs(folder)
        with open(os.path.join(lower, "probe"), "w") as handle:
            handle.write("lower\n")
        hosts = os.path.join(work, "hosts")
        with open(hosts, "w") as handle:
            handle.write(hosts_file_text({"algo-1": "127.0.0.1"}))
        isolation = Isolation(own, hosts, stage_dir(work), map_back, overlay, opt_layout(overlay, own))
        fstab = os.path.join(own, "algo-1.fstab")
        write_fstab(fstab, mounts(isolation, base, "algo-1", lower if overlay else None))
        check = 'test "$(hostname)" = algo-1 && test -d /opt/ml/code && grep -q algo-1 /etc/hosts && test -d /usr'
        if overlay:
            check += " && test -f /opt/ml/code/probe && echo host > /opt/ml/code/probe"
        argv = _lifeline.guarded(["/bin/sh", "-c", check], 1.0, prefix(isolation, fstab, "algo-1"))
        lifeline, keep = os.pipe()  # the watchdog's line, held open until the check ends
        try:
            proc = subprocess.Popen(argv, stdin=lifeline, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    universal_newlines=True, start_new_session=True)
            try:
                said = proc.communicate(timeout=_PROBE_SECONDS)[0]
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
                return "starting a host in namespaces took over %d s" % _PROBE_SECONDS
        except OSError as exc:
            return "starting a host in namespaces failed: %s" % exc
        finally:
            os.close(lifeline)
            os.close(keep)
        if proc.returncode != 0:
            lines = [line for line in said.splitlines() if line.strip()]
            return "starting a host in namespaces failed (%s)" % (
                lines[-1].strip() if lines else "exit code %d" % proc.returncode)
        if overlay and not _same_text(os.path.join(lower, "probe"), "lower\n"):
            return "an overlay wrote through to its lower folder"
        return None
    finally:
        _private.remove_tree(work)


def _same_text(path, text):
    with open(path) as handle:
        return handle.read() == text


def fallback_note(why):
    """The one line saying a job runs without namespaces, why, and what will not resolve."""
    return ("hosts share this machine's namespaces: %s. /opt/ml is not the host's folder (use "
            "SAGEMAKER_BASE_DIR or the SM_* variables), algo-N resolves in Python processes only (not in "
            "getent, C, Java or Go programs) and the host name is this machine's; isolation='none' or %s=none "
            "silences this, isolation='namespaces' makes it an error" % (why, MODE_ENV))
