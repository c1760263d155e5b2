"""Random but plausible estimator configurations, shared by tools/fuzz_estimators.py and
tests/test_properties.py, and how to run and classify one.

A configuration is a :class:`Case`: plain data (no SDK objects), so the same case can be built
for sagemaker-hetero, built for the SageMaker Python SDK v2 (the fuzzer's ``--sdk-v2`` mode),
pickled to another process and printed as a runnable reproduction. SDK classes appear as
:class:`Obj` nodes (``Obj("InstanceGroup", "cpu", "ml.c5.xlarge", 2)``); one ``Obj`` used in two
places (a group in ``instance_groups`` and in ``distribution``) is built once, as user code would.

Values come from a *chooser*: :class:`RandomChooser` (a seeded ``random.Random``) here, a
hypothesis ``data`` adapter in the property test. Every choice lists its simplest valid option
first and :meth:`chance` is rarely true, so shrinking leads to small, valid-looking cases.

Only the public surface of sagemaker_hetero is used (no ``sagemaker_hetero._*`` import).
"""
import collections
import copy
import os
import re
import traceback

__all__ = [
    "Obj", "Case", "RandomChooser", "make_case", "build", "case_code", "run_case", "Outcome", "NOT_GIVEN",
    "ESTIMATOR_ARGS", "FIT_ARGS", "HOSTILE_RATES", "prepare_workdir", "shrink", "generic_path", "generic_message",
    "group_name", "hetero_namespace", "path_is_an_argument", "with_account", "ACCOUNT",
]

ACCOUNT = "123456789012"
# The dry run's stand-in for an unknown account (docs/migrating.md); replaced before judging.
ACCOUNT_PLACEHOLDER = "<account-id>"

# Every argument the estimators take (the SDK v2's names; docs/validation.md, migrating.md).
ESTIMATOR_ARGS = (
    "role", "instance_groups", "instance_type", "instance_count", "volume_size", "volume_kms_key",
    "max_run", "input_mode", "output_path", "output_kms_key", "base_job_name", "hyperparameters",
    "tags", "subnets", "security_group_ids", "metric_definitions", "encrypt_inter_container_traffic",
    "use_spot_instances", "max_wait", "checkpoint_s3_uri", "checkpoint_local_path",
    "enable_network_isolation", "environment", "max_retry_attempts", "keep_alive_period_in_seconds",
    "entry_point", "source_dir", "dependencies", "code_location", "container_log_level", "image_uri",
    "framework_version", "py_version", "distribution", "debugger_hook_config", "profiler_config",
    "disable_profiler", "model_uri", "model_channel_name", "enable_sagemaker_metrics", "model_dir",
    "job_name", "sagemaker_session",
)
FIT_ARGS = ("inputs", "wait", "logs", "job_name", "experiment_config", "dry_run")
POSITIONAL = {
    "Estimator": ("image_uri", "role", "instance_count", "instance_type", "keep_alive_period_in_seconds", "volume_size",
                  "volume_kms_key", "max_run", "input_mode", "output_path", "output_kms_key", "base_job_name",
                  "sagemaker_session", "hyperparameters", "tags", "subnets", "security_group_ids", "model_uri",
                  "model_channel_name", "metric_definitions", "encrypt_inter_container_traffic",
                  "use_spot_instances", "max_wait", "checkpoint_s3_uri", "checkpoint_local_path",
                  "enable_network_isolation"),
    "PyTorch": ("entry_point", "framework_version", "py_version", "source_dir", "hyperparameters", "image_uri",
                "distribution"),
    "TensorFlow": ("py_version", "framework_version", "model_dir", "image_uri", "distribution"),
}
FRAMEWORK_ONLY = ("framework_version", "py_version", "distribution")

# The working directory every case runs in: the code paths the cases refer to exist there.
WORKDIR_FILES = ("train.py", "src/train.py", "src/util.py", "lib/helper.py", "requirements.txt",
                 "my script.py", "tr#ain.py", "\u00fcn\u00ef.py", "src/sub dir/train.py")


def prepare_workdir(path):
    for name in WORKDIR_FILES:
        full = os.path.join(path, name)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write("print('hello')\n")
    return path


# -- the data ------------------------------------------------------------------------------------


class Obj(object):
    """A call ``cls(*args, **kwargs)`` of a public SDK class, by name."""

    __slots__ = ("cls", "args", "kwargs")

    def __init__(self, cls, *args, **kwargs):
        self.cls = cls
        self.args = list(args)
        self.kwargs = dict(kwargs)

    def __getstate__(self):
        return (self.cls, self.args, self.kwargs)

    def __setstate__(self, state):
        self.cls, self.args, self.kwargs = state

    def __repr__(self):
        return "Obj(%r, *%r, **%r)" % (self.cls, self.args, self.kwargs)


class _Missing(object):
    def __repr__(self):
        return "NOT_GIVEN"

    def __reduce__(self):
        return (_missing, ())


def _missing():
    return NOT_GIVEN


NOT_GIVEN = _Missing()


class Case(object):
    """One configuration: ``cls(*args, **kwargs).fit(inputs, dry_run=True, **fit_kwargs)``."""

    __slots__ = ("cls", "args", "kwargs", "inputs", "fit_kwargs", "type_error_expected")

    def __init__(self, cls, args=(), kwargs=None, inputs=NOT_GIVEN, fit_kwargs=None, type_error_expected=False):
        self.cls = cls
        self.args = list(args)
        self.kwargs = dict(kwargs or {})
        self.inputs = inputs
        self.fit_kwargs = dict(fit_kwargs or {})
        self.type_error_expected = type_error_expected

    def __getstate__(self):
        return (self.cls, self.args, self.kwargs, self.inputs, self.fit_kwargs, self.type_error_expected)

    def __setstate__(self, state):
        self.cls, self.args, self.kwargs, self.inputs, self.fit_kwargs, self.type_error_expected = state

    def copy(self):
        return copy.deepcopy(self)

    def __repr__(self):  # how hypothesis shows a falsifying example: the reproduction itself
        return "\n" + case_code(self)


# -- choosers ------------------------------------------------------------------------------------


class RandomChooser(object):
    """Choices from a seeded ``random.Random``."""

    def __init__(self, rnd):
        self.rnd = rnd

    def chance(self, p):
        return self.rnd.random() < p

    def choice(self, seq):
        return seq[self.rnd.randrange(len(seq))]

    def randint(self, low, high):
        return self.rnd.randint(low, high)


