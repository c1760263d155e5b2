"""The service model snapshot, the walker that checks requests against it (_checks.service) and the
Java-pattern translator (_checks.patterns)."""
import copy
import decimal
import glob
import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

from sagemaker_hetero._aws import files
from sagemaker_hetero._checks import service as _service
from sagemaker_hetero._checks.patterns import UnsupportedPattern, translate_pattern
from sagemaker_hetero._checks.service import Violation, check, input_shape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tools", "snapshot_service_model.py")
REQUESTS = sorted(glob.glob(os.path.join(ROOT, "tests", "conformance", "requests", "*.json")))
JOB = "CreateTrainingJobRequest"


@pytest.fixture(autouse=True)
def no_live_botocore(monkeypatch):
    """No test reaches the installed botocore unless it says so: the live enum lookup finds nothing."""
    monkeypatch.setattr(_service, "_live_enums", {})
    monkeypatch.setattr(_service, "_live_enum", lambda shape_name: None)


def snapshot():
    with open(files.data_path(_service.SNAPSHOT_FILE)) as f:
        return json.load(f)


def request():
    with open(os.path.join(ROOT, "tests", "conformance", "requests", "generic_estimator.json")) as f:
        return json.load(f)


def messages(violations):
    return [(v.path, v.message) for v in violations]


# -- the snapshot ------------------------------------------------------------------------------


def load_script():
    spec = importlib.util.spec_from_file_location("snapshot_service_model", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def _release(version):
    return tuple(int(part) for part in re.findall(r"\d+", version)[:3])


def test_snapshot_matches_the_installed_botocore():
    botocore = pytest.importorskip("botocore")
    fresh, stored = load_script().build(), snapshot()
    recorded = stored["botocore_version"]
    if _release(botocore.__version__) < _release(recorded):  # e.g. Python 3.8, whose last botocore is older
        pytest.skip("botocore %s is older than the snapshot's %s: the snapshot cannot be stale"
                    % (botocore.__version__, recorded))
    stale = "the service model snapshot is stale: run `python tools/snapshot_service_model.py`"
    assert stored["operations"] == fresh["operations"], stale
    assert stored["shapes"] == fresh["shapes"], stale


def test_the_snapshot_script_refuses_a_pattern_the_runtime_cannot_read():
    script = load_script()
    shapes = {"Ok": {"type": "string", "pattern": "[\\p{L}]+"}, "Ip": {"type": "string", "pattern": "\\d+\\b"}}
    with pytest.raises(script.SnapshotError, match=r"cannot read 1 pattern\(s\)(.|\n)*  Ip: .*the escape \\b"):
        script.check_patterns(shapes)
    assert script.check_patterns({"Ok": shapes["Ok"]}) == {"L"}


def test_every_snapshot_pattern_translates_and_compiles():
    model = snapshot()
    patterns = sorted({s["pattern"] for s in model["shapes"].values() if "pattern" in s})
    assert patterns
    for raw in patterns:
        re.compile(translate_pattern(raw, model["unicode"].__getitem__), re.ASCII)
        assert _service._compiled(raw) is not None, raw


def test_the_snapshot_read_shape_by_shape_is_the_snapshot():
    with open(files.data_path(_service.SNAPSHOT_FILE)) as f:
        model = _service.read_snapshot(f.read())
    whole = snapshot()
    assert sorted(model) == sorted(whole)
    assert dict(model["shapes"]) == whole["shapes"]
    assert all(model[key] == whole[key] for key in whole if key != "shapes")


def test_a_request_parses_only_the_shapes_it_touches(monkeypatch):
    with open(files.data_path(_service.SNAPSHOT_FILE)) as f:
        model = _service.read_snapshot(f.read())
    monkeypatch.setitem(_service._cache, "model", model)
    assert check(request(), "CreateTrainingJobRequest") == []
    parsed = model["shapes"]._parsed
    assert "CreateTrainingJobRequest" in parsed and "TrainingJobName" in parsed
    assert "CreatePipelineRequest" not in parsed and len(parsed) < len(model["shapes"]) / 2
    assert "unicode" not in model._parsed  # no pattern of this request needs a Unicode category


@pytest.mark.parametrize("raw", [".*", ".+"])
def test_java_dot_star_and_dot_plus_match_as_their_compiled_patterns(raw):
    compiled = re.compile(translate_pattern(raw, {}.__getitem__), re.ASCII)
    samples = ["", "a", "any text \u00e9\U0001f600 \t", "a\nb", "\r", "x\x85", "\u2028", "y\u2029z", "\x0b\x0c"]
    for value in samples:
        assert (_service._compiled(raw).fullmatch(value) is None) == (compiled.fullmatch(value) is None), (raw, value)


def test_snapshot_holds_the_operations():
    assert input_shape("CreateTrainingJob") == "CreateTrainingJobRequest"
    assert input_shape("CreateHyperParameterTuningJob") == "CreateHyperParameterTuningJobRequest"
    with pytest.raises(ValueError, match="unknown operation 'CreateModel': expected one of"):
        input_shape("CreateModel")
    with pytest.raises(ValueError, match="unknown shape 'Nope'"):
        check({}, "Nope")


@pytest.mark.parametrize("path", REQUESTS, ids=os.path.basename)
def test_recorded_requests_are_valid(path):
    with open(path) as f:
        assert check(json.load(f), input_shape("CreateTrainingJob")) == []


def test_checking_imports_no_botocore():
    code = (
        "import json, sys\n"
        "from sagemaker_hetero._checks import service as _service\n"
        "r = json.load(open(%r))\n"
        "r['TrainingJobName'] = 'bad_name'\n"
        "r['Tags'] = [{'Key': '#', 'Value': 'x'}]\n"
        "assert len(_service.check(r, 'CreateTrainingJobRequest')) == 2\n"
        "assert 'botocore' not in sys.modules and 'boto3' not in sys.modules, sorted(sys.modules)\n"
    ) % REQUESTS[0]
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# -- types -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "member, value, message",
    [
        ("TrainingJobName", 12, "must be a string"),
        ("ResourceConfig", ["ml.m5.large"], "must be a dict"),
        ("InputDataConfig", {"ChannelName": "a"}, "must be a list"),
        ("HyperParameters", [("a", "1")], "must be a dict"),
        ("EnableNetworkIsolation", "true", "must be a boolean"),
        ("EnableNetworkIsolation", 1, "must be a boolean"),
    ],
)
def test_a_wrong_type_is_reported_and_not_descended(member, value, message):
    body = dict(request(), **{member: value})
    assert check(body, JOB) == [Violation((member,), message, value, True)]


