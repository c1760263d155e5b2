"""The dry-run view shows the cost estimate below the cluster, in text and in the notebook's HTML, with
the prices known without a call (a price file, the cache)."""
import pytest

from sagemaker_hetero.exceptions import ConfigError
from tests.cost import _jobs

pytestmark = pytest.mark.usefixtures("workdir")


def test_the_text_view_ends_with_the_estimate():
    request = _jobs.estimator(_jobs.TWO, max_run=3600).fit(dry_run=True)
    lines = request.describe_cluster(prices=_jobs.PRICES).splitlines()
    assert lines[lines.index("Cost estimate (us-west-2, on-demand USD):") + 2:][:3] == [
        "  cpu    ml.c5.xlarge   2      $0.204    $0.41  $0.41",
        "  gpu    ml.p3.2xlarge  1      $3.825    $3.83  $3.83",
        "  total                                  $4.23  $4.23",
    ]


def test_the_notebook_view_has_the_estimate_table_escaped(monkeypatch, tmp_path):
    prices = tmp_path / "prices.json"
    prices.write_text('{"ml.c5.xlarge": 0.204}')
    monkeypatch.setenv("SAGEMAKER_HETERO_PRICES", str(prices))
    html = _jobs.estimator(_jobs.TWO).fit(dry_run=True)._repr_html_()
    assert '<div class="sagemaker-hetero-cost">' in html
    assert '<td style="text-align:left">$0.204</td>' in html and '<td style="text-align:left">unknown</td>' in html
    assert html.index("sagemaker-hetero-cost") < html.index("<details>")  # above the folded request


def test_a_malformed_price_file_is_a_config_error_naming_its_line(monkeypatch, tmp_path):
    prices = tmp_path / "prices.csv"
    prices.write_text("instance_type,usd_per_hour\nml.c5.xlarge,cheap\n")
    request = _jobs.estimator(_jobs.TWO).fit(dry_run=True)
    with pytest.raises(ConfigError) as info:
        request.describe_cluster(prices=str(prices))
    assert "prices: %s line 2: ml.c5.xlarge must be the on-demand USD per hour" % prices in str(info.value)
    monkeypatch.setenv("SAGEMAKER_HETERO_PRICES", str(prices))
    assert request._repr_html_() is None  # a notebook falls back to the dict