class _Gen(object):
    """A chooser plus the case's hostility: how often a value comes from the hostile list."""

    def __init__(self, chooser, hostile_share, hostile_rates):
        self.c = chooser
        self.hostile_rate = chooser.choice(hostile_rates) if chooser.chance(hostile_share) else 0.0

    def chance(self, p):
        return self.c.chance(p)

    def choice(self, seq):
        return self.c.choice(seq)

    def randint(self, low, high):
        return self.c.randint(low, high)

    def hostile(self):
        return self.hostile_rate > 0 and self.c.chance(self.hostile_rate)

    def pick(self, valid, hostile=()):
        """A value from ``valid``, or now and then one from ``hostile`` (callables are called)."""
        value = self.choice(hostile) if hostile and self.hostile() else self.choice(valid)
        return value(self) if callable(value) else value


# -- value pools ---------------------------------------------------------------------------------

ROLE = "arn:aws:iam::%s:role/SageMakerRole" % ACCOUNT
IMAGE = "%s.dkr.ecr.us-west-2.amazonaws.com/my-image:latest" % ACCOUNT
CPU_TYPES = ("ml.c5.xlarge", "ml.c5.18xlarge", "ml.m5.xlarge", "ml.m5.4xlarge", "ml.c6i.32xlarge", "ml.r5.large",
             "ml.t3.medium")
GPU_TYPES = ("ml.p3.2xlarge", "ml.p3.16xlarge", "ml.p3dn.24xlarge", "ml.p4d.24xlarge", "ml.g5.xlarge",
             "ml.g4dn.xlarge", "ml.p5.48xlarge", "ml.g5.48xlarge", "ml.trn1.32xlarge")
SMDDP_TYPES = ("ml.p4d.24xlarge", "ml.p3dn.24xlarge", "ml.p3.16xlarge", "ml.p4de.24xlarge", "ml.p5.48xlarge")
PYTORCH_VERSIONS = (("1.12.1", "py38"), ("2.0.1", "py310"), ("1.10.2", "py38"), ("1.11.0", "py38"),
                    ("1.13.1", "py39"), ("2.0.0", "py310"), ("2.1.0", "py310"), ("2.2.0", "py310"),
                    ("2.3.0", "py311"), ("2.4.0", "py311"), ("2.5.1", "py311"), ("2.6.0", "py312"),
                    ("1.12", "py38"), ("2.0", "py310"), ("1.10.0", "py38"))
TENSORFLOW_VERSIONS = (("2.9.2", "py39"), ("2.12.0", "py310"), ("2.6.3", "py38"), ("2.11.0", "py39"),
                       ("2.13.0", "py310"), ("2.14.1", "py310"), ("2.16.2", "py310"), ("2.9", "py39"),
                       ("2.19.0", "py312"))
# Older than heterogeneous clusters allow (or than any image); still valid for one instance type.
OLD_VERSIONS = {"PyTorch": (("1.8.1", "py36"), ("1.9.0", "py38"), ("1.5.0", "py3")),
                "TensorFlow": (("2.4.1", "py37"), ("2.5.1", "py37"), ("1.15.5", "py37"))}
REGIONS = ("eu-central-1", "cn-north-1", "us-gov-west-1", "us-iso-east-1", "us-isof-south-1", "mx-central-1",
           "ap-southeast-7")

def _long(n, ch="a"):
    return lambda g: ch * n


HOSTILE_TEXT = (
    "", " ", "\n", "a\nb", "tab\there", "x\u2028y", "x\u0085y", "\u00fcn\u00efc\u00f8de", "\u0661\u0662\u0663",
    "emoji\U0001F600", "with space", "hash#tag", "under_score", "ctrl\x01char", "nul\x00byte", _long(257),
    _long(5000), "\ud800", 0, 1, -1, 2 ** 31, 2 ** 63, 1.5, float("nan"), True, False, None, ["list"],
    {"a": "dict"}, b"bytes", ("tu", "ple"),
)
HOSTILE_INT = (0, -1, 2 ** 31, 2 ** 31 - 1, 2 ** 63, -(2 ** 63) - 1, 10 ** 30, 1.0, 1.5, float("inf"), True, False,
               "1", "", None, [1], {"n": 1})
HOSTILE_BOOL = ("yes", "true", 1, 0, None, "", [True], "False")


def _s3(g, bucket="my-bucket", prefix="data"):
    return g.pick(
        ("s3://%s/%s" % (bucket, prefix), "s3://%s/%s/" % (bucket, prefix), "s3://%s" % bucket,
         "s3://%s/a/b/c" % bucket),
        ("s3://", "s3:///x", "s3://b", "/local/path", "file:///tmp/data", "https://my-bucket.s3.amazonaws.com/x",
         "s3://%s/%s" % (bucket, "k" * 1030), "s3://b/a\nb", "s3://b\n/x", "s3://b\u00fccket/x",
         "S3://my-bucket/x", "s3://my bucket/x", " s3://my-bucket/x", "s3:/my-bucket/x") + HOSTILE_TEXT[16:],
    )


def _text(g, valid, extra_hostile=()):
    return g.pick(valid, tuple(extra_hostile) + HOSTILE_TEXT)


def _int(g, valid, extra_hostile=()):
    return g.pick(valid, tuple(extra_hostile) + HOSTILE_INT)


def _bool(g):
    return g.pick((True, False), HOSTILE_BOOL)


# -- the cluster -----------------------------------------------------------------------------------

_GROUP_NAMES = ("data_group", "dnn_group", "cpu", "gpu", "g-1", "grp.2", "workers", "Gr\u00fcppe", "x")
_HOSTILE_GROUP_NAMES = ("", "a" * 64, "a" * 65, "with space", "new\nline", "hash#", "\u2028", 0, None,
                        ["g"], ("g",), "emoji\U0001F600")


def _group(g, name, want_gpu=None):
    if want_gpu is None:
        want_gpu = g.chance(0.5)
    itype = g.pick(GPU_TYPES if want_gpu else CPU_TYPES,
                   ("ml.p3dn.24xlarg", "ML.M5.XLARGE", "ml.m5.xlarge ", "", "m5.xlarge", "ml.m5.xlarge\n", 5, None,
                    "ml.inf1.xlarge", ["ml.m5.xlarge"]))
    count = _int(g, (1, 2, 1, 4, 16))
    if g.chance(0.1):
        return Obj("InstanceGroup", instance_group_name=name, instance_type=itype, instance_count=count)
    return Obj("InstanceGroup", name, itype, count)


