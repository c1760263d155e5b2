"""The command line's cost and diff: ``render --cost``, ``cost``, ``status``'s bill and ``diff``,
through ``main(argv)`` against the moto server (GetProducts answered by the server), and a dry run
with a price cache as a subprocess: no boto3, so no call."""
import json
import os
import shutil
import subprocess
import sys

import boto3
import pytest

from sagemaker_hetero._cost.cache import PriceCache
from sagemaker_hetero._cost.prices import Price
from sagemaker_hetero.exceptions import ConfigError
from tests.cost.test_billed import described
from tests.cost import _jobs
from tests.test_cli import EXAMPLE, ROOT, run

PRICES = os.path.join(ROOT, "examples", "prices.csv")
JOB = "my-training-job-with-heterogeneous-cluster"


@pytest.fixture(autouse=True)
def region(monkeypatch):
    monkeypatch.setenv("AWS_REGION", "us-west-2")


@pytest.fixture
def example(tmp_path):
    """A copy of the seed spec and its code, to change."""
    shutil.copytree(os.path.join(ROOT, "examples", "seed_src"), str(tmp_path / "seed_src"))
    shutil.copy(EXAMPLE, str(tmp_path / "spec.yaml"))
    return tmp_path


def test_render_cost_keeps_stdout_the_request_and_prints_the_estimate_on_stderr(capsys):
    code, plain, _ = run(capsys, "render", EXAMPLE)
    code, out, err = run(capsys, "render", EXAMPLE, "--cost", "--prices", PRICES)
    assert code == 0 and out == plain
    # 2 x 3.672 = 7.344 an hour, 176.256 in max_run's 24 hours; 31.212 an hour, 749.088
    assert err.splitlines()[1:5] == [
        "  group             instance type     count  $/h each  $/h     worst case",
        "  instance_group_1  ml.c5.18xlarge    2      $3.672    $7.34   $176.26",
        "  instance_group_2  ml.p3dn.24xlarge  1      $31.212   $31.21  $749.09",
        "  total                                                $38.56  $925.34",
    ]
    code, _, err = run(capsys, "render", EXAMPLE, "--cost")
    assert code == 0 and "ml.c5.18xlarge, ml.p3dn.24xlarge: unknown: no price in us-west-2 is given" in err


def test_a_malformed_price_file_exits_2_naming_its_line(capsys, tmp_path):
    bad = tmp_path / "prices.csv"
    bad.write_text("instance_type,usd_per_hour\nml.c5.18xlarge,3.672\nml.p3dn.24xlarge,lots\n")
    code, out, err = run(capsys, "cost", EXAMPLE, "--prices", str(bad), "--offline")
    assert (code, out) == (2, "")
    assert "--prices: %s line 3: ml.p3dn.24xlarge must be the on-demand USD per hour, a number from 0.000001 to " \
        "1,000,000 (got 'lots')" % bad in err


def test_cost_reads_the_price_list_and_json_has_the_figures(capsys, price_list):
    code, out, _ = run(capsys, "cost", EXAMPLE, "--output", "json")
    assert code == 0
    estimate = json.loads(out)
    assert [(g["name"], g["hourly_usd"], g["worst_case_usd"]) for g in estimate["groups"]] == [
        ("instance_group_1", 7.344, 176.256), ("instance_group_2", 31.212, 749.088)]
    assert (estimate["hourly_usd"], estimate["worst_case_usd"], estimate["complete"]) == (38.556, 925.344, True)
    assert len(price_list.requests) == 2
    code, out, _ = run(capsys, "cost", EXAMPLE, "--offline")  # now from the cache
    assert code == 0 and "AWS Price List (cached) as of" in out and len(price_list.requests) == 2


def test_status_shows_the_bill_of_a_job_that_has_ended(capsys, fault_proxy, price_list):
    desc = described(_jobs.TWO, 1900, 1800)
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=desc, times=None)
    code, out, _ = run(capsys, "status", "billed")
    assert code == 0
    assert out.splitlines()[:5] == [
        "billed: Completed", "Training seconds: 5700", "Billable seconds: 5400",
        "Billed cost (us-west-2, on-demand USD): $2.12", "  cpu: 2 x ml.c5.xlarge x 1800 s at $0.204/h = $0.20"]
    code, out, _ = run(capsys, "status", "billed", "--output", "json")
    cost = json.loads(out)["cost"]
    assert (cost["billed_usd"], [g["billed_usd"] for g in cost["groups"]]) == (2.1165, [0.204, 1.9125])


