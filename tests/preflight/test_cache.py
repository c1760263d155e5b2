"""The quota-name file: where it lives, its lifetime, and that it never follows a link (no AWS)."""
import json
import os
import stat

import pytest

from sagemaker_hetero._preflight import cache

CODES = {"ml.p4d.24xlarge for training job usage": "L-1", "Number of instances across all training jobs": "L-2"}
NOW = 1700000000.0


@pytest.fixture
def env(tmp_path):
    return {"XDG_CACHE_HOME": str(tmp_path / "xdg")}


def test_written_in_a_private_folder_and_read_back_within_a_day(env):
    assert cache.write("us-west-2", CODES, NOW, env)
    folder = os.path.join(env["XDG_CACHE_HOME"], "sagemaker-hetero")
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert os.listdir(folder) == ["quota-codes-us-west-2.json"]  # no temporary file left
    assert cache.read("us-west-2", NOW + cache.LIFETIME - 1, env) == CODES
    assert cache.read("us-west-2", NOW + cache.LIFETIME, env) is None  # a day old
    assert cache.read("us-west-2", NOW - 1, env) is None  # written in the future: a clock gone wrong
    assert cache.read("eu-west-1", NOW, env) is None  # per region


def test_the_home_folder_without_xdg_and_names_that_are_no_region(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache.path("us-west-2", {}) == str(tmp_path / ".cache" / "sagemaker-hetero" / "quota-codes-us-west-2.json")
    assert cache.path("us-west-2", {"XDG_CACHE_HOME": "relative"}) == cache.path("us-west-2", {})
    assert cache.path("../../etc/passwd", {}) is None and not cache.write("../x", CODES, NOW, {})


def test_a_link_is_neither_read_nor_written_through(env, tmp_path):
    cache.write("us-west-2", CODES, NOW, env)
    target = cache.path("us-west-2", env)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps({"region": "us-west-2", "written": NOW, "codes": {"a": "L-9"}}))
    os.remove(target)
    os.symlink(str(elsewhere), target)
    assert cache.read("us-west-2", NOW, env) is None
    assert cache.write("us-west-2", CODES, NOW, env)
    assert not os.path.islink(target) and json.loads(elsewhere.read_text())["codes"] == {"a": "L-9"}
    assert cache.read("us-west-2", NOW, env) == CODES


def test_a_linked_folder_or_a_broken_file_only_means_building_the_map_again(env, tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    os.makedirs(env["XDG_CACHE_HOME"])
    os.symlink(str(real), os.path.join(env["XDG_CACHE_HOME"], "sagemaker-hetero"))
    assert not cache.write("us-west-2", CODES, NOW, env) and os.listdir(str(real)) == []
    other = {"XDG_CACHE_HOME": str(tmp_path / "other")}
    cache.write("us-west-2", CODES, NOW, other)
    wrong_type = json.dumps({"region": "us-west-2", "written": NOW, "codes": {"a": 1}}).encode()
    for broken in (b"{not json", b"[]", wrong_type):
        with open(cache.path("us-west-2", other), "wb") as handle:
            handle.write(broken)
        assert cache.read("us-west-2", NOW, other) is None


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to give a file away")
def test_a_file_of_another_user_is_not_read(env):
    cache.write("us-west-2", CODES, NOW, env)
    os.chown(cache.path("us-west-2", env), 65534, 65534)
    assert cache.read("us-west-2", NOW, env) is None
