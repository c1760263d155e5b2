"""``_checks.rules``: our own rules on the job model, called directly. One row per rule: a job that breaks it
and the problem (path, a fragment of the message) it gets; valid jobs get none."""
import pytest

from sagemaker_hetero._checks import rules
from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from tests._pure import CPU, GPU, PYTORCH, ROUTED, job, problems

HOMOG = dict(PYTORCH, instance_groups=None, instance_type="ml.p4d.24xlarge", instance_count=2)
TF = dict(PYTORCH, framework_version="2.13")
MPI_ON_GPU = {"mpi": {"enabled": True}, "instance_groups": ["gpu"]}


def _args(base, **changes):
    out = dict(base, **changes)
    return dict((k, v) for k, v in out.items() if v is not None)


# (id, framework, arguments, inputs, region, the problem's path, a fragment of its message)
RULES = [
    # the cluster
    ("group names unique", "pytorch", _args(PYTORCH, instance_groups=[CPU, InstanceGroup("cpu", "ml.g5.xlarge", 1)]), None, None,
     "instance_groups[1].instance_group_name", "names must be unique"),
    ("count at least 1", "pytorch", _args(HOMOG, instance_count=0), None, None, "instance_count", "must be an integer >= 1"),
    ("role required", "pytorch", _args(PYTORCH, role=None), None, None, "role", "is required: an IAM role ARN or role name"),
    # images
    ("generic needs an image", None, dict(role="r", instance_type="ml.c5.xlarge", instance_count=1), None, None,
     "image_uri", "is required for the generic Estimator"),
    ("image not empty", None, dict(image_uri="", role="r", instance_type="ml.c5.xlarge", instance_count=1), None, None,
     "image_uri", "must be an image URI"),
    ("framework version required", "pytorch", _args(PYTORCH, framework_version=None), None, None,
     "framework_version", "is required to choose the PyTorch training image"),
    ("framework version a string", "pytorch", _args(PYTORCH, framework_version=2.2), None, None,
     "framework_version", "must be a string such as '1.12.1'"),
    ("hetero needs a recent framework", "pytorch", _args(PYTORCH, framework_version="1.9.1", image_uri="a/b:1"), None,
     None, "framework_version", "heterogeneous clusters need PyTorch 1.10 or later"),
    ("a version with an image", "pytorch", _args(HOMOG, framework_version="0.9"), None, None,
     "framework_version", "no pytorch training image for framework_version 0.9"),
    ("py version required", "pytorch", _args(PYTORCH, py_version=None), None, None, "py_version", "is required (PyTorch 2.2.0 images:"),
    ("py version with an image", "pytorch", _args(PYTORCH, py_version="py27"), None, None,
     "py_version", "no PyTorch 2.2.0 training image for this Python"),
    ("an image in the region", "pytorch", PYTORCH, None, "mars-north-1", "sagemaker_session", "training image in region mars-north-1"),
    # code
    ("code location in S3", "pytorch", _args(PYTORCH, code_location="/tmp/code"), None, None, "code_location", "must be an S3 URI"),
    ("log level a level", "pytorch", _args(PYTORCH, container_log_level="INFO"), None, None,
     "container_log_level", "must be a logging level"),
    # channels
    ("channel names unique", "pytorch", _args(PYTORCH, model_uri="s3://b/m.tar.gz"), {"model": "s3://b/t"}, None,
     "inputs['model']", "is also the model channel (model_channel_name); rename one"),
    ("no channel named code when isolated", "pytorch", _args(PYTORCH, enable_network_isolation=True), {"code": "s3://b/t"}, None,
     "inputs['code']", "is the code channel of a network-isolated job"),
    ("channel routing all or none", "pytorch", PYTORCH, {"a": TrainingInput("s3://b/a", instance_groups=["cpu"]),
                                                        "b": TrainingInput("s3://b/b")}, None,
     "inputs", "if any channel names instance groups, every channel must: 'a' name groups, 'b' do not"),
    # distribution, per group
    ("a strategy's name", "pytorch", _args(PYTORCH, distribution={"mpii": {"enabled": True}, "instance_groups": ["gpu"]}), None, None,
     "distribution.mpii", "is not a distribution strategy; did you mean 'mpi'?"),
    ("a strategy's section a dict", "pytorch", _args(PYTORCH, distribution={"mpi": True, "instance_groups": ["gpu"]}), None, None,
     "distribution.mpi", "must be a dict such as {'enabled': True}"),
    ("smdistributed's parts", "pytorch", _args(HOMOG, distribution={"smdistributed": {"modelparalel": {"enabled": True}}}), None,
     None, "distribution.smdistributed.modelparalel", "must be dataparallel or modelparallel"),
    ("enabled a bool", "pytorch", _args(PYTORCH, distribution={"mpi": {"enabled": "true"}, "instance_groups": ["gpu"]}), None, None,
     "distribution.mpi.enabled", "must be True or False"),
    ("a PyTorch strategy on TensorFlow", "tensorflow", _args(TF, distribution={"torch_distributed": {"enabled": True},
                                                                               "instance_groups": ["gpu"]}), None, None,
     "distribution.torch_distributed", "is a PyTorch strategy"),
    ("a TensorFlow strategy on PyTorch", "pytorch", _args(HOMOG, distribution={"parameter_server": {"enabled": True}}), None, None,
     "distribution.parameter_server", "is a TensorFlow strategy"),
    ("one launcher", "pytorch", _args(PYTORCH, distribution={"mpi": {"enabled": True}, "torch_distributed": {"enabled": True},
                                                             "instance_groups": ["gpu"]}), None, None,
     "distribution", "mpi and torch_distributed all launch the training: enable one"),
    ("mpi or smddp", "pytorch", _args(HOMOG, distribution={"mpi": {"enabled": True},
                                                           "smdistributed": {"dataparallel": {"enabled": True}}}), None, None,
     "distribution", "mpi and smdistributed dataparallel exclude each other"),
    ("smmp under mpi", "pytorch", _args(HOMOG, distribution={"smdistributed": {"modelparallel": {"enabled": True}}}), None, None,
     "distribution.mpi", "smdistributed modelparallel runs under MPI: enable mpi too"),
    ("processes per host", "pytorch", _args(PYTORCH, distribution={"mpi": {"enabled": True, "processes_per_host": 0},
                                                                   "instance_groups": ["gpu"]}), None, None,
     "distribution.mpi.processes_per_host", "must be an integer >= 1"),
    ("custom mpi options a string", "pytorch", _args(PYTORCH, distribution={"mpi": {"enabled": True, "custom_mpi_options": 1},
                                                                            "instance_groups": ["gpu"]}), None, None,
     "distribution.mpi.custom_mpi_options", "must be a string"),
    ("a group for the distribution", "pytorch", _args(PYTORCH, distribution={"mpi": {"enabled": True}}), None, None,
     "distribution.instance_groups", "must name the one instance group that runs the distributed training (groups: 'cpu', 'gpu')"),
    ("a group's distribution enables one", "pytorch", _args(PYTORCH, distribution={"mpi": {"enabled": False},
                                                                                   "instance_groups": ["gpu"]}), None, None,
     "distribution", "names instance group 'gpu' but enables no strategy"),
    ("no ungroupable strategy on a group", "tensorflow", _args(TF, distribution={"parameter_server": {"enabled": True},
                                                                                 "instance_groups": ["gpu"]}), None, None,
     "distribution.parameter_server", "cannot be tied to one instance group"),
    ("smddp on GPUs", "pytorch", _args(PYTORCH, distribution={"smdistributed": {"dataparallel": {"enabled": True}},
                                                              "instance_groups": ["cpu"]}), None, None,
     "distribution.instance_groups", "smdistributed dataparallel needs GPU instances; ml.c5.xlarge has none"),
    ("smddp on its types", "pytorch", _args(HOMOG, instance_type="ml.g5.xlarge",
                                            distribution={"smdistributed": {"dataparallel": {"enabled": True}}}), None, None,
     "instance_type", "smdistributed dataparallel supports"),
    ("smdistributed on p5 needs torchrun", "pytorch", _args(HOMOG, instance_type="ml.p5.48xlarge",
                                                            distribution={"mpi": {"enabled": True},
                                                                          "smdistributed": {"modelparallel": {"enabled": True}}}),
     None, None, "distribution.smdistributed", "do not support ml.p5.48xlarge instances unless torch_distributed"),
    # the job's settings
    ("at most 28 days", "pytorch", _args(PYTORCH, max_run=28 * 86400 + 1), None, None, "max_run", "must be at most 2419200 seconds"),
    ("spot needs max_wait", "pytorch", _args(PYTORCH, use_spot_instances=True), None, None, "max_wait", "is required with use_spot"),
    ("max_wait covers max_run", "pytorch", _args(PYTORCH, use_spot_instances=True, max_run=7200, max_wait=3600), None, None,
     "max_wait", "must be >= max_run (7200)"),
    ("max_wait only for spot", "pytorch", _args(PYTORCH, max_wait=10 ** 5), None, None, "max_wait", "is only for managed spot training"),
    ("a volume of 1 GB", "pytorch", _args(PYTORCH, volume_size=0), None, None, "volume_size", "must be an integer number of GB >= 1"),
    ("checkpoints need S3", "pytorch", _args(PYTORCH, checkpoint_local_path="/opt/ml/checkpoints"), None, None,
     "checkpoint_local_path", "needs checkpoint_s3_uri"),
    ("a VPC needs both", "pytorch", _args(PYTORCH, subnets=["subnet-1"]), None, None, "security_group_ids", "is required with subnets"),
    ("no SDK hyperparameter", "pytorch", _args(PYTORCH, hyperparameters={"sagemaker_program": "x.py"}), None, None,
     "hyperparameters['sagemaker_program']", "is set by the SDK itself; remove it"),
    ("no aws: tags", "pytorch", _args(PYTORCH, tags=[{"Key": "aws:x", "Value": "1"}]), None, None,
     "tags[0].Key", "keys starting with 'aws:' are reserved"),
    ("tag keys unique", "pytorch", _args(PYTORCH, tags=[{"Key": "a", "Value": "1"}, {"Key": "a", "Value": "2"}]),
     None, None, "tags[1].Key", "is used by another tag"),
]


