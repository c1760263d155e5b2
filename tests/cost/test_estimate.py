"""The estimate against figures computed by hand, for a two-group and a five-group job: on demand,
managed spot and a warm pool. Prices (USD per hour, us-west-2) are the recorded Price List's
(tests/cost/_price_list.py): ml.c5.xlarge 0.204, ml.p3.2xlarge 3.825, ml.c5.18xlarge 3.672,
ml.m5.2xlarge 0.461, ml.g5.2xlarge 1.515, ml.p4d.24xlarge 37.688.
"""
import pytest

from tests.cost import _jobs
from tests.cost._jobs import PRICES


def figures(estimate):
    return ([(g.name, g.count, g.usd_per_hour, g.hourly_usd, g.worst_case_usd) for g in estimate.groups],
            estimate.hourly_usd, estimate.worst_case_usd)


@pytest.mark.usefixtures("workdir")
def test_two_groups_on_demand_through_the_price_list(price_list):
    estimate = _jobs.estimator(_jobs.TWO, max_run=3600).estimate_cost()
    # cpu: 2 x 0.204 = 0.408 an hour; gpu: 1 x 3.825; max_run one hour
    assert figures(estimate) == ([("cpu", 2, 0.204, 0.408, 0.408), ("gpu", 1, 3.825, 3.825, 3.825)], 4.233, 4.233)
    assert (estimate.worst_case_seconds, estimate.spot, estimate.complete) == (3600, False, True)
    assert "ml.c5.xlarge, ml.p3.2xlarge: AWS Price List as of " in estimate.text()
    assert len(price_list.requests) == 2


@pytest.mark.usefixtures("workdir")
def test_two_groups_spot_is_at_most_the_on_demand_figure():
    estimate = _jobs.estimator(_jobs.TWO, max_run=3600, use_spot_instances=True, max_wait=7200).estimate_cost(
        prices=PRICES, fetch=False)
    assert figures(estimate) == ([("cpu", 2, 0.204, 0.408, 0.408), ("gpu", 1, 3.825, 3.825, 3.825)], 4.233, 4.233)
    assert (estimate.spot, estimate.max_wait) == (True, 7200)
    assert ("managed spot: the bill is at most the on-demand figures above; max_wait 2:00:00 bounds the job's whole "
            "time, waiting for spot capacity included; at most max_run 1:00:00 of it is training") in estimate.notes()


@pytest.mark.usefixtures("workdir")
def test_two_groups_warm_pool_adds_the_keep_alive_period():
    estimate = _jobs.estimator(_jobs.TWO, max_run=3600, keep_alive_period_in_seconds=1800).estimate_cost(
        prices=PRICES, fetch=False)
    # 1.5 hours: cpu 0.408 x 1.5 = 0.612; gpu 3.825 x 1.5 = 5.7375
    assert figures(estimate) == ([("cpu", 2, 0.204, 0.408, 0.612), ("gpu", 1, 3.825, 3.825, 5.7375)], 4.233, 6.3495)
    assert estimate.worst_case_seconds == 5400
    assert estimate.notes()[0] == "worst case: max_run 1:00:00 + warm pool keep-alive 0:30:00"


@pytest.mark.usefixtures("workdir")
def test_five_groups_on_demand():
    estimate = _jobs.estimator(_jobs.FIVE, max_run=7200).estimate_cost(prices=PRICES, fetch=False)
    # an hour: 4 x 0.204 = 0.816, 2 x 3.672 = 7.344, 3 x 0.461 = 1.383, 2 x 1.515 = 3.03, 37.688: 50.261; two hours
    assert figures(estimate) == ([("ingest", 4, 0.204, 0.816, 1.632), ("decode", 2, 3.672, 7.344, 14.688),
                                  ("shuffle", 3, 0.461, 1.383, 2.766), ("small", 2, 1.515, 3.03, 6.06),
                                  ("big", 1, 37.688, 37.688, 75.376)], 50.261, 100.522)


@pytest.mark.usefixtures("workdir")
def test_five_groups_spot_with_a_warm_pool(price_list):
    estimate = _jobs.estimator(_jobs.FIVE, max_run=7200, keep_alive_period_in_seconds=600, use_spot_instances=True,
                               max_wait=10800).estimate_cost()
    # 7800 s = 13/6 hours: 0.816 x 13/6 = 1.768, 7.344 x 13/6 = 15.912, 1.383 x 13/6 = 2.9965,
    # 3.03 x 13/6 = 6.565, 37.688 x 13/6 = 81.65733..., total 50.261 x 13/6 = 108.89883...
    groups, hourly, worst = figures(estimate)
    assert groups[:4] == [("ingest", 4, 0.204, 0.816, 1.768), ("decode", 2, 3.672, 7.344, 15.912),
                          ("shuffle", 3, 0.461, 1.383, 2.9965), ("small", 2, 1.515, 3.03, 6.565)]
    assert groups[4][:4] == ("big", 1, 37.688, 37.688) and groups[4][4] == pytest.approx(489.944 / 6, abs=1e-12)
    assert hourly == 50.261 and worst == pytest.approx(653.393 / 6, abs=1e-12)
    assert (estimate.worst_case_seconds, estimate.spot, estimate.max_wait, estimate.keep_alive) == (
        7800, True, 10800, 600)


@pytest.mark.usefixtures("workdir")
def test_a_group_without_a_price_is_unknown_and_so_is_the_total():
    estimate = _jobs.estimator(_jobs.FIVE, max_run=3600).estimate_cost(
        prices={"ml.c5.xlarge": 0.204, "ml.p4d.24xlarge": 37.688}, fetch=False)
    assert [g.worst_case_usd for g in estimate.groups] == [0.816, None, None, None, 37.688]
    assert (estimate.hourly_usd, estimate.worst_case_usd, estimate.complete) == (None, None, False)
    assert estimate.known_worst_case_usd == 38.504
    assert "  total" in estimate.text() and "unknown ($38.50 for the groups priced)" in estimate.text()
