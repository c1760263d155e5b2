"""The pure parts: normalising, the percentile, the verdicts in their words, the charts; and a local job's
samples read into the same Usage."""
import pytest

from sagemaker_hetero._usage import charts, figures, local, queries, verdict
from sagemaker_hetero._usage.figures import build

T0 = 1700000040


def series(*values):
    return [(T0 + 60 * i, v) for i, v in enumerate(values)]


@pytest.mark.parametrize("values, p95", [([5], 5), ([1, 2], 1.95), ([40, 50, 45], 49.5), (list(range(1, 101)), 95.05)])
def test_the_95th_percentile_interpolates_between_the_nearest_ranks(values, p95):
    assert figures.percentile(values) == pytest.approx(p95)
    assert figures.percentile([]) is None and figures.mean([]) is None


def test_cpu_is_divided_by_vcpus_gpu_by_gpus_and_an_unknown_type_is_not_normalised():
    assert figures.normalised("cpu", "ml.c5.18xlarge", series(7200)) == series(100.0)
    assert figures.normalised("gpu", "ml.p4d.24xlarge", series(400)) == series(50.0)
    assert figures.normalised("gpu_memory", "ml.g5.12xlarge", series(200)) == series(50.0)
    assert figures.normalised("memory", "ml.c5.3xlarge", series(42)) == series(42.0)
    assert figures.normalised("cpu", "ml.c5.3xlarge", series(100)) is None  # no such size: never a guess
    assert figures.normalised("gpu", "ml.c5.xlarge", series(0)) is None  # no GPU


def usage_of(groups, raw, bills=None):
    hosts = {}
    for i, (name, _, count) in enumerate(groups):
        for j in range(count):
            hosts["algo-%d" % (len(hosts) + 1)] = name
    per_host = {}
    for host, group in hosts.items():
        per_host[host] = dict((k, series(*v)) for k, v in raw[group].items())
    return build("job", "Completed", groups, hosts, per_host, bills or {}, [])


def test_a_homogeneous_gpu_job_whose_own_cpus_are_saturated_waits_for_data():
    # the AWS example's homogeneous p4d: CPUs near 100%, GPU about 45%
    usage = usage_of([("homogeneousCluster", "ml.p4d.24xlarge", 1)], {"homogeneousCluster": {
        "cpu": [9408, 9504], "gpu": [360, 360]}}, {"homogeneousCluster": 37.688})
    assert usage.verdict.kind == "starved" and usage.verdict.groups == ("homogeneousCluster",)
    assert usage.verdict.text.startswith("The GPU group homogeneousCluster waits for data: its GPUs average 45.0% while "
                                         "its own CPUs average 98.5%. Move preprocessing to a data group")
    assert usage.verdict.idle_usd == pytest.approx(37.688 * 0.55)


def test_a_gpu_group_waiting_on_its_own_cpus_beside_an_unhurried_data_group_is_starved():
    usage = usage_of([("data", "ml.c5.xlarge", 1), ("gpu", "ml.g5.2xlarge", 1)],
                     {"data": {"cpu": [200]}, "gpu": {"cpu": [720], "gpu": [20]}})
    assert (usage.verdict.kind, usage.verdict.groups) == ("starved", ("gpu",))
    assert usage.verdict.text.startswith("The GPU group gpu waits for data: its GPUs average 20.0% while its own CPUs "
                                         "average 90.0%. Move preprocessing to its data groups (data's CPUs average "
                                         "50.0%).")


