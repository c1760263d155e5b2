"""A machine with no AWS configuration at all (HOME an empty folder, no AWS_* variable): the README's
dry run and ``sagemaker-hetero render`` work, showing placeholders where the region and the account
go, while a submission is refused at once, saying a region is needed. The README's dry run runs as a
subprocess (so that what it imports is its own), the CLI through ``main`` with the environment emptied."""
import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def bare(tmp_path):
    """``(environment, folder)``: no AWS variable, HOME an empty folder; the folder holds train.py."""
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "train.py").write_text("print('train')\n")
    env = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")}
    env.update(HOME=str(home), PYTHONPATH=ROOT)
    return env, tmp_path


def readme_dry_run():
    """The README's "In one screen" block up to its dry run (the next line submits)."""
    with open(os.path.join(ROOT, "README.md")) as f:
        block = re.search(r"## In one screen\n\n```python\n(.*?)```", f.read(), re.S).group(1)
    lines = block.splitlines()
    end = next(i for i, line in enumerate(lines) if line.startswith("request = est.fit(inputs, dry_run=True)"))
    return "\n".join(lines[:end + 1]) + "\n"


def python(env, folder, code):
    result = subprocess.run([sys.executable, "-c", code], cwd=str(folder), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_readme_dry_run_shows_placeholders_and_fit_says_a_region_is_needed(bare):
    env, folder = bare
    out = python(env, folder, readme_dry_run() + (
        "import json, sys\n"
        "from sagemaker_hetero.exceptions import ConfigError\n"
        "print(json.dumps(request))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('boto3', 'botocore')))\n"
        "try:\n"
        "    est.fit(inputs)\n"
        "except ConfigError as error:\n"
        "    print(json.dumps([[p.path, p.message] for p in error.problems]))\n"))
    request, modules, problems = [json.loads(line) for line in out.splitlines()]
    assert request["OutputDataConfig"]["S3OutputPath"] == "s3://sagemaker-<region>-<account-id>/"
    assert request["AlgorithmSpecification"]["TrainingImage"] == (
        "<registry-account>.dkr.ecr.<region>.amazonaws.com/pytorch-training:1.12.1-gpu-py38")
    assert json.loads(request["HyperParameters"]["sagemaker_region"]) == "<region>"
    assert json.loads(request["HyperParameters"]["sagemaker_submit_directory"]).startswith(
        "s3://sagemaker-<region>-<account-id>/code/")
    assert modules == []  # the dry run imported neither boto3 nor botocore
    assert [path for path, _ in problems] == ["sagemaker_session"]  # refused before any call
    assert problems[0][1].startswith("no AWS region is configured: set AWS_REGION")


def test_the_cli_renders_with_placeholders_and_needs_a_region_to_send(bare, monkeypatch, capsys):
    from sagemaker_hetero.cli import main

    env, folder = bare
    for name in list(os.environ):
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(folder)
    spec = os.path.join(ROOT, "examples", "spec.yaml")

    def cli(*argv):
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    code, out, err = cli("render", spec)
    assert code == 0, err
    assert json.loads(out)["OutputDataConfig"]["S3OutputPath"] == "s3://sagemaker-<region>-<account-id>/"
    code, out, err = cli("render", spec, "--format", "cli-input-json", "--account-id", "123456789012")
    assert (code, out) == (2, "")
    assert "--format cli-input-json: the request holds the placeholder <region>" in err and "pass --region" in err
    code, out, err = cli("--region", "eu-west-1", "render", spec, "--format", "cli-input-json", "--account-id",
                         "123456789012")
    assert code == 0 and "<" not in out, err
    code, out, err = cli("submit", spec)
    assert code == 2 and "--region: no AWS region is configured: set AWS_REGION (or AWS_DEFAULT_REGION), a region in your AWS profile, or pass --region" in err


def test_diff_against_a_render_made_with_no_region_needs_none_and_finds_it_equal(bare, monkeypatch, capsys, tmp_path):
    # render with no region, then diff: the request holds <region> and <account-id>, and the spec is
    # rendered again with those same placeholders (once 4 false differences, or no diff at all
    # without --region); a region or account given then does not change what the file was made in
    from sagemaker_hetero.cli import main

    env, folder = bare
    for name in list(os.environ):
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = os.path.join(ROOT, "examples", "spec.yaml")
    saved = tmp_path / "r.json"
    assert main(["render", spec]) == 0
    saved.write_text(capsys.readouterr()[0])
    for extra in ([], ["--region", "us-east-1"], ["--region", "us-east-1", "--account-id", "123456789012"]):
        code = main(["diff", spec, "--against", str(saved)] + extra)
        out, err = capsys.readouterr()
        assert (code, out, err) == (0, "No difference from file %s (in request terms).\n" % saved, ""), extra
    # a render made in a region diffs as equal with no region configured: it is rendered in the file's
    assert main(["--region", "eu-west-1", "render", spec, "--account-id", "123456789012"]) == 0
    saved.write_text(capsys.readouterr()[0])
    assert "s3://sagemaker-eu-west-1-123456789012/" in saved.read_text()
    assert main(["diff", spec, "--against", str(saved)]) == 0
    assert capsys.readouterr()[0] == "No difference from file %s (in request terms).\n" % saved
