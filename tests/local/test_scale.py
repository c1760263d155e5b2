"""A local run unpacks its code once, starts each host as soon as it is ready and lists a channel once."""
import os
import subprocess
import sys
import time

from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.local import _hosts
from tests.local._helpers import ROOT, estimator_for

EDITOR = """
import os, time
gate = os.environ["GATE"]
if os.environ["SM_CURRENT_HOST"] == "algo-1":
    open("mine.txt", "w").write("algo-1")
    os.remove("shared.txt")
    with open("helper.py.tmp", "w") as handle:  # replaced (a new file), not rewritten in place
        handle.write("WHO = 'algo-1'\\n")
    os.replace("helper.py.tmp", "helper.py")
    open(os.path.join(gate, "edited"), "w").close()
else:
    while not os.path.exists(os.path.join(gate, "edited")):
        time.sleep(0.05)
    import helper
    print("sees", sorted(n for n in os.listdir(".") if n.endswith(".txt")), helper.WHO)
"""


def test_files_a_host_creates_deletes_or_replaces_in_its_code_folder_are_its_own(session_factory, write_code, tmp_path):
    gate = tmp_path / "gate"
    gate.mkdir()
    code = write_code(EDITOR, **{"shared.txt": "x", "helper.py": "WHO = 'original'\n"})
    session = session_factory()
    estimator_for(session, code, groups=(("cpu", "ml.c5.xlarge", 2),), environment={"GATE": str(gate)}).fit()
    assert "[cpu/algo-2] sees ['shared.txt'] original" in session.out.getvalue()
    with open(os.path.join(code, "helper.py")) as handle:
        assert handle.read() == "WHO = 'original'\n"


WAITER = """
import os, time
open(os.path.join(os.environ["GATE"], "started-" + os.environ["SM_CURRENT_HOST"]), "w").close()
"""


def test_the_first_host_runs_before_the_last_is_prepared(session_factory, write_code, tmp_path, monkeypatch):
    gate = tmp_path / "gate"
    gate.mkdir()
    prepare, seen = _hosts.prepare_host, {}

    def watching(job_dir, cluster, host, *args, **kwargs):
        if host.name == "algo-3":
            deadline = time.monotonic() + 30.0
            while not (gate / "started-algo-1").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            seen["first started"] = (gate / "started-algo-1").exists()
        return prepare(job_dir, cluster, host, *args, **kwargs)

    monkeypatch.setattr(_hosts, "prepare_host", watching)
    session = session_factory()
    estimator_for(session, write_code(WAITER), environment={"GATE": str(gate)}).fit()
    assert seen == {"first started": True}
    assert sorted(os.listdir(str(gate))) == ["started-algo-1", "started-algo-2", "started-algo-3"]


def test_a_sharded_channel_is_listed_once_per_job(session_factory, write_code, tmp_path, monkeypatch):
    folder = tmp_path / "shards"
    folder.mkdir()
    for i in range(6):
        (folder / ("part-%d" % i)).write_text(str(i))
    listed = []
    original = _hosts.list_channel

    def counting(path, *args):
        listed.append(path)
        return original(path, *args)

    monkeypatch.setattr(_hosts, "list_channel", counting)
    session = session_factory()
    code = write_code("import os\nprint('files', sorted(os.listdir(os.environ['SM_CHANNEL_TRAIN'])))\n")
    estimator_for(session, code, groups=(("cpu", "ml.c5.xlarge", 3),)).fit(
        {"train": TrainingInput(str(folder), distribution="ShardedByS3Key")}
    )
    out = session.out.getvalue()
    assert "[cpu/algo-1] files ['part-0', 'part-3']" in out
    assert "[cpu/algo-3] files ['part-2', 'part-5']" in out
    assert listed == [str(folder)]


def test_a_completed_jobs_host_folders_are_gone_when_fit_returns_and_deleted_soon_after(session_factory, write_code):
    import threading

    session = session_factory()
    estimator = estimator_for(session, write_code("print('ok')\n"))
    estimator.fit()
    desc = estimator.latest_training_job.describe()
    job_dir = desc["LocalRun"]["JobDirectory"]
    assert not any(os.path.exists(h["BaseDirectory"]) for h in desc["LocalRun"]["Hosts"])
    assert not os.path.exists(os.path.join(job_dir, ".code"))
    for thread in threading.enumerate():
        if thread.name == "sagemaker-hetero-trash":
            thread.join(60.0)
    trash = os.path.join(session.root, ".trash")
    assert [n for n in os.listdir(trash) if n.startswith("%d-" % os.getpid())] == []


DRIVER = """
import io, os, sys
sys.path.insert(0, %(root)r)
from sagemaker_hetero.local import LocalSession
from tests.local._helpers import estimator_for
session = LocalSession(root=%(jobs)r, out=io.StringIO(), isolation="none")
estimator_for(session, %(code)r, groups=None).fit()
print(os.getpid(), flush=True)
"""
MANY_FILES = """
import os
os.mkdir("many")
for i in range(3000):
    open(os.path.join("many", str(i)), "w").close()
"""


def test_a_driver_that_exits_right_after_fit_leaves_no_host_folders_in_the_trash(write_code, tmp_path):
    # The job ends in the runner's daemon supervisor thread: the deleting thread it starts must not be a daemon too,
    # or the interpreter's exit cuts the deletion short and the folders stay until some later run.
    jobs = str(tmp_path / "jobs")
    script = tmp_path / "driver.py"
    script.write_text(DRIVER % {"root": ROOT, "jobs": jobs, "code": write_code(MANY_FILES)})
    done = subprocess.run([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout
    pid = done.stdout.split()[-1]
    assert [n for n in os.listdir(os.path.join(jobs, ".trash")) if n.startswith(pid + "-")] == []
