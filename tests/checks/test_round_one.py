"""``_checks.round_one``: every problem before anything is sent, called directly with facts and a clock: our rules,
the role name's, then the service's limits on the rendered request, each under the user's argument name."""
import pytest

from sagemaker_hetero._checks import round_one
from sagemaker_hetero._model import build
from sagemaker_hetero._request import plan
from sagemaker_hetero._request.render import Rendered
from sagemaker_hetero.exceptions import Problem
from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from tests._pure import FACTS, PYTORCH, ROUTED, settings

NO_ACCOUNT = plan.Facts(region="us-west-2")


def _round_one(job, facts, found):
    """Round one as the runner runs it: our rules and the role's, then the service's limits on the plan's request."""
    return round_one.plan_problems(plan.make_plan(job, facts, 0), round_one.model_problems(job, facts, found))


def _check(inputs=ROUTED, job_name="a-job", facts=FACTS, **changes):
    job, found = build.build(settings("pytorch", inputs, job_name, **dict(PYTORCH, **changes)))
    return [(p.path, p.message, p.value if p.has_value else "<none>") for p in _round_one(job, facts, found)]


# (id, changes, the problem's path, a fragment of its message, the value it shows)
ROWS = [
    ("a job name's pattern in words", dict(job_name="my_job"), "job_name",
     "may hold only letters, digits and hyphens, starting and ending with a letter or digit", "my_job"),
    ("a base name's problem is the base's", dict(job_name=None, base_job_name="my_base"), "base_job_name",
     "may hold only letters, digits and hyphens", "my_base"),
    ("a group's count an integer", dict(instance_groups=[InstanceGroup("cpu", "ml.c5.xlarge", "2"), PYTORCH["instance_groups"][1]]),
     "instance_groups[0].instance_count", "must be an integer", "2"),
    ("a group's name length", dict(instance_groups=[InstanceGroup("g" * 65, "ml.c5.xlarge", 1), PYTORCH["instance_groups"][1]],
                                   inputs=None),
     "instance_groups[0].instance_group_name", "must be at most 64 characters", "g" * 65),
    ("a channel's URI", dict(inputs={"train": "s3://b/t\nx"}), "inputs['train']",
     "must be an S3 URI (s3://bucket/prefix) without line breaks", "s3://b/t\nx"),
    ("a channel input's URI under its field", dict(inputs={"train": TrainingInput("https://b/t\n")}), "inputs['train'].s3_data",
     "must be an S3 URI", "https://b/t\n"),
    ("a channel's name", dict(inputs={"train data": "s3://b/t"}), "inputs['train data']",
     "channel names are letters, digits, '.', '-' and '_'", "train data"),
    ("a tag's key length", dict(tags=[{"Key": "k" * 129, "Value": "v"}]), "tags[0].Key", "must be at most 128 characters", "k" * 129),
    ("an environment variable's name", dict(environment={"1A": "x"}), "environment['1A']",
     "variable names are letters, digits and '_', not starting with a digit", "1A"),
    ("a role name the user gave, not its ARN", dict(role="my role"), "role",
     "must be an IAM role ARN, or a role name of letters, digits and + = , . @ _ -", "my role"),
    ("a volume within 32 bits", dict(volume_size=2 ** 31), "volume_size", "must be an integer between 0 and 2147483647", 2 ** 31),
    ("a hyperparameter's value length", dict(hyperparameters={"h": "x" * 2600}), "hyperparameters['h']",
     "must be at most 2500 characters", '"%s"' % ("x" * 2600)),
]


@pytest.mark.parametrize("changes, path, fragment, value", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_the_services_limits_are_reported_under_the_users_argument(changes, path, fragment, value):
    changes = dict(changes)
    found = _check(changes.pop("inputs", ROUTED), changes.pop("job_name", "a-job"), **changes)
    at = [(m, v) for p, m, v in found if p == path]
    assert len(at) == 1 and fragment in at[0][0] and at[0][1] == value, found


def test_a_valid_job_has_no_problem_with_or_without_a_known_account():
    assert _check() == []
    assert _check(facts=NO_ACCOUNT, role="SageMakerRole") == []  # a stand-in account, not the placeholder, is checked


def test_one_problem_per_argument_and_none_for_an_argument_already_reported():
    found = _check(job_name="x" * 64 + "_")  # too long and against the pattern: one problem
    assert [p for p, _, _ in found] == ["job_name"]
    job, _ = build.build(settings("pytorch", ROUTED, "my_job", **PYTORCH))
    already = [Problem("job_name", "is mine")]
    assert [(p.path, p.message) for p in _round_one(job, FACTS, already)] == [("job_name", "is mine")]


def test_our_rules_come_first_then_the_services():
    found = _check(max_run=10 ** 10)
    assert [(p, m[:30]) for p, m, _ in found] == [("max_run", "must be at most 2419200 second")]


@pytest.mark.parametrize("role, problems", [
    ("arn:aws:iam::123456789012:role/R", []),
    ("SageMakerRole", []),
    ("a role", ["role"]),
    ("r" * 65, ["role"]),
    (None, []),
])
def test_role_problems(role, problems):
    assert [p.path for p in round_one.role_problems(role)] == problems


def test_rendered_problems_name_any_request_by_its_origins_and_show_the_given_value():
    rendered = Rendered(request={"PipelineName": "a pipe", "RoleArn": "arn:aws:iam::123456789012:role/R",
                                 "PipelineDefinition": "{}", "ClientRequestToken": "t" * 40},
                        origins={("PipelineName",): "name"}, given={("PipelineName",): "the user's"})
    found = round_one.rendered_problems(rendered, "CreatePipeline")
    assert [(p.path, p.value) for p in found] == [("name", "the user's")]
