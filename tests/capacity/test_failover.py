"""Capacity alternatives and failover (docs/capacity.md) against the moto server over HTTP: the server
answers DescribeTrainingJob with capacity failures for the jobs named (and moto the others: Completed), a
FaultProxy answers CreateTrainingJob with ResourceLimitExceeded or loses its reply; two- and five-group
jobs. Every scenario asserts exactly one CreateTrainingJob reached SageMaker per attempt."""
import io
import json

import pytest

from sagemaker_hetero import InstanceGroup
from sagemaker_hetero import exceptions as E
from sagemaker_hetero._capacity import failover
from tests._answers import json_answer
from tests.test_preflight import FIVE, TWO, Shape, account, framework_job, inputs  # noqa: F401 - the fixture

NAME = "cap-job"
PROVISION = "CapacityError: Unable to provision requested ML compute capacity. Please retry using a different ML " \
            "instance type."
LIMIT = ("The account-level service limit '%s for training job usage' is 0 Instances, with current utilization of 0 "
         "Instances and a request delta of 1 Instances. Please use AWS Service Quotas to request an increase for "
         "this quota.")


def two(gpu_alternatives=("ml.p4d.24xlarge", ("ml.g5.48xlarge", 2)), cpu_alternatives=()):
    """TWO, its groups with alternatives."""
    return Shape([InstanceGroup("cpu", "ml.c5.18xlarge", 2, alternatives=list(cpu_alternatives)),
                  InstanceGroup("gpu", "ml.p3dn.24xlarge", 1, alternatives=list(gpu_alternatives))],
                 TWO.channels, TWO.hit)


def five():
    """FIVE, its gpu and infer groups with alternatives."""
    groups = list(FIVE.groups)
    groups[2] = InstanceGroup("gpu", "ml.p4d.24xlarge", 1, alternatives=["ml.p5.48xlarge", "ml.p4de.24xlarge"])
    groups[3] = InstanceGroup("infer", "ml.g5.2xlarge", 2, alternatives=[("ml.g5.4xlarge", 1)])
    return Shape(groups, FIVE.channels, FIVE.hit)


def creates(server):
    """``[(job name, {group: (type, count)})]`` of every CreateTrainingJob that reached the moto server."""
    out = []
    for call in server.calls("sagemaker", "CreateTrainingJob"):
        groups = call.json["ResourceConfig"]["InstanceGroups"]
        out.append((call.json["TrainingJobName"],
                    dict((g["InstanceGroupName"], (g["InstanceType"], g["InstanceCount"])) for g in groups)))
    return out


def failing(server, fields):
    """DescribeTrainingJob answers a job of ``fields`` (name -> the description's fields) as Failed with them,
    on the groups it was created with; moto answers the others."""

    def answer(record):
        name = (record.json or {}).get("TrainingJobName")
        if name not in fields:
            return None
        groups = [(g, t, c) for g, (t, c) in dict(creates(server))[name].items()]
        desc = dict(server.answers.in_progress_description(name, groups), TrainingJobStatus="Failed",
                    SecondaryStatus="Failed", **fields[name])
        return json_answer(desc)

    server.answers.add("sagemaker", "DescribeTrainingJob", answer)


def fit(shape, out=None, **kwargs):
    est = framework_job(shape, **kwargs)
    est.fit(inputs(shape), logs="None", job_name=NAME)
    return est


def test_a_first_choice_whose_quota_is_0_is_passed_over_by_the_preflight_which_says_why(account, capsys):
    account.answers.quotas["ml.p3dn.24xlarge for training job usage"] = 0
    est = fit(two())
    assert creates(account) == [(NAME, {"cpu": ("ml.c5.18xlarge", 2), "gpu": ("ml.p4d.24xlarge", 1)})]
    said = capsys.readouterr().out
    assert "instance group gpu: ml.p3dn.24xlarge x 1 is over its quota" in said and "chose ml.p4d.24xlarge x 1" in said
    assert "instance group gpu: ml.p4d.24xlarge x 1, choice 2 of 3 (the quota check found no problem with it)" in said
    assert [a.outcome for a in est.latest_training_job.attempts] == ["Completed"]


def test_resource_limit_exceeded_moves_the_named_group_of_a_five_group_job(account, fault_proxy):
    fault_proxy.add_fault("CreateTrainingJob", kind="status", status=400, code="ResourceLimitExceeded",
                          message=LIMIT % "ml.g5.2xlarge")
    est = fit(five())
    made = creates(account)
    assert [n for n, _ in made] == [NAME + "-c2"] and fault_proxy.rules[0].hits == 1
    assert made[0][1]["infer"] == ("ml.g5.4xlarge", 1) and made[0][1]["gpu"] == ("ml.p4d.24xlarge", 1)
    assert [a.outcome for a in est.latest_training_job.attempts] == ["NotCreated", "Completed"]


