"""The notebook view: a rendered request stays a dict and shows its cluster; estimators show theirs."""
import copy
import json
import pickle
import pprint

import pytest

from sagemaker_hetero import Estimator, InstanceGroup, PyTorch, TrainingInput
from sagemaker_hetero._request.rendered import RenderedRequest

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"


pytestmark = pytest.mark.usefixtures("workdir")  # tests/conftest.py


def hetero(**overrides):
    data = InstanceGroup("data_group", "ml.c5.18xlarge", 2)
    dnn = InstanceGroup("dnn_group", "ml.p4d.24xlarge", 1)
    kwargs = dict(
        entry_point="train.py", framework_version="1.12.1", py_version="py38", role=ROLE, instance_groups=[data, dnn],
        distribution={"mpi": {"enabled": True, "processes_per_host": 8}, "instance_groups": [dnn]},
    )
    kwargs.update(overrides)
    return PyTorch(**kwargs)


INPUTS = {
    "train": TrainingInput("s3://bucket/train", instance_groups=["data_group"]),
    "shared": TrainingInput("s3://bucket/shared", instance_groups=["data_group", "dnn_group"]),
    "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["dnn_group"]),
}


def test_a_rendered_request_is_a_dict_in_every_way():
    request = hetero().fit(INPUTS, dry_run=True, job_name="shown")
    plain = dict(request)
    assert isinstance(request, dict) and type(plain) is dict
    assert request == plain and plain == request
    assert json.dumps(request, sort_keys=True) == json.dumps(plain, sort_keys=True)
    assert repr(request) == repr(plain)
    assert pprint.pformat(request) == pprint.pformat(plain)
    assert copy.deepcopy(request) == plain
    assert pickle.loads(pickle.dumps(request)) == plain


def test_a_rendered_request_describes_its_cluster():
    text = hetero().fit(INPUTS, dry_run=True, job_name="shown").describe_cluster()
    lines = text.splitlines()
    assert lines[0] == "PyTorch training job shown"
    assert lines[1].split() == ["group", "instance", "type", "count", "channels", "launcher"]
    assert lines[2].split() == ["data_group", "ml.c5.18xlarge", "2", "train,", "shared", "-"]
    assert lines[3].split()[:5] == ["dnn_group", "ml.p4d.24xlarge", "1", "shared,", "dummy"]
    assert lines[3].endswith("mpi (8 processes per host)")
    assert "image:  763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:1.12.1-gpu-py38" in text
    assert "output: s3://sagemaker-us-west-2-<account-id>/" in text


def test_the_html_view_escapes_user_strings():
    est = hetero(output_path="s3://bucket/<script>alert(1)</script>&x")
    request = est.fit(INPUTS, dry_run=True, job_name="shown")
    html = request._repr_html_()
    assert "<table>" in html and "<td style=\"text-align:left\">dnn_group</td>" in html
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&amp;x" in html
    assert "<details><summary>request</summary>" in html  # the request itself, folded


def test_an_estimator_shows_its_cluster_before_and_after_fit():
    est = hetero()
    before = repr(est)
    assert before.splitlines()[0] == "PyTorch estimator"
    assert before.splitlines()[2].split()[3] == "-"  # no channels yet
    est.fit(INPUTS, dry_run=True, job_name="shown")
    after = est.describe_cluster()
    assert after.splitlines()[0] == "PyTorch estimator (dry run of shown; no job started)"
    assert est.latest_training_job is None
    assert "train, shared" in after
    assert "<td style=\"text-align:left\">mpi (8 processes per host)</td>" in est._repr_html_()


def test_a_homogeneous_estimator_has_one_row():
    est = Estimator(image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/mine:1", role=ROLE,
                    instance_type="ml.m5.xlarge", instance_count=3, output_path="s3://out/")
    rows = est.describe_cluster().splitlines()
    assert rows[2].split() == ["homogeneousCluster", "ml.m5.xlarge", "3", "-", "-"]
    assert rows[3].endswith("123456789012.dkr.ecr.us-west-2.amazonaws.com/mine:1")
    assert rows[4].endswith("s3://out/")


def test_repr_never_fails():
    est = hetero()
    est.instance_groups = "not a list"
    assert isinstance(repr(est), str)
    assert RenderedRequest({"ResourceConfig": "not a dict"})._repr_html_() is None  # Jupyter then shows the dict


@pytest.mark.parametrize("where", ["AWS", "LocalSession", "Session(default_bucket=...)"])
def test_the_view_shows_the_output_and_code_its_request_holds(where, aws, tmp_path):
    import html
    import re

    from sagemaker_hetero import Session
    from sagemaker_hetero.local import LocalSession

    session = {"AWS": None, "LocalSession": LocalSession(root=str(tmp_path / "jobs")),
               "Session(default_bucket=...)": Session(default_bucket="my-team-bucket")}[where]
    est = hetero(distribution=None, sagemaker_session=session)
    request = est.fit(INPUTS, dry_run=True, job_name="shown")
    output = request["OutputDataConfig"]["S3OutputPath"]
    code = json.loads(request["HyperParameters"]["sagemaker_submit_directory"])
    buckets = {uri.split("/")[2] for uri in (output, code)}
    assert len(buckets) == 1 and ("my-team-bucket" in buckets) == (where == "Session(default_bucket=...)")
    text = request.describe_cluster()
    assert "  output: %s (the default bucket)" % output in text.splitlines()
    assert "  code:   %s" % code in text.splitlines()
    page = html.unescape(request._repr_html_()).split("<details>")[0]  # not the request folded below
    assert "output: <code>%s (the default bucket)</code>" % output in page and "code: <code>%s</code>" % code in page
    for shown in (text, page, est.describe_cluster(), html.unescape(est._repr_html_())):
        assert set(re.findall(r"s3://([^/\s]+)/", shown)) == buckets  # no other bucket, however worked out
    assert "  output: %s (the default bucket)" % output in est.describe_cluster().splitlines()
