"""Client-side validation: one test per rule, asserting the exact problem paths.

Every rule of ``/work/shared/reference/service_limits.md`` is checked before anything is sent;
a :class:`ConfigError` lists every problem (``path: message (got value)``) at once. These tests
need no network and no boto3 client.
"""
import json
import re
import os
import socket
import subprocess
import sys

import pytest

from sagemaker_hetero.estimator import Estimator
from sagemaker_hetero.exceptions import ConfigError, Problem
from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.pytorch import PyTorch
from sagemaker_hetero.tensorflow import TensorFlow

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
IMAGE = "123456789012.dkr.ecr.us-west-2.amazonaws.com/my-image:latest"
CPU = InstanceGroup("cpu_group", "ml.c5.18xlarge", 2)
GPU = InstanceGroup("gpu_group", "ml.p3dn.24xlarge", 1)
PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


pytestmark = pytest.mark.usefixtures("workdir")  # tests/conftest.py


# -- helpers -----------------------------------------------------------------------------------


def config_error(fn, *args, **kwargs):
    """The ConfigError ``fn(*args, **kwargs)`` raises (fails the test if it raises none)."""
    with pytest.raises(ConfigError) as info:
        fn(*args, **kwargs)
    return info.value


def problems_of(fn, *args, **kwargs):
    return config_error(fn, *args, **kwargs).problems


def paths_of(fn, *args, **kwargs):
    """The sorted problem paths (duplicates kept) of the ConfigError ``fn`` raises."""
    return sorted(p.path for p in problems_of(fn, *args, **kwargs))


def only_problem(fn, *args, **kwargs):
    problems = problems_of(fn, *args, **kwargs)
    assert len(problems) == 1, problems
    return problems[0]


def assert_problem(problem, path, words=(), value=Problem._MISSING):
    """``problem`` is at ``path``, its message holds every word, and it shows ``value``."""
    assert problem.path == path, problem
    for word in words:
        assert word.lower() in problem.message.lower(), problem
    if value is not Problem._MISSING:
        assert problem.has_value
        assert problem.value == value
        shown = repr(value)
        assert shown[:150] in str(problem), str(problem)
        assert str(problem).startswith("%s: %s (got " % (path, problem.message))


def pytorch_kwargs(**overrides):
    kwargs = dict(
        entry_point="train.py",
        framework_version="1.10.0",
        py_version="py38",
        role=ROLE,
        instance_groups=[CPU, GPU],
    )
    kwargs.update(overrides)
    return kwargs


def pytorch(**overrides):
    return PyTorch(**pytorch_kwargs(**overrides))


def homogeneous(**overrides):
    kwargs = dict(instance_groups=None, instance_type="ml.p3.16xlarge", instance_count=1)
    kwargs.update(overrides)
    return pytorch(**kwargs)


def tensorflow(**overrides):
    kwargs = dict(
        entry_point="train.py",
        framework_version="2.9.2",
        py_version="py39",
        role=ROLE,
        instance_groups=[CPU, GPU],
    )
    kwargs.update(overrides)
    return TensorFlow(**kwargs)


def generic(**overrides):
    kwargs = dict(image_uri=IMAGE, role=ROLE, instance_count=1, instance_type="ml.m5.xlarge")
    kwargs.update(overrides)
    return Estimator(**kwargs)


def grouped_inputs():
    return {
        "train": TrainingInput("s3://bucket/train", instance_groups=["cpu_group"]),
        "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["gpu_group"]),
    }


def dry_run(estimator, inputs=None, **kwargs):
    return estimator.fit(inputs, dry_run=True, **kwargs)


def fit_paths(estimator, inputs=None, **kwargs):
    return paths_of(dry_run, estimator, inputs, **kwargs)


def fit_problem(estimator, inputs=None, **kwargs):
    return only_problem(dry_run, estimator, inputs, **kwargs)


# -- ConfigError itself ------------------------------------------------------------------------


def test_config_error_is_a_value_error():
    error = config_error(pytorch, instance_groups=[InstanceGroup("g", "ml.c5.xlarge", 0)])
    assert isinstance(error, ValueError)
    assert all(isinstance(p, Problem) for p in error.problems)


def test_every_problem_is_reported_at_once():
    error = config_error(
        pytorch,
        role="not a role!",
        instance_groups=[InstanceGroup("cpu_group", "ml.c5.18xlarge", 0), GPU],
        max_run=0,
        keep_alive_period_in_seconds=-1,
        tags=[{"Key": "aws:owner", "Value": "me"}],
        environment={"1X": "v"},
        job_name="bad_name",  # fit may still name the job: the constructor leaves the name to fit
    )
    assert sorted(p.path for p in error.problems) == [
        "environment['1X']",
        "instance_groups[0].instance_count",
        "keep_alive_period_in_seconds",
        "max_run",
        "role",
        "tags[0].Key",
    ]


def test_the_constructor_leaves_to_fit_what_fit_can_change():
    # fit's job_name replaces the constructor's (and any base name); one TrainingInput's input_mode
    # is the job's. Refused at fit when they are still the job's; accepted when fit overrides them.
    est = pytorch(job_name="bad_name", base_job_name=5, input_mode="Stream")
    assert sorted(fit_paths(est, grouped_inputs())) == ["input_mode", "job_name"]
    homog = homogeneous(job_name="bad_name", input_mode="Stream")
    request = dry_run(homog, TrainingInput("s3://bucket/t", input_mode="File"), job_name="good-name")
    assert (request["TrainingJobName"], request["AlgorithmSpecification"]["TrainingInputMode"]) == ("good-name", "File")


def test_str_of_error_lists_every_problem_line():
    error = config_error(
        pytorch,
        instance_groups=[InstanceGroup("cpu_group", "ml.c5.18xlarge", 0), GPU],
        max_run=0,
        tags=[{"Key": "aws:x", "Value": "bad_name"}],
    )
    text = str(error)
    assert len(error.problems) == 3
    for problem in error.problems:
        line = str(problem)
        assert line == "%s: %s (got %r)" % (problem.path, problem.message, problem.value)
        assert line in text
    assert "instance_groups[0].instance_count: must be an integer >= 1 (got 0)" in text
    assert "tags[0].Key: " in text and "(got 'aws:x')" in text


def test_problem_without_value_has_no_got_part():
    problem = fit_problem(pytorch(entry_point="missing.py"))
    assert str(problem).startswith("entry_point: ")
    missing = only_problem(pytorch, instance_groups=None)
    assert str(missing) == "instance_groups: %s" % missing.message


