"""The price cache: a week's lifetime, folders 0700, files replaced whole, never read or written through a link."""
import decimal
import os
import stat

import pytest

from sagemaker_hetero._cost import cache as C
from sagemaker_hetero._cost.prices import Price

WEEK = 7 * 24 * 3600
NOW = 1_700_000_000.0


class Clock(object):
    def __init__(self, now=NOW):
        self.now = now

    def __call__(self):
        return self.now


def price(usd="0.204", itype="ml.c5.xlarge", region="us-west-2"):
    return Price(itype, region, decimal.Decimal(usd), "AWS Price List", "2023-11-14")


def test_the_cache_folder_is_xdg_cache_home_s_else_home_s():
    assert C.cache_root({"XDG_CACHE_HOME": "/x/cache"}) == "/x/cache/sagemaker-hetero"
    home = os.path.expanduser("~")
    assert C.cache_root({}) == os.path.join(home, ".cache", "sagemaker-hetero")
    assert C.cache_root({"XDG_CACHE_HOME": "relative"}) == os.path.join(home, ".cache", "sagemaker-hetero")
    assert C.PriceCache().root == os.path.join(os.environ["XDG_CACHE_HOME"], "sagemaker-hetero")  # conftest's


def test_a_price_is_kept_for_a_week_with_the_date_it_was_read(tmp_path):
    clock = Clock()
    cache = C.PriceCache(str(tmp_path / "c" / "sagemaker-hetero"), clock=clock)
    assert cache.get("us-west-2", "ml.c5.xlarge") is None
    assert cache.put(price())
    found = cache.get("us-west-2", "ml.c5.xlarge")
    assert found == Price("ml.c5.xlarge", "us-west-2", decimal.Decimal("0.204"), "AWS Price List (cached)",
                          "2023-11-14")
    assert cache.get("us-east-1", "ml.c5.xlarge") is None and cache.get("us-west-2", "ml.m5.xlarge") is None
    clock.now = NOW + WEEK - 1
    assert cache.get("us-west-2", "ml.c5.xlarge") is not None
    clock.now = NOW + WEEK
    assert cache.get("us-west-2", "ml.c5.xlarge") is None  # read again from the Price List
    clock.now = NOW - 3600  # a file from the future: a clock gone wrong, not a price to trust
    assert cache.get("us-west-2", "ml.c5.xlarge") is None


def test_folders_are_0700_files_0600_and_replaced_whole(tmp_path):
    root = tmp_path / "c" / "sagemaker-hetero"
    cache = C.PriceCache(str(root), clock=Clock())
    assert cache.put(price("0.204")) and cache.put(price("0.21"))
    for folder in (tmp_path / "c", root, root / "prices", root / "prices" / "us-west-2"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    files = os.listdir(str(root / "prices" / "us-west-2"))
    assert files == ["ml.c5.xlarge.json"]  # no temporary file left behind
    assert stat.S_IMODE((root / "prices" / "us-west-2" / "ml.c5.xlarge.json").stat().st_mode) == 0o600
    assert cache.get("us-west-2", "ml.c5.xlarge").usd_per_hour == decimal.Decimal("0.21")


@pytest.mark.parametrize("where", ["root", "prices", "region", "file"])
def test_a_link_anywhere_in_our_folders_is_never_followed(tmp_path, where):
    root = tmp_path / "sagemaker-hetero"
    elsewhere = tmp_path / "elsewhere"
    C.PriceCache(str(elsewhere), clock=Clock()).put(price("9.99"))  # what a link would lead to
    target = {"root": elsewhere, "prices": elsewhere / "prices", "region": elsewhere / "prices" / "us-west-2",
              "file": elsewhere / "prices" / "us-west-2" / "ml.c5.xlarge.json"}[where]
    link = {"root": root, "prices": root / "prices", "region": root / "prices" / "us-west-2",
            "file": root / "prices" / "us-west-2" / "ml.c5.xlarge.json"}[where]
    link.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    link.symlink_to(target)
    cache = C.PriceCache(str(root), clock=Clock())
    assert cache.get("us-west-2", "ml.c5.xlarge") is None
    before = target.read_text() if target.is_file() else None
    written = cache.put(price("0.204"))
    assert written is (where == "file")  # a link in the file's place is replaced, not written through
    if before is not None:
        assert target.read_text() == before
    assert C.PriceCache(str(elsewhere), clock=Clock()).get("us-west-2", "ml.c5.xlarge").usd_per_hour == \
        decimal.Decimal("9.99")


def test_whatever_is_wrong_with_the_cache_is_a_miss_never_an_error(tmp_path):
    root = tmp_path / "sagemaker-hetero"
    cache = C.PriceCache(str(root), clock=Clock())
    cache.put(price())
    path = root / "prices" / "us-west-2" / "ml.c5.xlarge.json"
    for text in ("not json", "{}", '{"region": "us-west-2", "instance_type": "ml.c5.xlarge", "fetched": "x"}',
                 '{"region": "us-east-1", "instance_type": "ml.c5.xlarge", "usd_per_hour": "1", "fetched": %r}' % NOW,
                 '{"region": "us-west-2", "instance_type": "ml.c5.xlarge", "usd_per_hour": "-1", "fetched": %r}' % NOW):
        path.write_text(text)
        assert cache.get("us-west-2", "ml.c5.xlarge") is None, text
    path.unlink()
    os.mkfifo(str(path))  # opened without blocking, and not a file
    assert cache.get("us-west-2", "ml.c5.xlarge") is None
    assert cache.get("../../etc", "ml.c5.xlarge") is None and cache.get("us-west-2", "../x") is None
    assert not cache.put(price(region="../up")) and not cache.put(price(region=None))
    blocked = C.PriceCache(str(tmp_path / "file-not-folder" / "sagemaker-hetero"), clock=Clock())
    (tmp_path / "file-not-folder").write_text("")
    assert not blocked.put(price()) and blocked.get("us-west-2", "ml.c5.xlarge") is None
