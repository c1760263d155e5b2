"""Properties of the estimators over random configurations, judged independently.

For every configuration tests/_fuzzcases.py can make (the generator of tools/fuzz_estimators.py,
driven by hypothesis here so failures shrink):

* accepted => tests/_judge.py (botocore's service model, read independently of the package)
  finds nothing the service would refuse in the dry-run request;
* refused  => a ConfigError whose every problem path starts with an argument name (of the
  estimator, of ``fit``, or ``inputs``), or a TypeError for an unknown keyword argument or too
  many positional arguments;
* nothing else is raised.

CI runs a few hundred examples (profile ``ci``, derandomised); ``HYPOTHESIS_PROFILE=long`` runs
thousands, and ``FUZZ_EXAMPLES=N`` sets the number for either. The judge itself is tested below
on hand-made requests.
"""
import copy
import glob
import json
import os

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from tests import _fuzzcases as fc
from tests import _judge

HERE = os.path.dirname(os.path.abspath(__file__))
_SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]
settings.register_profile("ci", max_examples=int(os.environ.get("FUZZ_EXAMPLES", "300")), deadline=None,
                          derandomize=True, database=None, suppress_health_check=_SUPPRESS, print_blob=True)
settings.register_profile("long", max_examples=int(os.environ.get("FUZZ_EXAMPLES", "20000")), deadline=None,
                          database=None, suppress_health_check=_SUPPRESS, print_blob=True)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in ("ci", "long"):
    PROFILE = "ci"


class HypothesisChooser(object):
    """The chooser interface of tests/_fuzzcases.py over hypothesis draws (shrinks to the first
    option, the smallest number and to rare events not happening)."""

    def __init__(self, draw):
        self.draw = draw

    def chance(self, p):
        # hypothesis favours small and boundary integers; scrambling the draw keeps the rate near p
        # while 0, where shrinking goes, still means "no".
        drawn = self.draw(st.integers(0, 9999))
        return (drawn * 7919 + 1234) % 10000 >= 10000 - int(round(p * 10000))

    def choice(self, seq):
        # scrambled the same way: every option is as likely, and 0 (the simplest) is still option 0
        return seq[(self.draw(st.integers(0, 9999)) * 7919) % len(seq)]

    def randint(self, low, high):
        return self.draw(st.integers(low, high))


@pytest.fixture(scope="module")
def fuzz_workdir(tmp_path_factory):
    """A working directory holding every entry point the cases name, AWS_REGION set, no AWS files."""
    path = fc.prepare_workdir(str(tmp_path_factory.mktemp("fuzz")))
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(path)
        for name in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_ENDPOINT_URL"):
            mp.delenv(name, raising=False)
        mp.setenv("AWS_REGION", "us-west-2")
        mp.setenv("AWS_DEFAULT_REGION", "us-west-2")
        mp.setenv("AWS_CONFIG_FILE", os.path.join(path, "no-aws-config"))
        mp.setenv("AWS_SHARED_CREDENTIALS_FILE", os.path.join(path, "no-aws-credentials"))
        mp.setenv("AWS_EC2_METADATA_DISABLED", "true")
        yield path


@st.composite
def cases(draw):
    """Estimator configurations (a :class:`tests._fuzzcases.Case`, shown as runnable code); most
    hold a few hostile values, the mix that finds false accepts and crashes fastest."""
    return fc.make_case(HypothesisChooser(draw), hostile_share=0.9, hostile_rates=(0.01, 0.02, 0.04, 0.1))


@settings(settings.get_profile(PROFILE))
@given(cases())
def test_accepted_requests_are_valid_and_refusals_name_arguments(fuzz_workdir, case):
    outcome = fc.run_case(case, _judge)
    note("outcome: %s\n%s" % (outcome.kind, outcome.detail))
    assert outcome.kind in (fc.OK, fc.REFUSED, fc.TYPE_ERROR), "%s %s\n%s" % (
        outcome.kind, outcome.keys, outcome.detail)


def test_the_fuzz_cases_print_as_runnable_code(fuzz_workdir):
    """A reproduction printed for a case builds the same outcome when run."""
    import random

    rnd = random.Random(7)
    for _ in range(40):
        case = fc.make_case(fc.RandomChooser(rnd))
        code = fc.case_code(case)
        outcome = fc.run_case(case, _judge)
        namespace = {}
        try:
            exec(compile(code, "<case>", "exec"), namespace)
        except Exception as e:  # noqa: BLE001 - the same kind of failure as run_case saw
            assert outcome.kind not in (fc.OK, fc.FALSE_ACCEPT), (code, e)
        else:
            assert outcome.kind in (fc.OK, fc.FALSE_ACCEPT), code
            assert fc.with_account(dict(namespace["request"]))["ResourceConfig"] == outcome.request["ResourceConfig"]


