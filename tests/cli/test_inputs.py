"""``_cli.inputs``: the Python API's hints in the command line's words, and JSON any parser reads."""
import json

import pytest

from sagemaker_hetero._cli import inputs as I
from sagemaker_hetero.exceptions import Problem


@pytest.mark.parametrize("python, cli", I.CLI_WORDS)
def test_every_python_hint_is_said_as_the_option(python, cli):
    said = I.spoken("before %s after" % python)
    assert said == "before %s after" % cli and python not in said


def test_cli_problem_renames_the_session_to_region_and_keeps_the_value():
    problem = I.cli_problem(Problem("sagemaker_session", "no region: or pass boto3.Session(region_name=...)", None))
    assert (problem.path, problem.message, problem.has_value, problem.value) == ("--region", "no region: or pass --region", True,
                                                                                 None)
    plain = I.cli_problem(Problem("max_run", "is required"))
    assert (plain.path, plain.has_value) == ("max_run", False)


@pytest.mark.parametrize("value, text", [
    ({"a": float("inf")}, '{"a": "inf"}'),
    ({1: None, None: 2}, '{"1": null, "null": 2}'),
    ([object], '["<class \'object\'>"]'),
    ((1, "a"), '[1, "a"]'),
    ({("t",): 1}, '{"(\'t\',)": 1}'),
])
def test_json_text(value, text):
    assert I.json_text(value) == text
    json.loads(I.json_text(value))
