"""A local run's folders stay its own: one run per job folder, link loops, archives that try to escape."""
import io
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
from sagemaker_hetero.local import _storage
from tests.local._helpers import ROOT, estimator_for

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
from sagemaker_hetero.local import _storage
_storage.JobLock(%(path)r, "held").acquire()
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
            _storage.JobLock(path, "held").acquire()
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    _storage.JobLock(path, "held").acquire().release()


def test_walk_files_skips_link_loops_and_follows_other_links(tmp_path):
    (tmp_path / "data" / "a").mkdir(parents=True)
    (tmp_path / "data" / "a" / "x.csv").write_text("1")
    (tmp_path / "data" / "a" / "up").symlink_to("..")
    (tmp_path / "data" / "self").symlink_to(".")
    (tmp_path / "data" / "again").symlink_to("a")  # not a loop: the same folder under another name
    loops = []
    files = _storage.walk_files(str(tmp_path / "data"), loops.append)
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
    with tarfile.open(model) as tar:
        assert tar.getnames() == ["weights"]


def archive_of(tmp_path, members):
    path = str(tmp_path / "code.tar.gz")
    with tarfile.open(path, "w:gz") as tar:
        for name, kind, value in members:
            info = tarfile.TarInfo(name)
            if kind == "dir":
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            elif kind in ("sym", "hard"):
                info.type, info.linkname = (tarfile.SYMTYPE if kind == "sym" else tarfile.LNKTYPE), value
                tar.addfile(info)
            else:
                info.size = len(value)
                tar.addfile(info, io.BytesIO(value))
    return path


ESCAPES = {
    "chained links": [("a", "sym", "."), ("a/b", "sym", ".."), ("a/b/evil", "file", b"x")],
    "link then file through it": [("d", "dir", None), ("d/up", "sym", "../.."), ("d/up/evil", "file", b"x")],
    "dot-dot name": [("../evil", "file", b"x")],
    "absolute link": [("abs", "sym", "/etc")],
    "hard link out": [("h", "hard", "../../outside")],
}


@pytest.mark.parametrize("data_filter", [True, False], ids=["tarfile-filter", "own-checks"])
@pytest.mark.parametrize("case", sorted(ESCAPES))
def test_the_extractor_refuses_members_leading_out_of_the_folder(tmp_path, case, data_filter):
    if data_filter and getattr(tarfile, "data_filter", None) is None:
        pytest.skip("this Python's tarfile has no data filter")
    (tmp_path / "outside").write_text("keep")
    archive = archive_of(tmp_path, ESCAPES[case])
    dest = tmp_path / "deep" / "code"
    dest.mkdir(parents=True)
    with pytest.raises(ConfigError, match="code archive must unpack inside its folder"):
        _storage.extract_archive(archive, str(dest), data_filter=data_filter)
    assert not (tmp_path / "deep" / "evil").exists() and not (tmp_path / "evil").exists()
    assert (tmp_path / "outside").read_text() == "keep"


@pytest.mark.parametrize("data_filter", [True, False], ids=["tarfile-filter", "own-checks"])
def test_the_extractor_keeps_links_that_stay_inside(tmp_path, data_filter):
    if data_filter and getattr(tarfile, "data_filter", None) is None:
        pytest.skip("this Python's tarfile has no data filter")
    archive = archive_of(tmp_path, [
        ("pkg", "dir", None), ("pkg/mod.py", "file", b"X = 1\n"), ("alias", "sym", "pkg"),
        ("pkg/same.py", "hard", "pkg/mod.py"), ("run.sh", "file", b"echo\n"),
    ])
    dest = tmp_path / "code"
    _storage.extract_archive(archive, str(dest), data_filter=data_filter)
    assert (dest / "alias" / "mod.py").read_text() == "X = 1\n"
    assert (dest / "pkg" / "same.py").read_text() == "X = 1\n"
    assert os.path.islink(str(dest / "alias"))


def test_an_archive_of_folders_and_files_is_written_directly_with_its_modes(tmp_path):
    path = str(tmp_path / "code.tar.gz")
    with tarfile.open(path, "w:gz") as tar:
        for name, mode, data in (("pkg", 0o755, None), ("pkg/run.sh", 0o755, b"echo\n"), ("pkg/a.py", 0o644, b"A\n"),
                                 ("./top.py", 0o666, b"T\n"), ("deep/er/b.py", 0o644, b"B\n")):
            info = tarfile.TarInfo(name)
            info.mode, info.mtime = mode, 1000
            if data is None:
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    dest = tmp_path / "code"
    _storage.extract_archive(path, str(dest))
    assert (dest / "pkg" / "a.py").read_bytes() == b"A\n" and (dest / "deep" / "er" / "b.py").read_bytes() == b"B\n"
    assert os.stat(str(dest / "pkg" / "run.sh")).st_mode & 0o777 == 0o755
    assert os.stat(str(dest / "top.py")).st_mode & 0o022 == 0  # no group/other write, as the data filter
    assert os.stat(str(dest / "pkg" / "a.py")).st_mtime == 1000


