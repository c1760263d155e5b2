"""Launch 20 jobs of one estimator against a local moto server and count the AWS calls per job.

Every HTTP request botocore sends (retries included) is counted through botocore's event
system. Target (issue 12.3): 1 call per job after the first for an unchanged estimator
(CreateTrainingJob; the code is stored under its SHA-256 once). Then 60 jobs from 6 threads of one
session (issue 12.2): how many distinct jobs exist. Then (issue 12.3) the code archive of 1,000 small
files against ``tar cf - DIR | gzip -6`` (best of 5 each).
usage: python benchmarks/aws_calls_per_job.py [jobs]
"""
import collections
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

    from sagemaker_hetero import InstanceGroup, PyTorch, Session, TrainingInput

    work = _moto.bucket_and_code()
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
    threaded = _sixty_from_six_threads(PyTorch, InstanceGroup, Session, inputs, work)
    server.stop()
    print("jobs launched:               %d in %.2f s" % (jobs, elapsed))
    print("calls for the first job:     %d %s" % (len(per_job[0]), dict(collections.Counter(per_job[0]))))
    later = [len(c) for c in per_job[1:]]
    print("calls per later job:         max %d, mean %.2f %s" % (max(later), sum(later) / len(later),
                                                                 dict(collections.Counter(sum(per_job[1:], [])))))
    print("calls per job overall:       %.2f (target after the first: 1; SageMaker SDK v2: 8)"
          % (len(calls) / float(jobs)))
    print("60 fits from 6 threads:      %d distinct jobs created, %d errors, %d jobs listed" % threaded)
    _archive_vs_tar_gzip()


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
    from sagemaker_hetero._model import archive as _archive
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
    main()
