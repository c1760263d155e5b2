"""The python code blocks of docs/runtime.md run, each alone, on the seed job's GPU master."""
import os
import re

DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "docs", "runtime.md")
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.M | re.S)


def python_blocks():
    with open(DOCS) as handle:
        return BLOCK.findall(handle.read())


def test_docs_have_code_blocks():
    assert len(python_blocks()) >= 5


def test_docs_code_blocks_run(case_base, monkeypatch, capsys):
    base, case = case_base("hetero_mpi_gpu_master")
    monkeypatch.setenv("SAGEMAKER_BASE_DIR", base)
    for key, value in case["environ"].items():
        monkeypatch.setenv(key, value)
    for index, block in enumerate(python_blocks()):  # each alone: its own imports, nothing from the block before
        code = compile(block, "%s[block %d]" % (DOCS, index), "exec")
        exec(code, {"__name__": "runtime_docs"})
    out = capsys.readouterr().out
    assert "algo-3 instance_group_2 ml.p3dn.24xlarge" in out
    assert "[sagemaker-hetero] host=algo-3 group=instance_group_2 instance_type=ml.p3dn.24xlarge" in out
    assert "unknown instance group 'instance_group_9'" in out
