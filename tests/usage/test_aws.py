"""A job's utilization on AWS against figures computed by hand: a three-host two-group job and a twelve-host
five-group job whose metrics are in the moto server as SageMaker publishes them, each host's group said in its
log stream; an unknown host, GetMetricData denied, the calls counted (500 queries a call), the CLI's JSON, the
charts written."""
import json
import re
import sys

import pytest

from sagemaker_hetero import Session, cli
from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero._aws.training_job import TrainingJob
from tests.usage import _jobs

TWO = [("data", "ml.c5.18xlarge", 2), ("gpu", "ml.p4d.24xlarge", 1)]
FIVE = [("ingest", "ml.c5.xlarge", 4), ("decode", "ml.c5.18xlarge", 2), ("shuffle", "ml.m5.2xlarge", 3),
        ("small", "ml.g5.2xlarge", 2), ("big", "ml.p4d.24xlarge", 1)]
PRICES = {"ml.c5.18xlarge": 4.0, "ml.p4d.24xlarge": 40.0, "ml.c5.xlarge": 0.25, "ml.m5.2xlarge": 0.5,
          "ml.g5.2xlarge": 1.5}


def two_group_job(proxy, name="two", marked=("algo-1", "algo-2", "algo-3")):
    """algo-1 is the GPU host (p4d: 96 vCPUs, 8 GPUs), algo-2 and algo-3 the data hosts (c5.18xlarge: 72 vCPUs)."""
    _jobs.answer_describe(proxy, _jobs.described(name, TWO))
    groups = {"algo-1": "gpu", "algo-2": "data", "algo-3": "data"}
    _jobs.put_logs(name, dict((h, g if h in marked else None) for h, g in groups.items()))
    _jobs.put_metrics(name, "algo-1", {"cpu": [960, 960, 960], "gpu": [320, 400, 360], "memory": [30, 40, 50],
                                       "gpu_memory": [400, 480, 560], "disk": [10, 10, 10]})
    _jobs.put_metrics(name, "algo-2", {"cpu": [6480, 6840, 6480], "memory": [60, 60, 60]})
    _jobs.put_metrics(name, "algo-3", {"cpu": [5760, 6120, 7200], "memory": [70, 70, 70]})


def utilization(name):
    return TrainingJob(Session(), name).utilization(prices=PRICES, fetch=False)


def test_two_groups_three_hosts_against_hand_computation(fault_proxy):
    two_group_job(fault_proxy)
    usage = utilization("two")
    data, gpu = usage.group("data"), usage.group("gpu")
    assert (data.hosts, gpu.hosts) == (("algo-2", "algo-3"), ("algo-1",))
    # data CPU: 6480/72, 6840/72, 6480/72 = 90, 95, 90 and 5760/72, 6120/72, 7200/72 = 80, 85, 100;
    # pooled sorted 80 85 90 90 95 100: mean 90, p95 at rank 5 x 0.95 = 4.75: 95 + 0.75 x 5 = 98.75
    assert data.figures("cpu") == {"mean": 90.0, "p95": 98.75}
    assert data.figures("memory") == {"mean": 65.0, "p95": 70.0}
    assert data.figures("gpu") == {"mean": None, "p95": None}
    # the hosts' mean at each minute: (90 + 80) / 2, (95 + 85) / 2, (90 + 100) / 2
    assert [v for _, v in data.series["cpu"]] == [85.0, 90.0, 95.0]
    assert [t for t, _ in data.series["cpu"]] == [_jobs.START, _jobs.START + 60, _jobs.START + 120]
    # gpu: GPU 320/8, 400/8, 360/8 = 40, 50, 45: mean 45, p95 at rank 1.9: 45 + 0.9 x 5 = 49.5; CPU 960/96 = 10
    assert gpu.figures("gpu") == {"mean": 45.0, "p95": 49.5}
    assert gpu.figures("gpu_memory") == {"mean": 60.0, "p95": pytest.approx(69.0)}
    assert (gpu.figures("cpu"), gpu.figures("disk")) == ({"mean": 10.0, "p95": 10.0}, {"mean": 10.0, "p95": 10.0})
    host = [h for h in usage.hosts if h.host == "algo-3"][0]
    assert (host.group, host.instance_type, host.figures("cpu")["mean"]) == ("data", "ml.c5.18xlarge", 265.0 / 3)
    verdict = usage.verdict
    assert (verdict.kind, verdict.groups) == ("starved", ("gpu",))
    assert verdict.text.startswith("The GPU group gpu waits for data: its GPUs average 45.0% while data group data's "
                                   "CPUs average 90.0% (p95 98.8%). Add data instances, or move preprocessing to them.")
    # billed 3600 s: data 2 x 4.0 = $8, gpu 40.0 = $40; idle: data 10% = $0.80, gpu 55% = $22; $22.80 of $48
    assert (verdict.idle_usd, verdict.billed_usd) == (22.8, 48.0)
    assert verdict.idle == {"data": {"share": 0.1, "usd": 0.8}, "gpu": {"share": 0.55, "usd": 22.0}}
    assert "The idle share cost $22.80 of $48.00 billed (data 10.0% idle: $0.80; gpu 55.0% idle: $22.00)." in verdict.text
    assert usage.unknowns == ()
    assert len(fault_proxy.calls(operation="GetMetricData")) == 1