def _cluster(g, kwargs):
    """Fill the cluster arguments; returns the list of group Objs (empty when homogeneous)."""
    if g.chance(0.72):
        n = g.choice((2, 1, 2, 3, 4, 5))
        if g.hostile():
            n = g.choice((0, 6, 7))
        names = []
        for i in range(n):
            name = g.choice(_GROUP_NAMES)
            while name in names and not g.hostile():
                name = "%s%d" % (name, i)
            if g.hostile():
                name = g.choice(_HOSTILE_GROUP_NAMES)
            names.append(name)
        groups = [_group(g, name, want_gpu=(i == n - 1) if g.chance(0.6) else None) for i, name in enumerate(names)]
        value = list(groups)
        if g.hostile():
            value = g.choice((tuple(groups), {"g": groups}, groups[0] if groups else None, "cpu",
                              groups + [{"instance_group_name": "d"}], groups + ["gpu"]))
        kwargs["instance_groups"] = value
        if g.hostile():
            kwargs[g.choice(("instance_type", "instance_count"))] = g.choice(("ml.m5.xlarge", 1))
        return groups
    kwargs["instance_type"] = g.pick(CPU_TYPES + GPU_TYPES, ("ml.p3dn.24xlarg", "", "m5.xlarge", 5, None, ["x"],
                                                             "ml.m5.xlarge\n"))
    kwargs["instance_count"] = _int(g, (1, 2, 4, 1))
    if g.hostile():
        del kwargs[g.choice(("instance_type", "instance_count"))]
    return []


def group_name(group):
    """The name an InstanceGroup Obj was given."""
    return group.args[0] if group.args else group.kwargs.get("instance_group_name")


def _group_ref(g, group, by_name_ok=True):
    """How user code names a group: the InstanceGroup object itself, or its name."""
    if g.hostile():
        return g.choice(("no_such_group", 3, None, Obj("InstanceGroup", group_name(group), "ml.m5.24xlarge", 9), ""))
    if by_name_ok and g.chance(0.35):
        return group_name(group)
    return group


# -- framework, image, code ---------------------------------------------------------------------


def _framework(g, cls, kwargs, groups):
    if cls == "Estimator":
        kwargs["image_uri"] = g.pick((IMAGE, "%s.dkr.ecr.us-west-2.amazonaws.com/my_trainer:1" % ACCOUNT,
                                      "my-image:latest", "public.ecr.aws/x/y@sha256:" + "0" * 64),
                                     ("", "a" * 256, "img\nx", 1, None, ["img"]))
        if g.hostile():
            kwargs[g.choice(FRAMEWORK_ONLY)] = "1.12.1"  # not an argument of Estimator: TypeError
        return
    versions = PYTORCH_VERSIONS if cls == "PyTorch" else TENSORFLOW_VERSIONS
    version, py = g.choice(versions) if not g.hostile() else g.choice(OLD_VERSIONS[cls])
    kwargs["framework_version"] = g.pick((version,), ("", "latest", 1.12, None, "1.1x", "99.0", "2", ["1.12"]))
    kwargs["py_version"] = g.pick((py,), ("py37", "py3", "py399", "", None, 3, "PY38"))
    if g.chance(0.08):
        kwargs["image_uri"] = g.pick((IMAGE,), ("", 1))
    if g.hostile() and g.chance(0.1):
        kwargs.pop(g.choice(("framework_version", "py_version")))


def _code(g, cls, kwargs):
    if cls == "Estimator" and g.chance(0.5):
        if g.hostile() and g.chance(0.2):
            kwargs["source_dir"] = "src"
        return
    layout = g.choice(("flat", "src", "s3", "flat", "src"))
    if layout == "flat":
        kwargs["entry_point"] = g.pick(
            ("train.py", "my script.py", "\u00fcn\u00ef.py", "tr#ain.py", "src/train.py"),
            ("missing.py", "", "s3://b/train.py", 5, None, "src", "train.py\n", ["train.py"]))
    elif layout == "src":
        kwargs["source_dir"] = g.pick(("src", "src/"), ("nope", "", "train.py", 1, "s3://b/code"))
        kwargs["entry_point"] = g.pick(("train.py", "util.py", "sub dir/train.py"), ("missing.py", "", None))
    else:
        kwargs["source_dir"] = g.pick(("s3://my-bucket/code/sourcedir.tar.gz",), ("s3://my-bucket/code", "s3://",
                                                                                   "https://b/code.tar.gz"))
        kwargs["entry_point"] = "train.py"
    if g.chance(0.15):
        kwargs["dependencies"] = g.pick((["lib"], ["lib/helper.py"], ["lib", "requirements.txt"], []),
                                        ("lib", ["missing"], [1], [None], ["s3://b/lib"], {"lib": 1}))
    if cls != "Estimator" and g.hostile() and g.chance(0.3):
        kwargs.pop("entry_point", None)


# -- distribution -----------------------------------------------------------------------------------

_PT_STRATEGIES = ("torch_distributed", "mpi", "smddp", "pytorchddp", "smmp", "pytorchxla")
_TF_STRATEGIES = ("mpi", "smddp", "smmp", "parameter_server", "multi_worker_mirrored_strategy")


def _enabled(g):
    return {"enabled": g.pick((True,), (False, "yes", 1, None))}


def _distribution(g, cls, kwargs, groups):
    strategies = _PT_STRATEGIES if cls == "PyTorch" else _TF_STRATEGIES
    if groups:  # heterogeneous clusters run mpi, smdistributed or torch_distributed on one group
        strategies = tuple(s for s in strategies if s in ("torch_distributed", "mpi", "smddp", "pytorchddp", "smmp"))
    strategy = g.choice(strategies)
    if g.hostile():
        strategy = g.choice(_PT_STRATEGIES + _TF_STRATEGIES + ("mpii", "horovod", "both"))
    dist = {}
    if strategy == "mpi":
        mpi = _enabled(g)
        if g.chance(0.5):
            mpi["processes_per_host"] = _int(g, (8, 1, 4))
        if g.chance(0.3):
            mpi["custom_mpi_options"] = _text(g, ("-verbose --NCCL_DEBUG=INFO", ""))
        dist["mpi"] = mpi
    elif strategy == "smddp":
        dist["smdistributed"] = {"dataparallel": _enabled(g)}
        if g.chance(0.2):
            dist["smdistributed"]["dataparallel"]["custom_mpi_options"] = "-verbose"
    elif strategy == "smmp":
        dist["smdistributed"] = {"modelparallel": dict(_enabled(g), parameters={"partitions": 2, "microbatches": 4})}
        dist["mpi"] = {"enabled": True, "processes_per_host": 8}
    elif strategy == "both":
        dist["mpi"] = {"enabled": True}
        dist["smdistributed"] = {"dataparallel": {"enabled": True}}
    elif strategy == "horovod":
        dist["horovod"] = {"enabled": True}
    else:
        dist[strategy] = _enabled(g)
    if g.hostile():
        key = g.choice(list(dist))
        dist[key] = g.choice((True, "enabled", None, [], {"enabled": True, "bogus": 1}))
    target = groups[-1] if groups and g.chance(0.8) else (g.choice(groups) if groups else None)
    if strategy in ("smddp", "pytorchddp", "both") and target is not None and not g.hostile():
        if len(target.args) > 1:
            target.args[1] = g.choice(SMDDP_TYPES)
        else:
            target.kwargs["instance_type"] = g.choice(SMDDP_TYPES)
    elif strategy in ("smddp", "pytorchddp", "both") and not groups and "instance_type" in kwargs and not g.hostile():
        kwargs["instance_type"] = g.choice(SMDDP_TYPES)
    if groups and (len(groups) > 1 or g.chance(0.5)):
        ref = _group_ref(g, target, by_name_ok=True)
        refs = [ref]
        if g.hostile():
            refs = g.choice(([], [ref, ref], groups[:2], ref, "gpu"))
        dist["instance_groups"] = refs
    elif not groups and g.hostile():
        dist["instance_groups"] = ["gpu"]
    kwargs["distribution"] = g.pick((dist,), ("mpi", ["mpi"], {}, None, 1))


