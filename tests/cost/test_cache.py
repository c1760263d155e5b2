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
    path.write_text('{"region": "us-west-2", "instance_type": "ml.c5.xlarge", "usd_per_hour": "1", "written": %r}' % NOW)
    assert cache.get("us-west-2", "ml.c5.xlarge").usd_per_hour == 1  # the shape each text below breaks
    for text in ("not json", "{}", "[]", '{"region": "us-west-2", "instance_type": "ml.c5.xlarge", "written": "x"}',
                 '{"region": "us-east-1", "instance_type": "ml.c5.xlarge", "usd_per_hour": "1", "written": %r}' % NOW,
                 '{"region": "us-west-2", "instance_type": "ml.c5.xlarge", "usd_per_hour": "-1", "written": %r}' % NOW,
                 '{"region": "us-west-2", "instance_type": "ml.c5.xlarge", "usd_per_hour": "1", "written": true}'):
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


def test_the_shelf_reads_bounded_files_at_plain_names_only(tmp_path):
    shelf = C.Shelf(lifetime=60, max_bytes=64, root=str(tmp_path / "sagemaker-hetero"))
    assert shelf.put(("a", "small.json"), {"v": 1}, NOW)
    assert shelf.get(("a", "small.json"), NOW + 59) == {"v": 1, "written": NOW}
    assert shelf.put(("a", "big.json"), {"v": "x" * 64}, NOW)
    assert shelf.get(("a", "big.json"), NOW) is None  # longer than the bound: not read
    padded = tmp_path / "sagemaker-hetero" / "a" / "padded.json"
    padded.write_text('{"v": 1, "written": %r}' % NOW + " " * 64)  # its first 64 bytes would parse
    assert shelf.get(("a", "padded.json"), NOW) is None
    for names in ((), ("..", "x.json"), ("a", "../x.json"), ("a/b", "x.json"), (".x.json",), ("",), ("a", None)):
        assert not shelf.put(names, {"v": 1}, NOW) and shelf.get(names, NOW) is None, names
    assert os.listdir(str(tmp_path)) == ["sagemaker-hetero"] and not shelf.put(("x.json",), {"v": object()}, NOW)


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to give a file away")
def test_a_price_file_or_folder_of_another_user_is_not_read(tmp_path):
    root = tmp_path / "sagemaker-hetero"
    cache = C.PriceCache(str(root), clock=Clock())
    cache.put(price())
    os.chown(str(root / "prices" / "us-west-2" / "ml.c5.xlarge.json"), 65534, 65534)
    assert cache.get("us-west-2", "ml.c5.xlarge") is None
    cache.put(price())  # replaced by a file of ours
    os.chown(str(root / "prices"), 65534, 65534)
    assert cache.get("us-west-2", "ml.c5.xlarge") is None and not cache.put(price())