def _tree(folder):
    out = {}
    for parent, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(parent, name)
            st = os.lstat(path)
            data = open(path, "rb").read() if name in files else None
            out[os.path.relpath(path, folder)] = (st.st_mode, int(st.st_mtime), data)
    return out


def test_the_own_archive_reader_writes_what_tarfile_writes_and_leaves_anything_else_to_it(tmp_path):
    """The code archives this package builds are read by a small ustar reader (tarfile's objects per
    member cost more than writing the file), or unpacked as they are built (a local run): same files,
    modes and times as tarfile's extraction; an archive with PAX headers, links, or a damaged header
    is left to tarfile."""
    import gzip
    import shutil

    from sagemaker_hetero._model import archive as _archive
    from sagemaker_hetero._model.job import Code

    source = tmp_path / "src"
    (source / "pkg" / "deep").mkdir(parents=True)
    (source / "train.py").write_text("print('hi')\n")
    (source / "run.sh").write_text("echo\n")
    os.chmod(str(source / "run.sh"), 0o755)
    (source / "pkg" / "deep" / "m.py").write_bytes(b"\x00\xff" * 3000)
    (source / "pkg" / ("n" * 90) / ("m" * 90)).mkdir(parents=True)  # a name that needs ustar's prefix
    (source / "pkg" / ("n" * 90) / ("m" * 90) / "x.py").write_text("X = 1\n")
    archive = str(tmp_path / "sourcedir.tar.gz")
    (tmp_path / "as-built").mkdir()
    body, _ = _archive.build_archive(Code(entry_point="train.py", source_dir=str(source)),
                                     each=_storage.PlainWriter(archive, str(tmp_path / "as-built")))
    with open(archive, "wb") as handle:
        shutil.copyfileobj(body, handle)
    assert _storage._plain_ustar(archive) is not None
    _storage.extract_archive(archive, str(tmp_path / "fast"))
    with tarfile.open(archive) as tar:
        _storage._extract_plain(archive, tar, str(tmp_path / "slow"), tar.getmembers())
    fast = _tree(str(tmp_path / "fast"))
    assert fast == _tree(str(tmp_path / "slow"))
    assert fast == _tree(str(tmp_path / "as-built"))  # a local run's code, unpacked as the archive is built
    assert fast["run.sh"][0] & 0o777 == 0o755 and fast["pkg/deep/m.py"][2] == b"\x00\xff" * 3000
    assert fast[os.path.join("pkg", "n" * 90, "m" * 90, "x.py")][2] == b"X = 1\n"

    long_name = archive_of(tmp_path, [("p" * 120 + "/" + "q" * 120, "file", b"x")])  # PAX header
    assert _storage._plain_ustar(long_name) is None
    _storage.extract_archive(long_name, str(tmp_path / "long"))
    assert (tmp_path / "long" / ("p" * 120) / ("q" * 120)).read_bytes() == b"x"
    assert _storage._plain_ustar(archive_of(tmp_path, [("a", "file", b"x"), ("b", "sym", "a")])) is None
    raw = bytearray(gzip.decompress(open(archive, "rb").read()))
    raw[0] ^= 1  # the first header's name changes: its checksum no longer holds
    with open(archive, "wb") as handle:
        handle.write(gzip.compress(bytes(raw)))
    assert _storage._plain_ustar(archive) is None
    with pytest.raises(tarfile.ReadError):
        _storage.extract_archive(archive, str(tmp_path / "damaged"))


def test_where_links_cannot_be_made_a_channel_is_copied_and_a_link_loop_in_it_is_not_followed(tmp_path, monkeypatch):
    source = tmp_path / "channel"
    (source / "sub").mkdir(parents=True)
    (source / "sub" / "part-0").write_text("0")
    (source / "top").write_text("t")
    (source / "sub" / "loop").symlink_to("..")

    def refuse(*args, **kwargs):
        raise OSError(1, "links are not allowed here")

    monkeypatch.setattr(os, "symlink", refuse)
    assert _storage.link_or_copy(str(source), str(tmp_path / "copy")) == "copy"
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
    assert as_nobody(_storage.remove_tree) == 0
    assert not tree.exists()