# -- cluster -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra, paths",
    [
        ({"instance_type": "ml.c5.xlarge"}, ["instance_type"]),
        ({"instance_count": 2}, ["instance_count"]),
        ({"instance_type": "ml.c5.xlarge", "instance_count": 2}, ["instance_count", "instance_type"]),
    ],
)
def test_instance_type_or_count_with_instance_groups(extra, paths):
    problems = problems_of(pytorch, **extra)
    assert sorted(p.path for p in problems) == paths
    for p in problems:
        assert "instance_groups" in p.message
        assert p.value == extra[p.path]


def test_neither_instance_groups_nor_type_and_count():
    problem = only_problem(pytorch, instance_groups=None)
    assert_problem(problem, "instance_groups", ["instance_type", "instance_count"])


def test_instance_type_without_count():
    problem = only_problem(homogeneous, instance_count=None)
    assert_problem(problem, "instance_count", ["required", "instance_type"])


def test_instance_count_without_type():
    problem = only_problem(homogeneous, instance_type=None)
    assert_problem(problem, "instance_type", ["required", "instance_count"])


def test_empty_instance_group_list():
    problem = only_problem(pytorch, instance_groups=[])
    assert_problem(problem, "instance_groups", ["at least one"], [])


def test_instance_groups_not_a_list():
    problem = only_problem(pytorch, instance_groups=CPU)
    assert_problem(problem, "instance_groups", ["list"], CPU)


@pytest.mark.parametrize(
    "name, words",
    [
        ("", ["at least 1 character"]),
        ("g" * 65, ["64"]),
        (7, ["string"]),
        (None, ["required"]),
    ],
)
def test_bad_group_name(name, words):
    problem = only_problem(pytorch, instance_groups=[InstanceGroup(name, "ml.c5.xlarge", 1)])
    assert_problem(problem, "instance_groups[0].instance_group_name", words, name)


def test_group_name_of_64_characters_is_accepted():
    pytorch(instance_groups=[InstanceGroup("g" * 64, "ml.p3.2xlarge", 1)])


def test_duplicated_group_name():
    groups = [CPU, InstanceGroup("cpu_group", "ml.p3.2xlarge", 1), GPU]
    problem = only_problem(pytorch, instance_groups=groups, distribution=None)
    assert_problem(problem, "instance_groups[1].instance_group_name", ["unique"], "cpu_group")


COUNTS = [(0, [">= 1"]), (-1, [">= 1"]), (1.5, ["integer"]), (True, ["integer"]), ("2", ["integer"])]


@pytest.mark.parametrize("count, words", COUNTS + [(None, ["required"])])
def test_group_count_not_a_positive_int(count, words):
    groups = [CPU, InstanceGroup("gpu_group", "ml.p3.2xlarge", count)]
    problem = only_problem(pytorch, instance_groups=groups)
    assert_problem(problem, "instance_groups[1].instance_count", words, count)


@pytest.mark.parametrize("count, words", COUNTS)
def test_homogeneous_count_not_a_positive_int(count, words):
    problem = only_problem(homogeneous, instance_count=count)
    assert_problem(problem, "instance_count", words, count)


def test_more_than_five_groups():
    groups = [InstanceGroup("g%d" % i, "ml.c5.xlarge", 1) for i in range(6)]
    problem = only_problem(pytorch, instance_groups=groups)
    assert_problem(problem, "instance_groups", ["at most 5"], 6)
    pytorch(instance_groups=groups[:5])


def test_unknown_instance_type_suggests_close_ones():
    groups = [CPU, InstanceGroup("gpu_group", "ml.p3dn.24xlarg", 1)]
    problem = only_problem(pytorch, instance_groups=groups)
    assert_problem(problem, "instance_groups[1].instance_type", ["TrainingInstanceType values"], "ml.p3dn.24xlarg")
    assert "did you mean ml.p3dn.24xlarge" in problem.message


def test_unknown_homogeneous_instance_type():
    problem = only_problem(homogeneous, instance_type="m5.xlarge")
    assert_problem(problem, "instance_type", ["TrainingInstanceType values"], "m5.xlarge")
    assert "ml.m5.xlarge" in problem.message


@pytest.mark.parametrize("group", [{"name": "a", "type": "ml.c5.xlarge", "count": 1}, ("a", "ml.c5.xlarge", 1)])
def test_group_that_is_not_an_instance_group(group):
    problem = only_problem(pytorch, instance_groups=[CPU, group])
    assert_problem(problem, "instance_groups[1]", ["InstanceGroup"], group)


# -- channels ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, words",
    [("a b", ["channel names are letters"]), ("c" * 65, ["at most 64"]), ("", ["at least 1"]),
     ("x/y", ["channel names are letters"])],
)
def test_bad_channel_name(name, words):
    problem = fit_problem(pytorch(instance_groups=None, instance_type="ml.c5.xlarge", instance_count=1),
                          {name: "s3://bucket/data"})
    assert_problem(problem, "inputs[%r]" % name, words, name)


def test_channel_name_of_64_characters_is_accepted():
    est = homogeneous()
    request = dry_run(est, {"c" * 64: "s3://bucket/data"})
    assert request["InputDataConfig"][0]["ChannelName"] == "c" * 64


def test_more_than_twenty_channels():
    est = homogeneous()
    problem = fit_problem(est, {"c%d" % i: "s3://bucket/c%d" % i for i in range(21)})
    assert_problem(problem, "inputs", ["at most 20"], 21)
    dry_run(est, {"c%d" % i: "s3://bucket/c%d" % i for i in range(20)})


def test_model_channel_counts_towards_twenty_channels():
    est = homogeneous(model_uri="s3://bucket/model.tar.gz")
    problem = fit_problem(est, {"c%d" % i: "s3://bucket/c%d" % i for i in range(20)})
    assert_problem(problem, "inputs", ["at most 20"], 21)


def test_code_channel_of_network_isolation_counts_towards_twenty_channels():
    # With network isolation the SDK adds a "code" channel: 20 user channels make 21 in the request.
    est = homogeneous(enable_network_isolation=True)
    problem = fit_problem(est, {"c%d" % i: "s3://bucket/c%d" % i for i in range(20)})
    assert_problem(problem, "inputs", ["at most 20"], 21)


def test_channel_naming_an_unknown_group():
    inputs = grouped_inputs()
    inputs["dummy"] = TrainingInput("s3://bucket/dummy", instance_groups=["gpu_grp"])
    problem = fit_problem(pytorch(), inputs)
    assert_problem(problem, "inputs['dummy'].instance_groups[0]", ["not an instance group", "'gpu_group'"],
                   "gpu_grp")


