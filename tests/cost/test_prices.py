"""Reading the Price List's answers (pure): the training price of a type in a region, and nothing else."""
import decimal
import json

import botocore.session
import pytest
from botocore.validate import ParamValidator

from sagemaker_hetero._cost import prices as P
from tests.cost import _price_list

ITEMS = _price_list.recorded()["PriceList"]


def test_the_recorded_answer_has_the_shape_botocore_parses_get_products_into():
    model = botocore.session.get_session().get_service_model("pricing")
    operation = model.operation_model("GetProducts")
    assert model.metadata["targetPrefix"] == "AWSPriceListService" and operation.http["method"] == "POST"
    answer = _price_list.recorded()
    report = ParamValidator().validate(answer, operation.output_shape)
    assert not report.has_errors(), report.generate_report()
    assert operation.output_shape.members["PriceList"].member.type_name == "string"  # JSON documents in strings
    for item in answer["PriceList"]:
        document = json.loads(item)
        assert document["serviceCode"] == P.SERVICE_CODE
        assert set(document["product"]["attributes"]) >= {"regionCode", "instanceName", "component", "usagetype"}
        assert document["terms"]["OnDemand"]
    # the request the source sends is one botocore takes
    request = dict(ServiceCode=P.SERVICE_CODE, Filters=P.filters("us-west-2", "ml.c5.xlarge"), FormatVersion="aws_v1",
                   MaxResults=100)
    assert not ParamValidator().validate(request, operation.input_shape).has_errors()


@pytest.mark.parametrize("instance_type, usd", sorted(_price_list.US_WEST_2.items()))
def test_each_training_price_is_read_exactly(instance_type, usd):
    assert P.hourly_price(ITEMS, "us-west-2", instance_type) == (decimal.Decimal(usd), None)


def test_what_is_not_an_on_demand_training_price_is_left_out():
    # ml.c5.xlarge has a hosting price of 0.238; ml.p4d.24xlarge a training plan's upfront fee of 85000;
    # ml.p3dn.24xlarge an Outposts price of 44.1 under the same usage type; ml.m5.large a $0 row
    assert P.hourly_price(ITEMS, "us-west-2", "ml.c5.xlarge")[0] == decimal.Decimal("0.204")
    assert P.hourly_price(ITEMS, "us-west-2", "ml.p4d.24xlarge")[0] == decimal.Decimal("37.688")
    assert P.hourly_price(ITEMS, "us-west-2", "ml.p3dn.24xlarge")[0] == decimal.Decimal("31.212")
    assert P.hourly_price(ITEMS, "us-west-2", "ml.m5.large")[0] == decimal.Decimal("0.115")
    # parsed documents are read as their strings are
    assert P.hourly_price([json.loads(i) for i in ITEMS], "us-west-2", "ml.m5.large")[0] == decimal.Decimal("0.115")


def test_other_regions_and_their_usage_type_prefixes():
    assert P.hourly_price(ITEMS, "eu-west-1", "ml.c5.xlarge")[0] == decimal.Decimal("0.23")  # EU-Train:
    assert P.hourly_price(ITEMS, "us-east-1", "ml.p3.2xlarge")[0] == decimal.Decimal("3.825")


def test_no_price_or_two_prices_is_no_price_with_the_reason():
    assert P.hourly_price(ITEMS, "us-west-2", "ml.g4dn.xlarge") == (
        None, "the AWS Price List has 2 different on-demand training prices of it in us-west-2 ($0.736, $0.7364)")
    assert P.hourly_price(ITEMS, "eu-west-1", "ml.p3.2xlarge") == (
        None, "the AWS Price List has no on-demand training price of it in eu-west-1")
    assert P.hourly_price(["not json", "[]", json.dumps({"product": None})], "us-west-2", "ml.c5.xlarge")[0] is None
    assert P.hourly_price(None, "us-west-2", "ml.c5.xlarge")[0] is None


def test_usd_reads_a_float_as_the_decimal_it_prints_as():
    assert P.usd(0.204) == decimal.Decimal("0.204") and P.usd("3.8250000000") == decimal.Decimal("3.825")
    assert P.usd(2) == 2
    for bad in (True, "abc", -1, float("nan"), float("inf"), None, [1]):
        with pytest.raises(ValueError):
            P.usd(bad)


