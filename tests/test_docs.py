"""The README's and docs' Python code blocks run, so the docs cannot rot.

Blocks of one page run in order in one namespace, in a folder holding ``train.py``, against the
moto server (so a block that really submits a job talks to the local fake AWS only).
"""
import os
import re

import boto3
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ["README.md"] + sorted(
    os.path.join("docs", name)
    for name in os.listdir(os.path.join(ROOT, "docs"))
    if name.endswith(".md") and name != "runtime.md"  # runtime.md has its own test in tests/training
)
BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


def blocks(page):
    with open(os.path.join(ROOT, page)) as f:
        return BLOCK.findall(f.read())


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p)])
def test_python_blocks_run(page, aws, tmp_path, monkeypatch):
    (tmp_path / "train.py").write_text("print('train')\n")
    monkeypatch.chdir(tmp_path)
    s3 = boto3.client("s3")
    for bucket in ("my-bucket",):
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    namespace = {"__name__": "__docs__"}
    for i, block in enumerate(blocks(page)):
        exec(compile(block, "%s[block %d]" % (page, i), "exec"), namespace)


def test_every_page_with_code_is_tested():
    assert "README.md" in PAGES and "docs/concepts.md" in PAGES and "docs/submitting.md" in PAGES
