"""A local run's folders stay its own: one run per job folder, link loops, code archives that try to
escape or explode."""
import os
import shutil
import subprocess
import sys
import tarfile
import textwrap
import time

import pytest

from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.local import _private, _storage, _trees
from tests.local._archives import EVIL, archive_of, escapes
from tests.local._helpers import ROOT, estimator_for, namespaces_work

WAITER = """
import os, time
open(os.path.join(os.environ["GATE"], "started-" + os.environ["SM_CURRENT_HOST"]), "w").close()
while not os.path.exists(os.path.join(os.environ["GATE"], "go")):
    time.sleep(0.05)
"""


def wait_for(path, deadline=60.0):
    end = time.monotonic() + deadline
    while not os.path.exists(path):
        assert time.monotonic() < end, "%s never appeared" % path
        time.sleep(0.05)


def test_a_second_run_of_a_running_jobs_name_and_root_is_refused_and_deletes_nothing(
        session_factory, write_code, tmp_path):
    gate = tmp_path / "gate"
    gate.mkdir()
    code = write_code(WAITER)
    first = estimator_for(session_factory(), code, groups=None, job_name="busy", environment={"GATE": str(gate)})
    first.fit(wait=False)
    wait_for(str(gate / "started-algo-1"))
    host_dir = first.latest_training_job.describe()["LocalRun"]["Hosts"][0]["BaseDirectory"]
    other = estimator_for(session_factory(), code, groups=None, job_name="busy", environment={"GATE": str(gate)})
    with pytest.raises(ConfigError) as info:
        other.fit(wait=False)
    message = str(info.value)
    assert "local job busy is running in process %d" % os.getpid() in message
    assert os.path.isdir(host_dir)
    (gate / "go").write_text("")
    first.latest_training_job.wait()
    os.remove(str(gate / "started-algo-1"))
    other.fit()  # the job ended: its lock is released
    assert other.latest_training_job.describe()["TrainingJobStatus"] == "Completed"


HOLDER = """
import sys, time
sys.path.insert(0, %(root)r)
from sagemaker_hetero.local import _private
_private.JobLock(%(path)r, "held").acquire()
print("locked", flush=True)
time.sleep(600)
"""


def test_the_lock_of_a_killed_driver_is_free_again(tmp_path):
    path = str(tmp_path / "locks" / "held.lock")
    script = tmp_path / "holder.py"
    script.write_text(textwrap.dedent(HOLDER % {"root": ROOT, "path": path}))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE)
    try:
        assert proc.stdout.readline() == b"locked\n"
        with pytest.raises(ConfigError, match="running in process %d" % proc.pid):
            _private.JobLock(path, "held").acquire()
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    _private.JobLock(path, "held").acquire().release()


def test_walk_files_skips_link_loops_and_follows_other_links(tmp_path):
    (tmp_path / "data" / "a").mkdir(parents=True)
    (tmp_path / "data" / "a" / "x.csv").write_text("1")
    (tmp_path / "data" / "a" / "up").symlink_to("..")
    (tmp_path / "data" / "self").symlink_to(".")
    (tmp_path / "data" / "again").symlink_to("a")  # not a loop: the same folder under another name
    loops = []
    files = _trees.walk_files(str(tmp_path / "data"), loops.append)
    assert files == ["a/x.csv", "again/x.csv"]
    assert sorted(os.path.relpath(p, str(tmp_path / "data")) for p in loops) == ["a/up", "again/up", "self"]


def test_a_sharded_channel_and_a_model_folder_with_link_loops_do_not_hang_the_run(session_factory, write_code,
                                                                                 tmp_path):
    data = tmp_path / "shards"
    (data / "sub").mkdir(parents=True)
    for i in range(4):
        (data / "sub" / ("part-%d" % i)).write_text(str(i))
    (data / "sub" / "loop").symlink_to("..")
    session = session_factory()
    code = write_code("""
        import os
        print('files', sorted(os.listdir(os.path.join(os.environ['SM_CHANNEL_TRAIN'], 'sub'))))
        model = os.environ['SM_MODEL_DIR']
        open(os.path.join(model, 'weights'), 'w').write('w')
        os.symlink('.', os.path.join(model, 'loop'))
    """)
    estimator = estimator_for(session, code, groups=(("cpu", "ml.c5.xlarge", 2),))
    estimator.fit({"train": TrainingInput(str(data), distribution="ShardedByS3Key")})
    out = session.out.getvalue()
    assert "[cpu/algo-1] files ['part-0', 'part-2']" in out
    assert "[cpu/algo-2] files ['part-1', 'part-3']" in out
    assert "a loop" in out
    model = _storage.path_of_file_uri(estimator.model_data)
    with tarfile.open(model) as tar:  # links in model/ are stored as links, never followed
        assert tar.getnames() == ["loop", "weights"] and tar.getmember("loop").linkname == "."


HOSTILE = [(case, isolation) for isolation in ("none", "namespaces") for case in (
    "path-max link chain", "link then a file through it", "hard link out", "absolute name", "dot-dot name",
    "bomb over the limit")] + [("lying gzip trailer", "namespaces")]  # on disk, code may unpack to more than it says