def five_group_job(proxy):
    """Twelve hosts given to the groups in no order; the data groups' CPUs at 10%, the GPUs at 80% and 70%."""
    _jobs.answer_describe(proxy, _jobs.described("five", FIVE, billable=1800))
    order = ["big", "ingest", "small", "decode", "ingest", "shuffle", "ingest", "small", "shuffle", "decode",
             "ingest", "shuffle"]
    hosts = dict(("algo-%d" % (i + 1), g) for i, g in enumerate(order))
    _jobs.put_logs("five", hosts)
    raw = {"ingest": {"cpu": [40, 40]}, "decode": {"cpu": [720, 720]}, "shuffle": {"cpu": [64, 96]},
           "small": {"gpu": [70, 90], "cpu": [400, 400]}, "big": {"gpu": [560, 560], "cpu": [96, 96]}}
    for host, group in hosts.items():
        _jobs.put_metrics("five", host, raw[group])
    return hosts


def test_five_groups_against_hand_computation(fault_proxy):
    hosts = five_group_job(fault_proxy)
    usage = utilization("five")
    assert [g.name for g in usage.groups] == ["ingest", "decode", "shuffle", "small", "big"]
    assert usage.group("ingest").hosts == tuple(h for h, g in sorted(hosts.items(), key=lambda p: int(p[0][5:]))
                                                if g == "ingest")
    # ingest 40/4 = 10; decode 720/72 = 10; shuffle 64/8, 96/8 = 8, 12 (x3 hosts): mean 10, p95 at rank 4.75 of
    # 8 8 8 12 12 12: 12; small 70/1, 90/1: mean 80, p95 at rank 2.85 of 70 70 90 90: 90; big 560/8 = 70
    assert [usage.group(n).figures("cpu")["mean"] for n in ("ingest", "decode", "shuffle")] == [10.0, 10.0, 10.0]
    assert usage.group("shuffle").figures("cpu")["p95"] == 12.0
    assert usage.group("small").figures("gpu") == {"mean": 80.0, "p95": 90.0}
    assert usage.group("big").figures("gpu") == {"mean": 70.0, "p95": 70.0}
    assert usage.group("small").figures("cpu")["mean"] == 50.0  # 400 / 8 vCPUs
    verdict = usage.verdict
    assert (verdict.kind, verdict.groups) == ("data_idle", ("ingest", "decode", "shuffle"))
    assert verdict.text.startswith("The data groups idle (ingest CPU 10.0%, decode CPU 10.0%, shuffle CPU 10.0%, "
                                   "below 30.0%) while small GPU 80.0%, big GPU 70.0%: fewer or smaller data "
                                   "instances would do.")
    # 1800 s: ingest 4 x 0.25 / 2 = 0.5, decode 2 x 4 / 2 = 4, shuffle 3 x 0.5 / 2 = 0.75, small 2 x 1.5 / 2 = 1.5,
    # big 40 / 2 = 20; idle 90% of the first three (4.725), 20% of small (0.3), 30% of big (6): 11.025 of 26.75
    assert (verdict.idle_usd, verdict.billed_usd) == (pytest.approx(11.025), 26.75)
    assert len(fault_proxy.calls(operation="GetMetricData")) == 1  # 60 queries