def test_a_tuple_is_a_list():
    body = request()
    body["InputDataConfig"] = tuple(body["InputDataConfig"])
    assert check(body, JOB) == []


def test_true_is_not_an_integer():
    assert messages(check({"InstanceCount": True}, "ResourceConfig")) == [(("InstanceCount",), "must be an integer")]
    assert messages(check({"InstanceCount": 2.0}, "ResourceConfig")) == [(("InstanceCount",), "must be an integer")]


def test_integers_are_32_bit_and_longs_64_bit_on_the_wire():
    assert check({"InstanceCount": 2 ** 31 - 1}, "ResourceConfig") == []
    assert check({"InstanceCount": 2 ** 31}, "ResourceConfig") == [
        Violation(("InstanceCount",), "must be an integer between 0 and 2147483647", 2 ** 31, True)
    ]
    assert check({"ProfilingIntervalInMilliseconds": 2 ** 40}, "ProfilerConfig") == []
    assert messages(check({"ProfilingIntervalInMilliseconds": -(2 ** 63) - 1}, "ProfilerConfig")) == [
        (("ProfilingIntervalInMilliseconds",), "must be an integer between -9223372036854775808 and 9223372036854775807")
    ]


def test_integer_ranges_come_from_the_model():
    assert messages(check({"KeepAlivePeriodInSeconds": 21601}, "ResourceConfig")) == [
        (("KeepAlivePeriodInSeconds",), "must be an integer between 0 and 21600")
    ]
    assert messages(check({"MaxRuntimeInSeconds": 0}, "StoppingCondition")) == [
        (("MaxRuntimeInSeconds",), "must be an integer between 1 and 2147483647")
    ]


@pytest.mark.parametrize("value", [0.5, 3, decimal.Decimal("0.25")])
def test_a_float_takes_any_finite_number(value):
    assert check({"TargetObjectiveMetricValue": value}, "TuningJobCompletionCriteria") == []


@pytest.mark.parametrize(
    "value, message",
    [
        (True, "must be a number"),
        ("0.5", "must be a number"),
        (float("nan"), "must be a finite number"),
        (float("inf"), "must be a finite number"),
        (decimal.Decimal("sNaN"), "must be a finite number"),
    ],
)
def test_a_float_refuses(value, message):
    assert messages(check({"TargetObjectiveMetricValue": value}, "TuningJobCompletionCriteria")) == [
        (("TargetObjectiveMetricValue",), message)
    ]


# -- structures --------------------------------------------------------------------------------