# -- the other estimator arguments --------------------------------------------------------------

_TAG_OK = ({"Key": "team", "Value": "ml"}, {"Key": "project", "Value": "hetero-1"}, {"Key": "k", "Value": ""},
           {"Key": "n\u00e4me", "Value": "v\u00e4lue"}, {"Key": "a.b:c/d=e+f-g@h", "Value": "x y"})
_TAG_BAD = ({"Key": "aws:x", "Value": "v"}, {"Key": "", "Value": "v"}, {"Key": "a" * 129, "Value": "v"},
            {"Key": "k", "Value": "a" * 257}, {"Key": "k", "Value": "hash#"}, {"Key": "bang!", "Value": "v"},
            {"Key": "k", "Value": None}, {"Key": 1, "Value": "v"}, {"Key": "k"}, {"Key": "k", "Value": "v", "X": 1},
            {"key": "k", "value": "v"}, {"Key": "k", "Value": "line\nbreak"}, {"Key": "k\t", "Value": "v"},
            ("k", "v"), "k=v", None, {"Key": "AWS:x", "Value": "v"}, {"Key": "k", "Value": 1})


def _tags(g):
    if g.hostile() and g.chance(0.2):
        return g.choice(("team=ml", 1, {"k"}, [["k", "v"]], [{"Key": "t%d" % i, "Value": "v"} for i in range(51)]))
    tags = []
    for _ in range(g.randint(1, 3)):
        tag = g.pick(_TAG_OK, _TAG_BAD)
        if tag not in tags or g.hostile():
            tags.append(dict(tag) if isinstance(tag, dict) else tag)
    if g.chance(0.25) and all(isinstance(t, dict) and "Key" in t and "Value" in t for t in tags):
        try:
            return {t["Key"]: t["Value"] for t in tags}
        except TypeError:
            return tags
    return tags


def _hyperparameters(g):
    if g.hostile() and g.chance(0.15):
        return g.choice(([("epochs", 1)], "epochs=1", 1, {"k%d" % i: i for i in range(101)}))
    hps = {}
    for _ in range(g.randint(1, 4)):
        key = g.pick(("epochs", "lr", "batch-size", "model_name", "nested", "flag", "n\u00e4me", "a.b"),
                     (1, None, (1, 2), frozenset([1]), "k" * 257, "new\nline", "x\u2028y", "", "sagemaker_program",
                      "sagemaker_region", "model_dir", "sagemaker_mpi_enabled", 1.5, True))
        value = g.pick((10, 0.001, "resnet", True, [1, 2], {"a": 1}, None, "two words", -3),
                       ("v" * 2500, "line\nbreak", "x\u2028y", b"bytes", {1, 2}, float("nan"), float("inf"),
                        2 ** 70, {(1, 2): 3}, "\x00", "e" * 3000))
        try:
            hps[key] = value
        except TypeError:  # an unhashable key cannot even be written
            pass
    return hps


def _environment(g):
    if g.hostile() and g.chance(0.15):
        return g.choice((["A=1"], "A=1", {"V%d" % i: "1" for i in range(101)}))
    env = {}
    for _ in range(g.randint(1, 3)):
        key = g.pick(("MY_VAR", "NCCL_DEBUG", "_X", "a1"), ("1ABC", "A-B", "\u00c9T\u00c9", "", "A B", "A\nB",
                                                             "K" * 513, 1, None, ("A",)))
        value = g.pick(("1", "INFO", "", "some value", "a\nb"), (1, None, True, "v" * 513, ["x"], "\u00fc" * 10))
        env[key] = value
    return env


def _ids(g, prefix, limit):
    valid = (["%s-0123abcd" % prefix], ["%s-0123abcd" % prefix, "%s-4567ef01" % prefix])
    hostile = ("%s-0123abcd" % prefix, [], [""], ["%s_1" % prefix], ["x" * 33], [1], [None],
               ["%s-%d" % (prefix, i) for i in range(limit + 1)], ["%s-\u00fc" % prefix], ["a b"])
    return g.pick(valid, hostile)


def _metric_definitions(g):
    valid = ([{"Name": "loss", "Regex": "loss=(\\S+)"}],
             [{"Name": "train:acc", "Regex": "acc: ([0-9.]+)"}, {"Name": "val:acc", "Regex": "val_acc: (.*)"}])
    hostile = ([{"Name": "loss"}], [{"Name": "loss", "Regex": "x", "Extra": 1}], [{"Name": "n" * 256, "Regex": "x"}],
               [{"Name": "loss", "Regex": "r" * 501}], [{"Name": "a\nb", "Regex": "x"}],
               [{"Name": "l%d" % i, "Regex": "x"} for i in range(41)], {"Name": "loss", "Regex": "x"},
               [{"Name": "", "Regex": "x"}], [{"Name": 1, "Regex": "x"}], [("loss", "x")], "loss")
    return copy.deepcopy(g.pick(valid, hostile))


def _hook(g, kind):
    valid = (True, False, None, {"S3OutputPath": "s3://my-bucket/%s" % kind})
    hostile = ({"S3OutputPath": "s3://my-bucket/x", "Bogus": 1}, {"S3OutputPath": 1}, {"S3OutputPath": "/local"},
               "yes", 1, [], {"LocalPath": "/opt/ml/x\n"})
    return copy.deepcopy(g.pick(valid, hostile))


