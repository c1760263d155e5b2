"""What a host's processes see of the machine: the chosen interpreter on PATH, and (Linux) the
per-host namespaces: ``/opt/ml``, ``/etc/hosts`` and the host name as on SageMaker."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from ._helpers import estimator_for, namespaces_work

SHELL_PYTHON = """
import json, os, subprocess
out = subprocess.run("python -c 'import sys; print(sys.executable)'", shell=True, stdout=subprocess.PIPE,
                     universal_newlines=True, check=True).stdout.strip()
with open(os.path.join(os.environ["SM_OUTPUT_DATA_DIR"], os.environ["SM_CURRENT_HOST"]), "w") as f:
    f.write(out)
"""


def test_the_sessions_python_is_the_python_a_host_starts_by_name(session_factory, write_code, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    session = session_factory(python=python, keep=True)
    estimator = estimator_for(session, write_code(SHELL_PYTHON), groups=None, job_name="which-python")
    estimator.fit()
    base = estimator.latest_training_job.describe()["LocalRun"]["Hosts"][0]["BaseDirectory"]
    with open(os.path.join(base, "output", "data", "algo-1")) as handle:
        seen = handle.read()
    assert seen == python != sys.executable


# Reads its files by SageMaker's absolute paths, resolves another group's host with a resolver that
# is not Python's (getent: the C library's), and reports what it sees.
ABSOLUTE = """
import json, os, socket, subprocess
with open("/opt/ml/input/config/resourceconfig.json") as f:
    config = json.load(f)
other = [h for g in config["instance_groups"] if g["instance_group_name"] != config["current_group_name"]
         for h in g["hosts"]][0]
getent = subprocess.run(["getent", "hosts", other], stdout=subprocess.PIPE, universal_newlines=True).stdout.split()
report = {
    "config": config, "other": other, "getent": getent, "hostname": socket.gethostname(),
    "uname": os.uname().nodename, "cwd": os.getcwd(), "uid": os.getuid(), "gid": os.getgid(),
    "model_dir": os.environ["SM_MODEL_DIR"], "base": os.environ["SAGEMAKER_BASE_DIR"],
    "opt": sorted(os.listdir("/opt")), "machine_file": open(os.environ["MACHINE_FILE"]).read(),
}
with open("/opt/ml/model/%s.json" % config["current_host"], "w") as f:
    json.dump(report, f)
