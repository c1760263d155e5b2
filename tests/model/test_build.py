"""``_model.build``: settings -> ``(Job, problems)``, called directly. Each row of a table is one user
mistake and the one problem the builder names for it, or a valid input and the structure it becomes."""
import attrs
import pytest

from sagemaker_hetero._model import build
from sagemaker_hetero._model.job import CODE, MODEL
from sagemaker_hetero.inputs import ShuffleConfig, TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from tests._pure import CPU, GPU, PYTORCH, ROLE, ROUTED, job, settings

GENERIC = dict(image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/img:1", role=ROLE, instance_type="ml.m5.xlarge",
               instance_count=1)
HOMOG = dict(PYTORCH, instance_groups=None, instance_type="ml.p4d.24xlarge", instance_count=2)


def _with(base, **changes):
    out = dict(base)
    out.update(changes)
    return dict((k, v) for k, v in out.items() if v is not None)


# (id, framework, arguments, inputs, path, a fragment of the message)
BAD = [
    ("no cluster", None, _with(GENERIC, instance_type=None, instance_count=None), None,
     "instance_groups", "give instance_groups, or instance_type and instance_count"),
    ("type without count", None, _with(GENERIC, instance_count=None), None, "instance_count", "is required with instance_type"),
    ("count without type", None, _with(GENERIC, instance_type=None), None, "instance_type", "is required with instance_count"),
    ("type beside groups", "pytorch", _with(PYTORCH, instance_type="ml.c5.xlarge"), None,
     "instance_type", "cannot be given together with instance_groups"),
    ("groups not a list", "pytorch", _with(PYTORCH, instance_groups=CPU), None, "instance_groups", "must be a list of InstanceGroup"),
    ("no group", "pytorch", _with(PYTORCH, instance_groups=[]), None, "instance_groups", "must hold at least one InstanceGroup"),
    ("a dict for a group", "pytorch", _with(PYTORCH, instance_groups=[CPU, {"name": "gpu"}]), None,
     "instance_groups[1]", "must be an InstanceGroup(name, instance_type, instance_count)"),
    ("channel to no group", "pytorch", PYTORCH, {"train": TrainingInput("s3://b/t", instance_groups=["tpu"])},
     "inputs['train'].instance_groups[0]", "is not an instance group of this job (groups: 'cpu', 'gpu')"),
    ("channel to a group twice", "pytorch", PYTORCH, {"train": TrainingInput("s3://b/t", instance_groups=["cpu", "cpu"])},
     "inputs['train'].instance_groups[1]", "names the same instance group twice"),
    ("channel groups not a list", "pytorch", PYTORCH, {"train": TrainingInput("s3://b/t", instance_groups="cpu")},
     "inputs['train'].instance_groups", "must be a list of instance group names"),
    ("channel groups empty", "pytorch", PYTORCH, {"train": TrainingInput("s3://b/t", instance_groups=[])},
     "inputs['train'].instance_groups", "must name at least one instance group"),
    ("channel groups without groups", "pytorch", HOMOG, {"train": TrainingInput("s3://b/t", instance_groups=["cpu"])},
     "inputs['train'].instance_groups", "names instance groups, but the estimator has no instance_groups"),
    ("channel group of another size", "pytorch", PYTORCH,
     {"train": TrainingInput("s3://b/t", instance_groups=[InstanceGroup("cpu", "ml.c5.xlarge", 9)])},
     "inputs['train'].instance_groups[0]", "has the name of a group of this job but another type or count (2 x ml.c5.xlarge)"),
    ("AutoML's target attribute", "pytorch", PYTORCH, {"train": TrainingInput("s3://b/t", target_attribute_name="y")},
     "inputs['train'].target_attribute_name", "is for AutoML jobs"),
    ("shuffle config not one", "pytorch", PYTORCH, {"train": TrainingInput("s3://b/t", shuffle_config=42)},
     "inputs['train'].shuffle_config", "must be ShuffleConfig(seed)"),
    ("a channel neither URI nor input", "pytorch", PYTORCH, {"train": 42}, "inputs['train']", "must be an S3 URI or a TrainingInput"),
    ("inputs of no kind", "pytorch", PYTORCH, ["s3://b/t"], "inputs", "expected an S3 URI, a TrainingInput or a dict"),
    ("generic distribution", None, _with(GENERIC, distribution={"mpi": {"enabled": True}}), None,
     "distribution", "the generic Estimator takes no distribution"),
    ("distribution not a dict", "pytorch", _with(PYTORCH, distribution="mpi"), None, "distribution", "must be a dict such as"),
    ("distribution on two groups", "pytorch", _with(PYTORCH, distribution={"mpi": {"enabled": True},
                                                                           "instance_groups": ["cpu", "gpu"]}), None,
     "distribution.instance_groups", "must name exactly one instance group"),
    ("distribution group as a string", "pytorch", _with(PYTORCH, distribution={"mpi": {"enabled": True},
                                                                               "instance_groups": "gpu"}), None,
     "distribution.instance_groups", "must be a list naming one instance group such as ['gpu']"),
    ("distribution to no group", "pytorch", _with(PYTORCH, distribution={"mpi": {"enabled": True},
                                                                         "instance_groups": ["tpu"]}), None,
     "distribution.instance_groups[0]", "is not an instance group of this job"),
    ("no entry point", "pytorch", _with(PYTORCH, entry_point=None), None, "entry_point", "is required: the script every host runs"),
    ("source without entry point", None, _with(GENERIC, source_dir="src"), None, "entry_point", "is required when source_dir"),
    ("entry point in S3", "pytorch", _with(PYTORCH, entry_point="s3://b/train.py"), None, "entry_point", "must be a local file"),
    ("S3 source not an archive", "pytorch", _with(PYTORCH, source_dir="s3://b/src"), None,
     "source_dir", "an S3 source_dir must be a .tar.gz archive"),
    ("dependencies not a list", "pytorch", _with(PYTORCH, dependencies="lib"), None, "dependencies", "must be a list of local paths"),
    ("hyperparameters not a dict", "pytorch", _with(PYTORCH, hyperparameters=[1]), None, "hyperparameters", "must be a dict"),
    ("hyperparameter not JSON", "pytorch", _with(PYTORCH, hyperparameters={"f": object()}), None,
     "hyperparameters['f']", "must be JSON-serialisable"),
    ("subnets not a list", "pytorch", _with(PYTORCH, subnets="subnet-1", security_group_ids=["sg-1"]), None,
     "subnets", "must be a list of subnet IDs"),
    ("environment not a dict", "pytorch", _with(PYTORCH, environment=["A=1"]), None, "environment", "must be a dict"),
    ("tags of no kind", "pytorch", _with(PYTORCH, tags="team=ml"), None, "tags", "a list of {'Key': ..., 'Value': ...} or a dict"),
    ("base name not a string", "pytorch", _with(PYTORCH, base_job_name=7), None, "base_job_name", "must be a string"),
    ("experiment config not a dict", "pytorch", _with(PYTORCH, experiment_config="exp"), None, "experiment_config", "must be a dict"),
    ("debugger config of no kind", "pytorch", _with(PYTORCH, debugger_hook_config="on"), None,
     "debugger_hook_config", "must be a dict in the request's format, True, False or None"),
]