# -- the judge itself ----------------------------------------------------------------------------

CONFORMANCE = sorted(glob.glob(os.path.join(HERE, "conformance", "requests", "*.json"))
                     + glob.glob(os.path.join(HERE, "conformance", "extra", "*.json")))


def _seed():
    with open(os.path.join(HERE, "conformance", "requests", "seed_pytorch.json")) as f:
        return json.load(f)


def test_the_judge_accepts_the_seed_request():
    assert _judge.problems(_seed()) == []


@pytest.mark.parametrize("path", CONFORMANCE, ids=os.path.basename)
def test_the_judge_accepts_every_request_the_sdk_v2_recorded(path):
    with open(path) as f:
        request = json.load(f)
    assert _judge.problems(request) == []


def _with(change):
    request = _seed()
    change(request)
    return request


def _set(path, value):
    """A change setting ``request[path...] = value`` (path as a tuple of keys and indexes)."""
    def change(request):
        target = request
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


_GROUP0 = ("ResourceConfig", "InstanceGroups", 0)
_CHANNEL0 = ("InputDataConfig", 0)
_S3 = _CHANNEL0 + ("DataSource", "S3DataSource")

BAD = [
    # (what, change, expected path, words in the message)
    ("bool count", _set(_GROUP0 + ("InstanceCount",), True), "ResourceConfig.InstanceGroups[0].InstanceCount",
     "bool"),
    ("32-bit count", _set(_GROUP0 + ("InstanceCount",), 2 ** 31), "ResourceConfig.InstanceGroups[0].InstanceCount",
     "32-bit"),
    ("float count", _set(_GROUP0 + ("InstanceCount",), 2.0), "ResourceConfig.InstanceGroups[0].InstanceCount",
     "wrong type"),
    ("64-bit seed", _set(_CHANNEL0 + ("ShuffleConfig",), {"Seed": 2 ** 63}), "InputDataConfig[0].ShuffleConfig.Seed",
     "64-bit"),
    ("unknown type", _set(_GROUP0 + ("InstanceType",), "ml.m5.xlarg"), "ResourceConfig.InstanceGroups[0].InstanceType",
     "TrainingInstanceType"),
    ("no instances", _set(("ResourceConfig", "InstanceGroups"), []), "ResourceConfig", "needs InstanceType"),
    ("type with groups", _set(("ResourceConfig", "InstanceType"), "ml.m5.xlarge"), "ResourceConfig",
     "cannot be specified with InstanceGroups"),
    ("underscore job name", _set(("TrainingJobName",), "my_job"), "TrainingJobName", "pattern"),
    ("64-character job name", _set(("TrainingJobName",), "a" * 64), "TrainingJobName", "longer than 63"),
    ("newline in a hyperparameter key", _set(("HyperParameters", "a\nb"), "1"), "HyperParameters['a\\nb'](key)",
     "pattern"),
    ("U+2028 in a hyperparameter value", _set(("HyperParameters", "k"), "x\u2028y"), "HyperParameters['k']",
     "pattern"),
    ("NEL in a group name", _set(_GROUP0 + ("InstanceGroupName",), "a\x85b"),
     "ResourceConfig.InstanceGroups[0].InstanceGroupName", "pattern"),
    ("non-string hyperparameter", _set(("HyperParameters", "k"), 3), "HyperParameters['k']", "wrong type"),
    ("hash in a tag value", _set(("Tags",), [{"Key": "k", "Value": "a#b"}]), "Tags[0].Value", "pattern"),
    ("aws: tag key", _set(("Tags",), [{"Key": "aws:team", "Value": "v"}]), "Tags[0].Key", "reserved"),
    ("tab in a tag key", _set(("Tags",), [{"Key": "a\tb", "Value": "v"}]), "Tags[0].Key", "pattern"),
    ("dash in an environment name", _set(("Environment",), {"A-B": "1"}), "Environment['A-B'](key)", "pattern"),
    ("non-ASCII digits in a role ARN", _set(("RoleArn",), "arn:aws:iam::\u0661\u0662\u0663\u0664\u0665\u0666\u0667"
                                        "\u0668\u0669\u0660\u0661\u0662:role/x"), "RoleArn", "pattern"),
    ("non-ASCII role name", _set(("RoleArn",), "arn:aws:iam::123456789012:role/r\u00f4le"), "RoleArn", "pattern"),
    ("newline in an S3 key", _set(_S3 + ("S3Uri",), "s3://bucket/a\nb"), "InputDataConfig[0].DataSource.S3DataSource"
     ".S3Uri", "pattern"),
    ("a local channel", _set(_CHANNEL0 + ("DataSource",), {"FileDataSource": {"FileUri": "file:///data"}}),
     "InputDataConfig[0].DataSource.FileDataSource", "local runs only"),
    ("unknown group", _set(_S3 + ("InstanceGroupNames",), ["nope"]),
     "InputDataConfig[0].DataSource.S3DataSource.InstanceGroupNames[0]", "not an instance group"),
    ("some channels without groups", lambda r: r["InputDataConfig"][1]["DataSource"]["S3DataSource"].pop(
        "InstanceGroupNames"), "InputDataConfig", "others do not"),
    ("spot without a wait", _set(("EnableManagedSpotTraining",), True), "StoppingCondition.MaxWaitTimeInSeconds",
     "required"),
    ("wait below run", _set(("StoppingCondition", "MaxWaitTimeInSeconds"), 10),
     "StoppingCondition.MaxWaitTimeInSeconds", "below MaxRuntimeInSeconds"),
    ("over 28 days", _set(("StoppingCondition", "MaxRuntimeInSeconds"), 28 * 86400 + 1),
     "StoppingCondition.MaxRuntimeInSeconds", "28 days"),
    ("21 channels", lambda r: r.__setitem__("InputDataConfig", [dict(copy.deepcopy(r["InputDataConfig"][0]),
                                                                      ChannelName="c%d" % i) for i in range(21)]),
     "InputDataConfig", "more than 20"),
    ("101 hyperparameters", lambda r: r["HyperParameters"].update({"k%d" % i: "1" for i in range(101)}),
     "HyperParameters", "more than 100"),
    ("unknown member", _set(("Bogus",), 1), "Bogus", "not a member"),
    ("missing role", lambda r: r.pop("RoleArn"), "RoleArn", "required"),
    ("duplicate channel", lambda r: r["InputDataConfig"][1].__setitem__("ChannelName", "training"),
     "InputDataConfig[1].ChannelName", "another channel"),
]


