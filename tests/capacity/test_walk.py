"""The walk through the instance groups' choices and the attempts' names (pure)."""
from sagemaker_hetero import InstanceGroup
from sagemaker_hetero._capacity import walk as W
from sagemaker_hetero._model import choices
from sagemaker_hetero._model.settings import JobSettings


def test_an_attempts_name_stays_within_63_characters():
    assert W.attempt_name("job", 1) == "job" and W.attempt_name("job", 2) == "job-c2"
    long = "a" * 60 + "-bc"
    assert len(W.attempt_name(long, 12)) == 63 and W.attempt_name(long, 12).endswith("a-c12")
    assert W.attempt_name("a" * 59 + "-b", 2) == "a" * 59 + "-c2"  # no '--' where the cut falls on a hyphen


def test_the_named_group_moves_else_the_first_with_a_choice_left():
    walk = W.Walk([("a", [("ml.c5.xlarge", 1)]), ("b", [("ml.g5.xlarge", 1), ("ml.g5.2xlarge", 1)]),
                   ("c", [("ml.p4d.24xlarge", 1), ("ml.p5.48xlarge", 1)])])
    assert walk.size == 3
    assert walk.next_group("InsufficientInstanceCapacity for ml.p4d.24xlarge") == 2
    assert walk.next_group("InsufficientInstanceCapacity for ml.c5.xlarge") == 1  # a has none left: the first that has
    assert walk.next_group("CapacityError: Unable to provision") == 1
    assert walk.advance(1) == ("b", "ml.g5.xlarge x 1", "ml.g5.2xlarge x 1")
    assert walk.next_group("") == 2 and walk.picks() == {1: ("ml.g5.2xlarge", 1)}
    walk.advance(2)
    assert walk.next_group("") is None
    walk.restart()
    assert walk.picks() == {} and walk.current()[2] == ("c", "ml.p4d.24xlarge", 1)


def test_a_groups_choices_are_its_own_then_its_alternatives_and_a_channels_reference_follows_the_group():
    gpu = InstanceGroup("gpu", "ml.p4d.24xlarge", 1, alternatives=["ml.p5.48xlarge", ("ml.g5.48xlarge", 2)])
    from sagemaker_hetero import TrainingInput

    settings = JobSettings(instance_groups=[InstanceGroup("cpu", "ml.c5.xlarge", 1), gpu],
                           channels=(("train", TrainingInput("s3://b/t", instance_groups=[gpu])),))
    assert choices.group_choices(settings) == [("cpu", [("ml.c5.xlarge", 1)]), (
        "gpu", [("ml.p4d.24xlarge", 1), ("ml.p5.48xlarge", 1), ("ml.g5.48xlarge", 2)])]
    moved = choices.chosen(settings, {1: ("ml.g5.48xlarge", 2)})
    assert moved.instance_groups[1] == InstanceGroup("gpu", "ml.g5.48xlarge", 2)
    assert moved.channels[0][1].instance_groups == [InstanceGroup("gpu", "ml.g5.48xlarge", 2)]
    assert not choices.has_alternatives(moved)


def test_a_failure_for_capacity_is_told_by_its_reason_or_a_secondary_status_message():
    from sagemaker_hetero._preflight.capacity import capacity_reason

    said = "Insufficient capacity error from EC2 while launching instances, retrying!"
    assert capacity_reason("Failed", {"FailureReason": "CapacityError: Unable to provision"}) is not None
    assert capacity_reason("Failed", {"FailureReason": "x due to InsufficientInstanceCapacity error"}) is not None
    assert capacity_reason("Failed", {"SecondaryStatusTransitions": [{"StatusMessage": said}]}) == said
    assert capacity_reason("Failed", {"FailureReason": "AlgorithmError: exit 1"}) is None
    assert capacity_reason("Stopped", {"FailureReason": "CapacityError: Unable to provision"}) is None