def test_channel_with_an_empty_group_list():
    inputs = grouped_inputs()
    inputs["dummy"] = TrainingInput("s3://bucket/dummy", instance_groups=[])
    paths = fit_paths(pytorch(), inputs)
    assert "inputs['dummy'].instance_groups" in paths
    problem = [p for p in problems_of(dry_run, pytorch(), inputs) if p.path == "inputs['dummy'].instance_groups"][0]
    assert_problem(problem, "inputs['dummy'].instance_groups", ["at least one"], [])


def test_channel_groups_not_a_list():
    inputs = grouped_inputs()
    inputs["dummy"] = TrainingInput("s3://bucket/dummy", instance_groups="gpu_group")
    problem = fit_problem(pytorch(), inputs)
    assert_problem(problem, "inputs['dummy'].instance_groups", ["list"], "gpu_group")


def test_channel_groups_with_a_homogeneous_estimator():
    inputs = {"train": TrainingInput("s3://bucket/train", instance_groups=["cpu_group"])}
    problem = fit_problem(homogeneous(), inputs)
    assert_problem(problem, "inputs['train'].instance_groups", ["no instance_groups"], ["cpu_group"])


def test_channel_naming_a_group_object_of_another_type():
    inputs = grouped_inputs()
    other = InstanceGroup("gpu_group", "ml.p3.2xlarge", 1)
    inputs["dummy"] = TrainingInput("s3://bucket/dummy", instance_groups=[other])
    problem = fit_problem(pytorch(), inputs)
    assert_problem(problem, "inputs['dummy'].instance_groups[0]", ["another type or count"], other)


def test_some_channels_assigned_to_groups_and_others_not():
    inputs = grouped_inputs()
    inputs["extra"] = "s3://bucket/extra"
    inputs["more"] = TrainingInput("s3://bucket/more")
    problem = fit_problem(pytorch(), inputs)
    assert_problem(problem, "inputs", ["every channel"])
    head, _, tail = problem.message.partition(" name groups, ")
    assert "'train'" in head and "'dummy'" in head
    assert "'extra'" in tail and "'more'" in tail


@pytest.mark.parametrize(
    "uri, words",
    [
        ("http://x", ["S3 URI"]),
        ("s3:///nobucket", ["bucket"]),
        ("bucket/key", ["S3 URI"]),
        ("s3://", ["bucket"]),
        ("s3://b/" + "k" * 1020, ["1024"]),
    ],
)
def test_bad_channel_uri(uri, words):
    est = homogeneous()
    problem = fit_problem(est, {"train": uri})
    assert_problem(problem, "inputs['train']", words, uri)
    problem = fit_problem(est, {"train": TrainingInput(uri)})
    assert_problem(problem, "inputs['train'].s3_data", words, uri)


def test_single_input_is_the_training_channel():
    problem = fit_problem(homogeneous(), "bucket/key")
    assert_problem(problem, "inputs['training']", ["S3 URI"], "bucket/key")


def test_inputs_of_a_wrong_type():
    problem = fit_problem(homogeneous(), ["s3://bucket/a"])
    assert_problem(problem, "inputs", ["TrainingInput"])
    problem = fit_problem(homogeneous(), {"train": 42})
    assert_problem(problem, "inputs['train']", ["TrainingInput"], 42)


@pytest.mark.parametrize(
    "field, value",
    [
        ("s3_data_type", "S3Folder"),
        ("distribution", "Sharded"),
        ("input_mode", "file"),
        ("compression", "gzip"),
        ("record_wrapping", "Recordio"),
    ],
)
def test_training_input_enum_values(field, value):
    channel = TrainingInput("s3://bucket/train", **{field: value})
    problem = fit_problem(homogeneous(), {"train": channel})
    assert_problem(problem, "inputs['train'].%s" % field, ["must be one of"], value)


def test_training_input_enum_values_accepted():
    channel = TrainingInput(
        "s3://bucket/train",
        distribution="ShardedByS3Key",
        compression="Gzip",
        record_wrapping="RecordIO",
        s3_data_type="ManifestFile",
        input_mode="FastFile",
    )
    dry_run(homogeneous(), {"train": channel})


def test_estimator_input_mode():
    problem = fit_problem(homogeneous(input_mode="Stream"), "s3://bucket/train")
    assert_problem(problem, "input_mode", ["Pipe", "File", "FastFile"], "Stream")
    for mode in ("Pipe", "File", "FastFile"):
        homogeneous(input_mode=mode)


def test_target_attribute_name_refused_on_a_training_channel():
    channel = TrainingInput("s3://bucket/train", target_attribute_name="label")
    problem = fit_problem(homogeneous(), {"train": channel})
    assert_problem(problem, "inputs['train'].target_attribute_name", ["AutoML"], "label")


# -- distribution ------------------------------------------------------------------------------


def test_distribution_naming_no_group_with_two_groups():
    problem = only_problem(pytorch, distribution={"mpi": {"enabled": True}})
    assert_problem(problem, "distribution.instance_groups", ["one instance group", "'cpu_group'", "'gpu_group'"])


def test_distribution_naming_its_group_as_a_string_is_one_problem():
    problem = only_problem(pytorch, distribution={"mpi": {"enabled": True}, "instance_groups": "gpu_group"})
    assert_problem(problem, "distribution.instance_groups", ["a list naming one instance group", "['gpu_group']"],
                   "gpu_group")
    assert "(got None)" not in str(config_error(pytorch, distribution={"mpi": {"enabled": True},
                                                                       "instance_groups": "gpu_group"}))


@pytest.mark.parametrize("make, distribution, launchers", [
    (homogeneous, {"torch_distributed": {"enabled": True}, "mpi": {"enabled": True}}, ["mpi", "torch_distributed"]),
    (pytorch, {"mpi": {"enabled": True}, "torch_distributed": {"enabled": True}, "instance_groups": ["gpu_group"]},
     ["mpi", "torch_distributed"]),
    (lambda **kw: tensorflow(instance_groups=None, instance_type="ml.c5.xlarge", instance_count=2, **kw),
     {"parameter_server": {"enabled": True}, "mpi": {"enabled": True}}, ["mpi", "parameter_server"]),
    (lambda **kw: tensorflow(instance_groups=None, instance_type="ml.c5.xlarge", instance_count=2, **kw),
     {"multi_worker_mirrored_strategy": {"enabled": True}, "parameter_server": {"enabled": True}},
     ["parameter_server", "multi_worker_mirrored_strategy"]),
])
def test_two_launchers_are_refused_where_the_sdk_v2_would_run_one(make, distribution, launchers):
    # The SDK v2 accepts these: PyTorch sends torch_distributed's flag alone (mpi is dropped), TensorFlow sends
    # both flags and its container runs one of them.
    problem = only_problem(make, distribution=distribution)
    assert_problem(problem, "distribution", [" and ".join(launchers), "enable one"], launchers)


