"""docs/cli.md's ``cost`` and ``diff`` examples run, and print what the page shows."""
import os
import re
import shlex
import shutil

import pytest

from sagemaker_hetero.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def section(heading):
    """The text of docs/cli.md's ``### `heading...`` section."""
    with open(os.path.join(ROOT, "docs", "cli.md")) as f:
        page = f.read()
    start = page.index("### `%s" % heading)
    ends = [i for i in (page.find("\n### ", start + 1), page.find("\n## ", start + 1)) if i > 0]
    return page[start:min(ends)]


def blocks(text, kind):
    return re.findall(r"^```%s\n(.*?)^```" % kind, text, re.M | re.S)


def commands(text):
    """The ``sagemaker-hetero`` command lines of a section's bash block (comments and redirections apart)."""
    (block,) = blocks(text, "bash")
    out = []
    for line in block.splitlines():
        line = line.split("#", 1)[0].strip()
        target = None
        if ">" in line:
            line, target = (part.strip() for part in line.split(">", 1))
        out.append((shlex.split(line)[1:], target))
    return out


@pytest.fixture
def examples(tmp_path, monkeypatch):
    """A folder holding examples/ (the spec, its code and the price file), as the page's commands expect."""
    folder = tmp_path / "examples"
    shutil.copytree(os.path.join(ROOT, "examples", "seed_src"), str(folder / "seed_src"))
    for name in ("spec.yaml", "prices.csv"):
        shutil.copy(os.path.join(ROOT, "examples", name), str(folder / name))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AWS_REGION", "us-west-2")
    return tmp_path


def test_the_cost_examples_print_what_the_page_shows(examples, capsys):
    text = section("cost SPEC")
    ((argv, _),) = commands(text)
    shown, refused = blocks(text, "text")
    assert main(argv) == 0
    assert capsys.readouterr().out == shown
    (examples / "prices.csv").write_text("instance_type,usd_per_hour\nml.c5.18xlarge,3.672\nml.p3dn.24xlarge,lots\n")
    assert main(argv[:-1] + ["prices.csv"]) == 2
    assert capsys.readouterr().err == refused


def test_the_diff_example_prints_what_the_page_shows(examples, capsys):
    text = section("diff SPEC")
    (render, saved), (diff, _) = commands(text)
    assert main(render) == 0
    (examples / saved).write_text(capsys.readouterr().out)
    assert main(diff) == 0 and "No difference" in capsys.readouterr().out
    spec = examples / "examples" / "spec.yaml"
    spec.write_text(spec.read_text().replace("type: ml.c5.18xlarge, count: 2}", "type: ml.c5.18xlarge, count: 3}"))
    assert main(diff) == 1
    assert capsys.readouterr().out == blocks(text, "text")[0]
