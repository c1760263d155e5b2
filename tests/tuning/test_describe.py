"""``_tuning.describe``: a DescribeHyperParameterTuningJob answer read back, called directly: the rendered tuning
request (which an answer repeats) gives back the training request, the tuning model and the tuner's arguments."""
import pytest

from sagemaker_hetero._tuning import describe, model
from tests.tuning.test_render import HETERO, SCENARIOS, tuning_request

CASES = dict(SCENARIOS, pytorch_hetero=HETERO)


@pytest.mark.parametrize("name", sorted(CASES))  # homogeneous ones too: HyperParameterTuningResourceConfig read back
def test_the_definition_reads_back_as_the_training_request(name):
    rendered, training = tuning_request(*CASES[name])
    back = describe.definition_as_training_request(rendered.request)
    sent = dict(training.request)
    assert back["TrainingJobName"] == rendered.request["HyperParameterTuningJobName"]
    for key in ("ResourceConfig", "InputDataConfig", "OutputDataConfig", "RoleArn", "StoppingCondition"):
        assert back[key] == sent[key], key
    tuned = set(r.name for r in model.build(model.TuningSettings(**CASES[name][3]))[0].ranges)
    assert back["HyperParameters"] == dict((k, v) for k, v in sent["HyperParameters"].items() if k not in tuned)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_tuning_reads_back_as_the_arguments_that_render_it_again(name):
    rendered, training = tuning_request(*CASES[name])
    framework = CASES[name][0]
    tuning = describe.tuning_from_description(rendered.request, as_json=framework is not None)
    kwargs = describe.arguments(tuning)
    kwargs.update(tags=CASES[name][3].get("tags"), metric_definitions=CASES[name][3].get("metric_definitions"),
                  job_name=rendered.request["HyperParameterTuningJobName"])
    again = model.build(model.TuningSettings(**kwargs))[0]
    from sagemaker_hetero._tuning import render

    assert render.render(again, training, 0).request == rendered.request


@pytest.mark.parametrize("static, name", [({"sagemaker_estimator_class_name": '"PyTorch"'}, "PyTorch"), ({}, None),
                                          ({"sagemaker_estimator_class_name": "not json"}, None)])
def test_estimator_class_name(static, name):
    assert describe.estimator_class_name({"TrainingJobDefinition": {"StaticHyperParameters": static}}) == name


def test_status_line_and_summary_read_a_description():
    desc = {"HyperParameterTuningJobName": "t", "HyperParameterTuningJobStatus": "InProgress",
            "TrainingJobStatusCounters": {"Completed": 2, "InProgress": 1, "RetryableError": 0, "NonRetryableError": 0,
                                          "Stopped": 0}}
    line = describe.status_line(desc)
    assert "InProgress" in line and "2" in line
    summary = describe.status_summary(desc)
    assert summary["status"] == "InProgress"
