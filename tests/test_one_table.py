"""Each fact in one place (issue 29): the scans that fail when a fact is written again elsewhere."""
import os
import re

import pytest

from sagemaker_hetero.exceptions import Problem, Problems

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "sagemaker_hetero")


def sources():
    for folder, _, files in os.walk(PACKAGE):
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    yield os.path.relpath(path, PACKAGE).replace(os.sep, "/"), handle.read()


def places(pattern, skip=()):
    return sorted(name for name, text in sources() if re.search(pattern, text) and name not in skip)


def test_only_the_collector_skips_problems_of_paths_already_reported():
    # "skip problems whose path is already reported" is Problems.add_new's, written nowhere else.
    assert places(r"set\(\w+\.path for \w+ in|\.path not in (reported|given)\b", skip=("exceptions.py",)) == []


@pytest.mark.parametrize("within, expected", [
    (False, ["b", "b", "a.x", "c[0]"]),
    (True, ["b", "b"]),
])
def test_add_new_leaves_out_the_paths_reported_before_it(within, expected):
    out = Problems([Problem("a", "first"), Problem("c", "first")])
    out.add_new([Problem("a", "again"), Problem("b", "one"), Problem("b", "two"), Problem("a.x", "in"),
                 Problem("c[0]", "in")], within=within)
    assert [p.path for p in out.items if p.message != "first"] == expected


def test_the_region_check_and_its_words_are_names_alone():
    # One check, one wording (issue 29): the estimator, the tuner, the session, the CLI and the apps
    # call names.region_problems; none writes "no AWS region" or builds the problem itself.
    assert places(r"no AWS region|NO_REGION\)", skip=("_request/names.py",)) == []
    assert places(r"region_problems\(") == sorted(["_request/names.py", "estimator.py", "tuner.py", "session.py",
                                                  "_cli/inputs.py", "_aws/apps.py"])


def test_the_estimator_turns_settings_into_a_checked_job_in_one_place():
    # The constructor, fit, the dry plan and preflight() all go through estimator._checked.
    with open(os.path.join(PACKAGE, "estimator.py"), encoding="utf-8") as handle:
        text = handle.read()
    assert len(re.findall(r"_runner\.checked_\w+\b", text)) == 1  # the one helper: the runner's one checked plan
    assert len(re.findall(r"\b_checked\(", text)) == 5  # its definition and the four callers


def test_a_requests_image_is_read_by_describe_image_of_alone():
    # The plan's image, the view, the tuning job's name, the preflight's subjects and diff's region
    # read it through describe.image_of (render writes it; create compares what a job echoes).
    found = places(r"""["']TrainingImage["']\)""")
    assert found == sorted(["_request/read_back.py", "_request/render.py", "_aws/create.py"])


def test_a_requests_instance_groups_are_read_back_by_describe_groups_of_alone():
    # Status, job_from_description, group_names and the cost estimates and bills read a cluster through
    # describe.groups_of (one homogeneousCluster for a cluster without groups).
    assert places(r"""get\(\s*["']InstanceGroups["']|["']ResourceConfig["'], ["']InstanceGroups["']\)\)""") == [
        "_request/read_back.py"]
    from sagemaker_hetero._cost import estimate
    from sagemaker_hetero._request import describe

    assert estimate.groups_of is describe.groups_of
    assert describe.groups_of({"ResourceConfig": {"InstanceType": "ml.m5.xlarge", "InstanceCount": 2}}) == [
        ("homogeneousCluster", "ml.m5.xlarge", 2)]


_NAMES = "|".join(("mpi", "smdistributed", "torch_distributed", "pytorchddp", "parameter_server",
                   "multi_worker_mirrored_strategy", "pytorchxla"))


def test_the_distribution_strategies_are_one_table():
    # Lists of strategy names and their request flags are _model/strategies.py's (the job model, the
    # rules, the hyperparameters, their reading back and the local launchers derive theirs from it);
    # training/ is the in-job toolkit, reading the environment the container gets.
    listed = r"""["'](%s)["'],\s*["'](%s)["']""" % (_NAMES, _NAMES)
    flags = r"""["']sagemaker_(mpi|torch_distributed|pytorch_xla_multi_worker|parameter_server|""" \
            r"""multi_worker_mirrored_strategy|distributed_dataparallel)_enabled["']"""
    found = [name for name in places(listed) + places(flags) if not name.startswith("training/")]
    assert sorted(set(found)) == ["_model/strategies.py"]
    from sagemaker_hetero._checks import rules
    from sagemaker_hetero._model import job, strategies
    from sagemaker_hetero.local import _launchers

    assert job.STRATEGIES is strategies.STRATEGIES and rules.LAUNCHERS is strategies.LAUNCHERS
    assert (_launchers.MPI, _launchers.TORCHRUN) == ("mpi", "torchrun")
