"""The artifacts are packed without reading through a link a host left: a runner more privileged than
its hosts (root, the hosts in user namespaces) must not put in model.tar.gz what a host could not read."""
import io
import os
import stat
import tarfile

import pytest

from sagemaker_hetero.exceptions import LocalJobError
from sagemaker_hetero.local import LocalSession, _storage
from tests.local._helpers import estimator_for

SECRET = b"another user's secret"

# Each host: a file of its own, a link out to the secret, a link shared by every host and one of its
# own, a FIFO; and output/data swapped for a link to a folder of the secret's.
HOST = """
import os
model, host = os.environ["SM_MODEL_DIR"], os.environ["SM_CURRENT_HOST"]
os.makedirs(os.path.join(model, "sub"))
open(os.path.join(model, "sub", "real.txt"), "w").write("weights")
os.symlink(os.environ["SECRET"], os.path.join(model, "secret"))
os.symlink("sub/real.txt", os.path.join(model, "latest"))
os.symlink("sub/" + host, os.path.join(model, "mine"))
os.mkfifo(os.path.join(model, "pipe"))
data = os.environ["SM_OUTPUT_DATA_DIR"]
os.rmdir(data)
os.symlink(os.path.dirname(os.environ["SECRET"]), data)
"""


def members(path):
    with tarfile.open(path) as tar:
        return {m.name: m for m in tar.getmembers()}


@pytest.mark.parametrize("isolation", ["none", "namespaces"])
def test_links_a_host_left_are_stored_as_links_and_never_read(tmp_path, write_code, isolation):
    private = tmp_path / "theirs"
    private.mkdir()
    secret = private / "secret.txt"
    secret.write_bytes(SECRET)
    if os.getuid() == 0:  # another user's file, which a host in user namespaces cannot read; root can
        os.chmod(str(secret), 0o600)
        os.chown(str(secret), 65534, 65534)
    session = LocalSession(root=str(tmp_path / "jobs"), out=io.StringIO(), isolation=isolation, keep=True)
    if isolation == "namespaces" and not session._probe()[0]:
        pytest.skip("hosts cannot run in namespaces here")
    estimator = estimator_for(session, write_code(HOST), groups=(("cpu", "ml.c5.xlarge", 2),),
                              environment={"SECRET": str(secret)})
    estimator.fit()
    model = _storage.path_of_file_uri(estimator.model_data)
    found = members(model)
    assert sorted(found) == ["algo-2/mine", "latest", "mine", "secret", "sub/real.txt"]  # no FIFO
    assert found["secret"].issym() and found["secret"].linkname == str(secret)
    assert found["latest"].linkname == "sub/real.txt" and found["mine"].linkname == "sub/algo-1"
    assert found["algo-2/mine"].linkname == "sub/algo-2" and found["sub/real.txt"].isreg()
    with tarfile.open(model) as tar:
        assert tar.extractfile("sub/real.txt").read() == b"weights"
    with open(model, "rb") as handle:
        import gzip

        assert SECRET not in gzip.decompress(handle.read())
    assert members(os.path.join(os.path.dirname(model), "output.tar.gz")) == {}
    out = session.out.getvalue()
    assert "model.tar.gz: 4 symbolic link(s) stored as links" in out
    assert "skipped %s: a symbolic link" % os.path.join(
        estimator.latest_training_job.describe()["LocalRun"]["Hosts"][0]["BaseDirectory"], "output", "data") in out


def test_the_archives_are_not_written_through_a_link_a_host_put_in_the_jobs_folder(tmp_path, write_code):
    victim = tmp_path / "victim"
    victim.mkdir()
    session = LocalSession(root=str(tmp_path / "jobs"), out=io.StringIO(), isolation="none")
    code = write_code("""
        import os
        job = os.path.dirname(os.environ["SAGEMAKER_BASE_DIR"])
        os.symlink(os.environ["VICTIM"], os.path.join(job, "output"))
        open(os.path.join(os.environ["SM_MODEL_DIR"], "w"), "w").write("w")
    """)
    estimator = estimator_for(session, code, groups=None, environment={"VICTIM": str(victim)})
    with pytest.raises(LocalJobError) as info:
        estimator.fit()
    assert "symbolic link" in str(info.value)
    assert os.listdir(str(victim)) == []
    assert stat.S_ISLNK(os.lstat(str(tmp_path / "jobs" / estimator.latest_training_job.name / "output")).st_mode)
