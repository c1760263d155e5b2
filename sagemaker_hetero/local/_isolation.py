"""Per-host namespaces (Linux, no root, no container): ``/opt/ml``, ``/etc/hosts`` and ``algo-N``.

With ``isolation="namespaces"`` each host's process starts under ``unshare`` in its own user, mount
and UTS namespaces, where :data:`SETUP` (``/bin/sh``, before the watchdog's bootstrap) makes

- ``/opt/ml`` the host's folder: bound onto ``/opt/ml`` where that folder exists; otherwise a
  ``tmpfs`` is mounted on ``/opt`` holding the original ``/opt``'s entries (bound back, symbolic
  links copied) and an ``ml`` folder the host's folder is bound onto, so no root and no change to
  the machine are needed;
- ``/etc/hosts`` a file of the job naming every ``algo-N`` with its loopback address, so every
  resolver (C, Java, Go, ``getent``) finds the cluster's names;
- the host name ``algo-N``.

The first namespace maps the current user to root (what an unprivileged user may do; the mounts
need it); a second, nested user namespace then maps it back to the current user and group
(``unshare --map-user``, util-linux >= 2.38; with an older ``unshare`` the entry point runs as root
inside its namespace, as it does in a SageMaker container). The rest of the machine is visible as
it is. The pid the driver started stays the host's pid (``unshare`` and the shell ``exec``), so the
watchdog and the process-group signals work as without namespaces.

Whether this works is checked once per process and root by running it (unprivileged user
namespaces may be disabled, or confined by AppArmor); ``"auto"`` falls back to the shared mode with
one line saying why and what will not resolve.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import threading

__all__ = ["MODES", "MODE_ENV", "SEEN_BASE", "STAGE_DIR", "SETUP", "mode_from", "probe", "hosts_file_text", "prefix",
           "stage_dir", "fallback_note"]

MODES = ("auto", "namespaces", "none")
MODE_ENV = "SAGEMAKER_HETERO_LOCAL_ISOLATION"
SEEN_BASE = "/opt/ml"
STAGE_DIR = "opt-mount"  # under <root>/.site: an empty folder the original /opt is bound onto meanwhile
_NAME = "sagemaker-hetero-namespaces"  # $0 of the setup shell
_PROBE_SECONDS = 20.0

# Run by /bin/sh -c inside the new namespaces with $1 = the host's folder, $2 = the hosts file,
# $3 = the host name, $4 = the staging folder, $5 $6 = the uid and gid to map back to (empty: stay
# root in the namespace), then the command line to exec.
SETUP = (
    "set -e\n"
    "b=$1 h=$2 n=$3 s=$4 u=$5 g=$6\n"
    "shift 6\n"
    "if [ -d /opt/ml ]; then\n"
    "  mount --bind \"$b\" /opt/ml\n"
    "else\n"
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
    "  mount --bind \"$b\" /opt/ml\n"
    "  umount -l \"$s\"\n"
    "fi\n"
    "mount --bind \"$h\" /etc/hosts\n"
    "hostname \"$n\"\n"
    "cd /opt/ml/code\n"
    "if [ -n \"$u\" ]; then exec unshare --map-user=\"$u\" --map-group=\"$g\" \"$@\"; fi\n"
    "exec \"$@\"\n"
)

_probed = {}  # root -> (works, why not, map back to the user)
_probe_lock = threading.Lock()


def mode_from(value, environ):
    """The isolation mode: ``value``, else ``$SAGEMAKER_HETERO_LOCAL_ISOLATION``, else ``"auto"``."""
    return value if value is not None else (environ.get(MODE_ENV) or "auto")


def hosts_file_text(table):
    """An ``/etc/hosts`` naming every host of ``{name: address}``, and ``localhost``."""
    lines = ["127.0.0.1\tlocalhost", "::1\tlocalhost ip6-localhost ip6-loopback"]
    lines.extend("%s\t%s" % (address, name) for name, address in table.items())
    return "\n".join(lines) + "\n"


def prefix(base_dir, hosts_file, host_name, stage, map_back):
    """The command line that runs what follows it in the host's namespaces."""
    ids = [str(os.getuid()), str(os.getgid())] if map_back else ["", ""]
    return [shutil.which("unshare") or "unshare", "--user", "--map-root-user", "--mount", "--uts", "/bin/sh", "-c", SETUP, _NAME,
            base_dir, hosts_file, host_name, stage] + ids


def stage_dir(site_dir):
    path = os.path.join(site_dir, STAGE_DIR)
    os.makedirs(path, exist_ok=True)
    return path


def probe(site_dir):
    """``(works, why_not, map_back)``: whether hosts can run in namespaces here (checked once)."""
    with _probe_lock:
        if site_dir not in _probed:
            _probed[site_dir] = _probe(site_dir)
        return _probed[site_dir]


def _probe(site_dir):
    if not sys.platform.startswith("linux"):
        return False, "namespaces are Linux only (this is %s)" % sys.platform, False
    if shutil.which("unshare") is None:
        return False, "no 'unshare' program (util-linux) on PATH", False
    try:
        usage = subprocess.run(["unshare", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=_PROBE_SECONDS).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return False, "'unshare --help' failed: %s" % exc, False
    map_back = "--map-user" in usage
    work = tempfile.mkdtemp(prefix="probe-", dir=site_dir)
    try:
        os.makedirs(os.path.join(work, "host", "code"))
        hosts = os.path.join(work, "hosts")
        with open(hosts, "w") as handle:
            handle.write(hosts_file_text({"algo-1": "127.0.0.1"}))
        check = 'test "$(hostname)" = algo-1 && test -d /opt/ml/code && grep -q algo-1 /etc/hosts && test -d /usr'
        argv = prefix(os.path.join(work, "host"), hosts, "algo-1", stage_dir(site_dir), map_back)
        try:
            done = subprocess.run(argv + ["/bin/sh", "-c", check], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, universal_newlines=True, timeout=_PROBE_SECONDS)
        except (OSError, subprocess.SubprocessError) as exc:
            return False, "starting a host in namespaces failed: %s" % exc, False
        if done.returncode != 0:
            said = [line for line in done.stdout.splitlines() if line.strip()]
            why = said[-1].strip() if said else "exit code %d" % done.returncode
            return False, "starting a host in namespaces failed (%s)" % why, False
        return True, None, map_back
    finally:
        shutil.rmtree(work, ignore_errors=True)


def fallback_note(why):
    """The one line saying a job runs without namespaces, why, and what will not resolve."""
    return ("hosts share this machine's namespaces: %s. /opt/ml is not the host's folder (use "
            "SAGEMAKER_BASE_DIR or the SM_* variables), algo-N resolves in Python processes only (not in "
            "getent, C, Java or Go programs) and the host name is this machine's; isolation='none' or %s=none "
            "silences this, isolation='namespaces' makes it an error" % (why, MODE_ENV))