def _optional_args(g, cls, kwargs, groups):
    """Each remaining argument with some probability, mostly valid."""
    def maybe(p):
        return g.chance(p)

    if not (g.hostile() and maybe(0.2)):
        kwargs["role"] = _text(g, (ROLE, "SageMakerRole",
                                   "arn:aws:iam::%s:role/service-role/AmazonSageMaker-ExecutionRole" % ACCOUNT,
                                   "arn:aws-cn:iam::%s:role/x" % ACCOUNT, "my.role@x+y=z,w-v"),
                               ("arn:aws:iam::12345:role/x", "arn:aws:iam::\u0661\u0662\u0663\u0664\u0665\u0666\u0667"
                                "\u0668\u0669\u0660\u0661\u0662:role/x", "arn:aws:iam::%s:role/r\u00f4le" % ACCOUNT,
                                "r\u00f4le", "my role", "r" * 65, "role\n", "arn:aws:iam::%s:user/x" % ACCOUNT,
                                "arn:aws:iam::%s:role/" % ACCOUNT, "service-role/x"))
    if maybe(0.25):
        kwargs["volume_size"] = _int(g, (30, 1, 100, 500))
    if maybe(0.1):
        kwargs["volume_kms_key"] = _text(g, ("arn:aws:kms:us-west-2:%s:key/1234abcd-12ab" % ACCOUNT, "alias/my-key",
                                             "1234abcd-12ab-34cd"), ("key with space", "k" * 2049, "cl\u00e9"))
    if maybe(0.1):
        kwargs["output_kms_key"] = _text(g, ("alias/my-key", "arn:aws:kms:us-west-2:%s:key/abcd" % ACCOUNT),
                                         ("key with space", "k" * 2049, "k\u00e9y"))
    if maybe(0.25):
        kwargs["max_run"] = _int(g, (3600, 86400, 2419200, 1, 5 * 86400), (2419201, 86400 * 30))
    if maybe(0.15):
        kwargs["input_mode"] = _text(g, ("File", "Pipe", "FastFile"), ("file", "FILE"))
    if maybe(0.3):
        kwargs["output_path"] = _s3(g, "my-out", "output")
    if maybe(0.15):
        kwargs["base_job_name"] = _text(g, ("my-job", "pytorch-hetero", "a" * 70, "job1"),
                                        ("my_job", "-x", "x-", "j\u00f6b", "a--b"))
    if maybe(0.3):
        kwargs["hyperparameters"] = _hyperparameters(g)
    if maybe(0.2):
        kwargs["tags"] = _tags(g)
    if maybe(0.1):
        kwargs["subnets"] = _ids(g, "subnet", 16)
        if not g.hostile():
            kwargs["security_group_ids"] = _ids(g, "sg", 5)
    elif g.hostile() and maybe(0.1):
        kwargs["security_group_ids"] = _ids(g, "sg", 5)
    if maybe(0.12):
        kwargs["metric_definitions"] = _metric_definitions(g)
    for flag in ("encrypt_inter_container_traffic", "enable_network_isolation", "disable_profiler"):
        if maybe(0.08):
            kwargs[flag] = _bool(g)
    if maybe(0.12):
        kwargs["use_spot_instances"] = g.pick((True,), (False, "yes", 1, None))
        run = kwargs.get("max_run", 86400)
        if not g.hostile() or g.chance(0.5):
            base = run if isinstance(run, int) and not isinstance(run, bool) else 86400
            kwargs["max_wait"] = _int(g, (base, base + 3600, 2419200), (base - 1, 2 ** 31))
    elif g.hostile() and maybe(0.1):
        kwargs["max_wait"] = _int(g, (86400,))
    if maybe(0.1):
        kwargs["checkpoint_s3_uri"] = _s3(g, "my-bucket", "checkpoints")
        if maybe(0.5):
            kwargs["checkpoint_local_path"] = _text(g, ("/opt/ml/checkpoints", "/tmp/ckpt"),
                                                    ("/opt/ml/\nx", "/" + "p" * 4096))
    elif g.hostile() and maybe(0.1):
        kwargs["checkpoint_local_path"] = "/opt/ml/checkpoints"
    if maybe(0.15):
        kwargs["environment"] = _environment(g)
    if maybe(0.1):
        kwargs["max_retry_attempts"] = _int(g, (1, 3, 30), (31,))
    if maybe(0.1):
        kwargs["keep_alive_period_in_seconds"] = _int(g, (0, 1800, 21600), (21601,))
    if maybe(0.08):
        kwargs["code_location"] = _s3(g, "my-bucket", "code")
    if maybe(0.06):
        kwargs["container_log_level"] = _int(g, (20, 10, 40), ("INFO", 2 ** 40))
    if maybe(0.06):
        kwargs["model_uri"] = _s3(g, "my-bucket", "model/model.tar.gz")
        if maybe(0.4):
            kwargs["model_channel_name"] = _text(g, ("model", "pretrained"), ("my model", "m" * 65))
    if maybe(0.06):
        kwargs["enable_sagemaker_metrics"] = g.pick((True, False, None), ("yes", 1))
    if cls == "TensorFlow" and maybe(0.15):
        kwargs["model_dir"] = g.pick((False, "s3://my-out/model", "/opt/ml/model", None), ("", 1, "m\nx", [1]))
    if maybe(0.05):
        kwargs["debugger_hook_config"] = _hook(g, "debug")
    if maybe(0.05):
        kwargs["profiler_config"] = _hook(g, "profile")
    if maybe(0.12):
        kwargs["job_name"] = _text(g, ("my-job-1", "a" * 63, "J0b"), ("a" * 64, "my_job", "-job", "j\u00f6b", "job-"))
    if maybe(0.03):
        region = g.choice(REGIONS)
        session = {"region": region}
        if g.chance(0.5):
            session["default_bucket"] = g.pick(("my-bucket",), ("", "B_ucket", "b\nx"))
        kwargs["sagemaker_session"] = Obj("Session", **session)


# -- channels -----------------------------------------------------------------------------------------


def _channel_groups(g, groups):
    k = g.randint(1, min(len(groups), 3))
    chosen = [groups[i] for i in range(len(groups))][:k] if g.chance(0.5) else [g.choice(groups)]
    refs = [_group_ref(g, grp) for grp in chosen]
    if g.hostile():
        refs = g.choice(([], "cpu", refs + refs, refs + ["no_such_group"], [None], refs * 3))
    return refs


