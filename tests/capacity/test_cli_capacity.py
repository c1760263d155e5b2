"""The failover through the command line (docs/capacity.md): a spec's ``alternatives:``, ``capacity_wait`` and
``capacity_attempts``; ``submit`` prints the attempts as a table; ``submit --output json`` and ``status
--output json`` hold them. Against moto, its DescribeTrainingJob answered as a capacity failure for the
jobs named (tests/capacity/test_failover.py's ``failing``)."""
import json

from sagemaker_hetero._cli import spec as _spec
from tests.capacity.test_failover import PROVISION, creates, failing
from tests.test_cli import data_bucket, region, run, small_spec, spec_dir, write_spec  # noqa: F401 - fixtures

ALTERNATIVES = ["ml.g5.2xlarge", {"type": "ml.g5.4xlarge", "count": 2}]


def capacity_spec(**overrides):
    spec = small_spec(**overrides)
    spec["instance_groups"][1]["alternatives"] = ALTERNATIVES
    return spec


def test_a_specs_alternatives_capacity_wait_and_capacity_attempts_are_the_estimators(spec_dir):
    parsed = _spec.parse(capacity_spec(capacity_wait=600, capacity_attempts=6), str(spec_dir))
    assert parsed.problems == ()
    group = parsed.kwargs["instance_groups"][1]
    assert group.alternatives == ("ml.g5.2xlarge", ("ml.g5.4xlarge", 2))
    est = parsed.estimator(None)
    assert (est.capacity_wait, est.capacity_attempts) == (600, 6)


def test_a_specs_malformed_alternative_is_a_problem_at_its_path(capsys, spec_dir):
    spec = small_spec()
    spec["instance_groups"][1]["alternatives"] = [{"type": "ml.g5.2xlarge", "cuont": 2}]
    code, out, err = run(capsys, "validate", write_spec(spec_dir, spec))
    assert code == 2 and "instance_groups[1].alternatives[0]: must be an instance type" in err


def test_the_dry_run_sends_one_choice_and_shows_them_all(capsys, spec_dir):
    path = write_spec(spec_dir, capacity_spec())
    code, out, err = run(capsys, "render", path)
    assert code == 0 and "alternatives" not in out and "ml.g5.4xlarge" not in out  # the request as SageMaker takes it
    assert "choices of train: ml.g5.xlarge x 1, then ml.g5.2xlarge x 1, ml.g5.4xlarge x 2" in err
    code, out, err = run(capsys, "submit", path, "--dry-run")
    assert code == 0 and "ml.g5.4xlarge" not in out and "then ml.g5.2xlarge x 1, ml.g5.4xlarge x 2" in err


def test_submit_wait_prints_the_attempts_table_and_json_holds_the_history(capsys, spec_dir, aws, data_bucket):
    failing(aws, {"cli-job": {"FailureReason": PROVISION}})
    path = write_spec(spec_dir, capacity_spec())
    code, out, err = run(capsys, "submit", path, "--wait", "--output", "json")
    assert code == 0, err
    assert [n for n, _ in creates(aws)] == ["cli-job", "cli-job-c2"]
    result = json.loads(out)
    assert result["job_name"] == "cli-job-c2" and result["status"] == "Completed"
    assert [(a["job_name"], a["outcome"]) for a in result["attempts"]] == [("cli-job", "Failed"),
                                                                           ("cli-job-c2", "Completed")]
    assert result["attempts"][1]["instance_groups"][1] == {"name": "train", "type": "ml.g5.2xlarge", "count": 1}
    assert "Capacity: 2 attempts:" in err and "cli-job-c2" in err  # the table, on stderr beside JSON
    code, out, _ = run(capsys, "status", "cli-job-c2", "--output", "json")
    status = json.loads(out)
    assert [(a["job_name"], a["outcome"]) for a in status["attempts"]] == [("cli-job", "Failed"),
                                                                           ("cli-job-c2", "Completed")]
    assert status["attempts"][0]["reason"] == PROVISION


def test_submit_with_every_choice_failing_exits_1_naming_every_choice(capsys, spec_dir, aws, data_bucket):
    failing(aws, dict((n, {"FailureReason": PROVISION}) for n in ("cli-job", "cli-job-c2", "cli-job-c3")))
    code, out, err = run(capsys, "submit", write_spec(spec_dir, capacity_spec()), "--wait")
    assert code == 1 and [n for n, _ in creates(aws)] == ["cli-job", "cli-job-c2", "cli-job-c3"]
    assert "Every choice was tried: 3 attempts" in err and "ml.g5.4xlarge x 2" in err
    assert "Capacity: 3 attempts:" in out


