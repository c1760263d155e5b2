"""The bill after a job against figures computed by hand, for a two-group and a five-group job: on
demand, managed spot and a warm pool (prices as in test_estimate.py). The job's description comes
from the proxy (moto's holds no billable seconds); prices from the recorded Price List or prices=.
"""
import pytest

from sagemaker_hetero import Session
from sagemaker_hetero._aws.training_job import TrainingJob
from tests.cost import _jobs
from tests.cost._jobs import PRICES


def described(groups, training, billable, spot=False, keep_alive=None):
    resource = {"InstanceGroups": [{"InstanceGroupName": g.instance_group_name, "InstanceType": g.instance_type,
                                    "InstanceCount": g.instance_count} for g in groups], "VolumeSizeInGB": 30}
    if keep_alive:
        resource["KeepAlivePeriodInSeconds"] = keep_alive
    return {"TrainingJobName": "billed",
            "TrainingJobArn": "arn:aws:sagemaker:us-west-2:123456789012:training-job/billed",
            "TrainingJobStatus": "Completed", "SecondaryStatus": "Completed", "CreationTime": 1700000000,
            "ResourceConfig": resource, "EnableManagedSpotTraining": spot, "TrainingTimeInSeconds": training,
            "BillableTimeInSeconds": billable, "StoppingCondition": {"MaxRuntimeInSeconds": 7200}}


def bill_of(proxy, desc, **kwargs):
    proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=desc, times=None)
    return TrainingJob(Session(), "billed").cost(**kwargs)


def test_two_groups_billed_on_demand(fault_proxy, price_list):
    bill = bill_of(fault_proxy, described(_jobs.TWO, 1900, 1800))
    # cpu: 1800 s x 2 x 0.204 / 3600 = 0.204; gpu: 1800 x 3.825 / 3600 = 1.9125
    assert [(g.name, g.billed_usd) for g in bill.groups] == [("cpu", 0.204), ("gpu", 1.9125)]
    assert (bill.billed_usd, bill.training_seconds, bill.billable_seconds, bill.spot_savings_percent) == (
        2.1165, 5700, 5400, None)
    assert bill.text().splitlines()[:5] == [
        "Training seconds: 5700", "Billable seconds: 5400", "Billed cost (us-west-2, on-demand USD): $2.12",
        "  cpu: 2 x ml.c5.xlarge x 1800 s at $0.204/h = $0.20", "  gpu: 1 x ml.p3.2xlarge x 1800 s at $3.825/h = $1.91"]


def test_two_groups_billed_with_managed_spot(fault_proxy):
    bill = bill_of(fault_proxy, described(_jobs.TWO, 2000, 600, spot=True), prices=PRICES, fetch=False)
    # savings (1 - 600 / 2000) x 100 = 70.0%; cpu 600 x 2 x 0.204 / 3600 = 0.068; gpu 600 x 3.825 / 3600 = 0.6375
    assert [(g.name, g.billed_usd) for g in bill.groups] == [("cpu", 0.068), ("gpu", 0.6375)]
    assert (bill.billed_usd, bill.spot_savings_percent) == (0.7055, 70.0)
    assert bill.seconds_lines() == ["Training seconds: 6000", "Billable seconds: 1800",
                                    "Managed Spot Training savings: 70.0%"]


def test_five_groups_billed_with_a_warm_pool(fault_proxy, price_list):
    bill = bill_of(fault_proxy, described(_jobs.FIVE, 5400, 5400, keep_alive=600))
    # 1.5 hours: 0.816 x 1.5 = 1.224, 7.344 x 1.5 = 11.016, 1.383 x 1.5 = 2.0745, 3.03 x 1.5 = 4.545, 37.688 x 1.5
    assert [g.billed_usd for g in bill.groups] == [1.224, 11.016, 2.0745, 4.545, 56.532]
    assert (bill.billed_usd, bill.instance_count, bill.billable_seconds) == (75.3915, 12, 64800)
    assert bill.cost_lines()[-1] == ("  warm pool: its instances are billed while kept after the job (up to 0:10:00), "
                                     "which these seconds may not include")


def test_five_groups_billed_with_managed_spot(fault_proxy):
    bill = bill_of(fault_proxy, described(_jobs.FIVE, 6000, 1500, spot=True), prices=PRICES, fetch=False)
    # 1500 s = 5/12 hours: 0.34, 3.06, 0.57625, 1.2625, 15.70333...; total 50.261 x 5/12 = 20.94208...
    groups = [g.billed_usd for g in bill.groups]
    assert groups[:4] == [0.34, 3.06, 0.57625, 1.2625] and groups[4] == pytest.approx(188.44 / 12, abs=1e-12)
    assert bill.billed_usd == pytest.approx(251.305 / 12, abs=1e-12) and bill.spot_savings_percent == 75.0
    assert bill.to_dict()["billed_usd"] == bill.billed_usd


def test_a_job_without_billable_seconds_has_no_bill_yet(fault_proxy):
    desc = described(_jobs.TWO, None, None)
    desc.update(TrainingJobStatus="InProgress", SecondaryStatus="Training")
    bill = bill_of(fault_proxy, desc, prices=PRICES, fetch=False)
    assert (bill.billed_usd, bill.cost_lines(), bill.seconds_lines()) == (None, [], [])
    assert bill.text() == "billed: no billable seconds yet (InProgress)"