def test_a_host_whose_group_is_not_in_its_logs_is_unknown_never_guessed(fault_proxy):
    two_group_job(fault_proxy, "unmarked", marked=("algo-1", "algo-2"))
    usage = utilization("unmarked")
    assert usage.group("data").hosts == ("algo-2",)
    assert usage.group("data").figures("cpu") == {"mean": 275.0 / 3, "p95": 94.5}  # algo-2 alone: 90 95 90
    host = [h for h in usage.hosts if h.host == "algo-3"][0]
    assert (host.group, host.instance_type, host.series["cpu"]) == (None, None, None)  # no vCPU count to divide by
    assert host.series["memory"] == [(_jobs.START + 60 * i, 70.0) for i in range(3)]
    assert usage.unknowns == ("host algo-3: its instance group is not known (it said none in its logs)",)
    assert usage.to_dict()["hosts"][2]["group"] is None
    assert "Unknown: host algo-3" in usage.text()


def test_get_metric_data_denied_is_unknown_not_an_error(fault_proxy):
    two_group_job(fault_proxy, "denied")
    fault_proxy.add_fault(operation="GetMetricData", kind="status", status=400, code="AccessDenied", times=None,
                          message="User: arn:aws:iam::123456789012:user/u is not authorized to perform: "
                                  "cloudwatch:GetMetricData")
    usage = utilization("denied")
    assert [g.figures("cpu") for g in usage.groups] == [{"mean": None, "p95": None}] * 2
    assert len(usage.unknowns) == 1 and usage.unknowns[0].startswith("the figures (cloudwatch:GetMetricData): ")
    assert "not authorized" in usage.unknowns[0]
    assert usage.verdict.kind == "unknown" and usage.verdict.idle_usd is None
    assert usage.group("data").hosts == ("algo-2", "algo-3")  # the logs still said the groups


def test_logs_denied_leave_every_host_unknown(fault_proxy):
    two_group_job(fault_proxy, "nologs")
    fault_proxy.add_fault(service="logs", kind="status", status=400, code="AccessDeniedException", times=None,
                          message="not authorized to perform: logs:DescribeLogStreams")
    usage = utilization("nologs")
    assert [h.group for h in usage.hosts] == [None, None, None]
    assert usage.unknowns[0].startswith("which host is in which instance group (logs:DescribeLogStreams, "
                                        "logs:GetLogEvents): ")
    assert usage.verdict.kind == "unknown"


def query_ids(call):
    """The query ids a GetMetricData request holds (the body is CBOR, JSON or a form: the ids read alike)."""
    return set(re.findall(rb"m\d+_\d", call.payload))


def test_queries_go_500_to_a_call(fault_proxy):
    # one group of 101 hosts: 505 queries, two calls; a job of one group needs no logs
    _jobs.answer_describe(fault_proxy, _jobs.described("wide", [("only", "ml.c5.xlarge", 101)]))
    _jobs.put_metrics("wide", "algo-101", {"cpu": [200, 100]})
    usage = utilization("wide")
    calls = fault_proxy.calls(operation="GetMetricData")
    assert [len(query_ids(c)) for c in calls] == [500, 5]
    assert usage.group("only").figures("cpu") == {"mean": 37.5, "p95": 48.75}  # 50, 25
    assert fault_proxy.calls(service="logs") == []


