"""``usage`` on a local job: its data group burns CPU while its other group sleeps, and the figures per
group (the CLI's JSON, and the Usage the session's job gives) order the groups so."""
import json
import os
import sys

import pytest

from sagemaker_hetero import cli
from sagemaker_hetero._aws.training_job import TrainingJob
from sagemaker_hetero._cli.usage import local_usage
from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.local import _usage

from ._helpers import estimator_for
from .test_usage import BURN_OR_SLEEP

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sampling reads Linux's /proc")


@linux_only
def test_a_local_jobs_figures_order_its_groups(session_factory, write_code, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(_usage, "INTERVAL", 0.2)
    session = session_factory(isolation="none")
    job_dir = os.path.join(session.root, "usage-report")
    estimator = estimator_for(session, write_code(BURN_OR_SLEEP), groups=(("train", "ml.p3.2xlarge", 1),
                                                                          ("data", "ml.c5.xlarge", 2)),
                              environment={"USAGE_DIR": os.path.join(job_dir, "usage")}, job_name="usage-report")
    estimator.fit()
    usage = local_usage(session, "usage-report")  # the session's own job: its description too
    direct = estimator.latest_training_job.utilization()  # the local job's own method: the same figures
    assert direct.group("data").figures("cpu") == usage.group("data").figures("cpu")
    assert [(g.name, g.instance_type, g.hosts) for g in usage.groups] == [
        ("train", "ml.p3.2xlarge", ("algo-1",)), ("data", "ml.c5.xlarge", ("algo-2", "algo-3"))]
    assert usage.group("data").figures("cpu")["mean"] > usage.group("train").figures("cpu")["mean"]
    assert usage.status == "Completed" and usage.source == "local"
    with pytest.raises(ConfigError, match="is a local job: CloudWatch holds no figures of it; its hosts' samples are "
                                          "read by: sagemaker-hetero usage usage-report --local"):
        TrainingJob(session, "usage-report").utilization()  # attached through a LocalSession
    plot = tmp_path / "local.svg"
    code = cli.main(["usage", "usage-report", "--local", "--root", session.root, "--output", "json",
                     "--plot", str(plot)])
    out, err = capsys.readouterr()
    assert code == 0, err
    found = json.loads(out)
    cpu = dict((g["name"], g["figures"]["cpu"]["mean"]) for g in found["groups"])
    assert cpu["data"] > cpu["train"] and found["source"] == "local"
    # a later process (the CLI's new LocalSession) has the samples alone: the groups in the job's order, with
    # their types (they came sorted by name, each '1 x None')
    assert [(g["name"], g["instance_type"], g["count"]) for g in found["groups"]] == [
        ("train", "ml.p3.2xlarge", 1), ("data", "ml.c5.xlarge", 2)]
    assert plot.read_text().count("<svg") == 3  # the document and a chart per group


def test_a_local_job_that_is_not_there_is_named(capsys, tmp_path):
    code = cli.main(["usage", "nope", "--local", "--root", str(tmp_path)])
    _, err = capsys.readouterr()
    assert code == 2 and "JOB: is not a local training job under %s" % tmp_path in err and "(got 'nope')" in err
