"""Launch 20 jobs of one estimator against a local moto server and count the AWS calls per job.

Every HTTP request botocore sends (retries included) is counted through botocore's event
system. Target (issue 12.3): 1 call per job after the first for an unchanged estimator
(CreateTrainingJob; the code is stored under its SHA-256 once), with fit's default preflight (issue 22:
its quota and role checks are made for the first job only). Then (issue 22) a full preflight of the
seed job from a new process once the quota-name map is kept (target: at most 12 calls), and again for
a later job of that process's session (target: 0 to 2). Then (issue 28) jobs of one session against moto
alone, which implements neither Service Quotas nor SimulatePrincipalPolicy, the caller an assumed role:
the default preflight's checks are unknown, and every later job costs 1 call. Then 60 jobs from 6 threads of one session
(issue 12.2): how many distinct jobs exist. Then (issue 12.3) the code archive of 1,000 small files
against ``tar cf - DIR | gzip -6`` (best of 5 each). The account's quotas allow every job at once.
usage: python benchmarks/aws_calls_per_job.py [jobs]
"""
import json
import collections
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import _moto


def main():
    jobs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    server = _moto.start()
    server.answers.quotas.update((name, 10000.0) for name in server.answers.quotas if "run time" not in name)

    from sagemaker_hetero import InstanceGroup, PyTorch, Session, TrainingInput

    work = _moto.bucket_and_code()
    for prefix in ("train", "dummy"):  # the channels' data, for the full preflight
        boto3_client("s3").put_object(Bucket="bucket", Key=prefix + "/part-0", Body=b"x")
    boto_session, calls = _moto.counting_session()
    session = Session(boto_session=boto_session)
    est = PyTorch(
        entry_point=os.path.join(work, "train.py"),
        framework_version="1.10.0",
        py_version="py38",
        role="arn:aws:iam::123456789012:role/SageMakerRole",
        instance_groups=[InstanceGroup("cpu", "ml.c5.18xlarge", 2), InstanceGroup("gpu", "ml.p3dn.24xlarge", 1)],
        sagemaker_session=session,
    )
    inputs = {"train": TrainingInput("s3://bucket/train", instance_groups=["cpu"]),
              "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["gpu"])}
    per_job = []
    start = time.perf_counter()
    for _ in range(jobs):
        before = len(calls)
        est.fit(inputs, wait=False)
        per_job.append(calls[before:])
    elapsed = time.perf_counter() - start
    preflights = _seed_preflight_from_a_new_process(work)
    server.answers.plain()  # moto alone from here on: its server logs each operation it lacks with a traceback
    logging.getLogger("werkzeug").setLevel(logging.CRITICAL)
    plain = _jobs_from_a_new_process(work, "--plain-moto")
    server.answers.reset()
    server.answers.quotas.update((name, 10000.0) for name in server.answers.quotas if "run time" not in name)
    threaded = _sixty_from_six_threads(PyTorch, InstanceGroup, Session, inputs, work)
    server.stop()
    print("jobs launched:               %d in %.2f s" % (jobs, elapsed))
    print("calls for the first job:     %d %s" % (len(per_job[0]), dict(collections.Counter(per_job[0]))))
    later = [len(c) for c in per_job[1:]]
    print("calls per later job:         max %d, mean %.2f %s" % (max(later), sum(later) / len(later),
                                                                 dict(collections.Counter(sum(per_job[1:], [])))))
    print("calls per job overall:       %.2f (target after the first: 1; SageMaker SDK v2: 8)"
          % (len(calls) / float(jobs)))
    for label, ops in zip(("full preflight, new process:", "full preflight, later job:  "), preflights):
        print("%s %d %s (target: %s)" % (label, len(ops), dict(collections.Counter(ops)),
                                       "<= 12" if "new" in label else "0-2"))
    print("moto alone, first job:       %d %s" % (len(plain[0]), dict(collections.Counter(plain[0]))))
    print("moto alone, every later job: max %d %s (target: 1, CreateTrainingJob)" % (
        max(len(ops) for ops in plain[1:]), dict(collections.Counter(sum(plain[1:], [])))))
    print("60 fits from 6 threads:      %d distinct jobs created, %d errors, %d jobs listed" % threaded)
    _archive_vs_tar_gzip()


def boto3_client(name):
    import boto3

    return boto3.client(name)


def _assumed_role_environment():
    """The environment with a developer's assumed role as the caller (the role made once)."""
    from tests._answers import create_role

    try:
        create_role(os.environ["AWS_ENDPOINT_URL"], "Developer")
    except RuntimeError:  # made by an earlier call (EntityAlreadyExists)
        pass
    assumed = boto3_client("sts").assume_role(RoleArn="arn:aws:iam::123456789012:role/Developer",
                                              RoleSessionName="bench")["Credentials"]
    return dict(os.environ, AWS_ACCESS_KEY_ID=assumed["AccessKeyId"], AWS_SECRET_ACCESS_KEY=assumed["SecretAccessKey"],
                AWS_SESSION_TOKEN=assumed["SessionToken"])


def _jobs_from_a_new_process(work, flag, jobs=5):
    """The operations of each of ``jobs`` fits of one session in a new process (its own quota-name file:
    none yet), the caller an assumed role."""
    return _in_a_new_process(flag, work, dict(_assumed_role_environment(), XDG_CACHE_HOME=tempfile.mkdtemp()),
                             str(jobs))


def _seed_preflight_from_a_new_process(work):
    """The operations of a full preflight of the seed job in a new process (the quota-name map is on disk
    since the first job above), then of a later job of its session: ``(first, later)``. The caller is a
    developer's assumed role, not the job's: the most a role check asks (both roles looked up, PassRole
    simulated)."""
    return _in_a_new_process("--seed-preflight", work, _assumed_role_environment())


def _in_a_new_process(flag, work, env, *more):
    """What this script prints last (JSON) when run with ``flag work *more`` in ``env``."""
    child = subprocess.run([sys.executable, os.path.abspath(__file__), flag, work] + list(more),
                           stdout=subprocess.PIPE, check=True, env=env)
    return json.loads(child.stdout.decode().splitlines()[-1])


def _each(calls, times, make):
    """The operations of each of ``times`` calls of ``make()``, ``calls`` counting them."""
    out = []
    for _ in range(times):
        before = len(calls)
        make()
        out.append([c.rsplit(".", 1)[-1] for c in calls[before:]])
    return out


def _seed_estimator(work):
    """In the new process: ``(the seed job's estimator, the calls its session makes)``."""
    from sagemaker_hetero import InstanceGroup, PyTorch, Session

    boto_session, calls = _moto.counting_session()
    est = PyTorch(entry_point=os.path.join(work, "train.py"), framework_version="1.10.0", py_version="py38",
                  role="arn:aws:iam::123456789012:role/SageMakerRole",
                  sagemaker_session=Session(boto_session=boto_session),
                  instance_groups=[InstanceGroup("cpu", "ml.c5.18xlarge", 2),
                                   InstanceGroup("gpu", "ml.p3dn.24xlarge", 1)])
    return est, calls


def _jobs(work, jobs):
    """In the new process: ``jobs`` fits of one estimator and session; prints each one's operations."""
    est, calls = _seed_estimator(work)
    print(json.dumps(_each(calls, jobs, lambda: est.fit(wait=False))))


def _seed_preflight(work):
    """In the new process: two full preflights of the seed job with one session; prints their operations."""
    from sagemaker_hetero import TrainingInput

    est, calls = _seed_estimator(work)
    inputs = {"train": TrainingInput("s3://bucket/train", instance_groups=["cpu"]),
              "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["gpu"])}

    def preflight():
        report = est.preflight(inputs)
        assert report.ok, report.text()

    print(json.dumps(_each(calls, 2, preflight)))


def _sixty_from_six_threads(PyTorch, InstanceGroup, Session, inputs, work):
    import boto3

    session = Session()
    ests = [PyTorch(entry_point=os.path.join(work, "train.py"), framework_version="1.10.0", py_version="py38",
                    role="arn:aws:iam::123456789012:role/SageMakerRole", base_job_name="burst",
                    instance_groups=[InstanceGroup("cpu", "ml.c5.18xlarge", 2)], sagemaker_session=session)
            for _ in range(60)]
    errors = []

    def run(batch):
        for est in batch:
            try:
                est.fit({"train": inputs["train"]}, wait=False)
            except Exception as exc:  # noqa: BLE001 - counted
                errors.append(exc)

    threads = [threading.Thread(target=run, args=(ests[i::6],)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    names = set(e.latest_training_job.name for e in ests if e.latest_training_job is not None)
    client = boto3.client("sagemaker")
    listed, token = [], None
    while True:
        page = client.list_training_jobs(MaxResults=100, **({"NextToken": token} if token else {}))
        listed.extend(j["TrainingJobName"] for j in page["TrainingJobSummaries"] if j["TrainingJobName"] in names)
        token = page.get("NextToken")
        if not token:
            break
    return len(names), len(errors), len(listed)


def _best(fn, runs=5):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def _archive_vs_tar_gzip(files=1000):
    from sagemaker_hetero._aws import code_archive as _archive
    from sagemaker_hetero._model.job import Code

    root = tempfile.mkdtemp()
    src = os.path.join(root, "src")
    for i in range(files):
        folder = os.path.join(src, "pkg%02d" % (i % 20))
        if not os.path.isdir(folder):
            os.makedirs(folder)
        with open(os.path.join(folder, "mod%04d.py" % i), "w") as f:
            f.write("# module %d\n" % i + "def f%d(x):\n    return x * %d + %r\n" % (i, i, "a" * (i % 300)) * 20)
    code = Code(entry_point="pkg00/mod0000.py", source_dir=src)

    def ours():
        body, _ = _archive.build_archive(code)
        body.close()

    def tar_gzip():
        subprocess.run("tar cf - -C %s . | gzip -6 > /dev/null" % src, shell=True, check=True)

    mine, theirs = _best(ours), _best(tar_gzip)
    shutil.rmtree(root)
    print("archive of %d small files:  %.3f s; tar cf - | gzip -6: %.3f s; ratio %.2fx (target <= 1.5x)"
          % (files, mine, theirs, mine / theirs))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--seed-preflight"]:
        _seed_preflight(sys.argv[2])
    elif sys.argv[1:2] == ["--plain-moto"]:
        _jobs(sys.argv[2], int(sys.argv[3]))
    else:
        main()