def test_every_starved_gpu_group_of_five_is_named():
    usage = usage_of([("ingest", "ml.c5.xlarge", 2), ("small", "ml.g5.2xlarge", 1), ("decode", "ml.c5.18xlarge", 1),
                      ("big", "ml.p4d.24xlarge", 1), ("fine", "ml.g5.2xlarge", 1)],
                     {"ingest": {"cpu": [200]}, "small": {"gpu": [20]}, "decode": {"cpu": [6480]},
                      "big": {"gpu": [240]}, "fine": {"gpu": [90]}})
    # ingest 200 / 4 = 50%, decode 6480 / 72 = 90% (the busiest data group); GPUs: small 20%, big 240 / 8 = 30%,
    # fine 90%: small and big wait
    assert (usage.verdict.kind, usage.verdict.groups) == ("starved", ("small", "big"))
    assert usage.verdict.text.startswith("The GPU group small waits for data: its GPUs average 20.0% while data group "
                                         "decode's CPUs average 90.0% (p95 90.0%). Add data instances, or move "
                                         "preprocessing to them. So do the GPU groups big (GPUs 30.0%).")


def test_a_gpu_type_the_table_does_not_hold_has_no_gpu_figure_and_no_load():
    usage = usage_of([("data", "ml.c5.xlarge", 1), ("gpu", "ml.p9.48xlarge", 1)],
                     {"data": {"cpu": [40]}, "gpu": {"gpu": [400], "memory": [50]}})
    gpu = usage.group("gpu")
    assert (gpu.kind, gpu.figures("gpu")["mean"], gpu.figures("memory")["mean"]) == ("gpu", None, 50.0)
    assert verdict.load(gpu) is None
    assert usage.verdict.kind == "unknown"  # not "over_provisioned" nor "data_idle" on the data group's figures alone
    assert usage.verdict.text.startswith("No verdict: the utilization of gpu is not known (data CPU 10.0%).")


def test_everything_low_is_over_provisioned_and_otherwise_balanced():
    groups = [("data", "ml.c5.18xlarge", 2), ("gpu", "ml.p4d.24xlarge", 1)]
    low = usage_of(groups, {"data": {"cpu": [720]}, "gpu": {"gpu": [80]}})
    assert low.verdict.kind == "over_provisioned"
    assert low.verdict.text.startswith("Everything is low (data CPU 10.0%, gpu GPU 10.0%, each below 30.0%)")
    assert "What the idle share cost: unknown" in low.verdict.text
    # the AWS example with a data group: GPU 74%, CPUs about 80% -> GPU not low, data not idle
    balanced = usage_of(groups, {"data": {"cpu": [5760]}, "gpu": {"gpu": [592]}}, {"data": 7.344, "gpu": 37.688})
    assert balanced.verdict.kind == "balanced"
    assert balanced.verdict.text.startswith("Balanced: data CPU 80.0%, gpu GPU 74.0%. The idle share cost $")
    assert balanced.verdict.idle == {"data": {"share": 0.2, "usd": pytest.approx(1.4688)},
                                     "gpu": {"share": 0.26, "usd": pytest.approx(9.79888)}}


def test_no_figures_no_verdict():
    usage = usage_of([("a", "ml.c5.xlarge", 1)], {"a": {}})
    assert (usage.verdict.kind, usage.verdict.idle_usd) == ("unknown", None)
    assert "no figures" in charts.html(usage) and "<svg" in charts.svg(usage)


def test_the_charts_are_svg_escaped_and_one_per_group():
    usage = usage_of([("a<b>", "ml.c5.xlarge", 1), ("gpu", "ml.g5.xlarge", 1)],
                     {"a<b>": {"cpu": [200, 400]}, "gpu": {"gpu": [50, 60], "memory": [10, 20]}})
    page = usage._repr_html_()
    assert "a<b>" not in page and "a&lt;b&gt;" in page and page.count("<svg") == 2
    drawn = charts.svg(usage)
    assert drawn.count("<polyline") == 3 and drawn.startswith('<svg xmlns="http://www.w3.org/2000/svg"')


