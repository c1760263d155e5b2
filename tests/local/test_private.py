"""The root of local jobs and what the runner makes in it stay the user's: no other user, planted
link or process in another PID namespace turns them against the user (docs/local.md, "The root and
other users"). As root, "another user" is ``nobody``: files made here and given to it."""
import os
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading

import pytest

from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.local import LocalSession, _private
from tests.local._helpers import ROOT, estimator_for

NOBODY = 65534
as_root = pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0,
                             reason="gives files to another user (nobody), which needs root")
PRINT = "print('ran')\n"


@pytest.fixture
def temp_dir(tmp_path, monkeypatch):
    """A temporary folder every user may write (as /tmp), holding the default root."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    os.chmod(str(folder), 0o1777)
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def session(**options):
    import io

    options.setdefault("out", io.StringIO())
    options.setdefault("isolation", "none")
    return LocalSession(**options)


def the_root_problem(info):
    [problem] = info.value.problems
    assert problem.path == "root"
    return problem.message


def give_to_nobody(*paths):
    for path in paths:
        os.lchown(str(path), NOBODY, NOBODY)


def wait_for_trash():
    for thread in threading.enumerate():
        if thread.name == "sagemaker-hetero-trash":
            thread.join()


def test_the_default_root_is_made_yours_alone_and_one_open_to_others_or_a_link_is_refused(
        temp_dir, write_code, tmp_path):
    default = session()
    root = temp_dir / ("sagemaker-hetero-local-%d" % os.getuid())
    assert default.root == str(root) and not root.exists()  # nothing is made before a job runs
    estimator_for(default, write_code(PRINT), groups=None, job_name="mine").fit()
    assert stat.S_IMODE(os.lstat(str(root)).st_mode) == 0o700
    assert stat.S_IMODE(os.lstat(str(root / "mine")).st_mode) == 0o700
    os.chmod(str(root), 0o755)
    with pytest.raises(ConfigError) as info:
        session()
    message = the_root_problem(info)
    assert str(root) in message and "open to other users (mode 0755)" in message and "chmod 700" in message
    with pytest.raises(ConfigError):  # named, it is still the default one
        session(root=str(root))
    os.chmod(str(root), 0o700)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    os.rename(str(root), str(tmp_path / "moved"))
    root.symlink_to(elsewhere)
    with pytest.raises(ConfigError) as info:
        session()
    assert "is a symbolic link" in the_root_problem(info)


@as_root
def test_a_default_root_made_by_another_user_is_refused_and_nothing_planted_there_runs(temp_dir, write_code):
    root = temp_dir / ("sagemaker-hetero-local-%d" % os.getuid())
    made_before = session()  # the root is made by someone else after the session, before the job
    os.mkdir(str(root), 0o777)
    (root / ".site").mkdir(mode=0o777)
    (root / ".site" / "json.py").write_text("open(%r, 'w').write('planted')\n" % str(temp_dir / "ran"))
    os.chmod(str(root), 0o777)
    give_to_nobody(root, root / ".site", root / ".site" / "json.py")
    with pytest.raises(ConfigError) as info:
        session()
    message = the_root_problem(info)
    assert "belongs to uid %d, not to you" % NOBODY in message and "remove it" in message
    estimator = estimator_for(made_before, write_code("import json\n"), groups=None)
    with pytest.raises(ConfigError) as info:
        estimator.fit()
    assert str(root) in the_root_problem(info)
    assert not (temp_dir / "ran").exists()


def test_a_root_you_name_may_be_readable_by_others_but_not_writable(tmp_path, write_code):
    root = tmp_path / "local-jobs"
    root.mkdir(mode=0o755)
    os.chmod(str(root), 0o755)
    mine = session(root=str(root))
    estimator_for(mine, write_code(PRINT), groups=None, job_name="shared").fit()
    assert stat.S_IMODE(os.stat(str(root / "shared")).st_mode) == 0o700  # the job's folder is yours alone
    made = tmp_path / "made" / "jobs"
    estimator_for(session(root=str(made)), write_code(PRINT), groups=None).fit()
    assert stat.S_IMODE(os.stat(str(made)).st_mode) == 0o700
    os.chmod(str(root), 0o775)
    with pytest.raises(ConfigError) as info:
        session(root=str(root))
    message = the_root_problem(info)
    assert "may be written by other users (mode 0775)" in message and "chmod go-w" in message
    with pytest.raises(ConfigError):  # made writable after the session: refused when the job starts
        estimator_for(mine, write_code(PRINT), groups=None).fit()


@as_root
def test_a_root_you_name_that_belongs_to_another_user_is_refused(tmp_path):
    root = tmp_path / "theirs"
    root.mkdir(mode=0o755)
    give_to_nobody(root)
    with pytest.raises(ConfigError) as info:
        session(root=str(root))
    assert "belongs to uid %d" % NOBODY in the_root_problem(info)


def test_a_link_planted_as_a_jobs_lock_is_refused_and_not_written_through(tmp_path, write_code):
    root = tmp_path / "jobs"
    (root / ".locks").mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    (root / ".locks" / "busy.lock").symlink_to(victim)
    estimator = estimator_for(session(root=str(root)), write_code(PRINT), groups=None, job_name="busy")
    with pytest.raises(ConfigError) as info:
        estimator.fit()
    assert "busy.lock" in the_root_problem(info)
    assert victim.read_text() == "mine"
    os.unlink(str(root / ".locks" / "busy.lock"))
    os.rmdir(str(root / ".locks"))
    (root / ".locks").symlink_to(tmp_path)  # the lock folder itself
    with pytest.raises(ConfigError):
        estimator.fit()
    assert not (tmp_path / "busy.lock").exists()


def test_the_trash_never_follows_a_planted_link(tmp_path, write_code):
    """The background deleter removes the trash's folders of processes that ended: through a link
    named .trash it would delete folders of yours that look like them."""
    root = tmp_path / "jobs"
    root.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    victim = tmp_path / "victim"
    (victim / ("%d-results" % dead.pid)).mkdir(parents=True)
    (victim / ("%d-results" % dead.pid) / "keep.txt").write_text("mine")
    (root / ".trash").symlink_to(victim)
    code = write_code(PRINT)
    estimator_for(session(root=str(root), keep=True), code, groups=None, job_name="again").fit()
    estimator_for(session(root=str(root)), code, groups=None, job_name="again").fit()  # the first's folder goes
    wait_for_trash()
    assert (victim / ("%d-results" % dead.pid) / "keep.txt").read_text() == "mine"
    assert not (root / "again" / "algo-1").exists()  # deleted at once instead
    _private.remove_tree(str(root / ".trash"))  # a link given to remove_tree: the link goes, not its target
    assert not os.path.lexists(str(root / ".trash")) and (victim / ("%d-results" % dead.pid)).is_dir()


def test_nothing_from_the_root_but_the_resolver_is_on_a_hosts_import_path(tmp_path, write_code):
    """Jobs once shared <root>/.site: a module put there (by whoever could write the root) was
    imported by every host. The resolver is now written into the job's own new folder."""
    root = tmp_path / "jobs"
    (root / ".site").mkdir(parents=True)
    marker = tmp_path / "planted-ran"
    (root / ".site" / "json.py").write_text("open(%r, 'w').write('x')\n" % str(marker))
    mine = session(root=str(root), keep=True)
    code = write_code("""
        import json, os, stat, sys
        site = os.environ["PYTHONPATH"].split(os.pathsep)[0]
        print("site", site, sorted(os.listdir(site)), oct(stat.S_IMODE(os.stat(site).st_mode)))
        print("resolver", sys.modules["sitecustomize"].__file__)
    """)
    estimator_for(mine, code, groups=None, job_name="clean").fit()
    out = mine.out.getvalue()
    site = str(root / "clean" / ".site")
    assert "site %s ['__pycache__', 'sitecustomize.py'] 0o700" % site in out
    assert "resolver %s" % os.path.join(site, "sitecustomize.py") in out
    assert not marker.exists()


