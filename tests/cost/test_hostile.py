"""Hostile or odd prices and cache files: a Price List answer's price out of the sane range (through the
real client, against the moto server) is unknown, naming it, never cached, and every output of it
formats, ``--output json`` as strict JSON; a cache file that does not decode, or decodes to the wrong
shape, is a miss."""
import json
import os

import pytest

from sagemaker_hetero._cost import cache as C
from sagemaker_hetero._preflight import cache as quota_cache
from tests.cost import _jobs
from tests.cost import _price_list
from tests.cost.test_billed import described
from tests.test_cli import EXAMPLE, run

NOW = 1_700_000_000.0
HOSTILE = ["1e400", "Infinity", "NaN", "-5", "0", "1e999999", "9" * 10000, "1e-300", "0x10", ""]


def strict(text):
    """``json.loads`` refusing ``NaN``, ``Infinity`` and ``-Infinity``, as a strict parser does."""
    def refuse(constant):
        raise ValueError("not JSON: %s" % constant)

    return json.loads(text, parse_constant=refuse)


def answer_pricing(server, usd, itype="ml.c5.18xlarge"):
    """The moto server answers GetProducts with the recorded answer, ``itype``'s us-west-2 training price
    made ``usd``."""
    items = []
    for item in _price_list.recorded()["PriceList"]:
        document = json.loads(item)
        attributes = document["product"]["attributes"]
        if attributes["instanceName"] == itype and attributes["regionCode"] == "us-west-2":
            for term in document["terms"]["OnDemand"].values():
                for dimension in term["priceDimensions"].values():
                    dimension["pricePerUnit"]["USD"] = usd
        items.append(json.dumps(document))
    return _price_list.install(server, answer={"PriceList": items})


def cached_files():
    root = os.path.join(os.environ["XDG_CACHE_HOME"], "sagemaker-hetero", "prices", "us-west-2")
    return sorted(os.listdir(root)) if os.path.isdir(root) else []


@pytest.mark.parametrize("usd", HOSTILE, ids=lambda v: v[:12] or "empty")
def test_a_price_list_price_out_of_the_sane_range_is_unknown_naming_it_and_never_cached(capsys, aws, usd,
                                                                                         monkeypatch):
    monkeypatch.setenv("AWS_REGION", "us-west-2")
    answers = answer_pricing(aws, usd)
    code, out, err = run(capsys, "cost", EXAMPLE, "--output", "json")
    assert code == 0, err
    estimate = strict(out)
    hostile, other = estimate["groups"]
    assert hostile["instance_type"] == "ml.c5.18xlarge" and hostile["usd_per_hour"] is None
    shown = repr(usd) if len(usd) <= 40 else repr(usd)[:40] + "... (10,002 characters)"
    reason = hostile["unknown_reason"]
    if usd == "0":
        assert reason == "the AWS Price List has only a $0 on-demand training price of it in us-west-2: '0'"
    else:
        assert reason.startswith("the AWS Price List's on-demand training price of it in us-west-2 is no price (")
        assert reason.endswith("): %s" % shown), reason
    assert other["usd_per_hour"] == 31.212 and estimate["worst_case_usd"] is None
    assert cached_files() == ["ml.p3dn.24xlarge.json"]  # the sane price only
    code, out, err = run(capsys, "cost", EXAMPLE)  # asked again (not cached), and shown as text
    assert code == 0 and "instance_group_1  ml.c5.18xlarge    2      unknown" in out, err
    assert len(answers.requests) == 3


def test_the_bill_of_a_hostile_price_or_description_is_strict_json_and_formats(capsys, aws, fault_proxy):
    answer_pricing(aws, "1e400", "ml.c5.xlarge")
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200,
                          body=described(_jobs.TWO, 1900, 1800), times=1)
    code, out, err = run(capsys, "status", "billed", "--output", "json")
    assert code == 0, err
    cost = strict(out)["cost"]
    assert (cost["billed_usd"], [g["billed_usd"] for g in cost["groups"]]) == (None, [None, 1.9125])
    assert "no price (out of the sane range" in cost["groups"][0]["unknown_reason"]
    assert cached_files() == ["ml.p3.2xlarge.json"]
    # figures no job has: a count of 10**400, seconds of 1e400 (botocore reads Infinity), a count of True
    desc = described(_jobs.TWO, 1900, 1800)
    desc["ResourceConfig"]["InstanceGroups"][1]["InstanceCount"] = 10 ** 400
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=desc, times=2)
    code, out, err = run(capsys, "status", "billed", "--output", "json")
    assert code == 0, err
    cost = strict(out)["cost"]
    assert cost["billed_usd"] is None and cost["groups"][1]["billed_usd"] is None
    code, out, err = run(capsys, "status", "billed")
    assert code == 0 and out.startswith("billed: Completed\n"), err  # the figures it cannot show are left out
    desc = described(_jobs.TWO, float("inf"), float("inf"))
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=desc, times=1)
    code, out, err = run(capsys, "status", "billed", "--output", "json")
    assert code == 0 and strict(out)["cost"]["billed_usd"] is None, err


def test_a_cache_file_that_does_not_decode_or_has_the_wrong_shape_is_a_miss(tmp_path):
    root = tmp_path / "sagemaker-hetero"
    cache = C.PriceCache(str(root), clock=lambda: NOW)
    path = root / "prices" / "us-west-2" / "ml.c5.xlarge.json"
    path.parent.mkdir(parents=True)

    def entry(usd):
        return json.dumps({"region": "us-west-2", "instance_type": "ml.c5.xlarge", "usd_per_hour": usd,
                           "written": NOW})

    path.write_text(entry("0.204"))
    assert cache.get("us-west-2", "ml.c5.xlarge").usd_per_hour == C.usd("0.204")  # the shape each case breaks
    for content in ["[" * 60000, "{" * 30000, '{"a": ' * 20000, entry(0.204), entry("1e400"), entry("1e-300"),
                    entry("9" * 10000), entry("0"), entry(["0.204"]), entry({"USD": "0.204"}),
                    '{"region": "us-west-2", "instance_type": "ml.c5.xlarge", "usd_per_hour": "1", "written": 1e999}',
                    b"\xff\xfe\x00garbage\x80", b"\x00" * 1000, "1" * 60000, "[]", '"text"']:
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        assert cache.get("us-west-2", "ml.c5.xlarge") is None, str(content)[:60]


def test_a_quota_name_map_that_does_not_decode_or_has_the_wrong_shape_is_a_miss(tmp_path):
    environ = {"XDG_CACHE_HOME": str(tmp_path)}
    assert quota_cache.write("us-west-2", {"Quota": "L-1"}, NOW, environ)
    path = quota_cache.path("us-west-2", environ)
    assert quota_cache.read("us-west-2", NOW, environ) == {"Quota": "L-1"}
    for content in ["[" * 100000, '{"codes": ' * 100000, "9" * 100000,
                    json.dumps({"region": "us-west-2", "codes": [["Quota", "L-1"]], "written": NOW}),
                    json.dumps({"region": "us-west-2", "codes": {"Quota": 1}, "written": NOW}),
                    json.dumps({"region": "us-east-1", "codes": {"Quota": "L-1"}, "written": NOW})]:
        with open(path, "w") as f:
            f.write(content)
        assert quota_cache.read("us-west-2", NOW, environ) is None, content[:60]
    with open(path, "wb") as f:
        f.write(os.urandom(4096) + b"\xff")
    assert quota_cache.read("us-west-2", NOW, environ) is None
