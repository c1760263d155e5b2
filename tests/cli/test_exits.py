"""``_cli.exits``: the one table of exit codes, and where it is told: docs/cli.md's table and ``--help``'s epilog
say exactly the codes the table has."""
import os
import re

from sagemaker_hetero._cli import exits

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _codes():
    return dict((name, getattr(exits, name)) for name in exits.__all__ if name.startswith("EXIT_"))


def _doc_table():
    with open(os.path.join(ROOT, "docs", "cli.md")) as f:
        text = f.read()
    section = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    return [int(m) for m in re.findall(r"^\| (\d+) \|", section, flags=re.M)]


def _doc_rows():
    with open(os.path.join(ROOT, "docs", "cli.md")) as f:
        section = f.read().split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    return [(int(code), words.replace("\\|", "|"))
            for code, words in re.findall(r"^\| (\d+) \| (.*) \|$", section, flags=re.M)]


def test_docs_cli_md_says_the_tables_words_for_every_code():
    assert _doc_rows() == [(code, words) for code, _, words in exits.MEANINGS]


def test_the_help_epilog_is_the_tables():
    from sagemaker_hetero import cli

    assert cli._parser().epilog == exits.epilog()
    assert exits.epilog() == ("Exit codes: 0 success, 1 job Failed or Stopped, 2 invalid spec or usage (or a preflight "
                              "problem), 3 AWS error, 4 unexpected error (--debug shows its traceback), 5 preflight could "
                              "not make every check. See docs/cli.md for the spec format.")


def test_no_other_module_says_the_codes():
    # The codes' meanings are written in _cli/exits.py alone: cli.py's docstring once restated them.
    import sagemaker_hetero

    package = os.path.dirname(sagemaker_hetero.__file__)
    for folder, _, files in os.walk(package):
        for name in files:
            path = os.path.join(folder, name)
            if name.endswith(".py") and path != exits.__file__:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                assert not re.search(r"\b(130|141)\b|\b1 job Failed|exit 4\b", text), path


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

    assert dict((name, getattr(cli, name)) for name in _codes()) == _codes()