HOLDER = """
import os, subprocess, sys
sys.path.insert(0, %(repo)r)
if os.getpid() == 1:  # the new PID namespace's first process: choose the holder's pid, then start it
    with open("/proc/sys/kernel/ns_last_pid", "w") as handle:
        handle.write(%(before)r)
    sys.exit(subprocess.call([sys.executable] + sys.argv))
from sagemaker_hetero.local import _private
_private.MEMORY_DIR = %(memory)r
memory = _private.memory_folder()
trash = _private.private_folder(_private.open_dir(%(root)r), _private.TRASH_DIR)
bin_ = _private.OwnedFolder(trash, os.path.join(%(root)r, _private.TRASH_DIR))
print(memory.path, bin_.path, flush=True)
sys.stdin.readline()
os._exit(0)  # ends as a killed driver would: its folders are left, their locks freed
"""


def unseen_pid():
    """A pid no process has here (the holder's, in its own PID namespace)."""
    import random

    limit = int(open("/proc/sys/kernel/pid_max").read())
    while True:
        pid = random.randint(limit // 2, limit - 2)
        if not any(os.path.exists("/proc/%d" % p) for p in range(pid - 5, pid + 5)):
            return pid


def test_folders_of_a_running_driver_in_another_pid_namespace_are_not_deleted(tmp_path, monkeypatch):
    """Its pid is not seen here, which is no proof it is gone: its lock is."""
    unshare = ["unshare", "--pid", "--fork", "--mount-proc"]
    if os.getuid() != 0:
        unshare[1:1] = ["--user", "--map-root-user"]
    memory, root = tmp_path / "shm", tmp_path / "jobs"
    memory.mkdir()
    root.mkdir()
    monkeypatch.setattr(_private, "MEMORY_DIR", str(memory))  # this test's own "/dev/shm"
    pid = unseen_pid()
    script = tmp_path / "holder.py"
    script.write_text(HOLDER % {"repo": ROOT, "before": str(pid - 1), "memory": str(memory), "root": str(root)})
    try:
        holder = subprocess.Popen(unshare + [sys.executable, str(script)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    except OSError as exc:
        pytest.skip("cannot start a process in a new PID namespace: %s" % exc)
    try:
        line = holder.stdout.readline().split()
        if not line:
            pytest.skip("cannot start a process in a new PID namespace: %s" % holder.communicate()[1].strip())
        held = line
        assert [os.path.basename(p).split("-")[0] for p in held] == [str(pid)] * 2
        assert not os.path.exists("/proc/%d" % pid)  # not seen here
        mine = _private.memory_folder()  # deletes what dead drivers left in memory
        (tmp_path / "thrown").mkdir()
        _private.remove_later([str(tmp_path / "thrown")], str(root))  # ... and in the trash
        wait_for_trash()
        assert all(os.path.isdir(p) for p in held)
        mine.remove()
    finally:
        holder.communicate("end\n")
    again = _private.memory_folder()
    (tmp_path / "thrown").mkdir()
    _private.remove_later([str(tmp_path / "thrown")], str(root))
    wait_for_trash()
    assert not any(os.path.exists(p) for p in held)  # its owner gone, its lock free: deleted
    again.remove()
    assert os.listdir(str(memory / ("sagemaker-hetero-%d" % os.getuid()))) == []


EXITS = """
import io, os, sys
sys.path.insert(0, %(repo)r)
from sagemaker_hetero.local import LocalSession, _private
from tests.local._helpers import estimator_for
_private.MEMORY_DIR = %(memory)r
session = LocalSession(root=%(root)r, isolation="namespaces", out=io.StringIO())
estimator = estimator_for(session, %(code)r, groups=None)
estimator.fit(wait=False)
print(" ".join(f.path for f in estimator.latest_training_job._scratch), flush=True)
"""


def test_a_job_left_running_at_exit_frees_its_folder_in_memory(tmp_path, write_code):
    """fit(wait=False), then the program ends normally: the job is killed, its code in memory freed."""
    memory = tmp_path / "shm"
    memory.mkdir()
    probe = session(root=str(tmp_path / "jobs"), isolation="namespaces")
    works, why, _, overlay = probe._probe()
    if not (works and overlay):
        pytest.skip("the code goes in memory only with overlays in namespaces: %s" % (why or "no overlays here"))
    script = tmp_path / "exits.py"
    script.write_text(textwrap.dedent(EXITS % {
        "repo": ROOT, "memory": str(memory), "root": str(tmp_path / "jobs"),
        "code": write_code("import time\ntime.sleep(120)\n")}))
    done = subprocess.run([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    folders = done.stdout.split()
    assert len(folders) == 1 and folders[0].startswith(str(memory))
    assert not os.path.exists(folders[0])