def test_the_window_and_period_of_a_job():
    desc = {"TrainingStartTime": T0, "TrainingEndTime": T0 + 3600}
    start, end = queries.window(desc, now=0)
    assert (end - start).total_seconds() == 3600 + 240 and queries.period(start, end) == 60
    day = queries.window({"CreationTime": T0}, now=T0 + 3 * 86400)
    assert queries.period(*day) == 240  # 3 days and 4 minutes in at most 1440 samples: whole minutes
    assert queries.window({}, now=T0) is None
    assert queries.hosts_of([("a", "t", 2), ("b", "t", 1), ("c", "t", None)]) == ["algo-1", "algo-2", "algo-3"]


def test_a_local_jobs_samples_make_the_same_usage():
    samples = {"hosts": {
        "algo-1": {"group": "train", "series": {"cpu": series(2.0, 4.0), "memory": series(10.0, 10.0)}},
        "algo-2": {"group": "data", "series": {"cpu": series(90.0, 100.0), "memory": series(5.0, 7.0)}},
        "algo-3": {"group": "data", "series": {"cpu": series(80.0, 100.0), "memory": []}},
    }, "note": None}
    desc = {"TrainingJobStatus": "Completed", "ResourceConfig": {"InstanceGroups": [
        {"InstanceGroupName": "train", "InstanceType": "ml.p3.2xlarge", "InstanceCount": 1},
        {"InstanceGroupName": "data", "InstanceType": "ml.c5.xlarge", "InstanceCount": 2}]}}
    usage = local.usage("local-job", samples, desc)
    assert usage.source == "local" and [g.name for g in usage.groups] == ["train", "data"]
    assert usage.group("data").figures("cpu") == {"mean": 92.5, "p95": 100.0}  # as sampled: no division
    assert usage.group("train").figures("cpu")["mean"] == 3.0
    assert usage.group("train").kind == "data"  # no GPU sampled: judged by its CPUs
    assert usage.verdict.text.endswith("A local run is billed nothing: the idle share's cost is had on AWS.")
    without = local.usage("local-job", samples)  # an earlier run's: the groups from the samples, algo-1's first
    assert [(g.name, g.count) for g in without.groups] == [("train", 1), ("data", 2)]
    none = local.usage("empty", {"hosts": {}, "note": "not Linux"})
    assert none.unknowns == ("the figures: no host of the job was sampled (not Linux)",)


def test_the_text_has_a_line_per_group_then_per_host_and_the_hosts_of_no_known_group():
    usage = build("job", "InProgress", [("data", "ml.c5.xlarge", 2)], {"algo-1": "data", "algo-2": None},
                  {"algo-1": {"cpu": series(200, 400)}, "algo-2": {"cpu": series(400), "memory": series(20)}}, {}, [])
    lines = usage.text().splitlines()
    assert lines[:5] == [
        "Utilization of job (InProgress; 0-100% of each instance):",
        "  data (2 x ml.c5.xlarge, hosts algo-1): CPU 75.0% (p95 97.5%)",
        "    algo-1: CPU 75.0% (p95 97.5%)",
        "  ? (group not known, hosts algo-2)",
        "    algo-2: CPU 100.0% (p95 100.0%); memory 20.0% (p95 20.0%)"]  # every group of one type: divided by 4
    assert lines[5].startswith("Verdict: Balanced: data CPU 75.0%.")
    assert lines[6] == "Unknown: host algo-2: its instance group is not known (it said none in its logs)"


def test_a_local_job_an_earlier_run_left_shows_no_python_none_for_its_unknown_instance_types():
    """``sagemaker-hetero usage JOB --local`` in a new process has the samples, not the description: the
    groups' instance types are not known, and are said so (the text, the notebook view, the charts)."""
    samples = {"hosts": {"algo-1": {"group": "main", "series": {"cpu": series(20.0), "memory": series(5.0)}}},
               "note": None}
    usage = local.usage("local-job", samples)
    assert usage.group("main").instance_type is None
    assert usage.text().splitlines()[1] == (
        "  main (1 x an instance type not known, hosts algo-1): CPU 20.0% (p95 20.0%); memory 5.0% (p95 5.0%)")
    for shown in (usage.text(), charts.svg(usage), charts.html(usage)):
        assert "None" not in shown