def test_strategies_that_combine_are_accepted():
    for distribution in ({"smdistributed": {"modelparallel": {"enabled": True}}, "mpi": {"enabled": True}},
                         {"smdistributed": {"dataparallel": {"enabled": True}}, "torch_distributed": {"enabled": True}},
                         {"mpi": {"enabled": True}, "torch_distributed": {"enabled": False}}):
        homogeneous(instance_type="ml.p4d.24xlarge", distribution=distribution)


def test_distribution_naming_an_empty_group_list():
    problem = only_problem(pytorch, distribution={"mpi": {"enabled": True}, "instance_groups": []})
    assert_problem(problem, "distribution.instance_groups", ["exactly one"])


def test_distribution_naming_no_group_with_one_group_uses_it():
    est = pytorch(instance_groups=[GPU], distribution={"mpi": {"enabled": True}})
    request = dry_run(est, "s3://bucket/train")
    assert request["HyperParameters"]["sagemaker_mpi_enabled"] == "true"


def test_distribution_naming_several_groups():
    problem = only_problem(pytorch, distribution={"mpi": {"enabled": True}, "instance_groups": [CPU, GPU]})
    assert_problem(problem, "distribution.instance_groups", ["exactly one"], ["cpu_group", "gpu_group"])


def test_distribution_naming_an_unknown_group():
    problem = only_problem(pytorch, distribution={"mpi": {"enabled": True}, "instance_groups": ["dnn_group"]})
    assert_problem(problem, "distribution.instance_groups[0]", ["not an instance group"], "dnn_group")


def test_distribution_naming_a_group_object_of_another_type_or_count():
    for other in (InstanceGroup("gpu_group", "ml.p4d.24xlarge", 1), InstanceGroup("gpu_group", "ml.p3dn.24xlarge", 4)):
        problem = only_problem(pytorch, distribution={"mpi": {"enabled": True}, "instance_groups": [other]})
        assert_problem(problem, "distribution.instance_groups[0]", ["another type or count"], other)


def test_distribution_with_groups_on_a_homogeneous_estimator():
    problem = only_problem(homogeneous, distribution={"mpi": {"enabled": True}, "instance_groups": ["gpu_group"]})
    assert_problem(problem, "distribution.instance_groups", ["no instance_groups"], ["gpu_group"])


@pytest.mark.parametrize(
    "distribution",
    [
        {"instance_groups": [GPU]},
        {"mpi": {"enabled": False}, "instance_groups": [GPU]},
        {"torch_distributed": {}, "instance_groups": ["gpu_group"]},
    ],
)
def test_group_distribution_with_no_strategy(distribution):
    problem = only_problem(pytorch, distribution=distribution)
    strategies = dict((k, v) for k, v in distribution.items() if k != "instance_groups")
    assert_problem(problem, "distribution", ["no strategy"], strategies)


@pytest.mark.parametrize(
    "distribution, path, value",
    [
        ({"mpi": {"enabled": 1}}, "distribution.mpi.enabled", 1),
        ({"torch_distributed": {"enabled": "true"}}, "distribution.torch_distributed.enabled", "true"),
        ({"mpi": {"enabled": "false"}}, "distribution.mpi.enabled", "false"),
        ({"smdistributed": {"dataparallel": {"enabled": None}}}, "distribution.smdistributed.dataparallel.enabled",
         None),
    ],
)
def test_enabled_that_is_not_true_or_false(distribution, path, value):
    # The SDK v2 would send 1 or "false" as it is, and the toolkit would read either as enabled.
    problem = only_problem(homogeneous, distribution=distribution)
    assert_problem(problem, path, ["True or False"], value)


@pytest.mark.parametrize("strategy", ["parameter_server", "multi_worker_mirrored_strategy"])
def test_strategy_that_cannot_be_tied_to_a_group(strategy):
    distribution = {strategy: {"enabled": True}, "instance_groups": [GPU]}
    problem = only_problem(tensorflow, distribution=distribution)
    assert_problem(problem, "distribution.%s" % strategy, ["one instance group"], strategy)
    # without instance groups the same strategy is fine
    tensorflow(instance_groups=None, instance_type="ml.p3.2xlarge", instance_count=2,
               distribution={strategy: {"enabled": True}})


def test_mpi_with_smdistributed_dataparallel():
    distribution = {
        "mpi": {"enabled": True},
        "smdistributed": {"dataparallel": {"enabled": True}},
        "instance_groups": [InstanceGroup("gpu_group", "ml.p4d.24xlarge", 2)],
    }
    groups = [CPU, InstanceGroup("gpu_group", "ml.p4d.24xlarge", 2)]
    problem = only_problem(pytorch, instance_groups=groups, distribution=distribution)
    assert_problem(problem, "distribution", ["mpi", "exclude"], ["mpi", "smdistributed"])


def test_smdistributed_dataparallel_on_a_cpu_group():
    distribution = {"smdistributed": {"dataparallel": {"enabled": True}}, "instance_groups": [CPU]}
    problem = only_problem(pytorch, distribution=distribution)
    assert_problem(problem, "distribution.instance_groups", ["GPU"], "ml.c5.18xlarge")


def test_smdistributed_dataparallel_on_an_unsupported_gpu_type():
    g5 = InstanceGroup("gpu_group", "ml.g5.xlarge", 1)
    distribution = {"smdistributed": {"dataparallel": {"enabled": True}}, "instance_groups": [g5]}
    problem = only_problem(pytorch, instance_groups=[CPU, g5], distribution=distribution)
    assert_problem(problem, "distribution.instance_groups", ["ml.p4d.24xlarge"], "ml.g5.xlarge")


def test_smdistributed_dataparallel_on_a_supported_group():
    p4 = InstanceGroup("gpu_group", "ml.p4d.24xlarge", 2)
    pytorch(instance_groups=[CPU, p4],
            distribution={"smdistributed": {"dataparallel": {"enabled": True}}, "instance_groups": [p4]})


def test_smdistributed_dataparallel_on_a_homogeneous_cpu_cluster():
    problem = only_problem(homogeneous, instance_type="ml.c5.18xlarge",
                           distribution={"smdistributed": {"dataparallel": {"enabled": True}}})
    assert_problem(problem, "instance_type", ["GPU"], "ml.c5.18xlarge")