def test_a_missing_required_member_has_no_value():
    body = request()
    del body["RoleArn"]
    (problem,) = check(body, JOB)
    assert (problem.path, problem.message, problem.has_value) == (("RoleArn",), "is required", False)


def test_none_is_missing_when_required_and_a_type_problem_when_optional():
    body = dict(request(), RoleArn=None, Tags=None)
    body["OutputDataConfig"] = dict(body["OutputDataConfig"], KmsKeyId=None)
    assert check(body, JOB) == [
        Violation(("RoleArn",), "is required", None, True),
        Violation(("OutputDataConfig", "KmsKeyId"), "must be a string", None, True),
        Violation(("Tags",), "must be a list", None, True),
    ]


def test_none_as_a_list_item_or_map_value_is_a_type_problem():
    body = dict(request(), Tags=[None], HyperParameters={"epochs": None})
    assert messages(check(body, JOB)) == [
        (("HyperParameters", "epochs"), "must be a string"),
        (("Tags", 0), "must be a dict"),
    ]


def test_an_unknown_member_gets_a_hint():
    ((path, message),) = messages(check({"InstanceTyp": "ml.m5.large"}, "ResourceConfig"))
    assert path == ("InstanceTyp",)
    assert message == "is not a field of ResourceConfig; did you mean InstanceType?"


def test_an_unknown_member_far_from_all_lists_the_fields():
    ((path, message),) = messages(check({"S3OutputPath": "s3://b/o", "Zzz": 1, 7: 2}, "OutputDataConfig")[:1])
    assert path == ("Zzz",)
    assert message == "is not a field of OutputDataConfig (its fields: KmsKeyId, S3OutputPath, CompressionType)"
    assert messages(check({"S3OutputPath": "s3://b/o", 7: 2}, "OutputDataConfig"))[0][0] == (7,)


# -- lengths -----------------------------------------------------------------------------------


def test_string_lengths_count_code_points():
    assert [v.message for v in check("a" * 64, "TrainingJobName")] == [
        "must be at most 63 characters",
        "must match the pattern [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}",  # {0,62} says it too
    ]
    assert [v.message for v in check("", "TrainingJobName")][0] == "must be at least 1 character"
    assert check({"h": "\U0001F600" * 2500}, "HyperParameters") == []
    assert messages(check({"h": "\U0001F600" * 2501}, "HyperParameters")) == [(("h",), "must be at most 2500 characters")]


def test_list_and_map_lengths():
    body = dict(request(), Tags=[{"Key": "k%d" % i, "Value": "v"} for i in range(51)], InputDataConfig=[])
    body["HyperParameters"] = dict(("k%d" % i, "v") for i in range(101))
    assert messages(check(body, JOB)) == [
        (("HyperParameters",), "must hold at most 100 entries"),
        (("InputDataConfig",), "must hold at least 1 item"),
        (("Tags",), "must hold at most 50 items"),
    ]


# -- maps --------------------------------------------------------------------------------------


def test_map_keys_and_values_are_checked_against_their_shapes():
    body = dict(request(), Environment={"1BAD": "x", "K" * 513: "y", "OK": 3, 5: "z"})
    assert messages(check(body, JOB)) == [
        (("Environment", "1BAD"), "key must match the pattern [a-zA-Z_][a-zA-Z0-9_]*"),
        (("Environment", "K" * 513), "key must be at most 512 characters"),
        (("Environment", "OK"), "must be a string"),
        (("Environment", 5), "key must be a string"),
    ]


# -- enums -------------------------------------------------------------------------------------


def test_a_short_enum_lists_its_values():
    assert check({"TrainingInputMode": "file"}, "AlgorithmSpecification") == [
        Violation(("TrainingInputMode",), "must be one of Pipe, File, FastFile", "file", True)
    ]


def test_a_long_enum_gives_close_values():
    ((path, message),) = messages(check({"InstanceType": "ml.p3dn.24xlarg"}, "ResourceConfig"))
    assert path == ("InstanceType",)
    assert re.match(r"must be one of the \d+ TrainingInstanceType values; did you mean ml\.p3dn\.24xlarge", message)


def test_a_value_the_installed_botocore_knows_is_accepted(monkeypatch):
    seen = []

    def live(shape_name):
        seen.append(shape_name)
        return ("ml.new9.xlarge",)

    monkeypatch.setattr(_service, "_live_enum", live)
    assert check({"InstanceType": "ml.new9.xlarge"}, "ResourceConfig") == []
    assert check({"InstanceType": "ml.new9.xlarge", "SelectedInstanceType": "ml.new9.xlarge"}, "ResourceConfig") == []
    assert seen == ["TrainingInstanceType"]  # looked up once, then cached
    assert check({"InstanceType": "ml.m5.large"}, "ResourceConfig") == []