def test_resource_limit_exceeded_moves_the_group_the_quota_names_to_its_next_choice(account, fault_proxy):
    fault_proxy.add_fault("CreateTrainingJob", kind="status", status=400, code="ResourceLimitExceeded",
                          message=LIMIT % "ml.c5.18xlarge")
    est = fit(two(cpu_alternatives=["ml.c5.9xlarge"]))
    # the proxy answered the first call: SageMaker (moto) got one create, the second attempt's
    assert creates(account) == [(NAME + "-c2", {"cpu": ("ml.c5.9xlarge", 2), "gpu": ("ml.p3dn.24xlarge", 1)})]
    attempts = est.latest_training_job.attempts
    assert [(a.name, a.outcome) for a in attempts] == [(NAME, "NotCreated"), (NAME + "-c2", "Completed")]
    assert "ResourceLimitExceeded" in attempts[0].reason and est.latest_training_job.name == NAME + "-c2"
    assert fault_proxy.rules[0].hits == 1 and len(fault_proxy.calls("sagemaker", "CreateTrainingJob")) == 2


@pytest.mark.parametrize("shape, named, moved", [
    (two(cpu_alternatives=["ml.c5.9xlarge"]), "ml.c5.18xlarge", ("cpu", ("ml.c5.9xlarge", 2))),
    (five(), "ml.g5.2xlarge", ("infer", ("ml.g5.4xlarge", 1))),
], ids=["two groups", "five groups"])
def test_a_provisioning_capacity_error_naming_a_type_moves_that_group(account, shape, named, moved):
    failing(account, {NAME: {"FailureReason": PROVISION + " (%s)" % named}})
    est = fit(shape)
    made = creates(account)
    assert [n for n, _ in made] == [NAME, NAME + "-c2"]  # one create per attempt
    group, choice = moved
    changed = dict((g, c) for g, c in made[1][1].items() if made[0][1][g] != c)
    assert changed == {group: choice}
    attempts = est.latest_training_job.attempts
    assert [a.outcome for a in attempts] == ["Failed", "Completed"] and PROVISION in attempts[0].reason


@pytest.mark.parametrize("fields", [
    {"FailureReason": PROVISION},
    {"FailureReason": "InternalServerError: the job failed.", "SecondaryStatusTransitions": [
        {"Status": "Starting", "StatusMessage": "Insufficient capacity error from EC2 while launching instances, "
                                                "retrying!"}]},
], ids=["failure reason", "secondary status"])
def test_a_capacity_error_naming_no_type_moves_the_first_group_with_a_choice_left(account, fields):
    failing(account, {NAME: fields})
    est = fit(five())
    made = creates(account)
    assert [n for n, _ in made] == [NAME, NAME + "-c2"]
    assert made[1][1]["gpu"] == ("ml.p5.48xlarge", 1) and made[1][1]["infer"] == ("ml.g5.2xlarge", 2)
    assert est.latest_training_job.name == NAME + "-c2"


def test_every_choice_failing_without_a_wait_is_one_capacity_error_naming_every_choice(account, capsys):
    failing(account, dict((n, {"FailureReason": PROVISION}) for n in (NAME, NAME + "-c2", NAME + "-c3")))
    with pytest.raises(E.CapacityError) as info:
        fit(two())
    assert [n for n, _ in creates(account)] == [NAME, NAME + "-c2", NAME + "-c3"]
    error = info.value
    assert [a.outcome for a in error.attempts] == ["Failed"] * 3
    text = str(error)
    for choice in ("ml.p3dn.24xlarge x 1", "ml.p4d.24xlarge x 1", "ml.g5.48xlarge x 2"):
        assert choice in text
    assert "Every choice was tried: 3 attempts" in text and "no capacity" in text
    assert "Types of the same family whose quota allows as many instances: " in text
    assert "ml.g5.48xlarge: ml.g5.12xlarge (quota 20)" in text
    assert error.same_family_types["ml.g5.48xlarge"][0] == "ml.g5.12xlarge"  # the last job's, as before
    assert "Capacity: 3 attempts:" in capsys.readouterr().out


class FakeClock(object):
    """A clock that moves only when slept on; ``interrupt_after``: Ctrl-C on that many sleeps."""

    def __init__(self, interrupt_after=None):
        self.t, self.slept, self.interrupt_after = 0.0, [], interrupt_after

    def now(self):
        return self.t

    def sleep(self, seconds):
        if self.interrupt_after is not None and len(self.slept) >= self.interrupt_after:
            raise KeyboardInterrupt
        self.slept.append(seconds)
        self.t += seconds


