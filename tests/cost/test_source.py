"""Where prices come from: a table, the cache, then the Price List over HTTP (the test server answers
GetProducts from the recorded answer); whatever keeps a price from being read makes it unknown."""
import decimal
import socket

import pytest

from sagemaker_hetero._cost import cache as C
from sagemaker_hetero._aws import pricing as S
from sagemaker_hetero._cost.prices import Price, Unknown
from sagemaker_hetero._cost.table import from_mapping
from tests.cost import _price_list

D = decimal.Decimal
DENIED = "User: arn:aws:iam::123456789012:user/ci is not authorized to perform: pricing:GetProducts"


def test_a_price_is_read_from_the_price_list_once_then_from_the_cache(price_list, fault_proxy):
    source = S.PriceSource("us-west-2", fetch=True)
    found = source.prices(["ml.c5.xlarge", "ml.p3.2xlarge", "ml.c5.xlarge"])
    assert found["ml.c5.xlarge"].usd_per_hour == D("0.204") and found["ml.p3.2xlarge"].usd_per_hour == D("3.825")
    assert found["ml.c5.xlarge"].source == "AWS Price List" and found["ml.c5.xlarge"].as_of
    calls = fault_proxy.calls(service="pricing", operation="GetProducts")
    assert len(calls) == 2  # one per type
    assert calls[0].json == {"ServiceCode": "AmazonSageMaker", "FormatVersion": "aws_v1", "MaxResults": 100,
                             "Filters": [{"Type": "TERM_MATCH", "Field": "regionCode", "Value": "us-west-2"},
                                         {"Type": "TERM_MATCH", "Field": "instanceName", "Value": "ml.c5.xlarge"},
                                         {"Type": "TERM_MATCH", "Field": "component", "Value": "Training"}]}
    assert "us-east-1" in calls[0].headers["authorization"]  # the Price List's endpoint region
    again = S.PriceSource("us-west-2", fetch=True).price("ml.c5.xlarge")
    assert again.usd_per_hour == D("0.204") and again.source == "AWS Price List (cached)"
    assert len(fault_proxy.calls(service="pricing")) == 2


def test_the_answer_is_read_page_by_page(aws):
    answers = _price_list.install(aws, page_size=1)  # ml.m5.large: a $0 row, then its price
    assert S.PriceSource("us-west-2", fetch=True).price("ml.m5.large").usd_per_hour == D("0.115")
    assert [r.get("NextToken") for r in answers.requests] == [None, "1"]


def test_a_table_comes_first_and_without_fetch_nothing_is_called(price_list, fault_proxy):
    table = from_mapping({"ml.c5.xlarge": "0.1"})
    source = S.PriceSource("us-west-2", table=table, fetch=False)
    assert source.price("ml.c5.xlarge").usd_per_hour == D("0.1")
    unknown = source.price("ml.p3.2xlarge")
    assert isinstance(unknown, Unknown) and "no price in us-west-2 is given" in unknown.reason
    assert fault_proxy.calls(service="pricing") == []


def test_no_permission_is_unknown_naming_it_and_is_not_asked_again(price_list, fault_proxy):
    fault_proxy.add_fault(service="pricing", operation="GetProducts", kind="status", status=400,
                          code="AccessDeniedException", message=DENIED, times=None)
    source = S.PriceSource("us-west-2", fetch=True)
    found = source.prices(["ml.c5.xlarge", "ml.p3.2xlarge"])
    assert found["ml.c5.xlarge"] == Unknown("ml.c5.xlarge", "the caller may not read the AWS Price List "
                                            "(pricing:GetProducts is not allowed: %s)" % DENIED)
    assert found["ml.p3.2xlarge"].reason == found["ml.c5.xlarge"].reason
    assert len(fault_proxy.calls(service="pricing")) == 1