@pytest.mark.parametrize("framework, arguments, inputs, path, fragment", [row[1:] for row in BAD], ids=[row[0] for row in BAD])
def test_the_builder_names_what_it_cannot_interpret(framework, arguments, inputs, path, fragment):
    _, found = build.build(settings(framework, inputs, **arguments))
    at = [p for p in found if p.path == path]
    assert len(at) == 1 and fragment in at[0].message, found


def test_valid_arguments_build_without_a_problem():
    for framework, arguments, inputs in (("pytorch", PYTORCH, ROUTED), (None, GENERIC, "s3://b/t"), ("pytorch", HOMOG, None)):
        assert build.build(settings(framework, inputs, **arguments))[1] == []


# -- what valid arguments become -----------------------------------------------------------------

def _groups(j):
    return [(g.name, g.instance_type, g.count, g.arg) for g in j.groups]


def _channels(j):
    return [(c.name, c.groups, c.kind) for c in j.channels]


STRUCTURE = [
    ("homogeneous: one group", "pytorch", HOMOG, None,
     lambda j: (j.heterogeneous, _groups(j)) == (False, [("homogeneousCluster", "ml.p4d.24xlarge", 2, None)])),
    ("heterogeneous: each group where it was written", "pytorch", PYTORCH, None,
     lambda j: (j.heterogeneous, _groups(j)) == (True, [("cpu", "ml.c5.xlarge", 2, "instance_groups[0]"),
                                                        ("gpu", "ml.p4d.24xlarge", 2, "instance_groups[1]")])),
    ("channels name their groups", "pytorch", PYTORCH, ROUTED,
     lambda j: _channels(j) == [("train", ("cpu",), "input"), ("dummy", ("gpu",), "input")]),
    ("an InstanceGroup stands for its name", "pytorch", PYTORCH, {"t": TrainingInput("s3://b/t", instance_groups=[CPU, GPU])},
     lambda j: _channels(j) == [("t", ("cpu", "gpu"), "input")]),
    ("a plain URI goes to every group", "pytorch", PYTORCH, "s3://b/t",
     lambda j: _channels(j) == [("training", None, "input")] and j.channels[0].plain),
    ("the model channel goes where the channels go", "pytorch", dict(PYTORCH, model_uri="s3://b/model.tar.gz"), ROUTED,
     lambda j: _channels(j)[-1] == ("model", ("cpu", "gpu"), MODEL)),
    ("the code channel of an isolated job", "pytorch", dict(PYTORCH, enable_network_isolation=True), ROUTED,
     lambda j: _channels(j)[-1] == ("code", ("cpu", "gpu"), CODE)),
    ("the one group runs the distribution", "pytorch", dict(PYTORCH, instance_groups=[GPU], distribution={"mpi": {"enabled": True}}),
     None, lambda j: (j.distribution.group, j.launcher_group) == ("gpu", "gpu")),
    ("the named group runs the distribution", "pytorch", dict(PYTORCH, distribution={"torch_distributed": {"enabled": True},
                                                                                   "instance_groups": [GPU]}),
     None, lambda j: (j.distribution.group, j.distribution.options) == ("gpu", {"torch_distributed": {"enabled": True}})),
    ("framework hyperparameters are JSON", "pytorch", dict(PYTORCH, hyperparameters={"lr": 0.1, "opt": "adam", 3: True}), None,
     lambda j: dict(j.hyperparameters) == {"lr": "0.1", "opt": '"adam"', "3": "true"}),
    ("a bare image's hyperparameters are str()", None, dict(GENERIC, hyperparameters={"lr": 0.1, "opt": "adam"}), None,
     lambda j: dict(j.hyperparameters) == {"lr": "0.1", "opt": "adam"} and not j.json_hyperparameters),
    ("tags as a dict", "pytorch", dict(PYTORCH, tags={"team": "ml"}), None, lambda j: j.tags == ({"Key": "team", "Value": "ml"},)),
    ("an empty list is not given", "pytorch", dict(PYTORCH, subnets=[], security_group_ids=[]), None,
     lambda j: (j.subnets, j.security_group_ids) == (None, None)),
    ("the entry point's file name is the program", "pytorch", dict(PYTORCH, entry_point="code/train.py"), None,
     lambda j: (j.code.program, j.code.source_dir) == ("train.py", None)),
    ("metrics on for a recent framework", "pytorch", PYTORCH, None, lambda j: j.enable_sagemaker_metrics is True),
    ("metrics left out for the generic Estimator", None, GENERIC, None, lambda j: j.enable_sagemaker_metrics is None),
]


