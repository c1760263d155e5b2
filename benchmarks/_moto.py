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
