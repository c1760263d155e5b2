"""Launch 20 jobs of one estimator against a local moto server and count the AWS calls per job.

Every HTTP request botocore sends (retries included) is counted through botocore's event
system. Target (issue 3): at most 2 calls per job after the first (upload + CreateTrainingJob).
usage: python benchmarks/aws_calls_per_job.py [jobs]
"""
import collections
import os
import sys
import tempfile
import time

from moto.server import ThreadedMotoServer


def main():
    jobs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    os.environ.update(
        AWS_ENDPOINT_URL="http://%s:%d" % (host, port),
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
        AWS_DEFAULT_REGION="us-west-2",
        AWS_REGION="us-west-2",
    )
    import boto3

    from sagemaker_hetero import InstanceGroup, PyTorch, Session, TrainingInput

    boto3.client("s3").create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    work = tempfile.mkdtemp()
    with open(os.path.join(work, "train.py"), "w") as f:
        f.write("print('hello')\n")

    boto_session = boto3.Session()
    calls = []
    boto_session.events.register(
        "before-send", lambda event_name=None, **kw: calls.append(event_name.split(".", 1)[1])
    )
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
    server.stop()
    print("jobs launched:               %d in %.2f s" % (jobs, elapsed))
    print("calls for the first job:     %d %s" % (len(per_job[0]), dict(collections.Counter(per_job[0]))))
    later = [len(c) for c in per_job[1:]]
    print("calls per later job:         max %d, mean %.2f %s" % (max(later), sum(later) / len(later),
                                                                 dict(collections.Counter(sum(per_job[1:], [])))))
    print("calls per job overall:       %.2f (target after the first: <= 2; SageMaker SDK v2: 8)"
          % (len(calls) / float(jobs)))


if __name__ == "__main__":
    main()