@pytest.mark.parametrize("case,isolation", HOSTILE)
def test_a_hostile_code_archive_is_refused_before_any_host_starts_and_writes_nothing_outside(
        session_factory, tmp_path, monkeypatch, lying_archive, case, isolation):
    """``source_dir`` as an archive in the local bucket: unpacked in memory with per-host namespaces
    (it is small, or says it is), on disk with ``isolation="none"``."""
    session = session_factory(isolation=isolation)
    if isolation == "namespaces" and not namespaces_work(session):
        pytest.skip("hosts cannot run in namespaces here")
    outside = tmp_path / "outside"
    outside.write_text("keep")
    archive = os.path.join(session.root, "given", "code.tar.gz")
    os.makedirs(os.path.dirname(archive))
    expected = "code archive must unpack inside its folder"
    if case == "lying gzip trailer":
        shutil.copyfile(lying_archive, archive)
        expected = "the most code unpacked in memory may hold, though its gzip trailer says 1024"
    elif case == "bomb over the limit":
        monkeypatch.setenv("SAGEMAKER_HETERO_LOCAL_CODE_MAX_BYTES", "1M")
        archive_of(archive, [("train.py", "file", b"print(1)\n"), ("zeros", "file", b"\0" * (2 << 20))])
        expected = r"unpacks to more than 1048576 bytes \(the limit: \$SAGEMAKER_HETERO_LOCAL_CODE_MAX_BYTES"
    else:
        archive_of(archive, escapes(str(outside))[case])
    source_dir = "s3://sagemaker-hetero-local/given/code.tar.gz"
    estimator = estimator_for(session, source_dir, groups=None, job_name="hostile")
    in_memory = "/dev/shm/sagemaker-hetero-%d/%s" % (os.getuid(), EVIL)  # where code in memory escapes to
    try:
        with pytest.raises(ConfigError, match=expected):
            estimator.fit()
    finally:
        leaked = [in_memory] if os.path.lexists(in_memory) else []
        for path in leaked:  # not left to spoil other runs
            os.remove(path)
    assert "[homogeneousCluster/algo-1]" not in session.out.getvalue()  # no host ran
    leaked += [os.path.join(p, n) for p, dirs, files in os.walk(str(tmp_path)) for n in dirs + files if n == EVIL]
    assert leaked == []
    assert outside.read_text() == "keep"


def test_where_links_cannot_be_made_a_channel_is_copied_and_a_link_loop_in_it_is_not_followed(tmp_path, monkeypatch):
    source = tmp_path / "channel"
    (source / "sub").mkdir(parents=True)
    (source / "sub" / "part-0").write_text("0")
    (source / "top").write_text("t")
    (source / "sub" / "loop").symlink_to("..")

    def refuse(*args, **kwargs):
        raise OSError(1, "links are not allowed here")

    monkeypatch.setattr(os, "symlink", refuse)
    assert _trees.link_or_copy(str(source), str(tmp_path / "copy")) == "copy"
    monkeypatch.undo()
    copied = sorted(os.path.relpath(os.path.join(p, n), str(tmp_path / "copy"))
                    for p, _, names in os.walk(str(tmp_path / "copy")) for n in names)
    assert copied == [os.path.join("sub", "part-0"), "top"]
    assert not any(os.path.islink(os.path.join(p, n)) for p, _, names in os.walk(str(tmp_path / "copy")) for n in names)


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="drops root to check what a user can delete")
def test_a_folder_overlayfs_left_without_permissions_is_deleted_by_its_owner():
    """overlayfs leaves its work/work folder as mode 000: shutil.rmtree alone cannot delete it
    without root, and a job's folders stayed. Checked as nobody (root ignores the permissions)."""
    import pathlib
    import tempfile

    top = tempfile.mkdtemp(prefix="sagemaker-hetero-remove-")  # /tmp: reachable by nobody
    try:
        _check_removal_as_nobody(pathlib.Path(top))
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _check_removal_as_nobody(tmp_path):
    tree = tmp_path / "job"
    (tree / "code-work" / "work" / "inner").mkdir(parents=True)
    (tree / "code-work" / "work" / "inner" / "f").write_text("x")
    (tree / "host" / "code").mkdir(parents=True)
    os.chmod(str(tmp_path), 0o777)
    for parent, dirs, files in os.walk(str(tree)):
        for name in dirs + files:
            os.chown(os.path.join(parent, name), 65534, 65534)
    os.chown(str(tree), 65534, 65534)
    os.chmod(str(tree / "code-work" / "work" / "inner"), 0)
    os.chmod(str(tree / "code-work" / "work"), 0)

    def as_nobody(remove):
        pid = os.fork()
        if pid == 0:  # the child only makes system calls, then leaves without cleaning up
            try:
                os.setgid(65534)
                os.setuid(65534)
                remove(str(tree))
                os._exit(0)
            except BaseException:
                os._exit(3)
        return os.waitpid(pid, 0)[1]

    assert as_nobody(lambda path: shutil.rmtree(path, ignore_errors=True)) == 0
    assert (tree / "code-work").exists()  # what happened before
    assert as_nobody(_private.remove_tree) == 0
    assert not tree.exists()


def test_an_archive_put_at_a_local_place_never_writes_through_a_link_found_there(tmp_path):
    """A host (as root, for a root driver) could leave links where the driver puts the job's archives:
    at the target itself, or at the name a temporary file once had. Neither is written through."""
    victims = [tmp_path / "victim-a", tmp_path / "victim-b"]
    for victim in victims:
        victim.write_bytes(b"keep")
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(str(victims[0]), str(out / "model.tar.gz"))
    os.symlink(str(victims[1]), str(out / "model.tar.gz.part"))
    archive = tmp_path / "archive"
    archive.write_bytes(b"new bytes")
    _storage.Storage(str(tmp_path / "root"), "us-west-2").put(str(archive), "file://%s" % (out / "model.tar.gz"))
    assert [v.read_bytes() for v in victims] == [b"keep", b"keep"]
    assert not os.path.islink(str(out / "model.tar.gz")) and (out / "model.tar.gz").read_bytes() == b"new bytes"
    assert sorted(os.listdir(str(out))) == ["model.tar.gz", "model.tar.gz.part"]  # no temporary file left