# -- the command line ------------------------------------------------------------------------------


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_cli_prints_json_and_writes_svg_and_html(capsys, fault_proxy, tmp_path):
    two_group_job(fault_proxy)
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps(PRICES))
    svg, html = tmp_path / "u.svg", tmp_path / "u.html"
    code, out, err = run(capsys, "usage", "two", "--output", "json", "--plot", str(svg), "--prices", str(prices))
    assert code == 0, err
    found = json.loads(out)
    assert [(g["name"], g["figures"]["cpu"]) for g in found["groups"]] == [
        ("data", {"mean": 90.0, "p95": 98.75}), ("gpu", {"mean": 10.0, "p95": 10.0})]
    assert found["verdict"]["kind"] == "starved" and found["verdict"]["idle_usd"] == 22.8
    assert [h["group"] for h in found["hosts"]] == ["gpu", "data", "data"]
    assert found["groups"][0]["series"]["cpu"] == [[_jobs.START + 60 * i, v] for i, v in enumerate([85.0, 90.0, 95.0])]
    assert svg.read_text().count("<polyline") == 2 + 5  # data: CPU, memory; gpu: all five
    assert "wrote the charts of two to" in err
    code, out, _ = run(capsys, "usage", "two", "--plot", str(html), "--prices", str(prices))
    assert code == 0 and out.splitlines()[1].startswith("  data (2 x ml.c5.18xlarge, hosts algo-2, algo-3): CPU 90.0%")
    page = html.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 2 and "waits for data" in page


def test_the_html_view_draws_a_chart_per_group(fault_proxy):
    five_group_job(fault_proxy)
    page = utilization("five")._repr_html_()
    assert page.count("<svg") == 5 and page.count("<tr>") == 6
    assert "The data groups idle" in page and "small (2 x ml.g5.2xlarge)" in page


def test_a_png_is_drawn_through_matplotlib(capsys, fault_proxy, tmp_path):
    pytest.importorskip("matplotlib")
    two_group_job(fault_proxy)
    png = tmp_path / "u.png"
    assert run(capsys, "usage", "two", "--plot", str(png))[0] == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_png_without_matplotlib_names_the_extra(capsys, fault_proxy, tmp_path, monkeypatch):
    two_group_job(fault_proxy)
    for name in ("matplotlib", "matplotlib.figure"):  # importing either: ImportError, imported before or not
        monkeypatch.setitem(sys.modules, name, None)
    code, _, err = run(capsys, "usage", "two", "--plot", str(tmp_path / "u.png"))
    assert code == 2
    assert "--plot" in err and "pip install 'sagemaker-hetero[plot]'" in err and not (tmp_path / "u.png").exists()
    code, _, err = run(capsys, "usage", "two", "--plot", str(tmp_path / "u.jpg"))
    assert code == 2 and "must end in .svg, .html, .png" in err


def test_a_plot_that_cannot_be_written_names_the_option(capsys, fault_proxy, tmp_path):
    two_group_job(fault_proxy)
    code, _, err = run(capsys, "usage", "two", "--plot", str(tmp_path / "no-such-folder" / "u.svg"))
    assert code == 2 and "--plot: cannot be written: No such file or directory" in err


def test_setup_cfg_declares_the_plot_extra_and_no_dependency_on_matplotlib():
    import configparser
    import os

    config = configparser.ConfigParser()
    config.read(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                             "setup.cfg"))
    assert config["options.extras_require"]["plot"].split() == ["matplotlib"]
    assert "matplotlib" not in config["options"]["install_requires"]


