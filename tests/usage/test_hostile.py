"""Hostile answers to a job's utilization: GetMetricData answering NaN, infinities, negative, huge and
wrongly typed values (NaN and the infinities as botocore reads them from JSON), or paging
without end, and group and host names holding control characters: the figures are those of the values that
can be utilization, the JSON stays JSON, the text, SVG and HTML show every name without obeying it."""
import json
import math
import xml.dom.minidom

import boto3
import pytest

from sagemaker_hetero import cli
from sagemaker_hetero._aws import usage as aws_usage
from sagemaker_hetero._aws.log_labels import LOG_GROUP
from sagemaker_hetero.training import format_marker
from tests.usage import _jobs
from tests.usage.test_aws import PRICES, TWO, two_group_job, utilization

JSON = {"Content-Type": "application/x-amz-json-1.0"}


def answer_metrics(proxy, results, token=None, times=None):
    body = {"MetricDataResults": results, "Messages": []}
    if token:
        body["NextToken"] = token
    proxy.add_fault(operation="GetMetricData", kind="status", status=200, body=body, headers=JSON, times=times)


def result(query_id, values):
    return {"Id": query_id, "Label": query_id, "StatusCode": "Complete",
            "Timestamps": [_jobs.START + 60 * i for i in range(len(values))], "Values": values}


def test_values_that_are_no_utilization_are_left_out_and_the_json_stays_json(capsys, fault_proxy, tmp_path):
    two_group_job(fault_proxy, "hostile")
    # m1_0: algo-2's CPU (data, 72 vCPUs), m2_0: algo-3's, m0_3: algo-1's GPU (8 GPUs)
    answer_metrics(fault_proxy, [
        result("m1_0", [float("nan"), 7200.0, float("inf"), -720.0, 3600.0, "x", True]),
        result("m2_0", [1.7e308, 1.7e308]),
        result("m0_3", [400.0, float("-inf"), None])])
    usage = utilization("hostile")
    assert usage.group("gpu").figures("gpu") == {"mean": 50.0, "p95": 50.0}
    host = [h for h in usage.hosts if h.host == "algo-2"][0]
    assert host.figures("cpu") == {"mean": 75.0, "p95": 97.5}  # 100 and 50 alone
    assert usage.group("data").figures("cpu")["mean"] == pytest.approx(1.7e308 / 72 / 2)  # no overflow
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps(PRICES))
    assert cli.main(["usage", "hostile", "--output", "json", "--prices", str(prices)]) == 0
    found = json.loads(capsys.readouterr().out, parse_constant=lambda name: {}[name])  # no NaN, no Infinity
    data = found["groups"][0]["figures"]["cpu"]
    assert data["mean"] > 1e300 and math.isfinite(data["mean"]) and math.isfinite(data["p95"])


def test_an_answer_that_pages_without_end_is_left_and_said(fault_proxy):
    two_group_job(fault_proxy, "pages")
    for page in range(aws_usage.MAX_METRIC_PAGES + 5):
        answer_metrics(fault_proxy, [result("m1_0", [3600.0])], token="page-%d" % page, times=1)
    usage = utilization("pages")
    assert len(fault_proxy.calls(operation="GetMetricData")) == aws_usage.MAX_METRIC_PAGES
    assert usage.group("data").figures("cpu")["mean"] == 50.0
    assert any("GetMetricData" in u and "%d pages" % aws_usage.MAX_METRIC_PAGES in u for u in usage.unknowns)


def test_control_characters_in_names_are_shown_not_obeyed(capsys, fault_proxy, tmp_path):
    evil_group = "data\x1b[2J\x07\x9b"
    _jobs.answer_describe(fault_proxy, _jobs.described("evil", [(evil_group, "ml.c5.18xlarge", 2),
                                                                TWO[1]]))
    _jobs.put_logs("evil", {"algo-1": "gpu", "algo-2": evil_group, "algo-3": None})
    logs = boto3.client("logs")
    stream = "evil/algo-3\x1b]52;c;aGk=\x07-%d" % _jobs.START
    logs.create_log_stream(logGroupName=LOG_GROUP, logStreamName=stream)
    logs.put_log_events(logGroupName=LOG_GROUP, logStreamName=stream, logEvents=[
        {"timestamp": _jobs.START * 1000, "message": format_marker("algo-3", evil_group, "ml.x")}])
    _jobs.put_metrics("evil", "algo-2", {"cpu": [3600, 3600]})
    usage = utilization("evil")
    for shown in (str(usage), usage.text(), usage._repr_html_()):
        assert "\x1b" not in shown and "\x07" not in shown and "\x9b" not in shown
        assert "data\\x1b[2J\\x07\\x9b" in shown
    svg, html, prices = tmp_path / "u.svg", tmp_path / "u.html", tmp_path / "prices.json"
    prices.write_text(json.dumps(PRICES))
    for path in (svg, html):
        assert cli.main(["usage", "evil", "--plot", str(path), "--prices", str(prices)]) == 0
    xml.dom.minidom.parseString(svg.read_text())  # well-formed XML: no control character in it
    assert "\x1b" not in html.read_text() and "\x1b" not in capsys.readouterr().out


def test_a_local_job_name_with_control_characters_is_shown_without_obeying_them(capsys, tmp_path):
    """``usage JOB --local`` of a JOB that is no job: the refusal's first line names it made visible (its
    escape sequence reached the terminal as typed)."""
    code = cli.main(["usage", "evil\x1b[31mred\x07", "--local", "--root", str(tmp_path)])
    _, err = capsys.readouterr()
    assert code == 2 and "\x1b" not in err and "\x07" not in err, repr(err)
    assert err.startswith("sagemaker-hetero: evil\\x1b[31mred\\x07: 1 problem with the command line:"), repr(err)