def test_every_choice_failing_with_a_wait_tries_the_first_choices_again_until_capacity_attempts(account, monkeypatch,
                                                                                                 capsys):
    clock = FakeClock()
    monkeypatch.setattr(failover, "CLOCK", clock)
    names = [NAME] + ["%s-c%d" % (NAME, n) for n in (2, 3)]
    failing(account, dict((n, {"FailureReason": PROVISION}) for n in names))
    est = fit(two(gpu_alternatives=["ml.p4d.24xlarge"]), capacity_wait=5, capacity_attempts=4)
    made = creates(account)
    assert [n for n, _ in made] == names + [NAME + "-c4"]
    assert [c["gpu"][0] for _, c in made] == ["ml.p3dn.24xlarge", "ml.p4d.24xlarge", "ml.p3dn.24xlarge",
                                              "ml.p4d.24xlarge"]
    assert sum(clock.slept) == 5  # one wait, after both choices failed
    out = capsys.readouterr().out
    assert "the first choices again in 5 s" in out and "in 1 s" in out
    assert len(est.latest_training_job.attempts) == 4


def test_ctrl_c_during_the_wait_ends_it_with_no_job_made(account, monkeypatch, capsys):
    monkeypatch.setattr(failover, "CLOCK", FakeClock(interrupt_after=2))
    failing(account, dict((n, {"FailureReason": PROVISION}) for n in (NAME, NAME + "-c2")))
    with pytest.raises(KeyboardInterrupt):
        fit(two(gpu_alternatives=["ml.p4d.24xlarge"]), capacity_wait=60, capacity_attempts=5)
    assert [n for n, _ in creates(account)] == [NAME, NAME + "-c2"]
    out = capsys.readouterr().out
    assert "no job of this submission is running" in out
    assert "Capacity: 2 attempts:" in out and out.index("running") < out.index("Capacity: 2 attempts:")


def test_a_failure_not_for_capacity_is_never_retried(account):
    failing(account, {NAME: {"FailureReason": "AlgorithmError: the script exited 1"}})
    with pytest.raises(E.UnexpectedStatusException) as info:
        fit(two())
    assert not isinstance(info.value, E.CapacityError) and "AlgorithmError" in str(info.value)
    assert [n for n, _ in creates(account)] == [NAME]


def test_a_choice_that_breaks_a_distribution_rule_is_a_config_error_before_anything_is_sent(account):
    shape = two(gpu_alternatives=["ml.c5.4xlarge"])
    with pytest.raises(E.ConfigError) as info:
        framework_job(shape, distribution={"smdistributed": {"dataparallel": {"enabled": True}},
                                           "instance_groups": ["gpu"]})
    (problem,) = info.value.problems
    assert problem.path == "instance_groups[1].alternatives[0]"
    assert "'gpu'" in problem.message and "ml.c5.4xlarge x 1" in problem.message
    assert account.calls("sagemaker") == [] and account.calls("s3") == []


def test_a_lost_reply_during_the_failover_creates_the_job_once(account, fault_proxy):
    failing(account, {NAME: {"FailureReason": PROVISION}})
    fault_proxy.unique_training_job_names = True  # as SageMaker: a taken name is ResourceInUse
    fault_proxy.add_fault("CreateTrainingJob", kind="reset_after",
                          match=lambda r: (r.json or {}).get("TrainingJobName") == NAME + "-c2")
    est = fit(two())
    assert [n for n, _ in creates(account)] == [NAME, NAME + "-c2"]  # the retry was answered ResourceInUse
    assert fault_proxy.rules[0].hits == 1
    assert est.latest_training_job.name == NAME + "-c2"
    assert [a.outcome for a in est.latest_training_job.attempts] == ["Failed", "Completed"]


def test_the_code_is_uploaded_once_for_every_attempt(account):
    failing(account, {NAME: {"FailureReason": PROVISION}})
    fit(two())
    puts = [c for c in account.calls("s3") if c.operation in ("PutObject", "CreateMultipartUpload")
            and "sourcedir" in c.path]
    assert len(puts) == 1
    codes = set(c.json["HyperParameters"]["sagemaker_submit_directory"] for c in
                account.calls("sagemaker", "CreateTrainingJob"))
    assert len(codes) == 1


def test_a_job_without_alternatives_fails_as_before_naming_the_familys_types_by_their_new_name(account):
    failing(account, {NAME: {"FailureReason": PROVISION}})
    with pytest.raises(E.CapacityError) as info:
        fit(TWO)
    assert "Every choice" not in str(info.value) and [n for n, _ in creates(account)] == [NAME]
    assert "ml.p3.2xlarge" in info.value.same_family_types["ml.p3dn.24xlarge"]


def test_the_attempts_are_json_ready(account):
    failing(account, {NAME: {"FailureReason": PROVISION}})
    est = fit(two())
    data = json.loads(json.dumps([a.as_dict() for a in est.latest_training_job.attempts]))
    assert [d["job_name"] for d in data] == [NAME, NAME + "-c2"]
    assert data[1]["instance_groups"][1] == {"name": "gpu", "type": "ml.p4d.24xlarge", "count": 1}
    assert data[0]["outcome"] == "Failed" and data[0]["reason"] == PROVISION