@pytest.mark.parametrize("framework, arguments, inputs, region, path, fragment", [r[1:] for r in RULES], ids=[r[0] for r in RULES])
def test_each_rule_names_the_argument_that_breaks_it(framework, arguments, inputs, region, path, fragment):
    if framework == "tensorflow":
        arguments = dict(arguments, py_version="py310")
    found = problems(framework, inputs, region=region, **arguments)
    at = [m for p, m in found if p == path]
    assert len(at) == 1 and fragment in at[0], found


VALID = [
    ("hetero, routed, mpi on a group", "pytorch", dict(PYTORCH, distribution=MPI_ON_GPU), ROUTED),
    ("hetero, torchrun on a group", "pytorch", dict(PYTORCH, distribution={"torch_distributed": {"enabled": True},
                                                                           "instance_groups": [GPU]}), ROUTED),
    ("hetero, smddp on p4d", "pytorch", dict(PYTORCH, distribution={"smdistributed": {"dataparallel": {"enabled": True}},
                                                                    "instance_groups": ["gpu"]}), None),
    ("one group runs the distribution unnamed", "pytorch", dict(PYTORCH, instance_groups=[GPU],
                                                                distribution={"mpi": {"enabled": True}}), None),
    ("homogeneous smmp under mpi", "pytorch", dict(HOMOG, distribution={"mpi": {"enabled": True},
                                                                       "smdistributed": {"modelparallel": {"enabled": True}}}),
     "s3://b/t"),
    ("TensorFlow parameter server", "tensorflow", dict(TF, instance_groups=None, instance_type="ml.c5.xlarge", instance_count=2,
                                                       distribution={"parameter_server": {"enabled": True}}), None),
    ("spot within max_wait", "pytorch", dict(PYTORCH, use_spot_instances=True, max_run=3600, max_wait=7200), None),
    ("a VPC", "pytorch", dict(PYTORCH, subnets=["subnet-1"], security_group_ids=["sg-1"]), None),
    ("the generic Estimator", None, dict(image_uri="a/b:1", role="r", instance_groups=[CPU, GPU]), ROUTED),
]