@pytest.mark.parametrize("pph", [0, "8", -2, 1.5])
def test_processes_per_host(pph):
    distribution = {"mpi": {"enabled": True, "processes_per_host": pph}, "instance_groups": [GPU]}
    problem = only_problem(pytorch, distribution=distribution)
    assert_problem(problem, "distribution.mpi.processes_per_host", [">= 1"], pph)


def test_unknown_distribution_key_suggests_the_closest():
    problem = only_problem(homogeneous, distribution={"mpii": {"enabled": True}})
    assert_problem(problem, "distribution.mpii", ["not a distribution strategy", "'mpi'"], "mpii")


@pytest.mark.parametrize("distribution", ["mpi", ["mpi"], 1])
def test_distribution_that_is_not_a_dict(distribution):
    problem = only_problem(homogeneous, distribution=distribution)
    assert_problem(problem, "distribution", ["dict"], distribution)


def test_strategy_section_that_is_not_a_dict():
    problem = only_problem(pytorch, distribution={"mpi": True, "instance_groups": [GPU]})
    assert problem.path in ("distribution.mpi", "distribution")
    assert "dict" in problem.message


# -- image -------------------------------------------------------------------------------------


def test_pytorch_too_old_for_instance_groups():
    problems = problems_of(pytorch, framework_version="1.9.0")
    assert sorted(p.path for p in problems) == ["framework_version", "framework_version"]
    assert any("heterogeneous" in p.message and "1.10" in p.message for p in problems)
    assert all(p.value == "1.9.0" for p in problems)


def test_tensorflow_too_old_for_instance_groups():
    problems = problems_of(tensorflow, framework_version="2.5.0", py_version="py37")
    paths = sorted(p.path for p in problems)
    assert "framework_version" in paths
    assert set(paths) <= {"framework_version", "py_version"}
    assert any("heterogeneous" in p.message and "2.6" in p.message for p in problems)


def test_old_pytorch_without_instance_groups_is_not_refused_for_hetero():
    problems = problems_of(homogeneous, framework_version="1.9.0")
    assert [p.path for p in problems] == ["framework_version"]
    assert "heterogeneous" not in problems[0].message
    assert "no pytorch training image" in problems[0].message
    # with its own image, the version is only informational
    homogeneous(framework_version="1.9.0", image_uri=IMAGE)


def test_hetero_minimum_versions_are_accepted():
    pytorch(framework_version="1.10")
    tensorflow(framework_version="2.6", py_version="py38")


def test_framework_version_with_no_image():
    problem = only_problem(pytorch, framework_version="9.9.9")
    assert_problem(problem, "framework_version", ["no pytorch training image", "1.10.0"], "9.9.9")


def test_py_version_with_no_image():
    problem = only_problem(pytorch, py_version="py27")
    assert_problem(problem, "py_version", ["py38"], "py27")


def test_missing_framework_version_and_py_version():
    assert paths_of(pytorch, framework_version=None) == ["framework_version"]
    problem = only_problem(pytorch, py_version=None)
    assert_problem(problem, "py_version", ["required", "py38"])
    # both left out: both reported at once (the SDK v2 names both in one message)
    for cls in (pytorch, tensorflow):
        problems = problems_of(cls, framework_version=None, py_version=None)
        assert [p.path for p in problems] == ["framework_version", "py_version"]
        assert "image_uri" in problems[0].message and "framework_version" in problems[1].message
    assert paths_of(pytorch, framework_version=None, py_version=None, role=None) == ["framework_version",
                                                                                   "py_version", "role"]
    pytorch(framework_version=None, py_version=None, image_uri=IMAGE)  # an image needs neither


def test_generic_estimator_needs_an_image():
    problem = only_problem(generic, image_uri=None)
    assert_problem(problem, "image_uri", ["required"])


# -- code --------------------------------------------------------------------------------------


def test_missing_entry_point():
    problem = only_problem(pytorch, entry_point=None)
    assert_problem(problem, "entry_point", ["required"])


def test_entry_point_file_that_does_not_exist():
    est = pytorch(entry_point="missing.py")  # not checked before fit
    problem = fit_problem(est, grouped_inputs())
    assert_problem(problem, "entry_point", ["not a file"], "missing.py")


def test_entry_point_not_inside_source_dir():
    est = pytorch(entry_point="other.py", source_dir="src")
    problem = fit_problem(est, grouped_inputs())
    assert_problem(problem, "entry_point", ["source_dir"], "other.py")
    dry_run(pytorch(entry_point="train.py", source_dir="src"), grouped_inputs())


def test_source_dir_that_does_not_exist():
    est = pytorch(source_dir="nosuchdir")
    problem = fit_problem(est, grouped_inputs())
    assert_problem(problem, "source_dir", ["not a directory"], "nosuchdir")


# -- job name ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, words",
    [
        ("my_job", ["letters, digits and hyphens"]),
        ("my.job", ["letters, digits and hyphens"]),
        ("j" * 64, ["63"]),
        ("-job", ["starting and ending with a letter or digit"]),
    ],
)
def test_bad_job_name(name, words):
    problem = fit_problem(pytorch(job_name=name), grouped_inputs())
    assert_problem(problem, "job_name", words, name)
    problem = fit_problem(pytorch(), grouped_inputs(), job_name=name)
    assert_problem(problem, "job_name", words, name)


def test_job_name_of_63_characters_is_accepted():
    request = dry_run(pytorch(job_name="j" * 63), grouped_inputs())
    assert request["TrainingJobName"] == "j" * 63


def test_job_name_given_to_fit_overrides_the_constructor():
    est = pytorch(job_name="from-constructor")
    request = dry_run(est, grouped_inputs(), job_name="from-fit")
    assert request["TrainingJobName"] == "from-fit"
    assert request["HyperParameters"]["sagemaker_job_name"] == '"from-fit"'
    assert dry_run(est, grouped_inputs())["TrainingJobName"] == "from-constructor"


def test_bad_base_job_name():
    problem = fit_problem(pytorch(base_job_name="my_base"), grouped_inputs())
    assert_problem(problem, "base_job_name", ["letters, digits and hyphens"], "my_base")


# -- stopping condition and spot ----------------------------------------------------------------


@pytest.mark.parametrize("max_run, words", [(0, ["between 1 and"]), (2419201, ["2419200", "28 days"]),
                                            (-5, ["between 1 and"])])
