"""How a local run scales with hosts and files, each figure next to its floor measured in the same run.

1. ``fit()`` of 16 hosts whose source_dir holds 1,000 files (a trivial entry point), against the
   floor: 16 ``python train.py`` processes of the same interpreter spawned directly, in parallel,
   until all exited. Target (issue 12.4): within 2x the floor.
2. When the first of 32 hosts (the same 1,000-file source_dir) starts, counted from ``fit()``, against the floor: one ``python -c``
   started directly (until its first line runs).
3. A ``ShardedByS3Key`` channel of 4,000 files read by 16 hosts: what it adds to ``fit()``, against
   the floor: listing the folder once and making one symbolic link per file.

``fit()`` returns before the finished host folders are deleted (a background thread does it);
each figure here waits for that deletion to end before the next one is measured.

usage: python benchmarks/local_scale.py [runs]
"""
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TRAIN = (
    "import os, time\n"
    "stamps = os.environ.get('SCALE_STAMPS')\n"
    "if stamps:\n"
    "    with open(os.path.join(stamps, os.environ['SM_CURRENT_HOST']), 'w') as f:\n"
    "        f.write(repr(time.time()))\n"
)
IMAGE = "123456789012.dkr.ecr.us-west-2.amazonaws.com/my-image:latest"
ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"


def source_dir(root, files):
    folder = os.path.join(root, "src-%d" % files)
    os.makedirs(folder)
    with open(os.path.join(folder, "train.py"), "w") as handle:
        handle.write(TRAIN)
    for i in range(files - 1):
        sub = os.path.join(folder, "pkg%02d" % (i % 20))
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, "mod%04d.py" % i), "w") as handle:
            handle.write("VALUE = %d\n" % i + "# padding\n" * 40)
    return folder


def data_dir(root, files):
    folder = os.path.join(root, "data-%d" % files)
    for i in range(files):
        sub = os.path.join(folder, "part%02d" % (i % 40))
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, "f%05d.csv" % i), "w") as handle:
            handle.write("1,2,3\n")
    return folder


def fit(session, code, hosts, inputs=None, environment=None):
    from sagemaker_hetero.estimator import Estimator
    from sagemaker_hetero.instance_group import InstanceGroup

    estimator = Estimator(
        image_uri=IMAGE, role=ROLE, entry_point="train.py", source_dir=code,
        instance_groups=[InstanceGroup("group", "ml.c5.xlarge", hosts)],
        sagemaker_session=session, environment=environment or {}, job_name="local-scale",
    )
    started = time.perf_counter()
    wall = time.time()
    estimator.fit(inputs, wait=True)
    elapsed = time.perf_counter() - started
    for thread in threading.enumerate():  # the finished folders, deleted in the background: not
        if thread.name == "sagemaker-hetero-trash":  # counted, but not left to slow the next figure
            thread.join()
    return elapsed, wall


def bare_spawn(code, hosts):
    started = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "train.py"], cwd=code) for _ in range(hosts)]
    for proc in procs:
        proc.wait()
    return time.perf_counter() - started


def first_line():
    started = time.time()
    out = subprocess.run([sys.executable, "-c", "import time; print(repr(time.time()))"],
                         stdout=subprocess.PIPE, check=True).stdout
    return float(out) - started


def listing_floor(folder, scratch):
    started = time.perf_counter()
    files = []
    for parent, dirs, names in os.walk(folder):
        for name in names:
            files.append(os.path.join(parent, name))
    os.makedirs(scratch)
    for i, path in enumerate(files):
        os.symlink(path, os.path.join(scratch, "%d" % i))
    elapsed = time.perf_counter() - started
    shutil.rmtree(scratch)
    return elapsed


def main():
    from sagemaker_hetero.inputs import TrainingInput
    from sagemaker_hetero.local import LocalSession

    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    root = tempfile.mkdtemp(prefix="local-scale-")
    median = statistics.median
    try:
        session = LocalSession(root=os.path.join(root, "jobs"), out=io.StringIO())
        small = source_dir(root, 1)
        big = source_dir(root, 1000)
        data = data_dir(root, 4000)
        stamps = os.path.join(root, "stamps")
        fit(session, small, 2)  # warm-up: imports, file caches
        big16, bare16, first32, line, sharded, plain16, floor = [], [], [], [], [], [], []
        for run in range(runs):
            big16.append(fit(session, big, 16)[0])
            bare16.append(bare_spawn(big, 16))
            shutil.rmtree(stamps, ignore_errors=True)
            os.makedirs(stamps)
            _, wall = fit(session, big, 32, environment={"SCALE_STAMPS": stamps})
            first = min(float(open(os.path.join(stamps, n)).read()) for n in os.listdir(stamps))
            first32.append(first - wall)
            line.append(first_line())
            channel = {"train": TrainingInput("file://" + data, distribution="ShardedByS3Key")}
            sharded.append(fit(session, small, 16, inputs=channel)[0])
            plain16.append(fit(session, small, 16)[0])
            floor.append(listing_floor(data, os.path.join(root, "links-%d" % run)))
        print("runs: %d (median, min in seconds); python %s; %d CPUs"
              % (runs, sys.version.split()[0], os.cpu_count() or 0))
        print("16 hosts, 1,000-file source_dir, fit():        %.3f  %.3f" % (median(big16), min(big16)))
        print("  floor: 16 python processes spawned directly:  %.3f  %.3f  (ratio %.2f, target <= 2)"
              % (median(bare16), min(bare16), median(big16) / median(bare16)))
        print("32 hosts, 1,000 files: first host starts at:  %.3f  %.3f" % (median(first32), min(first32)))
        print("  floor: one python started until its 1st line: %.3f  %.3f" % (median(line), min(line)))
        print("16 hosts + ShardedByS3Key channel of 4,000 files: %.3f  %.3f" % (median(sharded), min(sharded)))
        print("  same 16 hosts without the channel:            %.3f  %.3f  (the channel adds %.3f)"
              % (median(plain16), min(plain16), median(sharded) - median(plain16)))
        print("  floor: list the folder once + 4,000 symlinks:  %.3f  %.3f" % (median(floor), min(floor)))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