def test_without_botocore_the_snapshot_answers(monkeypatch):
    monkeypatch.undo()
    monkeypatch.setattr(_service, "_live_enums", {})
    monkeypatch.setattr(_service, "_cache", {})
    monkeypatch.setitem(sys.modules, "botocore", None)  # import botocore now raises ImportError
    monkeypatch.setitem(sys.modules, "botocore.session", None)
    assert messages(check({"TrainingInputMode": "Filе"}, "AlgorithmSpecification")) == [
        (("TrainingInputMode",), "must be one of Pipe, File, FastFile")
    ]
    assert _service._cache["live"] is None


# -- patterns, with Java's String.matches semantics ----------------------------------------------


@pytest.mark.parametrize("value", ["a\rb", "a\nb", "a\x85b", "a\u2028b", "a\u2029b", "x\n"])
def test_dot_stops_at_every_java_line_terminator(value):
    assert messages(check({"h": value}, "HyperParameters")) == [(("h",), "must match the pattern .*")]


@pytest.mark.parametrize("value", ["a\tb", "", "a\x0bb\x0cc", "\u00e9\u4e2d"])
def test_dot_takes_anything_else(value):
    assert check({"h": value}, "HyperParameters") == []


def test_digits_are_ascii():
    assert check("arn:aws:iam::123456789012:role/x", "RoleArn") == []
    arabic = "arn:aws:iam::\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669\u0660\u0661\u0662:role/x"
    assert messages(check(arabic, "RoleArn")) == [
        ((), "must match the pattern arn:aws[a-z\\-]*:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+")
    ]


@pytest.mark.parametrize("value", ["\u00e9t\u00e9", "a b", "\u0663", "team:ml/x=y+z@q-r_s.t", "\u4e2d\u6587", "a\u3000b"])
def test_a_tag_key_takes_unicode_letters_numbers_and_spaces(value):
    assert check(value, "TagKey") == []


@pytest.mark.parametrize("value", ["#", "a!", "\U0001F600", "a\tb"])
def test_a_tag_key_refuses_other_characters(value):
    assert [v.message for v in check(value, "TagKey")] == ["must match the pattern ([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)"]


def test_the_whole_value_must_match():
    assert check("s3://bucket/key", "S3Uri") == []
    assert [v.message for v in check("s3://bucket/key\n", "S3Uri")] == ["must match the pattern (https|s3)://([^/]+)/?(.*)"]
    assert len(check("xs3://bucket/key", "S3Uri")) == 1


def test_lookbehind_and_posix_classes():
    assert check("my-algo", "ArnOrName") == []
    assert len(check("my-algo-", "ArnOrName")) == 1
    arn = "arn:aws:lambda:us-west-2:123456789012:function:f"
    assert check(arn, "TrainingRepositoryCredentialsProviderArn") == []
    assert len(check(arn.replace("aws", "\u00e1ws"), "TrainingRepositoryCredentialsProviderArn")) == 1  # \p{Alnum} is ASCII


def test_an_unreadable_pattern_refuses_nothing(monkeypatch):
    model = copy.deepcopy(snapshot())
    model["shapes"]["TrainingJobName"]["pattern"] = "(?i)x"
    monkeypatch.setitem(_service._cache, "model", model)
    assert check({"TrainingJobName": "anything"}, JOB)[0].message == "is required"


@pytest.mark.parametrize(
    "raw, python",
    [
        (".", "[^\\n\\r\\x85\\u2028\\u2029]"),
        ("[\\w-.]", "[\\w\\-\\.]"),
        ("a$", "a(?=(?:\\r\\n|[\\n\\r\\x85\\u2028\\u2029])?\\Z)"),
        ("(?<n>x)", "(?P<n>x)"),
        ("\\x41\\u00e9\\x{1F600}", "A\\xe9\\U0001f600"),
        ("[\\uD83D\\uDE00-\\uD83D\\uDE4F]", "[\\U0001f600-\\U0001f64f]"),
        ("[^\\P{Nd}]", None),
        ("a{2,}?", "a{2,}?"),
    ],
)
def test_translation(raw, python):
    ranges = {"Nd": [[0x30, 0x39], [0x660, 0x669]]}
    translated = translate_pattern(raw, ranges.__getitem__)
    if python is not None:
        assert translated == python
    compiled = re.compile(translated, re.ASCII)
    if raw == "[^\\P{Nd}]":
        assert compiled.fullmatch("\u0663") and not compiled.fullmatch("a")