"""


def needs_namespaces(session):
    if not namespaces_work(session):
        pytest.skip("hosts cannot run in namespaces here: %s" % session._probe()[1])


def test_each_host_sees_its_folder_as_opt_ml_every_name_in_etc_hosts_and_its_own_host_name(
        session_factory, write_code, tmp_path, monkeypatch):
    machine_file = tmp_path / "machine.txt"
    machine_file.write_text("the user's file")
    monkeypatch.setenv("MACHINE_FILE", str(machine_file))
    session = session_factory(keep=True, isolation="namespaces")
    needs_namespaces(session)
    had_opt_ml = os.path.lexists("/opt/ml")
    estimator = estimator_for(session, write_code(ABSOLUTE), job_name="absolute")
    estimator.fit()
    desc = estimator.latest_training_job.describe()
    hosts = {h["Host"]: h for h in desc["LocalRun"]["Hosts"]}
    assert sorted(hosts) == ["algo-1", "algo-2", "algo-3"]
    opt = sorted(set(os.listdir("/opt")) | {"ml"}) if os.path.isdir("/opt") else None
    for name, host in hosts.items():
        assert host["Namespaces"] is True
        with open(os.path.join(host["BaseDirectory"], "model", name + ".json")) as handle:
            report = json.load(handle)
        assert report["config"]["current_host"] == name  # its own file, by the absolute path
        assert report["hostname"] == report["uname"] == name
        assert report["getent"] == [hosts[report["other"]]["Address"], report["other"]]
        assert report["cwd"] == "/opt/ml/code"
        assert report["base"] == "/opt/ml" and report["model_dir"] == "/opt/ml/model"
        assert (report["uid"], report["gid"]) == (os.getuid(), os.getgid())  # the user, not root
        assert report["opt"] == opt  # the rest of /opt is still there
        assert report["machine_file"] == "the user's file"
    # the machine itself is unchanged: no /opt/ml appeared, /etc/hosts does not name the hosts
    with open("/etc/hosts") as handle:
        assert "algo-1" not in handle.read()
    assert os.path.lexists("/opt/ml") is had_opt_ml


def test_where_namespaces_do_not_work_auto_says_why_in_one_line_and_namespaces_is_refused(
        session_factory, write_code, tmp_path, monkeypatch):
    from sagemaker_hetero.exceptions import ConfigError

    empty = tmp_path / "no-unshare-here"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    session = session_factory(keep=True)
    assert session.isolation == "auto"
    estimator = estimator_for(session, write_code("print('ran')"), groups=None, job_name="fallback")
    estimator.fit()
    host = estimator.latest_training_job.describe()["LocalRun"]["Hosts"][0]
    assert host["Namespaces"] is False
    lines = [line for line in session.out.getvalue().splitlines() if "share this machine's namespaces" in line]
    assert len(lines) == 1
    assert "no 'unshare' program" in lines[0] and "algo-N resolves in Python processes only" in lines[0]
    strict = session_factory(root=session.root, isolation="namespaces")
    with pytest.raises(ConfigError) as caught:
        estimator_for(strict, write_code("print('ran')"), groups=None, job_name="strict").fit()
    assert "cannot run hosts in their own namespaces here: no 'unshare' program" in str(caught.value)


def test_the_mode_can_be_forced_from_the_environment(session_factory, write_code, monkeypatch):
    from sagemaker_hetero.exceptions import ConfigError

    monkeypatch.setenv("SAGEMAKER_HETERO_LOCAL_ISOLATION", "none")
    session = session_factory()
    assert session.isolation == "none"
    estimator = estimator_for(session, write_code("print('ran')"), groups=None, job_name="forced")
    estimator.fit()
    assert estimator.latest_training_job.describe()["LocalRun"]["Hosts"][0]["Namespaces"] is False
    monkeypatch.setenv("SAGEMAKER_HETERO_LOCAL_ISOLATION", "containers")
    with pytest.raises(ConfigError) as caught:
        session_factory()
    assert "SAGEMAKER_HETERO_LOCAL_ISOLATION" in str(caught.value) and "'containers'" in str(caught.value)
    assert session_factory(isolation="auto").isolation == "auto"  # the argument wins


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0 or shutil.which("setpriv") is None,
                    reason="checks the unprivileged path by dropping root with setpriv")
@pytest.mark.parametrize("overlay", [True, False], ids=["overlays", "hard-links"])
def test_the_namespaces_need_no_privilege(overlay):
    """Run as root, the tests would not notice a setup that needs it: run it as nobody, with the
    code overlaid (the host's writes land in its own folder, the job's code is untouched) and without."""
    from sagemaker_hetero.local import _isolation, _lifeline

    if not shutil.which("unshare"):
        pytest.skip("no unshare")
    work = tempfile.mkdtemp(prefix="sagemaker-hetero-unprivileged-")
    try:
        os.chmod(work, 0o777)
        for folder in ("host/code", "stage", "hosts-dir", "code/pkg"):
            os.makedirs(os.path.join(work, folder))
        with open(os.path.join(work, "code", "pkg", "shared.py"), "w") as handle:
            handle.write("job\n")
        hosts = os.path.join(work, "hosts")
        with open(hosts, "w") as handle:
            handle.write(_isolation.hosts_file_text({"algo-1": "127.0.0.1", "algo-2": "127.9.8.2"}))
        for parent, dirs, files in os.walk(work):
            for name in dirs + files:
                os.chown(os.path.join(parent, name), 65534, 65534)
        isolation = _isolation.Isolation(
            os.path.join(work, "hosts-dir"), hosts, os.path.join(work, "stage"), True, overlay,
            _isolation.opt_layout(overlay, os.path.join(work, "hosts-dir")))
        if overlay:
            prefix = _isolation.host_prefix(isolation, os.path.join(work, "host"), "algo-1", os.path.join(work, "code"))
        else:
            prefix = _isolation.host_prefix(isolation, os.path.join(work, "host"), "algo-1")
        for parent, dirs, files in os.walk(work):
            for name in dirs + files:
                os.chown(os.path.join(parent, name), 65534, 65534)
        check = ('test "$(id -u)" = 65534 && test "$(hostname)" = algo-1 && getent hosts algo-2 && '
                 'touch /opt/ml/model-written && test -d /opt/pypi -o ! -d /opt/pypi && touch /opt/ml/code/new')
        if overlay:
            check += ' && test "$(cat pkg/shared.py)" = job && echo host > pkg/shared.py'
        # prefix() maps back to the caller's ids (root's here): map to nobody's, as nobody would
        prefix[-2:] = ["65534", "65534"]
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + _lifeline.guarded(
            ["/bin/sh", "-c", check], 1.0, prefix)
        lifeline, keep = os.pipe()
        try:
            done = subprocess.run(argv, stdin=lifeline, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  universal_newlines=True, start_new_session=True)
        finally:
            os.close(lifeline)
            os.close(keep)
        if done.returncode != 0 and "Operation not permitted" in done.stdout and "unshare" in done.stdout:
            pytest.skip("unprivileged user namespaces are disabled here: %s" % done.stdout.strip())
        assert done.returncode == 0, done.stdout
        assert done.stdout.split() == ["127.9.8.2", "algo-2"]
        assert os.stat(os.path.join(work, "host", "model-written")).st_uid == 65534
        assert os.stat(os.path.join(work, "host", "code", "new")).st_uid == 65534
        if overlay:  # the host's change is in its own code folder; the job's code is as it was
            with open(os.path.join(work, "host", "code", "pkg", "shared.py")) as handle:
                assert handle.read() == "host\n"
            with open(os.path.join(work, "code", "pkg", "shared.py")) as handle:
                assert handle.read() == "job\n"
    finally:
        shutil.rmtree(work, ignore_errors=True)


# Host algo-1 rewrites a code file in place and writes under /opt; algo-2 then reads both.
PRIVATE = """
import json, os, time
mark = os.environ["MARK_DIR"]
opt_file = os.environ["OPT_FILE"]
me = os.environ["SM_CURRENT_HOST"]
if me == "algo-1":
    with open("shared.txt", "r+") as f:
        f.write("ONE")
    try:
        with open(opt_file, "w") as f:
            f.write("algo-1")
        wrote_opt = True
    except OSError:
        wrote_opt = False
    with open(os.path.join(mark, "wrote"), "w") as f:
        f.write(json.dumps(wrote_opt))