def test_a_stream_of_no_host_of_the_job_adds_no_host(fault_proxy):
    two_group_job(fault_proxy, "strays")
    _jobs.put_logs("strays", {"algo-7": "data"})  # a three-host job has no algo-7
    usage = utilization("strays")
    assert [h.host for h in usage.hosts] == ["algo-1", "algo-2", "algo-3"]
    assert usage.group("data").hosts == ("algo-2", "algo-3")
    assert b"algo-7" not in fault_proxy.calls(operation="GetMetricData")[0].payload


def test_a_type_the_table_does_not_hold_is_said_unknown(fault_proxy):
    _jobs.answer_describe(fault_proxy, _jobs.described("untabled", [("data", "ml.zz.9xlarge", 2), TWO[1]]))
    _jobs.put_logs("untabled", {"algo-1": "gpu", "algo-2": "data", "algo-3": "data"})
    _jobs.put_metrics("untabled", "algo-2", {"cpu": [3600, 3600], "memory": [50, 50]})
    usage = utilization("untabled")
    assert usage.group("data").figures("cpu") == {"mean": None, "p95": None}
    assert usage.group("data").figures("memory") == {"mean": 50.0, "p95": 50.0}
    assert usage.unknowns == ("the CPU and GPU figures of data: its instance type ml.zz.9xlarge is not in the "
                              "instance-type table (its vCPU and GPU counts)",)
    assert "Unknown: the CPU and GPU figures of data" in usage.text()


def test_no_figures_of_a_job_older_than_cloudwatchs_minutes_says_why(fault_proxy):
    from sagemaker_hetero._aws import usage as aws_usage

    _jobs.answer_describe(fault_proxy, _jobs.described("gone", TWO))
    _jobs.put_logs("gone", {"algo-1": "gpu", "algo-2": "data", "algo-3": "data"})
    found = dict((days, aws_usage.utilization(Session(), "gone", PRICES, False,
                                              clock=lambda: _jobs.START + days * 86400 + 600)) for days in (14, 16))
    assert found[16].unknowns == ("the figures: GetMetricData answered none; CloudWatch keeps one-minute figures 15 "
                                  "days, and the job started 16 days ago",)
    assert found[14].unknowns == () and found[16].verdict.kind == "unknown"


def test_the_usage_writes_its_charts_as_the_cli_does(fault_proxy, tmp_path):
    two_group_job(fault_proxy, "drawn")
    usage = utilization("drawn")
    svg = tmp_path / "u.svg"
    assert usage.plot(str(svg)) == str(svg) and svg.read_text().count("<polyline") == 2 + 5
    with pytest.raises(ConfigError, match=r"path: must end in \.svg, \.html, \.png .*u\.gif"):
        usage.plot(str(tmp_path / "u.gif"))


@pytest.mark.parametrize("billed", [True, False], ids=["billed", "not billed yet"])
def test_a_prices_file_that_cannot_be_read_exits_2_naming_it_before_any_call(capsys, fault_proxy, tmp_path, billed):
    """``usage --prices FILE`` reads the file as ``cost`` does: a name mistyped is told, whether or not the job
    has a bill yet (it was passed over without a word for a job without billable seconds)."""
    if billed:
        two_group_job(fault_proxy)
    else:
        desc = _jobs.described("two", TWO, status="InProgress")
        del desc["BillableTimeInSeconds"], desc["TrainingTimeInSeconds"], desc["TrainingEndTime"]
        _jobs.answer_describe(fault_proxy, desc)
    missing = str(tmp_path / "prcies.json")
    code, out, err = run(capsys, "usage", "two", "--prices", missing)
    assert code == 2 and out == "", err
    assert "--prices: cannot be read: No such file or directory (got %r)" % missing in err, err
    assert fault_proxy.calls(service="cloudwatch") == []
    with pytest.raises(ConfigError) as raised:  # the Python API's the same: said, not left as an unknown
        TrainingJob(Session(), "two").utilization(prices=missing)
    assert [(p.path, p.value) for p in raised.value.problems] == [("prices", missing)]
