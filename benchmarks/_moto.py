"""The benchmarks' fake AWS: a moto server in this process on loopback, with the environment pointed
at it (endpoint, test credentials, us-west-2), so nothing leaves the machine."""
import os

from moto.server import ThreadedMotoServer


def start():
    """A started ``ThreadedMotoServer`` every boto3 client made from now on talks to; stop it at the end."""
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    os.environ.update(AWS_ENDPOINT_URL="http://%s:%d" % (host, port), AWS_ACCESS_KEY_ID="testing",
                      AWS_SECRET_ACCESS_KEY="testing", AWS_DEFAULT_REGION="us-west-2", AWS_REGION="us-west-2")
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
    import tempfile

    work = tempfile.mkdtemp()
    with open(os.path.join(work, "train.py"), "w") as handle:
        handle.write("print('hello')\n")
    return work