def test_an_answer_without_a_single_price_is_unknown_and_not_cached(price_list, fault_proxy):
    found = S.PriceSource("us-west-2", fetch=True).prices(["ml.g4dn.xlarge", "ml.trn1.2xlarge", "c5"])
    assert "2 different on-demand training prices" in found["ml.g4dn.xlarge"].reason
    assert found["ml.trn1.2xlarge"].reason == "the AWS Price List has no on-demand training price of it in us-west-2"
    assert found["c5"].reason == "not a SageMaker instance type"
    assert len(fault_proxy.calls(service="pricing")) == 2  # "c5" is not asked for
    assert C.PriceCache().get("us-west-2", "ml.g4dn.xlarge") is None
    no_region = S.PriceSource(None, fetch=True).price("ml.c5.xlarge")
    assert no_region.reason == "no region is known, and prices differ by region"


def test_an_unreachable_endpoint_is_tried_in_every_region_then_unknown(aws, monkeypatch):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = "http://127.0.0.1:%d" % s.getsockname()[1]
    monkeypatch.setenv("AWS_ENDPOINT_URL", closed)
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    source = S.PriceSource("us-west-2", fetch=True)
    found = source.prices(["ml.c5.xlarge", "ml.p3.2xlarge"])
    reason = found["ml.c5.xlarge"].reason
    assert reason.startswith("the AWS Price List API (pricing:GetProducts) could not be reached at us-east-1, "
                             "eu-central-1, ap-south-1: ")
    assert found["ml.p3.2xlarge"].reason == reason  # not tried again
    assert sorted(source._clients) == ["ap-south-1", "eu-central-1", "us-east-1"]


def test_lookup_reads_the_price_file_variable(price_list, fault_proxy, tmp_path, monkeypatch):
    path = tmp_path / "org.json"
    path.write_text('{"ml.c5.xlarge": 0.5}')
    monkeypatch.setenv("SAGEMAKER_HETERO_PRICES", str(path))
    found = S.lookup(["ml.c5.xlarge", "ml.p3.2xlarge"], "us-west-2", fetch=True)
    assert found["ml.c5.xlarge"] == Price("ml.c5.xlarge", None, D("0.5"), "prices file %s" % path)
    assert found["ml.p3.2xlarge"].usd_per_hour == D("3.825")  # the file has none: the Price List's
    assert len(fault_proxy.calls(service="pricing")) == 1
    path.write_text('{"ml.c5.xlarge": "five"}')
    with pytest.raises(Exception) as info:
        S.lookup(["ml.c5.xlarge"], "us-west-2")
    assert "SAGEMAKER_HETERO_PRICES: %s line 1: ml.c5.xlarge must be" % path in str(info.value)


def test_a_price_list_that_keeps_paging_is_unknown_saying_so_and_not_cached(aws):
    from tests._answers import json_answer

    asked = []

    def endless(record):  # every page a new token, and the price among the rows
        asked.append(record.json)
        items = [i for i in _price_list.recorded()["PriceList"] if '"ml.m5.large"' in i]
        return json_answer({"FormatVersion": "aws_v1", "PriceList": items, "NextToken": "t%d" % len(asked)})

    aws.answers.add("pricing", "GetProducts", endless)
    found = S.PriceSource("us-west-2", fetch=True).price("ml.m5.large")
    assert isinstance(found, Unknown) and found.reason == (
        "the AWS Price List was still paging after %d pages; not read further" % S._MAX_PAGES)
    assert len(asked) == S._MAX_PAGES
    assert S.PriceSource("us-west-2", fetch=False).price("ml.m5.large").reason.startswith("no price")


def test_under_mock_aws_which_lacks_the_price_list_a_price_is_unknown(monkeypatch):
    from moto import mock_aws

    for name in ("AWS_ENDPOINT_URL", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    with mock_aws():
        source = S.PriceSource("us-west-2", fetch=True)
        found = source.prices(["ml.m5.large", "ml.c5.xlarge"])
    assert all(isinstance(p, Unknown) for p in found.values()), found
    assert "Price List" in found["ml.m5.large"].reason  # moto in-process answers 404 "Not yet implemented"
