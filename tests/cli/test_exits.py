"""``_cli.exits``: the one table of exit codes, and where it is told: docs/cli.md's table and ``--help``'s epilog
say exactly the codes the table has."""
import os
import re

from sagemaker_hetero._cli import exits

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _codes():
    return dict((name, getattr(exits, name)) for name in exits.__all__)


def _doc_table():
    with open(os.path.join(ROOT, "docs", "cli.md")) as f:
        text = f.read()
    section = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    return [int(m) for m in re.findall(r"^\| (\d+) \|", section, flags=re.M)]


def test_every_exit_code_is_in_docs_cli_md_and_the_table_holds_no_other():
    assert sorted(_doc_table()) == sorted(set(_codes().values()))


def test_the_doc_table_lists_each_code_once_in_order():
    table = _doc_table()
    assert table == sorted(set(table))


def test_the_help_epilog_tells_the_codes_below_128_and_no_other():
    from sagemaker_hetero import cli

    epilog = cli._parser().epilog
    told = [int(c) for c in re.findall(r"(\d+) [a-zA-Z]", epilog.split("Exit codes:", 1)[1])]
    assert told == sorted(set(c for c in _codes().values() if c < 128))


def test_codes_are_distinct_but_for_diffs_and_a_jobs_failure():
    codes = _codes()
    values = [v for k, v in codes.items() if k != "EXIT_DIFFERENT"]
    assert len(values) == len(set(values)) and codes["EXIT_DIFFERENT"] == codes["EXIT_JOB_FAILED"] == 1
    assert (codes["EXIT_INTERRUPTED"], codes["EXIT_BROKEN_PIPE"]) == (128 + 2, 128 + 13)


def test_the_cli_re_exports_the_table():
    from sagemaker_hetero import cli

    assert dict((name, getattr(cli, name)) for name in exits.__all__) == _codes()