@pytest.mark.parametrize("what,change,path,words", BAD, ids=[b[0] for b in BAD])
def test_the_judge_refuses_what_the_service_would(what, change, path, words):
    found = _judge.problems(_with(change))
    assert any(p == path and words in m for p, m in found), found


GOOD = [
    ("unicode letters and spaces in tags",
     _set(("Tags",), [{"Key": "n\u00e4me \u0661", "Value": "v\u00e4l:ue/+=@-_."}])),
    ("U+2028 is a separator a tag may hold", _set(("Tags",), [{"Key": "k", "Value": "a\u2028b"}])),
    ("newline in the bucket part of an S3 URI", _set(_S3 + ("S3Uri",), "s3://bucket\n/key")),
    ("https S3 URI", _set(_S3 + ("S3Uri",), "https://bucket.s3.amazonaws.com/key")),
    ("vertical tab in a hyperparameter", _set(("HyperParameters", "k"), "a\x0bb")),
    ("newline in an environment value", _set(("Environment",), {"A_1": "a\nb"})),
    ("largest 32-bit count", _set(_GROUP0 + ("InstanceCount",), 2 ** 31 - 1)),
    ("64-bit seed", _set(_CHANNEL0 + ("ShuffleConfig",), {"Seed": 2 ** 63 - 1})),
]


@pytest.mark.parametrize("what,change", GOOD, ids=[g[0] for g in GOOD])
def test_the_judge_accepts_what_the_service_accepts(what, change):
    assert _judge.problems(_with(change)) == []


@pytest.mark.parametrize("pattern", _judge.model_patterns())
def test_every_pattern_of_the_model_translates(pattern):
    _judge.java_pattern(pattern)


@pytest.mark.parametrize("pattern,value,matches", [
    (".*", "a\nb", False), (".*", "a\rb", False), (".*", "a\x85b", False), (".*", "a\u2029b", False),
    (".*", "a\x0bb\x0cc", True), (".+", "", False), ("[\\S\\s]*", "a\nb", True),
    ("\\d+", "\u0663", False), ("\\w+", "\u00e9", False), ("\\s", "\u00a0", False), ("\\s", "\x0b", True),
    ("[\\p{L}]+", "\u00e9\u4e2d", True), ("\\p{N}", "\u0663", True), ("\\p{Z}", "\u2028", True),
    ("\\p{Alnum}+", "\u00e9", False), ("a$", "a\n", False), ("[a-z&&[^aeiou]]+", "bcd", True),
    ("[a-z&&[^aeiou]]+", "bad", False), ("[a-z](?<!-)", "a", True), ("\\Qa.b\\E", "a.b", True),
    ("\\Qa.b\\E", "axb", False), ("[\\x41-\\x43]+", "ABC", True), ("abc", "abcd", False),
])
def test_java_matches_semantics(pattern, value, matches):
    assert _judge.java_matches(pattern, value) is matches
