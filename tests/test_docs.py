"""The README's and docs' code blocks run, so the docs cannot rot.

Every Python block runs **alone**, as a reader who copies just that block would run it: in a fresh
namespace (no import or variable of an earlier block), in a fresh folder holding ``train.py``, with
the environment put back afterwards. A page's blocks share one fake AWS account (a moto server reset
for the page, holding the docs' buckets), as a reader's blocks share theirs: a block may attach a job
an earlier block created, by its name. docs/runtime.md's blocks run inside a simulated job
(tests/training/test_runtime_docs.py), alone as well.

A shell block runs when the line before it is ``<!-- runs under tests/test_docs.py ... -->``: with
``bash -euo pipefail`` in a fresh folder holding the files the comment names after ``with`` (paths
from the repository's root, copied by their last name), ``sagemaker-hetero`` being this checkout's, and
``aws`` a stand-in for the two AWS CLI commands the docs use (``s3 cp``, ``sagemaker
create-training-job --cli-input-json``) that sends them with boto3 to the moto server. Afterwards
every training job created must find its code: the archive its request points at is in S3, and its
SHA-256 is the key's.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

import boto3
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ["README.md"] + sorted(
    os.path.join("docs", name)
    for name in os.listdir(os.path.join(ROOT, "docs"))
    if name.endswith(".md") and name != "runtime.md"  # runtime.md has its own test in tests/training
)
BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
SHELL = re.compile(r"^<!-- runs under tests/test_docs\.py(.*?)-->\n```bash\n(.*?)^```", re.M | re.S)
BUCKETS = ("my-bucket", "sagemaker-us-west-2-123456789012")


def read(page):
    with open(os.path.join(ROOT, page)) as f:
        return f.read()


def blocks(page):
    return BLOCK.findall(read(page))


@pytest.fixture
def fresh(aws, tmp_path, monkeypatch):
    """``fresh(i)``: the folder block ``i`` runs in (holding ``train.py``, the working folder), the
    environment as the test began; the docs' buckets are in the (fresh) fake account."""
    environ = dict(os.environ)
    s3 = boto3.client("s3")
    for bucket in BUCKETS:
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})

    def make(i):
        os.environ.clear()
        os.environ.update(environ)
        folder = tmp_path / ("block-%d" % i)
        folder.mkdir()
        (folder / "train.py").write_text("print('train')\n")
        monkeypatch.chdir(folder)
        return folder

    yield make
    os.environ.clear()
    os.environ.update(environ)


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p)])
def test_python_blocks_run_each_alone(page, fresh):
    for i, block in enumerate(blocks(page)):
        fresh(i)
        exec(compile(block, "%s[block %d]" % (page, i), "exec"), {"__name__": "__docs__"})


def test_every_page_with_code_is_tested():
    assert "README.md" in PAGES and "docs/concepts.md" in PAGES and "docs/submitting.md" in PAGES


# -- shell blocks ------------------------------------------------------------------------------------

AWS_STAND_IN = '''#!%(python)s
"""The AWS CLI commands the docs use, sent with boto3 (AWS_ENDPOINT_URL: the moto server)."""
import json
import sys

import boto3

args = sys.argv[1:]
if args[:2] == ["s3", "cp"] and len(args) in (4, 6) and args[3].startswith("s3://"):
    assert args[4:] in ([], ["--checksum-algorithm", "SHA256"]), args[4:]
    bucket, key = args[3][len("s3://"):].split("/", 1)
    extra = {"ChecksumAlgorithm": "SHA256"} if args[4:] else {}
    with open(args[2], "rb") as f:
        boto3.client("s3").put_object(Bucket=bucket, Key=key, Body=f.read(), **extra)
    print("upload: %%s to %%s" %% (args[2], args[3]))
elif args[:3] == ["sagemaker", "create-training-job", "--cli-input-json"] and args[3].startswith("file://"):
    with open(args[3][len("file://"):]) as f:
        request = json.load(f)
    print(json.dumps({"TrainingJobArn": boto3.client("sagemaker").create_training_job(**request)["TrainingJobArn"]}))
else:
    sys.exit("aws (the docs' stand-in): not a command the docs use: %%s" %% " ".join(args))
'''


def shell_blocks(page):
    """``[(the files the block needs, its text)]`` of the page's marked shell blocks."""
    found = []
    for comment, text in SHELL.findall(read(page)):
        files = comment.split(" with ", 1)[1].split(" and ")[0] if " with " in comment else ""
        found.append(([f.strip() for f in files.split(",") if f.strip()], text))
    return found


def tools(folder):
    """A folder of executables: ``aws`` (the stand-in) and ``sagemaker-hetero`` (this checkout's)."""
    folder.mkdir()
    (folder / "aws").write_text(AWS_STAND_IN % {"python": sys.executable})
    (folder / "sagemaker-hetero").write_text('#!/bin/sh\nexec "%s" -m sagemaker_hetero "$@"\n' % sys.executable)
    for name in ("aws", "sagemaker-hetero"):
        os.chmod(str(folder / name), 0o755)
    return str(folder)


def code_found_by_every_job():
    """``{job name: whether the code archive its request points at is in S3 under its own SHA-256}``."""
    sagemaker, s3 = boto3.client("sagemaker"), boto3.client("s3")
    found = {}
    for summary in sagemaker.list_training_jobs()["TrainingJobSummaries"]:
        desc = sagemaker.describe_training_job(TrainingJobName=summary["TrainingJobName"])
        uri = json.loads(desc["HyperParameters"]["sagemaker_submit_directory"])
        bucket, key = uri[len("s3://"):].split("/", 1)
        body = s3.get_object(Bucket=bucket, Key=key)["Body"].read()
        found[summary["TrainingJobName"]] = key.split("/")[-2] == hashlib.sha256(body).hexdigest()
    return found


SHELL_PAGES = [p for p in PAGES if shell_blocks(p)]


def test_the_cli_hand_off_is_a_checked_shell_block():
    assert "docs/cli.md" in SHELL_PAGES
    assert any("aws s3 cp" in text for _, text in shell_blocks("docs/cli.md"))


@pytest.mark.parametrize("page", SHELL_PAGES)
def test_marked_shell_blocks_run_as_written(page, fresh, tmp_path):
    path = os.pathsep.join([tools(tmp_path / "bin"), os.environ.get("PATH", "")])
    for i, (files, text) in enumerate(shell_blocks(page)):
        folder = fresh(i)
        for name in files:
            source = os.path.join(ROOT, name)
            copy = shutil.copytree if os.path.isdir(source) else shutil.copy
            copy(source, str(folder / os.path.basename(name)))
        env = dict(os.environ, PATH=path, PYTHONPATH=ROOT)
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", text], cwd=str(folder), env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        assert result.returncode == 0, "%s[shell block %d]:\n%s%s" % (page, i, result.stdout, result.stderr)
        jobs = code_found_by_every_job()
        assert all(jobs.values()), jobs
        assert jobs or "create-training-job" not in text


def test_the_readmes_first_snippet_says_it_needs_train_py():
    """It runs where train.py is (this test's blocks run in a folder holding one): it says so."""
    first = blocks("README.md")[0]
    assert "entry_point=\"train.py\"" in first
    assert first.splitlines()[0].startswith("# Run it where train.py is")