def test_max_run_out_of_range(max_run, words):
    problem = only_problem(pytorch, max_run=max_run)
    assert_problem(problem, "max_run", words, max_run)


def test_max_run_of_28_days_is_accepted():
    request = dry_run(pytorch(max_run=2419200), grouped_inputs())
    assert request["StoppingCondition"]["MaxRuntimeInSeconds"] == 2419200


@pytest.mark.parametrize("max_run", [None, 3600.5, "3600"])
def test_max_run_not_an_integer(max_run):
    problem = only_problem(pytorch, max_run=max_run)
    assert_problem(problem, "max_run", ["integer"], max_run)


def test_spot_instances_without_max_wait():
    problem = only_problem(pytorch, use_spot_instances=True)
    assert_problem(problem, "max_wait", ["use_spot_instances"])


def test_max_wait_shorter_than_max_run():
    problem = only_problem(pytorch, use_spot_instances=True, max_run=7200, max_wait=3600)
    assert_problem(problem, "max_wait", ["max_run", "7200"], 3600)
    pytorch(use_spot_instances=True, max_run=7200, max_wait=7200)


def test_max_wait_without_spot_instances():
    problem = only_problem(pytorch, max_wait=90000)
    assert_problem(problem, "max_wait", ["use_spot_instances"], 90000)


# -- S3 locations ------------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["output_path", "code_location", "checkpoint_s3_uri"])
@pytest.mark.parametrize("uri", ["http://x", "bucket/prefix", "s3:///nobucket", "/local/dir"])
def test_locations_that_are_not_s3(field, uri):
    problem = only_problem(pytorch, **{field: uri})
    assert_problem(problem, field, ["S3"] if not uri.startswith("s3:") else ["bucket"], uri)


def test_checkpoint_local_path_needs_checkpoint_s3_uri():
    problem = only_problem(pytorch, checkpoint_local_path="/opt/ml/checkpoints")
    assert_problem(problem, "checkpoint_local_path", ["checkpoint_s3_uri"], "/opt/ml/checkpoints")


# -- tags --------------------------------------------------------------------------------------


def test_more_than_fifty_tags():
    tags = [{"Key": "k%d" % i, "Value": "v"} for i in range(51)]
    problem = only_problem(pytorch, tags=tags)
    assert_problem(problem, "tags", ["at most 50"], 51)
    pytorch(tags=tags[:50])


def test_reserved_tag_key():
    problem = only_problem(pytorch, tags=[{"Key": "team", "Value": "a"}, {"Key": "aws:owner", "Value": "me"}])
    assert_problem(problem, "tags[1].Key", ["aws:", "reserved"], "aws:owner")


def test_tag_key_too_long():
    key = "k" * 129
    problem = only_problem(pytorch, tags=[{"Key": key, "Value": "v"}])
    assert_problem(problem, "tags[0].Key", ["128"], key)
    pytorch(tags=[{"Key": "k" * 128, "Value": "v"}])


def test_tag_value_too_long():
    value = "v" * 257
    problem = only_problem(pytorch, tags=[{"Key": "k", "Value": value}])
    assert_problem(problem, "tags[0].Value", ["256"], value)
    pytorch(tags=[{"Key": "k", "Value": "v" * 256}])


def test_tags_as_a_dict_are_accepted():
    request = dry_run(pytorch(tags={"team": "ml", "project": "hetero"}), grouped_inputs())
    assert request["Tags"] == [{"Key": "team", "Value": "ml"}, {"Key": "project", "Value": "hetero"}]
    problem = only_problem(pytorch, tags={"aws:x": "y"})
    assert_problem(problem, "tags[0].Key", ["reserved"], "aws:x")


# -- hyperparameters ---------------------------------------------------------------------------


def test_more_than_100_user_hyperparameters():
    hps = {"h%d" % i: i for i in range(101)}
    problem = only_problem(generic, hyperparameters=hps)
    assert_problem(problem, "hyperparameters", ["at most 100"], 101)
    generic(hyperparameters={"h%d" % i: i for i in range(100)})


def test_hyperparameter_count_includes_the_sdk_keys():
    hps = {"h%d" % i: i for i in range(96)}
    problem = only_problem(pytorch, hyperparameters=hps)
    assert_problem(problem, "hyperparameters", ["at most 100"], 101)  # 96 + the SDK's own 5
    pytorch(hyperparameters={"h%d" % i: i for i in range(95)})


def test_hyperparameter_count_includes_the_distribution_keys():
    # mpi adds sagemaker_distribution_instance_groups, sagemaker_mpi_enabled, sagemaker_mpi_custom_mpi_options
    distribution = {"mpi": {"enabled": True}, "instance_groups": [GPU]}
    problem = only_problem(pytorch, hyperparameters={"h%d" % i: i for i in range(93)}, distribution=distribution)
    assert_problem(problem, "hyperparameters", ["at most 100"], 101)
    pytorch(hyperparameters={"h%d" % i: i for i in range(92)}, distribution=distribution)


def test_hyperparameter_key_too_long():
    key = "k" * 257
    problem = only_problem(pytorch, hyperparameters={key: 1})
    assert_problem(problem, "hyperparameters[%r]" % key, ["256"], key)
    pytorch(hyperparameters={"k" * 256: 1})


def test_hyperparameter_value_too_long_once_json_encoded():
    value = "x" * 2499  # 2501 characters as JSON text
    problem = only_problem(pytorch, hyperparameters={"big": value})
    assert_problem(problem, "hyperparameters['big']", ["2500"], json.dumps(value))  # as sent
    pytorch(hyperparameters={"big": "x" * 2498})
    # the generic estimator sends str(value): 2499 characters fit
    generic(hyperparameters={"big": value})


def test_hyperparameter_colliding_with_an_sdk_key():
    problem = only_problem(pytorch, hyperparameters={"sagemaker_program": "other.py"})
    assert_problem(problem, "hyperparameters['sagemaker_program']", ["SDK"], "sagemaker_program")


def test_hyperparameter_not_json_serialisable():
    value = object()
    problem = only_problem(pytorch, hyperparameters={"obj": value})
    assert_problem(problem, "hyperparameters['obj']", ["JSON"], value)


def test_hyperparameter_count_includes_tensorflow_model_dir():
    # 5 base keys + model_dir
    problem = only_problem(tensorflow, hyperparameters={"h%d" % i: i for i in range(95)})
    assert_problem(problem, "hyperparameters", ["at most 100"], 101)
    tensorflow(hyperparameters={"h%d" % i: i for i in range(94)})


