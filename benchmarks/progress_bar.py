"""What a local run costs when a host draws a progress bar (issue 20, item 6), in one run.

The host prints 200,000 tqdm-style updates (``\\r`` and the bar, flushed each time, no newline
until the end; ``PYTHONUNBUFFERED`` as on a host, so each is one write to the pipe). Printed:

1. the script alone: started directly with the host's interpreter, environment and folder, its
   output to ``os.devnull``; wall seconds, best of ``runs``;
2. ``fit()`` of a one-host local job running it, the hosts' output to ``os.devnull`` (the job's
   whole life, so its fixed cost too: folders, code archive, output archives); wall seconds and
   the driver's CPU seconds, best of ``runs``; the ratio of 2's wall time to 1's (target: at most 3);
3. the driver's peak resident memory grown while a host prints one line of 64 MiB without a
   newline (``ru_maxrss``, so measured last): bounded, as what is held of an unended line is.

usage: python benchmarks/progress_bar.py [runs]   (default 3)
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

UPDATES = 200000
BAR = """
import sys
write, flush = sys.stdout.write, sys.stdout.flush
for i in range(%d):
    done = i * 30 // %d
    write("\\r%%3d%%%%|%%s%%s| %%d/%%d" %% (i * 100 // %d, "#" * done, " " * (30 - done), i, %d))
    flush()
write("\\n")
""" % ((UPDATES,) * 4)
LONG_LINE = """
import sys
piece = "x" * 65536
for _ in range(1024):
    sys.stdout.write(piece)
"""


def fit(root, source_dir, out):
    """The finished one-host job of ``source_dir``'s ``train.py``."""
    from sagemaker_hetero.estimator import Estimator
    from sagemaker_hetero.local import LocalSession

    estimator = Estimator(
        image_uri="my-image", entry_point="train.py", source_dir=source_dir, role="SageMakerRole",
        instance_count=1, instance_type="ml.m5.large",
        sagemaker_session=LocalSession(root=root, out=out, isolation="none", keep=True),
    )
    estimator.fit()
    return estimator.latest_training_job


def write_code(root, name, text):
    folder = os.path.join(root, name)
    os.makedirs(folder)
    with open(os.path.join(folder, "train.py"), "w") as handle:
        handle.write(text)
    return folder


def alone(plan):
    """Wall seconds of the host's command run directly, its output to os.devnull."""
    started = time.perf_counter()
    subprocess.run(plan.argv, cwd=plan.cwd, env=plan.env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    root = tempfile.mkdtemp(prefix="progress-bar-")
    try:
        code = write_code(root, "bar", BAR)
        with open(os.devnull, "w") as out:
            job = fit(os.path.join(root, "jobs"), code, out)  # warm-up, and the host's command
            plan = job._runs[0].plan
            direct = min(alone(plan) for _ in range(runs))
            walls, cpus = [], []
            for _ in range(runs):
                started, cpu = time.perf_counter(), time.process_time()
                fit(os.path.join(root, "jobs"), code, out)
                walls.append(time.perf_counter() - started)
                cpus.append(time.process_time() - cpu)
            print("%d progress-bar updates; python %s; best of %d" % (UPDATES, sys.version.split()[0], runs))
            print("script alone, output to /dev/null:   %.3f s" % direct)
            print("local fit(), whole job:               %.3f s wall, driver CPU %.3f s" % (min(walls), min(cpus)))
            print("ratio fit() / script alone:           %.2f (target <= 3)" % (min(walls) / direct))
            long_code = write_code(root, "long", LONG_LINE)
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            fit(os.path.join(root, "jobs"), long_code, out)
            grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
            print("one 64 MiB line without a newline:    driver peak RSS grew %.1f MiB" % (grown / 1024.0))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
