"""``TrainingJob.attach(name)``: a job reached by its name alone (a new ``Session()`` unless one is given),
described once; ``.utilization()`` of it answers as the estimator's job does. A name that is no job raises."""
import pytest

import sagemaker_hetero
from sagemaker_hetero import Session, TrainingJob
from sagemaker_hetero.exceptions import AWSError, ConfigError
from tests.usage.test_aws import PRICES, two_group_job


def test_attach_describes_the_job_once_and_its_utilization_is_the_jobs(fault_proxy):
    two_group_job(fault_proxy, "attached")
    job = TrainingJob.attach("attached")
    assert [c.operation for c in fault_proxy.calls(service="sagemaker")] == ["DescribeTrainingJob"]
    assert (type(job), job.name, type(job.sagemaker_session)) == (TrainingJob, "attached", Session)
    usage = job.utilization(prices=PRICES, fetch=False)
    assert usage.group("data").figures("cpu") == {"mean": 90.0, "p95": 98.75}
    assert (usage.verdict.kind, usage.verdict.groups) == ("starved", ("gpu",))


def test_attach_uses_the_session_given(fault_proxy):
    two_group_job(fault_proxy, "given")
    session = Session()
    job = sagemaker_hetero.session.TrainingJob.attach("given", sagemaker_session=session)
    assert job.sagemaker_session is session and job.failure == session.job_failure


def test_attach_a_name_that_is_no_job_raises_naming_it(aws):
    with pytest.raises(AWSError) as raised:
        TrainingJob.attach("no-such-job")
    assert "no-such-job" in str(raised.value)


@pytest.mark.parametrize("name", ["", None, 3])
def test_attach_refuses_what_is_no_name(aws, name):
    with pytest.raises(ConfigError) as raised:
        TrainingJob.attach(name)
    assert "training_job_name" in str(raised.value) and repr(name) in str(raised.value)