def test_hyperparameters_set_after_construction_are_checked_by_fit():
    est = pytorch()
    est.set_hyperparameters(sagemaker_program="other.py")
    problem = fit_problem(est, grouped_inputs())
    assert_problem(problem, "hyperparameters['sagemaker_program']", ["SDK"], "sagemaker_program")


# -- environment -------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["1X", "A-B", "", "A B"])
def test_bad_environment_key(key):
    problem = only_problem(pytorch, environment={key: "v"})
    assert_problem(problem, "environment[%r]" % key, ["letters, digits and '_'"], key)


def test_more_than_100_environment_variables():
    env = {"V%d" % i: "x" for i in range(101)}
    problem = only_problem(pytorch, environment=env)
    assert_problem(problem, "environment", ["at most 100"], 101)
    pytorch(environment={"V%d" % i: "x" for i in range(100)})


def test_environment_key_too_long():
    key = "K" * 513
    problem = only_problem(pytorch, environment={key: "v"})
    assert_problem(problem, "environment[%r]" % key, ["512"], key)
    pytorch(environment={"K" * 512: "v"})


def test_environment_value_too_long():
    value = "v" * 513
    problem = only_problem(pytorch, environment={"KEY": value})
    assert_problem(problem, "environment['KEY']", ["512"], value)
    pytorch(environment={"KEY": "v" * 512})


def test_environment_value_not_a_string():
    problem = only_problem(pytorch, environment={"KEY": 1})
    assert_problem(problem, "environment['KEY']", ["string"], 1)


@pytest.mark.parametrize("attempts", [0, 31])
def test_retry_attempts_out_of_range(attempts):
    problem = only_problem(pytorch, max_retry_attempts=attempts)
    assert_problem(problem, "max_retry_attempts", ["1", "30"], attempts)


@pytest.mark.parametrize("size, words", [(0, [">= 1"]), (-1, [">= 1"]), (1.5, ["integer"])])
def test_volume_size(size, words):
    problem = only_problem(pytorch, volume_size=size)
    assert_problem(problem, "volume_size", words, size)


# -- keep alive, VPC, role ---------------------------------------------------------------------


@pytest.mark.parametrize("seconds", [-1, 21601])
def test_keep_alive_out_of_range(seconds):
    problem = only_problem(pytorch, keep_alive_period_in_seconds=seconds)
    assert_problem(problem, "keep_alive_period_in_seconds", ["0", "21600"], seconds)


@pytest.mark.parametrize("seconds", [0, 21600])
def test_keep_alive_bounds_are_accepted(seconds):
    request = dry_run(pytorch(keep_alive_period_in_seconds=seconds), grouped_inputs())
    assert request["ResourceConfig"]["KeepAlivePeriodInSeconds"] == seconds


def test_subnets_without_security_groups():
    problem = only_problem(pytorch, subnets=["subnet-1"])
    assert_problem(problem, "security_group_ids", ["subnets"])


def test_security_groups_without_subnets():
    problem = only_problem(pytorch, security_group_ids=["sg-1"])
    assert_problem(problem, "subnets", ["security_group_ids"])


def test_too_many_subnets_and_security_groups():
    assert paths_of(pytorch, subnets=["s%d" % i for i in range(17)], security_group_ids=["sg"]) == ["subnets"]
    assert paths_of(pytorch, subnets=["s"], security_group_ids=["sg%d" % i for i in range(6)]) == [
        "security_group_ids"
    ]


@pytest.mark.parametrize(
    "role, words",
    [("arn:aws:iam::123:role/x", ["ARN", "role name"]), ("not a role!", ["ARN", "role name"]),
     ("arn:aws:s3:::bucket", ["at least 20"]), ("r" * 65, ["at most 64"]), ("", ["at least 1"])],
)
def test_role_that_is_neither_an_arn_nor_a_name(role, words):
    problem = only_problem(pytorch, role=role)
    assert_problem(problem, "role", words, role)


def test_missing_role():
    problem = only_problem(pytorch, role=None)
    assert_problem(problem, "role", ["required"])


def test_plain_role_name_is_accepted_and_rendered_as_an_arn():
    request = dry_run(pytorch(role="SageMakerRole"), grouped_inputs())
    assert request["RoleArn"] == "arn:aws:iam::<account-id>:role/SageMakerRole"
    request = dry_run(pytorch(role=ROLE), grouped_inputs())
    assert request["RoleArn"] == ROLE


def test_region_without_a_training_image_is_a_config_error(monkeypatch):
    # The image cannot be named in that region: refused as a ConfigError, not a bare LookupError.
    monkeypatch.setenv("AWS_REGION", "mars-north-1")
    with pytest.raises(ConfigError) as info:
        pytorch()
    assert "sagemaker_session: no pytorch 1.10.0 training image in region mars-north-1" in str(info.value)
    # with its own image there is nothing to look up
    request = dry_run(pytorch(image_uri=IMAGE), grouped_inputs())
    assert request["AlgorithmSpecification"]["TrainingImage"] == IMAGE


# -- fit arguments -----------------------------------------------------------------------------


def test_bad_logs_argument():
    problem = fit_problem(pytorch(), grouped_inputs(), logs="Everything")
    assert_problem(problem, "logs", ["'All'"], "Everything")


def test_fit_collects_constructor_and_input_problems_together():
    est = pytorch(entry_point="missing.py", source_dir=None)
    inputs = grouped_inputs()
    inputs["extra"] = "http://x"
    inputs["a b"] = TrainingInput("s3://bucket/ab", instance_groups=["cpu_group"], compression="zip")
    paths = fit_paths(est, inputs, job_name="bad_name")
    assert paths == sorted(
        [
            "entry_point",
            "inputs['extra']",
            "inputs['a b']",
            "inputs['a b'].compression",
            "inputs",
            "job_name",
        ]
    )


# -- no network, no boto3 ----------------------------------------------------------------------


