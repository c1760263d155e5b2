"""What users of command lines expect, through the real entry (``main``): global options before or after
the command, ``--version``, ``submit --dry-run``, one clear line for a spec file that cannot be read or
holds nothing, YAML errors naming the file, hints in the command line's words, ``--group`` named as
such, an unreadable ``s3://`` channel of a local run named, and local paths relative to the spec's
folder whatever the working folder. Exit codes as docs/cli.md says."""
import json
import os

import pytest

from sagemaker_hetero import cli
from tests.test_cli import EXAMPLE, ROOT, run, small_spec, write_spec

#: The module holding the command line's words (CLI_WORDS), the one place they may be written.
WORDS_MODULE = os.path.join(ROOT, "sagemaker_hetero", "_cli", "inputs.py")


@pytest.fixture(autouse=True)
def region(monkeypatch):
    monkeypatch.setenv("AWS_REGION", "us-west-2")


@pytest.fixture
def spec_dir(tmp_path):
    (tmp_path / "train.py").write_text("print('train')\n")
    return tmp_path


def image(out):
    return json.loads(out)["AlgorithmSpecification"]["TrainingImage"]


def test_global_options_go_before_or_after_the_command(capsys, monkeypatch):
    for argv in (["--region", "eu-west-1", "render", EXAMPLE], ["render", EXAMPLE, "--region", "eu-west-1"],
                 ["--debug", "--region", "eu-west-1", "render", EXAMPLE, "--format", "json"]):
        code, out, err = run(capsys, *argv)
        assert code == 0, (argv, err)
        assert ".dkr.ecr.eu-west-1.amazonaws.com/" in image(out)
    code, out, _ = run(capsys, "--region", "eu-west-1", "render", EXAMPLE, "--region", "eu-central-1")
    assert ".dkr.ecr.eu-central-1." in image(out)  # given twice, the command's own wins
    from sagemaker_hetero._checks import text as _spec

    def broken(*args, **kwargs):
        raise RuntimeError("the spec reader broke")

    monkeypatch.setattr(_spec, "loads", broken)
    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    code, _, err = run(capsys, "--debug", "validate", EXAMPLE)
    assert code == cli.EXIT_UNEXPECTED and err.startswith("Traceback (most recent call last):")
    code, _, err = run(capsys, "validate", EXAMPLE)
    assert code == cli.EXIT_UNEXPECTED and not err.startswith("Traceback")


def test_version(capsys):
    from sagemaker_hetero import __version__

    assert run(capsys, "--version") == (0, "sagemaker-hetero %s\n" % __version__, "")


def test_submit_dry_run_is_render(capsys, spec_dir):
    path = write_spec(spec_dir, small_spec())
    code, out, err = run(capsys, "submit", path, "--dry-run")
    assert code == 0, err
    assert out == run(capsys, "render", path)[1]
    code, out, err = run(capsys, "submit", path, "--dry-run", "--logs", "--group", "data")
    assert (code, out) == (cli.EXIT_USAGE, "")
    assert "--dry-run: prints the request and sends nothing, so it does not go with --logs or --group" in err


@pytest.mark.parametrize("name, what", [("nope.yaml", "No such file or directory"), (".", "Is a directory")])
def test_a_spec_that_cannot_be_read_is_one_line_naming_it(capsys, tmp_path, monkeypatch, name, what):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "validate", name)
    assert (code, out) == (cli.EXIT_USAGE, "")
    assert err.startswith("sagemaker-hetero: cannot read spec %s: %s" % (name, what))
    assert len(err.splitlines()) == 1 and "problem" not in err
    code, out, _ = run(capsys, "validate", name, "--output", "json")
    assert code == cli.EXIT_USAGE and json.loads(out)["valid"] is False


@pytest.mark.parametrize("name, text", [("empty.yaml", ""), ("blank.json", " \n\n"), ("comments.yaml", "# later\n---\n")])
def test_an_empty_spec_says_the_file_is_empty(capsys, tmp_path, name, text):
    path = str(tmp_path / name)
    with open(path, "w") as f:
        f.write(text)
    code, _, err = run(capsys, "render", path)
    assert code == cli.EXIT_USAGE
    assert err.startswith("sagemaker-hetero: spec %s is empty" % path) and len(err.splitlines()) == 1


