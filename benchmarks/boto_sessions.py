"""Seconds to build a new boto3 session and its four clients (sagemaker, s3, logs, sts), plain
``boto3.Session()`` against ``sagemaker_hetero.clients.new_boto_session()`` (one botocore loader for
the process: the service models are read and parsed once). No request is sent.
usage: python benchmarks/boto_sessions.py [sessions]
"""
import os
import sys
import time


def per_session(make, count):
    started = time.perf_counter()
    for _ in range(count):
        session = make()
        for service in ("sagemaker", "s3", "logs", "sts"):
            session.client(service)
    return (time.perf_counter() - started) / count


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "benchmark")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "benchmark")
    import boto3

    from sagemaker_hetero._aws import clients

    plain = per_session(lambda: boto3.Session(region_name="us-west-2"), count)
    shared = per_session(lambda: clients.new_boto_session(region_name="us-west-2"), count)
    print("new session + 4 clients, mean of %d: boto3.Session() %.3f s, new_boto_session() %.3f s (%.1fx)"
          % (count, plain, shared, plain / shared))


if __name__ == "__main__":
    main()