@pytest.mark.parametrize(
    "raw, construct",
    [
        ("(?i)abc", "the group"),
        ("a++", "possessive"),
        ("[a-z&&[^q]]", "intersection"),
        ("[a[b]]", "nested character class"),
        ("\\bword\\b", "the escape \\b"),
        ("(?>a)", "the group"),
        ("\\p{IsLatin}", "the character property"),
        ("\\p{Lu}", "no code point ranges"),
        ("a{,3}", "not a quantifier"),
        ("\\1", "the escape \\1"),
        ("[]a]", "first in a character class"),
        ("\\uD800", "the escape \\uD800"),
    ],
)
def test_untranslatable_constructs_fail_loudly(raw, construct):
    with pytest.raises(UnsupportedPattern, match=re.escape(construct)):
        translate_pattern(raw, {}.__getitem__)


# -- skip --------------------------------------------------------------------------------------


def test_skipped_paths_are_not_checked():
    body = request()
    source = body["InputDataConfig"][0]["DataSource"]
    source["FileDataSource"] = {"FileUri": "file:///tmp/data"}
    source["S3DataSource"]["S3Uri"] = "file:///tmp/a"
    channel = ("InputDataConfig", 0, "DataSource")
    assert messages(check(body, JOB)) == [
        (channel + ("S3DataSource", "S3Uri"), "must match the pattern (https|s3)://([^/]+)/?(.*)"),
        (channel + ("FileDataSource",), "is not a field of DataSource; did you mean FileSystemDataSource?"),
    ]
    skip = [channel + ("FileDataSource",), list(channel + ("S3DataSource", "S3Uri"))]
    assert check(body, JOB, skip=skip) == []
    del body["RoleArn"]
    assert check(body, JOB, skip=[("RoleArn",)] + skip) == []
    with pytest.raises(TypeError, match="skip must hold path tuples"):
        check(body, JOB, skip=["RoleArn"])


# -- never raises ------------------------------------------------------------------------------


class _Hostile(str):
    def __len__(self):
        raise RuntimeError("no length")


class _HostileDict(dict):
    def items(self):
        raise RuntimeError("no items")


class _Collides(object):
    def __hash__(self):
        return hash("VpcConfig")  # a member CreateTrainingJobRequest has but the request does not

    def __eq__(self, other):
        raise RuntimeError("no comparing")


def test_hostile_objects_become_violations():
    body = request()
    body["TrainingJobName"] = _Hostile("x")
    body["HyperParameters"] = _HostileDict(a="b")
    body[_Collides()] = 1
    found = check(body, JOB)
    assert all(isinstance(v, Violation) for v in found)
    assert (("TrainingJobName",), "could not be checked (RuntimeError)") in messages(found)
    assert (("HyperParameters",), "could not be checked (RuntimeError)") in messages(found)
    for params in (None, 1, "x", [], object(), {None: None}, {"ResourceConfig": {"InstanceGroups": [[[]]]}}):
        assert all(isinstance(v, Violation) for v in check(params, JOB))


try:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    st = None


if st is not None:
    _NAMES = sorted(
        set(snapshot()["shapes"])
        | {m for s in snapshot()["shapes"].values() for m in s.get("members", {})}
        | {e for s in snapshot()["shapes"].values() for e in s.get("enum", ())[:20]}
    )
    _LEAVES = (
        st.none()
        | st.booleans()
        | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
        | st.floats(allow_nan=True, allow_infinity=True)
        | st.decimals(allow_nan=True, allow_infinity=True)
        | st.text(max_size=30)
        | st.binary(max_size=8)
        | st.sampled_from(_NAMES)
        | st.builds(object)
    )
    _KEYS = st.sampled_from(_NAMES) | st.text(max_size=10) | st.integers() | st.none()
    _TREES = st.recursive(
        _LEAVES,
        lambda inner: st.lists(inner, max_size=6)
        | st.tuples(inner, inner)
        | st.dictionaries(_KEYS, inner, max_size=8),
        max_leaves=80,
    )

    @settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(
        st.dictionaries(st.sampled_from(sorted(snapshot()["shapes"][JOB]["members"])), _TREES, max_size=30)
        | _TREES,
        st.sampled_from([JOB, "CreateHyperParameterTuningJobRequest", "ResourceConfig", "TrainingEnvironmentMap"]),
    )
    def test_a_random_hostile_structure_never_raises(params, shape_name):
        found = check(params, shape_name)
        assert all(isinstance(v, Violation) and isinstance(v.message, str) for v in found)
        assert all(isinstance(v.path, tuple) for v in found)

else:  # pragma: no cover

    def test_a_random_hostile_structure_never_raises():
        pytest.skip("hypothesis is not installed")