def _training_input(g, groups, assign):
    kwargs = {}
    s3 = _s3(g, "my-bucket", g.choice(("train", "test", "val")))
    if g.chance(0.5):
        kwargs["distribution"] = g.pick(("FullyReplicated", "ShardedByS3Key"), ("Sharded", "", None, 1))
    if g.chance(0.15):
        kwargs["compression"] = g.pick(("Gzip", "None"), ("gzip", "zip", 1))
    if g.chance(0.25):
        kwargs["content_type"] = _text(g, ("text/csv", "application/x-recordio", "application/json; charset=utf-8"),
                                       ("text\ncsv", "c" * 257))
    if g.chance(0.1):
        kwargs["record_wrapping"] = g.pick(("RecordIO", "None"), ("recordio", 1))
    if g.chance(0.3):
        kwargs["s3_data_type"] = g.pick(("S3Prefix", "ManifestFile", "AugmentedManifestFile"),
                                        ("Converse", "s3prefix", "", None, 1))
    if g.chance(0.3):
        kwargs["input_mode"] = g.pick(("File", "Pipe", "FastFile"), ("file", "", 1))
    if g.chance(0.08):
        kwargs["attribute_names"] = g.pick((["source-ref", "label"], ["a"]),
                                           ("source-ref", [], [""], ["n" * 257], ["a%d" % i for i in range(17)], [1],
                                            ["a\nb"]))
    if g.chance(0.08):
        seed = _int(g, (42, 0, 2 ** 31, 2 ** 62), (2 ** 63, -(2 ** 64), "42", True, 1.5))
        kwargs["shuffle_config"] = Obj("ShuffleConfig", seed) if not g.hostile() else g.choice((seed, {"seed": 1}))
    if g.hostile() and g.chance(0.05):
        kwargs["target_attribute_name"] = "label"
    if assign:
        kwargs["instance_groups"] = _channel_groups(g, groups)
    if g.chance(0.5):
        return Obj("TrainingInput", s3, **kwargs)
    return Obj("TrainingInput", s3_data=s3, **kwargs)


_CHANNEL_NAMES = ("train", "test", "validation", "training", "dummy", "data.v1", "my-channel", "ch_1")
_HOSTILE_CHANNEL_NAMES = ("", "my channel", "a" * 65, "train/x", "k\u00e4se", "new\nline", 1, None, ("t",), "model",
                          "code", "hash#")


def _inputs(g, groups):
    kind = g.choice(("dict", "dict", "dict", "uri", "input", "none"))
    if g.hostile() and g.chance(0.2):
        return g.choice((["s3://my-bucket/train"], 1, {"s3://my-bucket/train"}, ("s3://a/b",), b"s3://a/b"))
    if kind == "none":
        return NOT_GIVEN
    assign = bool(groups) and g.chance(0.5)
    if kind == "uri":
        return _s3(g, "my-bucket", "train")
    if kind == "input":
        return _training_input(g, groups, assign)
    channels = {}
    n = g.randint(1, 4)
    if g.hostile() and g.chance(0.1):
        n = 21
    for i in range(n):
        name = g.pick(_CHANNEL_NAMES, _HOSTILE_CHANNEL_NAMES)
        if name in channels:
            name = "ch%d" % i
        if g.chance(0.3) and (not assign or g.hostile()):
            value = _s3(g, "my-bucket", "c%d" % i)
        else:
            value = _training_input(g, groups, assign and not (g.hostile() and g.chance(0.3)))
        if g.hostile() and g.chance(0.05):
            value = g.choice(({"S3DataSource": "s3://x/y"}, 1, None, ["s3://a/b"]))
        try:
            channels[name] = value
        except TypeError:
            pass
    return channels


# -- the case -------------------------------------------------------------------------------------


_UNKNOWN_KWARGS = ("instance_typo", "git_config", "rules", "tensorboard_output_config", "compiler_config",
                   "train_instance_type", "entrypoint", "hyperparameter")


HOSTILE_RATES = (0.01, 0.02, 0.04, 0.08, 0.15, 0.3)


def make_case(chooser, hostile_share=0.8, hostile_rates=HOSTILE_RATES):
    """A random configuration from ``chooser`` (:class:`RandomChooser` or a hypothesis adapter).

    ``hostile_share`` of the cases hold hostile values (wrong types, limits, odd text), each
    value of such a case with a probability from ``hostile_rates``."""
    g = _Gen(chooser, hostile_share, hostile_rates)
    cls = g.choice(("PyTorch", "PyTorch", "TensorFlow", "Estimator"))
    kwargs = {}
    groups = _cluster(g, kwargs)
    _framework(g, cls, kwargs, groups)
    _code(g, cls, kwargs)
    if cls != "Estimator" and g.chance(0.5):
        _distribution(g, cls, kwargs, groups)
    _optional_args(g, cls, kwargs, groups)
    type_error = False
    if g.hostile() and g.chance(0.1):
        kwargs[g.choice(_UNKNOWN_KWARGS)] = 1
        type_error = True
    if cls == "Estimator" and any(k in kwargs for k in FRAMEWORK_ONLY + ("model_dir",)):
        type_error = True
    if cls == "PyTorch" and "model_dir" in kwargs:
        type_error = True
    args = []
    if g.chance(0.2):  # the SDK v2's positional order
        for name in POSITIONAL[cls]:
            if name not in kwargs:
                break
            args.append(kwargs.pop(name))
        if g.hostile() and g.chance(0.2):
            args.extend([None] * (len(POSITIONAL[cls]) - len(args) + 1))
            type_error = True
    fit = {}
    if g.chance(0.12):
        fit["job_name"] = _text(g, ("fit-job-1", "x" * 63), ("my_job", "x" * 64, "-j"))
    if g.chance(0.08):
        ec = {"ExperimentName": "my-experiment", "TrialName": "trial-1"}
        if g.chance(0.3):
            ec["TrialComponentDisplayName"] = "component"
        if g.chance(0.3):
            ec["RunName"] = "run-1"
        if g.hostile():
            ec[g.choice(("ExperimentName", "TrialName", "Bogus", "RunName"))] = g.choice(
                ("my_experiment", "e" * 121, "", 1, None, "\u00e9xp", "a\nb"))
        fit["experiment_config"] = g.pick((ec,), ("exp", ["ExperimentName"], 1))
    if g.chance(0.05):
        fit["logs"] = g.pick(("All", True, False, "None", "Training", "Rules"), ("verbose", "all", 1, None))
    return Case(cls, args, kwargs, _inputs(g, groups), fit, type_error)


# -- building, printing ---------------------------------------------------------------------------


def hetero_namespace():
    """The public classes of sagemaker_hetero, by the names the cases use."""
    from sagemaker_hetero.estimator import Estimator
    from sagemaker_hetero.inputs import ShuffleConfig, TrainingInput
    from sagemaker_hetero.instance_group import InstanceGroup
    from sagemaker_hetero.pytorch import PyTorch
    from sagemaker_hetero.tensorflow import TensorFlow

    return {
        "Estimator": Estimator, "PyTorch": PyTorch, "TensorFlow": TensorFlow, "InstanceGroup": InstanceGroup,
        "TrainingInput": TrainingInput, "ShuffleConfig": ShuffleConfig, "Session": _hetero_session,
    }