def test_yaml_errors_name_the_file(capsys, tmp_path):
    path = write_spec(tmp_path, "framework: pytorch\nrole: [unclosed\n", "spec.yaml")
    code, _, err = run(capsys, "validate", path)
    assert code == cli.EXIT_USAGE
    assert 'in "%s", line 2' % path in err and "<unicode string>" not in err


def test_every_python_hint_the_cli_rewords_is_still_said_by_the_package():
    assert "CLI_WORDS = (" in open(WORDS_MODULE).read()  # else this test would find them where they are reworded
    sources = []
    for folder, _, names in os.walk(os.path.join(ROOT, "sagemaker_hetero")):
        sources.extend(open(os.path.join(folder, n)).read() for n in names
                       if n.endswith(".py") and os.path.join(folder, n) != WORDS_MODULE)
    for python, words in cli.CLI_WORDS:
        assert any(python in source for source in sources), python  # else the CLI would show the new wording raw
        assert "Session(" not in words and "fit(" not in words


def test_hints_speak_the_command_line(capsys, spec_dir, aws, monkeypatch):
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    code, _, err = run(capsys, "submit", write_spec(spec_dir, small_spec()))
    assert code == cli.EXIT_AWS
    assert "Unable to locate credentials" in err and "'sagemaker-hetero render' and 'sagemaker-hetero validate' need none" in err
    assert "fit(" not in err and "Session(" not in err


def test_group_names_the_option(capsys, spec_dir, aws, fault_proxy):
    path = write_spec(spec_dir, small_spec())
    code, _, err = run(capsys, "submit", path, "--logs", "--group", "nosuch")
    assert code == cli.EXIT_USAGE and "--group: is not an instance group of the spec's job" in err
    assert aws.calls() == []  # refused before any call, so before anything was created
    groups = [{"InstanceGroupName": name, "InstanceType": "ml.c5.xlarge", "InstanceCount": 1} for name in ("data", "train")]
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, times=None, body={
        "TrainingJobName": "cli-job", "TrainingJobStatus": "InProgress", "ResourceConfig": {"InstanceGroups": groups}})
    code, _, err = run(capsys, "logs", "cli-job", "--group", "nosuch")
    assert code == cli.EXIT_USAGE
    assert "1 problem with the command line:\n  - --group: is not an instance group of job 'cli-job'" in err


def test_a_local_run_names_the_s3_channel_it_cannot_read(capsys, spec_dir, aws):
    spec = small_spec(job_name="cli-local-s3", inputs={"train": {"s3_data": "s3://no-such-bucket/data",
                                                                 "instance_groups": ["data", "train"]}})
    del spec["distribution"]
    code, _, err = run(capsys, "local", write_spec(spec_dir, spec), "--root", str(spec_dir / "jobs"))
    assert code == cli.EXIT_AWS
    assert "could not download the channel 'train' from s3://no-such-bucket/data" in err


def test_local_paths_are_relative_to_the_spec_folder_wherever_the_command_runs(capsys, tmp_path, monkeypatch):
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    for folder in (project / "src", project / "data", project / "extra", elsewhere):
        folder.mkdir(parents=True)
    (project / "data" / "part-0").write_text("x\n")
    (project / "extra" / "part-1").write_text("y\n")
    (project / "src" / "train.py").write_text(
        "import os\nfor name in ('FILE_URI', 'PLAIN'):\n"
        "    print(name, sorted(os.listdir(os.environ['SM_CHANNEL_' + name])))\n")
    groups = ["data", "train"]
    spec = small_spec(source_dir="src", output_path="file://out", job_name="cli-relative", inputs={
        "file_uri": {"s3_data": "file://data", "instance_groups": groups},
        "plain": {"s3_data": "extra", "instance_groups": groups}})
    del spec["distribution"]
    path = write_spec(project, spec)
    monkeypatch.chdir(elsewhere)
    code, out, err = run(capsys, "local", os.path.relpath(path), "--root", str(tmp_path / "jobs"))
    assert code == cli.EXIT_OK, err
    assert "FILE_URI ['part-0']" in out and "PLAIN ['part-1']" in out
    assert (project / "out" / "cli-relative" / "output" / "model.tar.gz").is_file()
    assert os.listdir(str(elsewhere)) == []