def test_every_cost_estimate_prices_each_alternative(capsys, spec_dir, monkeypatch):
    from sagemaker_hetero import PyTorch

    prices = write_spec(spec_dir, {"ml.c5.xlarge": 0.204, "ml.g5.xlarge": 1.408, "ml.g5.4xlarge": 2.03}, "p.json")
    path = write_spec(spec_dir, capacity_spec())
    code, out, err = run(capsys, "render", path, "--cost", "--prices", prices)
    rows = dict((line.split()[2], line.split()) for line in err.splitlines() if "(alternative)" in line)
    assert code == 0 and rows["ml.g5.4xlarge"][:6] == ["train", "(alternative)", "ml.g5.4xlarge", "2", "$2.03", "$4.06"]
    assert rows["ml.g5.2xlarge"][3:6] == ["1", "unknown", "unknown"]
    code, out, _ = run(capsys, "cost", path, "--prices", prices, "--offline", "--output", "json")
    rows = json.loads(out)["alternatives"]
    assert [(r["name"], r["instance_type"], r["count"], r["hourly_usd"]) for r in rows] == [
        ("train", "ml.g5.2xlarge", 1, None), ("train", "ml.g5.4xlarge", 2, 4.06)]
    est = _spec.parse(capacity_spec(), str(spec_dir)).estimator(None)
    monkeypatch.chdir(spec_dir)
    assert [g.instance_type for g in est.estimate_cost(dict(raw="s3://bucket/raw"), prices=prices,
                                                       fetch=False).alternatives] == ["ml.g5.2xlarge", "ml.g5.4xlarge"]
    assert isinstance(est, PyTorch)


def test_status_json_finds_the_earlier_attempts_of_a_name_cut_to_63_characters(capsys, spec_dir, aws, data_bucket):
    first = "a-long-nightly-job-name-" + "x" * 37 + "-b"  # 63 characters: <name>-c2 is cut
    second = first[:60] + "-c2"
    failing(aws, {first: {"FailureReason": PROVISION}})
    code, out, err = run(capsys, "submit", write_spec(spec_dir, capacity_spec(job_name=first)), "--wait")
    assert code == 0, err
    assert [n for n, _ in creates(aws)] == [first, second] and len(first) == len(second) == 63
    code, out, _ = run(capsys, "status", second, "--output", "json")
    status = json.loads(out)
    assert [(a["job_name"], a["outcome"]) for a in status["attempts"]] == [(first, "Failed"), (second, "Completed")]
    assert status["attempts"][0]["reason"] == PROVISION


def test_submit_json_holds_the_attempts_when_every_choice_was_refused_at_creation(capsys, spec_dir, aws, data_bucket,
                                                                                   fault_proxy):
    for _ in range(3):
        fault_proxy.add_fault("CreateTrainingJob", kind="status", status=400, code="ResourceLimitExceeded",
                              message="The account-level service limit 'Number of instances across all training jobs' "
                                      "is 1 Instances, with current utilization of 0 Instances and a request delta of "
                                      "2 Instances.")
    code, out, err = run(capsys, "submit", write_spec(spec_dir, capacity_spec()), "--wait", "--output", "json")
    assert code == 1 and creates(aws) == [] and "Every choice was tried: 3 attempts" in err
    result = json.loads(out)
    assert result["job_name"] == "cli-job-c3" and result["status"] == "NotCreated"
    assert [(a["job_name"], a["outcome"]) for a in result["attempts"]] == [
        ("cli-job", "NotCreated"), ("cli-job-c2", "NotCreated"), ("cli-job-c3", "NotCreated")]


def test_a_specs_mapping_alternative_with_a_wrong_key_is_told_in_the_specs_own_terms(capsys, spec_dir):
    """A spec writes an alternative as ``{type: ..., count: ...}``: a mistyped key is told with the keys it
    takes, not as the Python API's ``(instance type, count)`` pair, which a YAML file cannot hold."""
    spec = small_spec()
    spec["instance_groups"][1]["alternatives"] = [{"type": "ml.g5.2xlarge", "cuont": 2}]
    code, out, err = run(capsys, "validate", write_spec(spec_dir, spec))
    assert code == 2 and "instance_groups[1].alternatives[0]: must be an instance type, or a mapping of type (an " \
        "instance type) and count (optional: the group's), with no other key, such as {type: ml.g5.48xlarge, " \
        "count: 2} (got {'type': 'ml.g5.2xlarge', 'cuont': 2})" in err, err
    assert "pair" not in err