else:
    deadline = time.monotonic() + 60
    while not os.path.exists(os.path.join(mark, "wrote")) and time.monotonic() < deadline:
        time.sleep(0.05)
with open(os.path.join(mark, me + ".json"), "w") as f:
    json.dump({"shared": open("shared.txt").read(), "opt": os.path.exists(opt_file)}, f)
"""


def test_with_overlays_each_hosts_code_and_opt_writes_are_its_own_and_the_memory_is_freed(
        session_factory, write_code, tmp_path, monkeypatch):
    session = session_factory(keep=True, isolation="namespaces")
    needs_namespaces(session)
    if not session._probe()[3]:
        pytest.skip("this kernel does not let this user mount overlays")
    mark = tmp_path / "marks"
    mark.mkdir()
    opt_entries = sorted(e for e in os.listdir("/opt") if os.path.isdir(os.path.join("/opt", e))) \
        if os.path.isdir("/opt") else []
    opt_file = os.path.join("/opt", opt_entries[0] if opt_entries else "", "sagemaker-hetero-test-%d" % os.getpid())
    monkeypatch.setenv("MARK_DIR", str(mark))
    monkeypatch.setenv("OPT_FILE", opt_file)
    code = write_code(PRIVATE, **{"shared.txt": "original"})
    try:
        estimator = estimator_for(session, code, groups=(("cpu", "ml.c5.xlarge", 2),), job_name="private")
        estimator.fit()
        wrote_opt = json.loads((mark / "wrote").read_text())
        one, two = (json.loads((mark / ("algo-%d.json" % i)).read_text()) for i in (1, 2))
        assert one["shared"] == "ONEginal" and two["shared"] == "original"  # in place, and still its own
        assert two["opt"] is False and os.path.exists(opt_file) is False  # /opt writes stay in the host
        assert one["opt"] is wrote_opt
        hosts = {h["Host"]: h for h in estimator.latest_training_job.describe()["LocalRun"]["Hosts"]}
        with open(os.path.join(hosts["algo-1"]["BaseDirectory"], "code", "shared.txt")) as handle:
            assert handle.read() == "ONEginal"  # the host's code folder holds what it changed
        assert not os.path.exists(os.path.join(hosts["algo-2"]["BaseDirectory"], "code", "shared.txt"))
        with open(os.path.join(code, "shared.txt")) as handle:
            assert handle.read() == "original"
        memory = "/dev/shm/sagemaker-hetero-%d" % os.getuid()
        if os.path.isdir(memory):  # the job's folder in memory is gone once it ended
            assert not [n for n in os.listdir(memory) if n.startswith("%d-" % os.getpid())]
    finally:
        if os.path.exists(opt_file):
            os.unlink(opt_file)


def test_memory_folders_of_dead_drivers_are_deleted_and_a_shared_parent_is_not_used(tmp_path, monkeypatch):
    from sagemaker_hetero.local import _private

    if not os.path.isdir(_private.MEMORY_DIR):
        pytest.skip("no /dev/shm here")
    memory = tmp_path / "shm"
    memory.mkdir()
    # this test's own "/dev/shm": the real one's folder is not opened to others while jobs of other tests use it
    monkeypatch.setattr(_private, "MEMORY_DIR", str(memory))
    folder = _private.memory_folder()
    if folder is None:
        pytest.skip("no /dev/shm here")
    try:
        parent = os.path.dirname(folder.path)
        assert os.stat(parent).st_mode & 0o777 == 0o700
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead.wait()
        left = os.path.join(parent, "%d-left" % dead.pid)
        os.mkdir(left)
        again = _private.memory_folder()
        assert again is not None and not os.path.exists(left)
        again.remove()
        assert not os.path.exists(again.path)
        os.chmod(parent, 0o777)  # someone else could have put things there: not used
        try:
            assert _private.memory_folder() is None
        finally:
            os.chmod(parent, 0o700)
    finally:
        folder.remove()


def test_a_root_whose_path_has_spaces_and_commas_still_runs_in_namespaces(session_factory, write_code, tmp_path):
    """An fstab field escapes them; an overlay's options cannot name such a path, so the code is
    hard-linked there instead."""
    session = session_factory(root=str(tmp_path / "odd root, here" / "jobs"), keep=True, isolation="namespaces")
    needs_namespaces(session)
    code = write_code("""
        import os, socket
        with open("/opt/ml/input/config/resourceconfig.json") as f:
            print("seen", os.getcwd(), socket.gethostname(), '"current_host": "%s"' % socket.gethostname() in f.read())
        open("mine.txt", "w").write("x")
    """)
    estimator = estimator_for(session, code, groups=(("cpu", "ml.c5.xlarge", 2),), job_name="odd")
    estimator.fit()
    out = session.out.getvalue()
    for name in ("algo-1", "algo-2"):
        assert "[cpu/%s] seen /opt/ml/code %s True" % (name, name) in out
    base = estimator.latest_training_job.describe()["LocalRun"]["Hosts"][0]["BaseDirectory"]
    assert sorted(os.listdir(os.path.join(base, "code"))) == ["mine.txt", "train.py"]