@pytest.mark.parametrize("framework, arguments, inputs, holds", [r[1:] for r in STRUCTURE], ids=[r[0] for r in STRUCTURE])
def test_valid_arguments_become_the_job_model(framework, arguments, inputs, holds):
    assert holds(job(framework, inputs, **arguments))


def test_defaults_configuration_tags_follow_the_users_and_lose_to_a_key_of_theirs():
    s = settings("pytorch", None, None, **dict(PYTORCH, tags=[{"Key": "team", "Value": "ml"}]))
    s = attrs.evolve(s, config_tags=[{"Key": "team", "Value": "admin"}, {"Key": "cost", "Value": "c1"}])
    assert build.build(s)[0].tags == ({"Key": "team", "Value": "ml"}, {"Key": "cost", "Value": "c1"})


ROUND_TRIP = [
    ("hetero routed mpi", "pytorch", dict(PYTORCH, distribution={"mpi": {"enabled": True, "processes_per_host": 8},
                                                                 "instance_groups": ["gpu"]},
                                          hyperparameters={"lr": 0.1}, tags=[{"Key": "a", "Value": "b"}]), ROUTED),
    ("homogeneous with options", "pytorch", dict(HOMOG, source_dir="src", max_run=3600, use_spot_instances=True, max_wait=7200,
                                                 subnets=["subnet-1"], security_group_ids=["sg-1"],
                                                 environment={"A": "1"}), "s3://b/t"),
    ("channel options", "pytorch", PYTORCH, {"p": TrainingInput("s3://b/p", input_mode="Pipe", compression="Gzip",
                                                                shuffle_config=ShuffleConfig(7), instance_groups=["cpu", "gpu"])}),
    ("generic", None, dict(GENERIC, hyperparameters={"depth": 6}, model_uri="s3://b/m.tar.gz"), None),
]