def test_filters_ask_for_the_training_component_of_the_type_in_the_region():
    assert P.filters("us-west-2", "ml.c5.xlarge") == [
        {"Type": "TERM_MATCH", "Field": "regionCode", "Value": "us-west-2"},
        {"Type": "TERM_MATCH", "Field": "instanceName", "Value": "ml.c5.xlarge"},
        {"Type": "TERM_MATCH", "Field": "component", "Value": "Training"},
    ]


def test_usd_takes_only_a_price_in_the_sane_range_and_says_why_not():
    assert P.usd("0.000001") == decimal.Decimal("0.000001") and P.usd(1000000) == 1000000
    assert P.usd(decimal.Decimal("1E+6")) == 1000000 and P.usd(" 3.825 ") == decimal.Decimal("3.825")
    for bad, why in (("1e400", "out of the sane range"), ("1e999999", "out of the sane range"), (0, "out of the sane"),
                     ("0", "out of the sane"), ("-5", "out of the sane"), ("1e-300", "out of the sane"),
                     ("0.0000009", "out of the sane"), (1000000.01, "out of the sane"), (10 ** 5000, "out of the sane"),
                     ("9" * 10000, "written in 10000 characters"), (decimal.Decimal("1" * 50), "written in 50"),
                     ("0." + "0" * 50 + "1", "written in 53"), ("Infinity", "not a finite"), ("NaN", "not a finite"),
                     ("sNaN", "not a finite"), ("0x10", "not a number"), ("", "not a number")):
        with pytest.raises(ValueError) as info:
            P.usd(bad)
        assert str(info.value).startswith(why), (bad, str(info.value))
    assert P.RANGE_WORDS == "a number from 0.000001 to 1,000,000"
    assert P.shown("9" * 10000) == repr("9" * 40)[:40] + "... (10,002 characters)" and P.shown("1e400") == "'1e400'"
    assert P.shown(10 ** 5000) == "an integer of 5,001 digits" and P.shown(-(10 ** 999)) == "an integer of 1,000 digits"


def test_figures_no_job_has_format_as_unknown_never_raise():
    from sagemaker_hetero._cost import estimate as E

    for amount in (decimal.Decimal("1e999999"), decimal.Decimal("Infinity"), decimal.Decimal("NaN"),
                   decimal.Decimal(10) ** 15):
        assert E.usd_text(amount) == "unknown" and E.rate_text(amount) == "unknown"
    assert E.usd_text(decimal.Decimal("12.345")) == "$12.35" and E.rate_text(decimal.Decimal("3.8250")) == "$3.825"
    assert [E.whole(v) for v in (0, 10 ** 9, 10 ** 9 + 1, -1, True, 1.0, float("inf"), "3")] == [
        0, 10 ** 9, None, None, None, None, None, None]


def test_a_price_is_written_in_ascii_digits():
    # decimal reads other scripts' digits and underscores; no price is written so, from the Price List or a file
    assert P.usd("1.5e1") == 15 and P.usd("+2.") == 2 and P.usd(".5") == decimal.Decimal("0.5")
    for bad in ("\u0661\u0662", "1_000", "\uff15", "1.5\u0660"):
        with pytest.raises(ValueError) as info:
            P.usd(bad)
        assert str(info.value) == "not a number written in ASCII digits", bad
    item = json.loads(ITEMS[0])
    amount, _ = P.hourly_price([item], "us-west-2", item["product"]["attributes"]["instanceName"])
    assert amount is not None
    for term in item["terms"]["OnDemand"].values():
        for dimension in term["priceDimensions"].values():
            dimension["pricePerUnit"]["USD"] = "\u0661\u0662"
    amount, reason = P.hourly_price([item], "us-west-2", item["product"]["attributes"]["instanceName"])
    assert amount is None and "not a number written in ASCII digits" in reason


def test_shown_never_raises_for_a_value_too_deep_or_holding_a_huge_int():
    deep = []
    for _ in range(100000):
        deep = [deep]
    assert P.shown(deep) == "a list too deep or too large to show"
    assert P.shown((10 ** 5000,)) == "a tuple too deep or too large to show"