def test_dry_run_makes_no_network_call(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the dry run opened a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    est = pytorch(role="SageMakerRole", source_dir="src", job_name="my-training-job-with-heterogeneous-cluster")
    request = dry_run(est, grouped_inputs())
    assert request["TrainingJobName"] == "my-training-job-with-heterogeneous-cluster"
    with pytest.raises(ConfigError):
        dry_run(est, {"train": "http://x"})


SEED_DRY_RUN = """
import runpy, sys
runpy.run_path(sys.argv[1], run_name="__main__")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("boto3", "botocore"))
assert not loaded, loaded
# what a dry run does not use is not imported (issue 24: the dry run's time): the archive is hashed as it
# is written (no tarfile, tempfile, shutil), no pipeline parameter class, no name to suggest, no docstring;
# issue 29: no attrs (the dry run's classes are _model.record's) and no inspect (docstrings are made when read)
unused = ("tarfile", "tempfile", "shutil", "random", "difflib", "textwrap", "sagemaker_hetero._model.parameters",
          "attr", "attrs", "inspect")
loaded = sorted(m for m in unused if m in sys.modules)
assert not loaded, loaded
"""


def test_dry_run_does_not_import_boto3(workdir):
    env = dict(os.environ)
    env["PYTHONPATH"] = PROJECT_ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env["AWS_REGION"] = "us-west-2"
    result = subprocess.run(
        [sys.executable, "-c", SEED_DRY_RUN, os.path.join(PROJECT_ROOT, "examples", "seed_dry_run.py")],
        cwd=str(workdir),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        universal_newlines=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["TrainingJobName"] == "my-training-job-with-heterogeneous-cluster"


# -- found by fuzzing the estimators (tools/fuzz_estimators.py) --------------------------------


def test_a_file_uri_is_not_an_s3_uri_for_aws():
    problem = fit_problem(pytorch(), {"train": TrainingInput("file:///tmp/data", instance_groups=["cpu_group"]),
                                      "dummy": TrainingInput("s3://bucket/d", instance_groups=["gpu_group"])})
    assert_problem(problem, "inputs['train'].s3_data", ["S3 URI"], "file:///tmp/data")


def test_a_bad_model_channel_name_is_named_as_such():
    problem = only_problem(pytorch, model_uri="s3://bucket/model.tar.gz", model_channel_name="a b")
    assert_problem(problem, "model_channel_name", ["channel names"], "a b")


def test_a_job_name_that_is_not_a_string_is_a_problem_not_a_crash():
    problem = fit_problem(pytorch(job_name=5), grouped_inputs())
    assert_problem(problem, "job_name", ["string"], 5)


@pytest.mark.parametrize("base", ["", "x-", "a--b"])
def test_base_job_names_the_sdk_v2_turns_into_valid_names_are_accepted(base):
    request = dry_run(pytorch(base_job_name=base), grouped_inputs())
    expected = "pytorch-training" if base == "" else base
    assert request["TrainingJobName"].startswith(expected + "-")


def test_tags_whose_key_is_not_a_string_are_problems():
    for key in (["x"], {"a": 1}, 5):
        problem = only_problem(pytorch, tags=[{"Key": key, "Value": "v"}])
        assert_problem(problem, "tags[0].Key", ["string"], key)


def test_a_session_that_is_not_ours_is_a_problem():
    problem = only_problem(pytorch, sagemaker_session="my-session")
    assert_problem(problem, "sagemaker_session", ["Session or LocalSession"], "my-session")


def test_hyperparameter_keys_are_sent_as_strings_as_the_sdk_v2_sends_them():
    request = dry_run(pytorch(hyperparameters={True: 10, 3: "x"}), grouped_inputs())
    assert request["HyperParameters"]["True"] == "10"
    assert request["HyperParameters"]["3"] == '"x"'


def test_an_empty_channel_distribution_is_the_default_as_in_the_sdk_v2():
    inputs = grouped_inputs()
    inputs["train"] = TrainingInput("s3://bucket/train", instance_groups=["cpu_group"], distribution="")
    request = dry_run(pytorch(), inputs)
    assert request["InputDataConfig"][0]["DataSource"]["S3DataSource"]["S3DataDistributionType"] == "FullyReplicated"


def test_code_location_scheme_in_any_case_as_the_sdk_v2_parses_it():
    request = dry_run(pytorch(code_location="S3://my-bucket/code"), grouped_inputs())
    submit = json.loads(request["HyperParameters"]["sagemaker_submit_directory"])
    assert re.match(r"^s3://my-bucket/code/code/[0-9a-f]{64}/sourcedir\.tar\.gz$", submit)


def test_a_too_long_job_name_is_blamed_for_the_values_made_of_it():
    problems = problems_of(dry_run, tensorflow(job_name="j" * 5000), grouped_inputs())  # the code's URI and model_dir hold it too
    assert sorted(set(p.path for p in problems)) == ["job_name"]


def test_an_empty_job_name_is_no_name_as_in_the_sdk_v2():
    assert dry_run(pytorch(job_name=""), grouped_inputs())["TrainingJobName"].startswith("pytorch-training-")
    est = pytorch(job_name="from-constructor")
    assert dry_run(est, grouped_inputs(), job_name="")["TrainingJobName"] == "from-constructor"


def test_a_dict_of_tags_is_sent_as_strings_as_the_sdk_v2_sends_it():
    request = dry_run(pytorch(tags={"team": 7}), grouped_inputs())
    assert request["Tags"] == [{"Key": "team", "Value": "7"}]


def test_one_training_input_with_an_input_mode_sets_the_jobs_input_mode_as_in_the_sdk_v2():
    est = pytorch(instance_groups=None, instance_type="ml.c5.xlarge", instance_count=1)
    request = dry_run(est, TrainingInput("s3://bucket/train", input_mode="Pipe"))
    assert request["AlgorithmSpecification"]["TrainingInputMode"] == "Pipe"
    assert request["InputDataConfig"][0]["InputMode"] == "Pipe"


def test_base_job_name_only_matters_for_a_default_name():
    request = dry_run(pytorch(base_job_name=-1, job_name="my-job-1"), grouped_inputs())
    assert request["TrainingJobName"] == "my-job-1"
    assert fit_problem(pytorch(base_job_name=-1), grouped_inputs()).path == "base_job_name"


def test_an_empty_image_uri_of_the_generic_estimator_is_refused_as_given():
    problem = only_problem(generic, image_uri="")
    assert_problem(problem, "image_uri", ["image URI"], "")


def test_smdistributed_on_p5_needs_torch_distributed_as_in_the_sdk_v2():
    p5 = InstanceGroup("gpu_group", "ml.p5.48xlarge", 1)
    dist = {"smdistributed": {"dataparallel": {"enabled": True}}, "instance_groups": [p5]}
    problem = only_problem(pytorch, framework_version="2.0.1", py_version="py310", instance_groups=[CPU, p5],
                           distribution=dist)
    assert_problem(problem, "distribution.smdistributed", ["ml.p5.48xlarge", "torch_distributed"],
                   {"dataparallel": {"enabled": True}})
    dist["torch_distributed"] = {"enabled": True}
    pytorch(framework_version="2.0.1", py_version="py310", instance_groups=[CPU, p5], distribution=dist)