_SESSIONS = {}


def _hetero_session(region, default_bucket=None):
    key = ("hetero", region, default_bucket)
    if key not in _SESSIONS:
        import boto3

        from sagemaker_hetero.session import Session

        _SESSIONS[key] = Session(boto_session=boto3.Session(region_name=region), default_bucket=default_bucket)
    return _SESSIONS[key]


def build(value, ns, memo=None):
    """``value`` with every :class:`Obj` built from namespace ``ns`` (an Obj used twice: one object)."""
    memo = {} if memo is None else memo
    if isinstance(value, Obj):
        if id(value) not in memo:
            memo[id(value)] = ns[value.cls](*[build(a, ns, memo) for a in value.args],
                                            **{k: build(v, ns, memo) for k, v in value.kwargs.items()})
        return memo[id(value)]
    if isinstance(value, list):
        return [build(v, ns, memo) for v in value]
    if isinstance(value, tuple):
        return tuple(build(v, ns, memo) for v in value)
    if isinstance(value, dict):
        return {k: build(v, ns, memo) for k, v in value.items()}
    if isinstance(value, set):
        return set(value)
    return value


def _literal(value, names):
    if isinstance(value, Obj):
        if id(value) in names:
            return names[id(value)]
        return _call(value, names)
    if isinstance(value, float) and value != value:
        return "float('nan')"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "float('%s')" % value
    if isinstance(value, list):
        return "[%s]" % ", ".join(_literal(v, names) for v in value)
    if isinstance(value, tuple):
        return "(%s%s)" % (", ".join(_literal(v, names) for v in value), "," if len(value) == 1 else "")
    if isinstance(value, dict):
        return "{%s}" % ", ".join("%s: %s" % (_literal(k, names), _literal(v, names)) for k, v in value.items())
    if isinstance(value, set):
        return "{%s}" % ", ".join(_literal(v, names) for v in value) if value else "set()"
    if isinstance(value, frozenset):
        return "frozenset(%s)" % _literal(set(value), names)
    if isinstance(value, str) and len(value) > 40 and len(set(value)) == 1:
        return "%r * %d" % (value[0], len(value))
    return repr(value)


def _call(obj, names):
    if obj.cls == "Session":
        text = "Session(boto_session=boto3.Session(region_name=%r)" % obj.kwargs["region"]
        if "default_bucket" in obj.kwargs:
            text += ", default_bucket=%r" % obj.kwargs["default_bucket"]
        return text + ")"
    parts = [_literal(a, names) for a in obj.args]
    parts += ["%s=%s" % (k, _literal(v, names)) for k, v in obj.kwargs.items()]
    return "%s(%s)" % (obj.cls, ", ".join(parts))


def _objs(value, counts, order):
    if isinstance(value, Obj):
        counts[id(value)] = counts.get(id(value), 0) + 1
        if counts[id(value)] == 1:
            order.append(value)
            for v in list(value.args) + list(value.kwargs.values()):
                _objs(v, counts, order)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _objs(v, counts, order)
    elif isinstance(value, dict):
        for k, v in value.items():
            _objs(k, counts, order)
            _objs(v, counts, order)


_MODULES = {"Estimator": "estimator", "PyTorch": "pytorch", "TensorFlow": "tensorflow",
            "InstanceGroup": "instance_group", "TrainingInput": "inputs", "ShuffleConfig": "inputs",
            "Session": "session"}


def case_code(case, package="sagemaker_hetero", dry_run=True):
    """The case as a runnable Python script for ``package`` (sagemaker_hetero or sagemaker)."""
    counts, order = {}, []
    for v in [case.args, case.kwargs, case.inputs, case.fit_kwargs]:
        _objs(v, counts, order)
    used = {case.cls} | {o.cls for o in order}
    lines = []
    if "Session" in used:
        lines.append("import boto3")
    for module in sorted({_MODULES[c] for c in used}):
        names_here = sorted(c for c in used if _MODULES[c] == module)
        lines.append("from %s.%s import %s" % (package, module, ", ".join(names_here)))
    names = {}
    counter = collections.Counter()
    for obj in order:
        if counts[id(obj)] > 1:
            prefix = {"InstanceGroup": "group", "TrainingInput": "channel"}.get(obj.cls, obj.cls.lower())
            name = "%s%d" % (prefix, counter[prefix])
            counter[prefix] += 1
            lines.append("%s = %s" % (name, _call(obj, names)))
            names[id(obj)] = name
    params = [_literal(a, names) for a in case.args]
    params += ["%s=%s" % (k, _literal(v, names)) for k, v in case.kwargs.items()]
    lines.append("estimator = %s(%s)" % (case.cls, ", ".join(params)))
    fit = [] if case.inputs is NOT_GIVEN else [_literal(case.inputs, names)]
    fit += ["%s=%s" % (k, _literal(v, names)) for k, v in case.fit_kwargs.items()]
    fit.append("dry_run=True" if dry_run else "wait=False")
    lines.append("request = estimator.fit(%s)" % ", ".join(fit))
    return "\n".join(lines)


# -- running and classifying -------------------------------------------------------------------

OK, FALSE_ACCEPT, REFUSED, TYPE_ERROR, CRASH, BAD_PATH = (
    "ok", "FALSE ACCEPT", "refused", "refused (TypeError)", "CRASH", "BAD PATH")

Outcome = collections.namedtuple("Outcome", "kind keys detail request problems")
Outcome.__doc__ = """``kind`` (one of the classes above); ``keys``: the grouping keys (judge findings, our
problems or the exception); ``detail``: text; ``request``: the accepted request; ``problems``: ours."""


def generic_path(path):
    """``inputs['train'].instance_groups[0]`` -> ``inputs[*].instance_groups[*]``."""
    return re.sub(r"\[(?:\d+|'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[^\]]*)\]", "[*]", path)


def generic_message(message):
    """``message`` without the values in it (quoted text, versions, regions), for grouping."""
    text = re.sub(r"'(?:[^'\\]|\\.)*'", "'…'", str(message))
    text = re.sub(r"\b[a-z]+(?:-[a-z]+)+-\d+\b", "…", text)  # a region
    text = re.sub(r"\(is \d+\)", "(is …)", text)
    return re.sub(r"(?<![\w'])[A-Za-z]*[-.]?\d+(?:[-.][\w]+)+", "…", text)


