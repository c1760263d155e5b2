"""What a local run costs per host over running the entry point directly (the seed example, 3 hosts).

For each run: ``fit()`` of the seed example with a LocalSession (the job's whole life: host folders,
code archive, processes, output, archives), against the same three host commands started directly
(same interpreter, arguments, environment and folder), in parallel, as a local run starts them.
Overhead per host = (local - direct) / 3. Also shown: the phases of a local run (each host's folder
is prepared just before it starts, so it counts with the hosts running), what the name
resolver (sitecustomize) adds to a host's interpreter start, and what starting a host under its
watchdog (the /bin/sh bootstrap of ``_lifeline``) adds. The local run is measured in both isolation
modes (``none``, and ``namespaces`` where it works here); the direct commands are those of ``none``.

Target (issue 5): under 0.25 s per host.
usage: python benchmarks/local_overhead.py [runs]
"""
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")


def seed_estimator(session):
    from sagemaker_hetero.inputs import TrainingInput
    from sagemaker_hetero.instance_group import InstanceGroup
    from sagemaker_hetero.pytorch import PyTorch

    data = os.path.join(EXAMPLES, "seed_data")
    estimator = PyTorch(
        role="arn:aws:iam::123456789012:role/SageMakerRole",
        source_dir=os.path.join(EXAMPLES, "seed_src"),
        entry_point="train.py",
        framework_version="1.10.0",
        py_version="py38",
        job_name="local-overhead",
        instance_groups=[
            InstanceGroup("instance_group_1", "ml.c5.18xlarge", 2),
            InstanceGroup("instance_group_2", "ml.p3dn.24xlarge", 1),
        ],
        sagemaker_session=session,
    )
    inputs = {
        "training": TrainingInput("file://" + os.path.join(data, "folder1"), instance_groups=["instance_group_1"]),
        "dummy-input-channel": TrainingInput("file://" + os.path.join(data, "folder2"), instance_groups=["instance_group_2"]),
    }
    return estimator, inputs


def seconds(transitions, status):
    for t in transitions:
        if t["Status"] == status:
            return (t["EndTime"] - t["StartTime"]).total_seconds()
    return 0.0


def direct(plans):
    """The hosts' commands started directly, in parallel; wall seconds until all exited."""
    started = time.perf_counter()
    procs = [
        subprocess.Popen(p.argv, cwd=p.cwd, env=p.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for p in plans
    ]
    for proc in procs:
        proc.wait()
    return time.perf_counter() - started


def interpreter_start(env, runs):
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def watchdog_start(runs):
    """Median seconds of ``python -c pass`` started directly and under the watchdog bootstrap."""
    from sagemaker_hetero.local import _lifeline

    argv = [sys.executable, "-S", "-c", "pass"]
    direct_runs, guarded_runs = [], []
    for _ in range(runs):
        for command, samples in ((argv, direct_runs), (_lifeline.guarded(argv, 1.0), guarded_runs)):
            line = _lifeline.Lifeline()
            started = time.perf_counter()
            subprocess.run(command, stdin=line.read_fd, check=True, start_new_session=True)
            samples.append(time.perf_counter() - started)
            line.close()
    return statistics.median(direct_runs), statistics.median(guarded_runs)


def fits(root, isolation, runs):
    """``(whole-job seconds, prepare, training, upload, direct, last job)`` over ``runs`` fits."""
    from sagemaker_hetero.local import LocalSession

    session = LocalSession(root=root, keep=True, out=io.StringIO(), isolation=isolation)
    estimator, inputs = seed_estimator(session)
    estimator.fit(inputs)  # warm-up: imports, file caches, the namespaces check
    local, baseline, prepare, training, upload = [], [], [], [], []
    for _ in range(runs):
        estimator, inputs = seed_estimator(session)
        started = time.perf_counter()
        estimator.fit(inputs)
        local.append(time.perf_counter() - started)
        job = estimator.latest_training_job
        transitions = job.describe()["SecondaryStatusTransitions"]
        prepare.append(seconds(transitions, "Starting") + seconds(transitions, "Downloading"))
        training.append(seconds(transitions, "Training"))
        upload.append(seconds(transitions, "Uploading"))
        if isolation == "none":  # the commands as they run outside namespaces
            baseline.append(direct([r.plan for r in job._runs]))
    return local, prepare, training, upload, baseline, job


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    root = tempfile.mkdtemp(prefix="local-overhead-")
    median = statistics.median
    try:
        local, prepare, training, upload, baseline, job = fits(root, "none", runs)
        plain = dict(os.environ)
        host_env = job._runs[0].plan.env
        hosts = len(job._runs)
        print("runs: %d (median, min in seconds); hosts per job: %d; python %s" % (runs, hosts, sys.version.split()[0]))
        print("same 3 commands run directly:          %.3f  %.3f" % (median(baseline), min(baseline)))
        modes = [("none", (local, prepare, training, upload))]
        from sagemaker_hetero.local import LocalSession

        works, why = LocalSession(root=root)._probe()[:2]
        if works:
            modes.append(("namespaces", fits(root, "namespaces", runs)[:4]))
        else:
            print("isolation='namespaces' not measured: %s" % why)
        for mode, (local, prepare, training, upload) in modes:
            print("isolation=%r:" % mode)
            print("  local fit(), whole job:                %.3f  %.3f" % (median(local), min(local)))
            print("    code archive and channels:           %.3f  %.3f" % (median(prepare), min(prepare)))
            print("    host folders, hosts running, output: %.3f  %.3f" % (median(training), min(training)))
            print("    packing model/output archives:       %.3f  %.3f" % (median(upload), min(upload)))
            print("  overhead per host (median, min):       %.3f  %.3f (target < 0.25)"
                  % ((median(local) - median(baseline)) / hosts, (min(local) - min(baseline)) / hosts))
        print("python -c pass / with the resolver:    %.3f / %.3f" % (interpreter_start(plain, runs), interpreter_start(host_env, runs)))
        print("python -S -c pass / under the watchdog: %.4f / %.4f" % watchdog_start(runs * 5))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