def test_the_countdown_counts_down_on_the_clock_given():
    out, clock = io.StringIO(), FakeClock()
    failover.countdown(3, out, clock)
    assert clock.slept == [1.0, 1.0, 1.0]
    assert [part.split(" in ")[1].split(" s")[0] for part in out.getvalue().split("\r") if part] == ["3", "2", "1"]


def test_the_last_choice_failing_names_every_choice_why_and_the_quota_increases(account, fault_proxy):
    account.answers.quotas["ml.p3dn.24xlarge for training job usage"] = 0  # passed over by the preflight
    fault_proxy.add_fault("CreateTrainingJob", kind="status", status=400, code="ResourceLimitExceeded",
                          message=LIMIT % "ml.p4d.24xlarge")  # refused at creation
    failing(account, {NAME + "-c2": {"FailureReason": PROVISION}})  # no capacity
    with pytest.raises(E.CapacityError) as info:
        fit(two())
    assert creates(account) == [(NAME + "-c2", {"cpu": ("ml.c5.18xlarge", 2), "gpu": ("ml.g5.48xlarge", 2)})]
    error = info.value
    assert [(a.name, a.outcome) for a in error.attempts] == [(NAME, "NotCreated"), (NAME + "-c2", "Failed")]
    text = str(error)
    assert "Not tried: instance group gpu as ml.p3dn.24xlarge x 1, over its quota" in text
    assert "gpu=ml.p4d.24xlarge x 1  NotCreated  ResourceLimitExceeded" in text
    assert "gpu=ml.g5.48xlarge x 2   Failed      CapacityError" in text
    for quota in ("ml.p3dn.24xlarge", "ml.p4d.24xlarge"):
        assert "request an increase of '%s for training job usage' to at least 1" % quota in text


def test_every_attempt_that_ended_has_its_start_and_end_even_when_it_failed_before_training(account):
    failing(account, {NAME: {"FailureReason": PROVISION}})  # as SageMaker: no TrainingEndTime, none started
    est = fit(two())
    attempts = est.latest_training_job.attempts
    assert [a.outcome for a in attempts] == ["Failed", "Completed"]
    assert all(a.start and a.end for a in attempts), attempts


def test_a_job_read_back_that_failed_before_training_ends_at_its_last_modification():
    from sagemaker_hetero._capacity import walk
    desc = {"TrainingJobStatus": "Failed", "CreationTime": "2026-01-01T00:00:00", "FailureReason": PROVISION,
            "LastModifiedTime": "2026-01-01T00:05:00"}
    attempt = walk.Attempt.of_job(NAME, [("gpu", "ml.p4d.24xlarge", 1)], desc)
    assert (attempt.start, attempt.end) == ("2026-01-01T00:00:00", "2026-01-01T00:05:00")


def test_every_choice_refused_at_creation_says_no_job_was_created(account, fault_proxy):
    total = ("The account-level service limit 'Number of instances across all training jobs' is 3 Instances, with "
             "current utilization of 0 Instances and a request delta of 4 Instances.")
    for _ in range(3):
        fault_proxy.add_fault("CreateTrainingJob", kind="status", status=400, code="ResourceLimitExceeded",
                              message=total)
    with pytest.raises(E.CapacityError) as info:
        fit(two())
    assert creates(account) == [] and len(fault_proxy.calls("sagemaker", "CreateTrainingJob")) == 3
    text = str(info.value)
    assert text.startswith("Training job %s-c3 was not created: ResourceLimitExceeded: " % NAME), text
    assert "ended with status" not in text and "Every choice was tried: 3 attempts" in text
    assert "'Number of instances across all training jobs' to at least 4" in text


STARTING = {"Status": "Starting", "StatusMessage": "Insufficient capacity error from EC2 while launching instances, "
                                                   "retrying!"}


@pytest.mark.parametrize("fields", [
    {"FailureReason": "AlgorithmError: the script exited 1", "SecondaryStatusTransitions": [STARTING]},
    {"FailureReason": "InternalServerError: the job failed.", "SecondaryStatusTransitions": [
        STARTING, {"Status": "Downloading", "StatusMessage": "Downloading input data"},
        {"Status": "Training", "StatusMessage": "Training image download completed. Training in progress."}]},
], ids=["algorithm error", "instances had after the message"])
def test_a_job_that_got_its_instances_after_a_capacity_message_is_not_retried(account, fields):
    failing(account, {NAME: fields})
    with pytest.raises(E.UnexpectedStatusException) as info:
        fit(five())
    assert not isinstance(info.value, E.CapacityError), info.value
    assert [n for n, _ in creates(account)] == [NAME]