@pytest.mark.parametrize("framework, arguments, inputs", [r[1:] for r in ROUND_TRIP], ids=[r[0] for r in ROUND_TRIP])
def test_arguments_are_the_builder_backwards(framework, arguments, inputs):
    """``build.arguments(job)`` gives the estimator arguments and inputs that build the same job again."""
    first = job(framework, inputs, **arguments)
    kwargs, again_inputs = build.arguments(first)
    second = job(framework, again_inputs, **kwargs)
    assert build.arguments(second) == (kwargs, again_inputs)
    for attr in ("groups", "hyperparameters", "tags", "environment", "max_run", "spot", "max_wait", "distribution"):
        assert repr(getattr(first, attr)) == repr(getattr(second, attr)), attr
    assert [_channel(c) for c in first.channels] == [_channel(c) for c in second.channels]


def _channel(channel):
    """A channel's request-facing fields (not where the user wrote it, nor how)."""
    return dict((k, v) for k, v in attrs.asdict(channel, recurse=False).items() if k not in ("arg", "plain"))


SDK_DISTRIBUTION = [
    ("pytorch", {"mpi": {"enabled": True}}, [GPU], {"mpi": {"enabled": True}, "instance_groups": ["gpu"]}),
    ("pytorch", {"mpi": {"enabled": True}, "instance_groups": [GPU]}, [CPU, GPU],
     {"mpi": {"enabled": True}, "instance_groups": ["gpu"]}),
    ("pytorch", {"pytorchddp": {"enabled": True}}, None, {"smdistributed": {"dataparallel": {"enabled": True}}}),
    ("tensorflow", {"pytorchddp": {"enabled": True}}, None, {"pytorchddp": {"enabled": True}}),
    ("pytorch", "not a dict", None, "not a dict"),
]


@pytest.mark.parametrize("framework, given, groups, kept", SDK_DISTRIBUTION)
def test_the_distribution_as_the_sdk_v2_keeps_it_on_the_estimator(framework, given, groups, kept):
    assert build.sdk_distribution(framework, given, groups) == kept