@pytest.mark.parametrize("framework, arguments, inputs", [r[1:] for r in VALID], ids=[r[0] for r in VALID])
def test_a_valid_job_breaks_no_rule(framework, arguments, inputs):
    if framework == "tensorflow":
        arguments = dict(arguments, py_version="py310")
    assert problems(framework, inputs, region="us-west-2", **arguments) == []


def _exists(present):
    return lambda kind, path: (kind, path) in present or ("any", path) in present and kind == "any"


CODE_PATHS = [
    ("entry point a file", dict(), set(), "entry_point", "is not a file"),
    ("source_dir a folder", dict(source_dir="src"), set(), "source_dir", "is not a directory"),
    ("entry point inside source_dir", dict(source_dir="src"), {("dir", "src")}, "entry_point", "is not a file inside source_dir 'src'"),
    ("dependency exists", dict(dependencies=["lib"]), {("file", "train.py")}, "dependencies[0]", "is not a file or directory"),
    ("dependency has a name", dict(dependencies=[".."]), {("file", "train.py"), ("any", "..")}, "dependencies[0]",
     "must end in a name of its own"),
]


@pytest.mark.parametrize("changes, present, path, fragment", [r[1:] for r in CODE_PATHS], ids=[r[0] for r in CODE_PATHS])
def test_code_paths_are_checked_with_the_path_check_handed_in(changes, present, path, fragment):
    found = problems("pytorch", path_exists=_exists(present), **dict(PYTORCH, **changes))
    at = [m for p, m in found if p == path]
    assert len(at) == 1 and fragment in at[0], found


def test_without_a_path_check_code_paths_are_not_checked_and_with_one_good_paths_pass():
    assert problems("pytorch", **dict(PYTORCH, source_dir="nowhere")) == []
    present = {("dir", "src"), ("file", "src/train.py"), ("any", "lib")}
    assert problems("pytorch", path_exists=_exists(present), **dict(PYTORCH, source_dir="src", dependencies=["lib"])) == []


@pytest.mark.parametrize("tags, paths", [
    ([{"Key": "a", "Value": "1"}, {"Key": "b", "Value": "2"}], []),
    ([{"Key": "AWS:x"}, {"Key": "a"}, {"Key": "a"}], ["labels[0].Key", "labels[2].Key"]),
    ([{"Value": "no key"}, "not a dict"], []),
    (None, []),
])
def test_tag_problems_under_any_argument_name(tags, paths):
    assert [p.path for p in rules.tag_problems(tags, arg="labels")] == paths


def test_rules_read_the_model_not_the_settings():
    """The rules take a built job: the same job gives the same problems every time (no state kept)."""
    j = job("pytorch", **dict(PYTORCH, max_run=10 ** 8))
    first = [(p.path, p.message) for p in rules.problems(j)]
    assert first == [(p.path, p.message) for p in rules.problems(j)] and [p for p, _ in first] == ["max_run"]
