"""The one poller every wait uses (sagemaker_hetero._aws.poller), without AWS: the interval between
polls, throttling tolerated, a line each time the state changes; and the tuning job's and the
pipeline execution's waits as its clients. Time is a fake clock that ``sleep`` moves on."""
import io

import pytest

from sagemaker_hetero._aws import poller
from sagemaker_hetero.exceptions import ThrottlingError
from sagemaker_hetero.tuner import TuningJob
from sagemaker_hetero.workflow.pipeline import PipelineExecution


class FakeTime(object):
    def __init__(self):
        self.now = 0.0
        self.sleeps = []

    def clock(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


class Answers(object):
    """``describe()`` (or ``describe(name)``): the answers in turn (an exception instance is raised), the last one repeated."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.asked = 0

    def __call__(self, *name):
        self.asked += 1
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, Exception):
            raise answer
        return answer


def throttled():
    return ThrottlingError("Rate exceeded", code="ThrottlingException", operation="Describe")


class PollInterval(object):
    poll_interval = (5, 7)


class NoPollInterval(object):
    poll_interval = None


def test_the_bounds_are_given_else_the_sessions_else_2_to_30_seconds():
    assert poller.bounds((1, 4)) == (1, 4)
    assert poller.bounds(10) == (10, 10)  # one number for both, as the SDK v2's logs_for_job(poll=10)
    assert poller.bounds(None, PollInterval()) == (5, 7)
    # a session without its own interval (poll_interval None, as the session protocol has it), or none
    assert poller.bounds(None, NoPollInterval()) == (poller.POLL_MIN_SECONDS, poller.POLL_MAX_SECONDS)
    assert poller.bounds(None, None) == (poller.POLL_MIN_SECONDS, poller.POLL_MAX_SECONDS)


def test_a_line_when_the_state_changes_the_interval_doubling_in_between():
    t = FakeTime()
    out = io.StringIO()
    describe = Answers("Starting", "Starting", "Starting", "Running", "Running", "Done")
    waiting = poller.Poller((1, 4), None, t.clock, t.sleep)
    assert waiting.follow(describe, out, lambda a: "job: %s" % a, lambda a: a == "Done") == "Done"
    assert out.getvalue().splitlines() == ["[0:00:00] job: Starting", "[0:00:07] job: Running",
                                           "[0:00:10] job: Done"]
    assert t.sleeps == [1, 2, 4, 1, 2]  # back to the first interval after each change


def test_a_throttled_describe_is_asked_again_after_the_longest_interval(monkeypatch):
    monkeypatch.setattr(poller, "WAIT_THROTTLED_POLLS", 2)
    t = FakeTime()
    waiting = poller.Poller((1, 30), None, t.clock, t.sleep)
    assert waiting.ask(Answers(throttled(), throttled(), "answer")) == "answer"
    assert t.sleeps == [30, 30]
    with pytest.raises(ThrottlingError):
        waiting.ask(Answers(throttled(), throttled(), throttled(), "too late"))


def test_the_heartbeat_is_due_after_a_quiet_period_and_starts_over():
    t = FakeTime()
    waiting = poller.Poller((1, 1), None, t.clock, t.sleep, heartbeat=60)
    assert not waiting.quiet(59)
    assert waiting.quiet(60) and not waiting.quiet(119) and waiting.quiet(120)
    assert not poller.Poller((1, 1), None, t.clock, t.sleep, heartbeat=None).quiet(10 ** 6)


class TuningSession(object):
    poll_interval = None

    def __init__(self, *answers):
        self.describe_tuning_job = Answers(*answers)


def tuning(status, completed=0):
    return {"HyperParameterTuningJobName": "hpo", "HyperParameterTuningJobStatus": status,
            "TrainingJobStatusCounters": {"Completed": completed}}


def test_a_tuning_job_wait_takes_a_throttled_describe_and_prints_each_change():
    t = FakeTime()
    out = io.StringIO()
    session = TuningSession(tuning("InProgress"), throttled(), tuning("InProgress", 1), tuning("Completed", 2))
    desc = TuningJob(session, "hpo").wait(poll=(2, 30), out=out, clock=t.clock, sleep=t.sleep)
    assert desc["HyperParameterTuningJobStatus"] == "Completed"
    assert out.getvalue().splitlines() == ["[0:00:00] hpo: InProgress",
                                           "[0:00:32] hpo: InProgress - training jobs: 1 completed",
                                           "[0:00:34] hpo: Completed - training jobs: 2 completed"]
    assert t.sleeps == [2, 30, 2]


class PipelineSession(object):
    def __init__(self, *answers):
        self.describe_pipeline_execution = Answers(*answers)


def test_a_pipeline_execution_wait_takes_a_throttled_describe():
    t = FakeTime()
    out = io.StringIO()
    session = PipelineSession(throttled(), {"PipelineExecutionStatus": "Executing"},
                              {"PipelineExecutionStatus": "Succeeded"})
    PipelineExecution("arn:p", session).wait(out=out, clock=t.clock, sleep=t.sleep)
    assert out.getvalue().splitlines() == ["[0:00:30] arn:p: Executing", "[0:00:32] arn:p: Succeeded"]
    assert t.sleeps == [30, 2]