def test_status_of_a_running_job_has_no_bill(capsys, fault_proxy, price_list):
    desc = described(_jobs.TWO, None, None)
    desc.update(TrainingJobStatus="InProgress", SecondaryStatus="Training")
    fault_proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=desc, times=None)
    code, out, _ = run(capsys, "status", "billed", "--output", "json")
    assert code == 0 and json.loads(out)["cost"] is None and price_list.requests == []
    assert run(capsys, "status", "billed")[1] == "billed: InProgress/Training\n"


def test_diff_against_a_job_exits_0_when_equal_and_1_with_the_changed_paths(capsys, aws, example):
    boto3.client("s3").create_bucket(Bucket="your-training-data-storage",
                                     CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    spec = str(example / "spec.yaml")
    code, _, err = run(capsys, "submit", spec, "--no-preflight")  # the diff, not the account, is tested
    assert code == 0, err
    code, out, _ = run(capsys, "diff", spec, "--against", JOB)
    assert (code, out) == (0, "No difference from job %s (in request terms).\n" % JOB)
    text = (example / "spec.yaml").read_text()
    (example / "spec.yaml").write_text(text.replace("count: 2}", "count: 3}") + "hyperparameters: {lr: 0.1}\n")
    code, out, _ = run(capsys, "diff", spec, "--against", JOB, "--json")
    assert code == 1
    assert [(c["path"], c["old"], c["new"]) for c in json.loads(out)["changes"]] == [
        ("ResourceConfig.InstanceGroups['instance_group_1'].InstanceCount", 2, 3),
        ("HyperParameters['lr']", None, "0.1")]


def test_diff_against_a_saved_render_needs_no_aws(capsys, example, tmp_path):
    spec = str(example / "spec.yaml")
    saved = tmp_path / "request.json"
    saved.write_text(run(capsys, "render", spec)[1])
    assert run(capsys, "diff", spec, "--against", str(saved))[0] == 0
    (example / "seed_src" / "train.py").write_text("print('new code')\n")
    code, out, _ = run(capsys, "diff", spec, "--against", str(saved))
    assert code == 1 and out.splitlines()[1].startswith("  HyperParameters['sagemaker_submit_directory']: ")
    saved.write_text("[1, 2]")
    code, _, err = run(capsys, "diff", spec, "--against", str(saved))
    assert code == 2 and "--against: is not a JSON object (a request) (got %r)" % str(saved) in err
    code, _, err = run(capsys, "diff", spec, "--against", str(tmp_path / "missing.json"))
    assert code == 2 and "--against: cannot be read: No such file or directory" in err


def test_diff_against_a_file_of_wrong_types_exits_2_naming_every_field(capsys, example, tmp_path):
    spec = str(example / "spec.yaml")
    request = json.loads(run(capsys, "render", spec)[1])
    wrong = dict(request, InputDataConfig="s3://x", ResourceConfig={"InstanceGroups": {"a": 1}},
                 AlgorithmSpecification=dict(request["AlgorithmSpecification"], TrainingImage=5))
    described = dict(wrong, TrainingJobArn="arn:aws:sagemaker:us-west-2:123456789012:training-job/j",
                     TrainingJobStatus="Completed")
    saved = tmp_path / "old.json"
    for old in (wrong, described):  # a saved render, a saved description (once exit 4, "unexpected error")
        saved.write_text(json.dumps(old))
        code, out, err = run(capsys, "diff", spec, "--against", str(saved))
        assert (code, out) == (2, "")
        head, *problems = err.splitlines()
        assert head.endswith("3 problems with file %s:" % saved)
        assert sorted(problems) == ["  - AlgorithmSpecification.TrainingImage: must be a string (got 5)",
                                    "  - InputDataConfig: must be a list (got 's3://x')",
                                    "  - ResourceConfig.InstanceGroups: must be a list (got {'a': 1})"]
    # the other hostile files are refused as a spec is: by the reader's limits, exit 2 naming --against
    for text, said in (("[" * 100000 + "]" * 100000, "--against: nests too deep to read"),
                       (json.dumps({"TrainingJobName": "x" * (2 << 20)}), "--against: is larger than 1,048,576 bytes"),
                       ("[1]", "--against: is not a JSON object (a request)")):
        saved.write_text(text)
        code, _, err = run(capsys, "diff", spec, "--against", str(saved))
        assert code == 2 and said in err, err


def _described_as(fault_proxy, **fields):
    """DescribeTrainingJob answered by the proxy: the job's real description with ``fields`` changed."""
    fault_proxy.clear_faults()
    desc = boto3.client("sagemaker").describe_training_job(TrainingJobName=JOB)
    desc.pop("ResponseMetadata")
    desc = json.loads(json.dumps(dict(desc, **fields), default=lambda t: t.timestamp()))
    fault_proxy.add_fault("DescribeTrainingJob", kind="status", status=200, times=None, body=json.dumps(desc),
                          headers={"Content-Type": "application/x-amz-json-1.1"})


@pytest.mark.parametrize("fields, problem", [
    (dict(InputDataConfig="s3://x"), "InputDataConfig: must be a list (got 's3://x')"),
    (dict(ResourceConfig={"InstanceGroups": {"a": 1}}), "ResourceConfig.InstanceGroups: must be a list (got {'a': 1})"),
    (dict(ResourceConfig={"InstanceGroups": [1]}), "ResourceConfig.InstanceGroups[0]: must be a JSON object (got 1)"),
    (dict(HyperParameters=["a"]), "HyperParameters: must be a JSON object (got ['a'])"),
    (dict(CreationTime="yesterday"), "CreationTime: must be a timestamp (seconds since 1970, or an ISO 8601 string) "
                                     "(got 'yesterday')"),
])
def test_a_description_botocore_cannot_read_is_named_field_by_field_never_an_unexpected_error(
        capsys, fault_proxy, example, fields, problem):
    from sagemaker_hetero import Estimator, PyTorch
    from sagemaker_hetero.exceptions import ConfigError

    boto3.client("s3").create_bucket(Bucket="your-training-data-storage",
                                     CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    spec = str(example / "spec.yaml")
    assert run(capsys, "submit", spec, "--no-preflight")[0] == 0
    _described_as(fault_proxy, **fields)  # botocore's parser raised AttributeError/ValueError: exit 4 once
    code, out, err = run(capsys, "diff", spec, "--against", JOB)
    assert (code, out) == (2, "") and err.splitlines()[1:] == ["  - " + problem], err
    for argv in (("status", JOB), ("status", JOB, "--output", "json"), ("logs", JOB)):
        code, out, err = run(capsys, *argv)
        assert (code, out) == (3, "") and "DescribeTrainingJob failed with ResponseParserError" in err, argv
        assert problem in err and "unexpected" not in err, argv
    for cls in (Estimator, PyTorch):
        with pytest.raises(ConfigError) as raised:
            cls.attach(JOB)
        assert [str(p) for p in raised.value.problems] == [problem]
    with pytest.raises(ConfigError) as raised:
        PyTorch(entry_point="train.py", source_dir=str(example / "seed_src"), framework_version="1.10.0",
                py_version="py38", role=_jobs.ROLE, instance_count=1, instance_type="ml.c5.xlarge").diff(JOB)
    assert str(raised.value).splitlines()[0] == "1 problem with job %s:" % JOB


def test_a_description_of_wrong_scalar_types_is_a_config_error_for_attach(fault_proxy, example):
    from sagemaker_hetero import Estimator

    boto3.client("s3").create_bucket(Bucket="your-training-data-storage",
                                     CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    assert run_quiet("submit", str(example / "spec.yaml"), "--no-preflight") == 0
    for fields, problem in ((dict(AlgorithmSpecification={"TrainingImage": 5, "TrainingInputMode": "File"}),
                             "AlgorithmSpecification.TrainingImage: must be a string (got 5)"),
                            (dict(TrainingJobName=5), "TrainingJobName: must be a string (got 5)")):
        _described_as(fault_proxy, **fields)  # a TypeError out of attach once
        with pytest.raises(ConfigError) as raised:
            Estimator.attach(JOB)
        assert [str(p) for p in raised.value.problems] == [problem]


def run_quiet(*argv):
    from sagemaker_hetero.cli import main

    return main(list(argv))


def test_a_dry_run_with_a_price_cache_makes_no_call(tmp_path):
    cache = tmp_path / "cache"
    for itype, usd in (("ml.c5.18xlarge", "3.672"), ("ml.p3dn.24xlarge", "31.212")):
        PriceCache(str(cache / "sagemaker-hetero")).put(Price(itype, "us-west-2", usd, "AWS Price List"))
    code = (
        "import sys, io, contextlib, os\n"
        "from sagemaker_hetero import PyTorch, InstanceGroup\n"
        "from sagemaker_hetero.cli import main\n"
        "with contextlib.redirect_stderr(io.StringIO()) as err, contextlib.redirect_stdout(io.StringIO()):\n"
        "    rc = main(['render', %r, '--cost'])\n"
        "est = PyTorch(entry_point='train.py', source_dir=%r, role='arn:aws:iam::123456789012:role/R',\n"
        "              framework_version='1.10.0', py_version='py38',\n"
        "              instance_groups=[InstanceGroup('a', 'ml.c5.18xlarge', 2), InstanceGroup('b', 'ml.p3dn.24xlarge', 1)])\n"
        "request = est.fit(dry_run=True)\n"
        "view = request.describe_cluster() + request._repr_html_()\n"
        "print(rc, '$925.34' in err.getvalue(), '$925.34' in view, 'AWS Price List (cached)' in view)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('boto3', 'botocore')))\n"
    ) % (EXAMPLE, os.path.join(ROOT, "examples", "seed_src"))
    env = dict(os.environ, PYTHONPATH=ROOT, XDG_CACHE_HOME=str(cache), AWS_REGION="us-west-2")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    assert result.stdout.splitlines() == ["0 True True True", "[]"], result.stderr


def test_cost_with_a_price_file_needs_no_region_for_its_prices_of_every_region(capsys, monkeypatch, tmp_path):
    for name in list(os.environ):  # no AWS configuration at all (tests/test_no_aws_config.py)
        if name.startswith("AWS_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path))
    code, out, err = run(capsys, "cost", EXAMPLE, "--prices", PRICES, "--output", "json")
    assert code == 0, err
    estimate = json.loads(out)
    assert (estimate["region"], estimate["worst_case_usd"], estimate["complete"]) == (None, 925.344, True)
    monkeypatch.setenv("SAGEMAKER_HETERO_PRICES", PRICES)
    code, out, err = run(capsys, "cost", EXAMPLE)
    assert code == 0 and out.startswith("Cost estimate (no region, on-demand USD):\n") and "$925.34" in out, err
    per_region = tmp_path / "per-region.csv"
    per_region.write_text("instance_type,usd_per_hour,region\nml.c5.18xlarge,3.672,\n"
                          "ml.p3dn.24xlarge,35.894,eu-west-1\nml.p3dn.24xlarge,31.212,us-east-1\n")
    code, out, err = run(capsys, "cost", EXAMPLE, "--prices", str(per_region))
    assert code == 0, err
    assert "  instance_group_2  ml.p3dn.24xlarge  1      unknown   unknown  unknown" in out
    assert ("  ml.p3dn.24xlarge: unknown: no region is known (set AWS_REGION, or a profile's region), and prices file "
            "%s prices it only in eu-west-1, us-east-1" % per_region) in out
    code, out, err = run(capsys, "--region", "eu-west-1", "cost", EXAMPLE, "--prices", str(per_region), "--offline")
    assert code == 0 and "$35.894" in out, err
    monkeypatch.delenv("SAGEMAKER_HETERO_PRICES")
    code, out, err = run(capsys, "cost", EXAMPLE)  # no price table: the prices are per region
    assert (code, out) == (2, "") and "--region: no AWS region is configured" in err
