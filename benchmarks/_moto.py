"""The benchmarks' fake AWS: the tests' moto server (tests/_aws.py) in this process on loopback, with
the environment pointed at it (endpoint, test credentials, us-west-2), so nothing leaves the machine.

It answers what moto lacks as the tests' server does (Service Quotas, IAM's policy simulation:
tests/_answers.py), holds the role the benchmarks name (``SageMakerRole``, trusting SageMaker), and the
preflight's quota-name file goes to a new folder (``XDG_CACHE_HOME``), not the user's.
"""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start():
    """A started moto server every boto3 client made from now on talks to; stop it at the end."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from tests._answers import create_role
    from tests._aws import MotoServer

    server = MotoServer().start()
    os.environ.update(AWS_ENDPOINT_URL=server.url, AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing",
                      AWS_DEFAULT_REGION="us-west-2", AWS_REGION="us-west-2", XDG_CACHE_HOME=tempfile.mkdtemp())
    create_role(server.url, "SageMakerRole")
    return server


def counting_session():
    """``(boto3 session, calls)``: every request the session's clients send (retries included) is
    appended to ``calls`` as ``"service.Operation"``."""
    import boto3

    session, calls = boto3.Session(), []
    session.events.register("before-send", lambda event_name=None, **kw: calls.append(event_name.split(".", 1)[1]))
    return session, calls


def bucket_and_code(bucket="bucket"):
    """Create ``bucket`` in the fake S3 and return a new folder holding a one-line ``train.py``."""
    import boto3

    boto3.client("s3").create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    return code_folder()


def code_folder():
    """A new folder holding a one-line ``train.py``."""
    work = tempfile.mkdtemp()
    with open(os.path.join(work, "train.py"), "w") as handle:
        handle.write("print('hello')\n")
    return work
