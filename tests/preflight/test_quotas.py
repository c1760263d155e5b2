"""Which quotas a job needs, what jobs in progress use, the verdicts, and SageMaker's own quota answer."""
from sagemaker_hetero import InstanceGroup
from sagemaker_hetero._preflight import quotas
from sagemaker_hetero._preflight.report import OK, PROBLEM, UNKNOWN
from tests._answers import Answers
from tests.preflight.conftest import plan_of

C5 = "ml.c5.18xlarge for training job usage"
P3DN = "ml.p3dn.24xlarge for training job usage"


def test_the_seed_job_needs_a_quota_per_type_and_the_account_wide_ones(seed):
    est, inputs = seed
    needs = quotas.needs(plan_of(est, inputs).job)
    assert [(n.name, n.requested, n.argument, n.value) for n in needs] == [
        (C5, 2, "instance_groups[0].instance_type", "ml.c5.18xlarge"),
        (P3DN, 1, "instance_groups[1].instance_type", "ml.p3dn.24xlarge"),
        (quotas.ALL_INSTANCES, 3, "instance_groups", 3),
        (quotas.PER_JOB, 3, "instance_groups", 3),
    ]


def test_a_type_in_two_groups_is_one_need_and_spot_warm_pools_and_long_runs_add_theirs(generic):
    groups = [InstanceGroup("a", "ml.g5.xlarge", 2), InstanceGroup("b", "ml.c5.xlarge", 1),
              InstanceGroup("c", "ml.g5.xlarge", 3)]
    spot = quotas.needs(plan_of(generic(instance_count=None, instance_type=None, instance_groups=groups,
                                        use_spot_instances=True, max_wait=500000, max_run=450000)).job)
    assert [(n.name, n.requested) for n in spot] == [
        ("ml.g5.xlarge for spot training job usage", 5), ("ml.c5.xlarge for spot training job usage", 1),
        (quotas.ALL_INSTANCES, 6), (quotas.PER_JOB, 6), (quotas.LONGEST_RUN, 450000)]
    warm = quotas.needs(plan_of(generic(keep_alive_period_in_seconds=600)).job)
    assert [(n.name, n.requested, n.argument) for n in warm][:2] == [
        ("ml.m5.xlarge for training job usage", 2, "instance_type"),
        ("ml.m5.xlarge for training warm pool usage", 2, "instance_type")]
    assert quotas.LONGEST_RUN not in [n.name for n in warm]  # max_run within every account's quota


def test_jobs_in_progress_count_per_type_spot_apart(seed):
    answers = Answers()
    use = quotas.in_use([answers.in_progress_description("a", [("x", "ml.p3dn.24xlarge", 2), ("y", "ml.c5.xlarge", 1)]),
                         answers.in_progress_description("b", [("x", "ml.p3dn.24xlarge", 1)], spot=True)])
    assert use == {P3DN: 2, "ml.c5.xlarge for training job usage": 1,
                   "ml.p3dn.24xlarge for spot training job usage": 1, quotas.ALL_INSTANCES: 4}


def test_verdicts_requested_plus_in_use_against_the_quota():
    need = quotas.Need(P3DN, 2, "instance_groups[1].instance_type", "ml.p3dn.24xlarge")
    assert quotas.judge(need, "L-1", 4, {P3DN: 2}, "us-west-2").result == OK
    over = quotas.judge(need, "L-1", 3, {P3DN: 2}, "us-west-2")
    assert (over.result, over.detail, over.argument, over.value) == (
        PROBLEM, "2 requested, 2 in use, quota 3", "instance_groups[1].instance_type", "ml.p3dn.24xlarge")
    assert "--quota-code L-1 --desired-value 4 --region us-west-2" in over.fix and "wait until 1 of" in over.fix
    unknown = quotas.judge(need, "L-1", 3, None, "us-west-2", gap=("sagemaker:ListTrainingJobs", "access denied"))
    assert (unknown.result, unknown.permission) == (UNKNOWN, "sagemaker:ListTrainingJobs")
    assert quotas.judge(need, "L-1", 1, None, "us-west-2").result == PROBLEM  # over the quota by itself
    run = quotas.Need(quotas.LONGEST_RUN, 500000, "max_run", 500000, counted=False)
    assert "or a max_run of at most 432000" in quotas.judge(run, "L-9", 432000, None, "us-west-2").fix


def test_sagemakers_resource_limit_exceeded_message_is_the_same_finding(seed):
    est, inputs = seed
    job = plan_of(est, inputs).job
    message = ("The account-level service limit 'ml.p3dn.24xlarge for training job usage' is 0 Instances, with "
               "current utilization of 0 Instances and a request delta of 1 Instances. Please use AWS Service "
               "Quotas to request an increase for this quota.")
    finding = quotas.limit_finding(message, job, {P3DN: "L-7"}, "us-west-2")
    assert (finding.subject, finding.result, finding.argument, finding.value) == (
        P3DN, PROBLEM, "instance_groups[1].instance_type", "ml.p3dn.24xlarge")
    assert finding.detail.startswith("1 requested, 0 in use, quota 0") and "--quota-code L-7" in finding.fix
    assert "console" in quotas.limit_finding(message, job, {}, "us-west-2").fix
    assert quotas.limit_finding("Rate exceeded", job, {}, "us-west-2") is None


def test_families_and_their_other_types():
    assert [quotas.family(t) for t in ("ml.p4de.24xlarge", "ml.c5n.xlarge", "ml.g5.2xlarge", "x")] == \
        ["p4", "c5", "g5", None]
    names = [quotas.ON_DEMAND % t for t in ("ml.p4d.24xlarge", "ml.p4de.24xlarge", "ml.p5.48xlarge")] + \
        [quotas.SPOT_USAGE % "ml.p4de.24xlarge"]
    assert quotas.siblings("ml.p4d.24xlarge", names) == ["ml.p4de.24xlarge"]
    assert quotas.siblings("ml.p4d.24xlarge", names, spot=True) == ["ml.p4de.24xlarge"]
    assert quotas.siblings("ml.p5.48xlarge", names) == []