def path_is_an_argument(path):
    path = str(path)
    for name in ESTIMATOR_ARGS + FIT_ARGS:
        if path == name or path.startswith(name + "[") or path.startswith(name + "."):
            return True
    return False


def with_account(value):
    """The dry run's account placeholder replaced by a 12-digit account, everywhere in ``value``."""
    if isinstance(value, str):
        return value.replace(ACCOUNT_PLACEHOLDER, ACCOUNT)
    if isinstance(value, dict):
        return {with_account(k): with_account(v) for k, v in value.items()}
    if isinstance(value, list):
        return [with_account(v) for v in value]
    return value


def _where(tb):
    """The innermost frame of sagemaker_hetero in a traceback, as ``file:line``."""
    frames = [f for f in traceback.extract_tb(tb) if "sagemaker_hetero" in f.filename]
    if not frames:
        frames = traceback.extract_tb(tb)[-1:]
    if not frames:
        return "?"
    f = frames[-1]
    return "%s:%d" % (os.path.basename(f.filename), f.lineno)


def run_case(case, judge, ns=None):
    """Construct, dry-run and judge ``case`` with sagemaker_hetero; an :class:`Outcome`."""
    import sys

    from sagemaker_hetero.exceptions import ConfigError

    ns = ns or hetero_namespace()
    memo = {}
    try:
        args = build(case.args, ns, memo)
        kwargs = build(case.kwargs, ns, memo)
        inputs = build(case.inputs, ns, memo)
        fit_kwargs = build(case.fit_kwargs, ns, memo)
    except Exception as e:  # noqa: BLE001 - building the public value objects must not fail
        tb = sys.exc_info()[2]
        key = ("%s at %s" % (type(e).__name__, _where(tb)), generic_message(str(e).split("\n")[0])[:200])
        return Outcome(CRASH, [key], "while building the arguments: %s" % traceback.format_exc(), None, None)
    try:
        estimator = ns[case.cls](*args, **kwargs)
        if inputs is NOT_GIVEN:
            request = estimator.fit(dry_run=True, **fit_kwargs)
        else:
            request = estimator.fit(inputs, dry_run=True, **fit_kwargs)
    except ConfigError as e:
        problems = list(getattr(e, "problems", None) or [])
        bad = [p for p in problems if not path_is_an_argument(getattr(p, "path", None))]
        if not problems or bad:
            keys = [(str(getattr(p, "path", None)), generic_message(getattr(p, "message", ""))) for p in bad] or [
                ("(no problems)", str(e)[:200])]
            return Outcome(BAD_PATH, keys, str(e), None, problems)
        keys = [(generic_path(p.path), generic_message(p.message)) for p in problems]
        return Outcome(REFUSED, keys, str(e), None, problems)
    except TypeError as e:
        tb = sys.exc_info()[2]
        message = str(e)
        if case.type_error_expected and ("unexpected keyword argument" in message or "positional argument" in message):
            return Outcome(TYPE_ERROR, [("TypeError", generic_message(message))], message, None, None)
        if "got multiple values for argument" in message:  # Python binding a call: a positional and a keyword
            return Outcome(TYPE_ERROR, [("TypeError", generic_message(message))], message, None, None)
        key = ("TypeError at %s" % _where(tb), generic_message(message.split("\n")[0])[:200])
        return Outcome(CRASH, [key], traceback.format_exc(), None, None)
    except Exception as e:  # noqa: BLE001 - anything else is a crash to report
        tb = sys.exc_info()[2]
        key = ("%s at %s" % (type(e).__name__, _where(tb)), generic_message(str(e).split("\n")[0])[:200])
        return Outcome(CRASH, [key], traceback.format_exc(), None, None)
    if case.type_error_expected:
        return Outcome(CRASH, [("no TypeError", "an unknown argument or too many positionals was accepted")],
                       "accepted although a TypeError was expected", dict(request), None)
    plain = with_account(_plain(request))
    found = judge.findings(plain)
    if found:
        keys = [(f.generic, f.message) for f in found]
        detail = "\n".join("%s: %s" % p for p in judge.problems(plain))
        return Outcome(FALSE_ACCEPT, keys, detail, plain, None)
    return Outcome(OK, [("ok", "")], "", plain, None)


def _plain(value):
    """A RenderedRequest (a dict subclass) as plain dicts and lists, values untouched."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


# -- shrinking -------------------------------------------------------------------------------------


_TOGETHER = (("subnets", "security_group_ids"), ("use_spot_instances", "max_wait"),
             ("checkpoint_s3_uri", "checkpoint_local_path"), ("model_uri", "model_channel_name"),
             ("source_dir", "entry_point"))


def _smaller(case):
    """Cases with one thing fewer (an argument, a fit argument, a channel, a channel field)."""
    for pair in _TOGETHER:
        if all(k in case.kwargs for k in pair):
            c = case.copy()
            for k in pair:
                del c.kwargs[k]
            yield c
    for i in range(len(case.args) - 1, -1, -1):
        c = case.copy()
        del c.args[i:]
        yield c
    for key in list(case.kwargs):
        c = case.copy()
        del c.kwargs[key]
        yield c
    for key in list(case.fit_kwargs):
        c = case.copy()
        del c.fit_kwargs[key]
        yield c
    if case.inputs is not NOT_GIVEN:
        c = case.copy()
        c.inputs = NOT_GIVEN
        yield c
    if isinstance(case.inputs, dict) and len(case.inputs) > 1:
        for key in list(case.inputs):
            c = case.copy()
            del c.inputs[key]
            yield c
    for key, value in list(case.kwargs.items()):
        if isinstance(value, dict) and len(value) > 1:
            for k in list(value):
                c = case.copy()
                del c.kwargs[key][k]
                yield c
        if isinstance(value, list) and len(value) > 1:
            for i in range(len(value)):
                c = case.copy()
                del c.kwargs[key][i]
                yield c
    channels = case.inputs.values() if isinstance(case.inputs, dict) else [case.inputs]
    for index, ch in enumerate(channels):
        if isinstance(ch, Obj):
            for k in list(ch.kwargs):
                c = case.copy()
                target = list(c.inputs.values())[index] if isinstance(c.inputs, dict) else c.inputs
                del target.kwargs[k]
                yield c


def shrink(case, still_fails, budget=300):
    """A smaller case for which ``still_fails(case)`` holds (greedy, at most ``budget`` tries)."""
    tries = 0
    improved = True
    while improved and tries < budget:
        improved = False
        for smaller in _smaller(case):
            tries += 1
            if tries > budget:
                break
            if still_fails(smaller):
                case = smaller
                improved = True
                break
    return case
