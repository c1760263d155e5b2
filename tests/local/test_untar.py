"""A code archive unpacks inside its folder or not at all, goes through no link, and stops at its limits."""
import gzip
import io
import os
import stat
import tarfile

import pytest

from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.local import _untar
from tests.local._archives import EVIL, archive_of, escapes, with_a_long_pax_header


def found_outside(dest, top):
    """Paths named EVIL under ``top`` but not under ``dest`` (links not followed)."""
    return [os.path.join(parent, name) for parent, dirs, files in os.walk(top) for name in dirs + files
            if name == EVIL and not os.path.join(parent, name).startswith(dest + os.sep)]


@pytest.mark.parametrize("case", sorted(escapes("/outside")))
def test_an_archive_leading_out_of_its_folder_is_refused_before_anything_is_written(tmp_path, case):
    outside = tmp_path / "outside"
    outside.write_text("keep")
    archive = archive_of(str(tmp_path / "code.tar.gz"), escapes(str(outside))[case])
    dest = tmp_path / "deep" / "code"
    with pytest.raises(ConfigError, match="code archive must unpack inside its folder"):
        _untar.extract_archive(archive, str(dest))
    assert found_outside(str(dest), str(tmp_path)) == []
    assert outside.read_text() == "keep"
    assert os.listdir(str(dest)) == []  # refused as a whole: the members are checked before any is written


def test_every_refused_member_is_named_at_once(tmp_path):
    archive = archive_of(str(tmp_path / "code.tar.gz"), [
        ("ok.py", "file", b""), ("/abs", "file", b""), ("../up", "file", b""), ("l", "sym", "/etc"),
        ("l/x", "file", b""), ("deep/" * 300 + "x", "file", b""), ("h", "hard", "../h"), ("nul", "sym", ""),
    ])
    with pytest.raises(ConfigError) as info:
        _untar.extract_archive(archive, str(tmp_path / "code"))
    reasons = [p.message.split(": member ", 1)[1].split(";")[0] for p in info.value.problems]
    assert reasons == [
        "'/abs' has an absolute name", "'../up' has '..' in its name",
        "'l/x' would be written through the link l", "%r... is 300 folders deep (at most 256)" % ("deep/" * 60),
        "'h' links to '../h', which has '..' in its name",
        "'nul' links to a name of 0 characters (at least 1, at most 4096, no NUL)",
        "'l' links to '/etc', which leads outside the folder",
    ]


def test_links_that_stay_inside_are_made_and_modes_are_masked_as_the_data_filter_does(tmp_path):
    path = str(tmp_path / "code.tar.gz")
    with tarfile.open(path, "w:gz") as tar:
        for name, kind, value, mode in (
                ("pkg", tarfile.DIRTYPE, None, 0o777), ("pkg/mod.py", tarfile.REGTYPE, b"X = 1\n", 0o4777),
                ("pkg/same.py", tarfile.LNKTYPE, "pkg/mod.py", 0o644), ("alias", tarfile.SYMTYPE, "pkg", 0o777),
                ("pkg/deep/up", tarfile.SYMTYPE, "../../alias/./mod.py", 0o777),
                ("run.sh", tarfile.REGTYPE, b"1", 0o666), ("run.sh", tarfile.REGTYPE, b"2", 0o677),
                ("pipe", tarfile.FIFOTYPE, None, 0o644)):
            info = tarfile.TarInfo(name)
            info.type, info.mode = kind, mode
            if kind in (tarfile.LNKTYPE, tarfile.SYMTYPE):
                info.linkname = value
            info.size = len(value) if kind == tarfile.REGTYPE else 0
            tar.addfile(info, io.BytesIO(value) if kind == tarfile.REGTYPE else None)
    dest = tmp_path / "code"
    _untar.extract_archive(path, str(dest))
    assert sorted(os.listdir(str(dest))) == ["alias", "pkg", "run.sh"]  # the FIFO is skipped
    assert os.readlink(str(dest / "alias")) == "pkg" and (dest / "pkg" / "deep" / "up").read_text() == "X = 1\n"
    assert os.stat(str(dest / "pkg" / "same.py")).st_ino == os.stat(str(dest / "pkg" / "mod.py")).st_ino
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(str(dest / "pkg" / "mod.py")).st_mode) == 0o755 & ~umask  # no set-uid, no g/o write
    assert (dest / "run.sh").read_text() == "2"  # a later member replaces an earlier one
    assert stat.S_IMODE(os.stat(str(dest / "run.sh")).st_mode) == 0o644 & ~umask  # not the owner's to run: nobody's


def test_the_writer_goes_through_no_link_or_file_and_links_only_files_it_wrote(tmp_path):
    """What the members' check cannot see (a folder that was not empty) the writer still refuses:
    every path is walked one component at a time, without following a link."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("s")
    dest = tmp_path / "code"
    dest.mkdir()
    (dest / "out").symlink_to(str(outside))
    (dest / "file").write_text("f")
    with _untar.Writer("code.tar.gz", str(dest)) as writer:
        for name, is_dir in (("out/" + EVIL, False), ("out/sub/" + EVIL, False), ("out", True), ("file/x", False)):
            with pytest.raises(ConfigError, match="is (a link|not a folder): nothing is written through it"):
                writer.add(name, is_dir, 0o644, 0, b"x")
        for source in ("out/secret", "file", "../outside/secret"):
            with pytest.raises(ConfigError, match="which is not a file written before it"):
                writer.link("h", source, hard=True)
        writer.add("out", False, 0o644, 0, b"replaced")  # the link is replaced, what it points at is not touched
    assert sorted(os.listdir(str(outside))) == ["secret"] and (outside / "secret").read_text() == "s"
    assert not os.path.islink(str(dest / "out")) and (dest / "out").read_bytes() == b"replaced"


def test_a_gzip_trailer_that_lies_stops_the_memory_unpacking_at_its_limit(tmp_path, lying_archive):
    assert _untar.unpacked_size(lying_archive) == 1024  # so the code would go to memory
    dest = tmp_path / "code"
    message = "unpacks to more than %d bytes, the most code unpacked in memory may hold, though its gzip trailer"
    with pytest.raises(ConfigError, match=message % _untar.MEMORY_LIMIT + " says 1024"):
        _untar.extract_archive(lying_archive, str(dest), in_memory=True)
    assert sum(os.path.getsize(os.path.join(p, n)) for p, _, names in os.walk(str(dest)) for n in names) \
        <= _untar.MEMORY_LIMIT


@pytest.mark.parametrize("reader", ["own ustar reader", "tarfile"])
def test_a_bomb_stops_at_the_configured_limits_counted_as_written(tmp_path, monkeypatch, reader):
    link = [("alias", "sym", "zeros")] if reader == "tarfile" else []
    archive = archive_of(str(tmp_path / "bomb.tar.gz"), [("zeros", "file", b"\0" * (2 << 20))] + link)
    monkeypatch.setenv(_untar.BYTES_ENV, "1M")
    with pytest.raises(ConfigError, match=r"bomb.tar.gz unpacks to more than 1048576 bytes \(the limit: "
                                          r"\$SAGEMAKER_HETERO_LOCAL_CODE_MAX_BYTES, default 8G\)"):
        _untar.extract_archive(archive, str(tmp_path / "bomb"))
    assert not (tmp_path / "bomb" / "zeros").exists() or (tmp_path / "bomb" / "zeros").stat().st_size <= 1 << 20
    monkeypatch.setenv(_untar.BYTES_ENV, "3m")
    monkeypatch.setenv(_untar.MEMBERS_ENV, "1")
    with pytest.raises(ConfigError, match=r"holds more than 1 members \(the limit: \$SAGEMAKER_HETERO_LOCAL_CODE_"):
        _untar.extract_archive(archive_of(str(tmp_path / "two.tar.gz"), [("a", "file", b""), ("b", "file", b"")]
                                          + link), str(tmp_path / "many"))
    monkeypatch.setenv(_untar.MEMBERS_ENV, "3")
    _untar.extract_archive(archive, str(tmp_path / "fits"))
    assert (tmp_path / "fits" / "zeros").stat().st_size == 2 << 20


def test_the_writer_counts_what_it_writes_whatever_the_headers_say(tmp_path):
    """Sparse members unpack to more than the archive holds: the bytes written are counted too."""
    with _untar.Writer("a.tar", str(tmp_path), _untar.Limits(1000, 10, False)) as writer:
        writer.add("small", False, 0o644, 0, io.BytesIO(b"x" * 1000))
        with pytest.raises(_untar._TooLarge):
            writer.add("large", False, 0o644, 0, io.BytesIO(b"x" * 10))
    assert (tmp_path / "large").stat().st_size == 0


def test_a_tar_header_too_large_to_hold_is_refused_and_the_limits_are_read_from_the_environment(tmp_path):
    archive = with_a_long_pax_header(str(tmp_path / "pax.tar.gz"), 5 << 20)
    with pytest.raises(ConfigError, match="pax.tar.gz has a tar header over 4194304 bytes"):
        _untar.extract_archive(archive, str(tmp_path / "pax"))
    assert _untar.limits(environ={}) == (8 << 30, 200000, False)
    assert _untar.limits(True, {}) == (64 << 20, 200000, True)
    assert _untar.limits(True, {_untar.BYTES_ENV: "512k", _untar.MEMBERS_ENV: " 7 "}) == (512 << 10, 7, False)
    assert _untar.limits(environ={_untar.BYTES_ENV: "2T"}).max_bytes == 2 << 40
    with pytest.raises(ConfigError) as info:
        _untar.limits(environ={_untar.BYTES_ENV: "1.5G", _untar.MEMBERS_ENV: "many"})
    assert [p.path for p in info.value.problems] == [_untar.BYTES_ENV, _untar.MEMBERS_ENV]
    assert "SAGEMAKER_HETERO_LOCAL_CODE_MAX_MEMBERS must be a whole number, at least 1 (got 'many')" in str(info.value)


def test_an_archive_that_cannot_be_read_is_refused_by_name(tmp_path):
    for data in (b"not an archive", gzip.compress(b"\1" * 2048)):
        path = tmp_path / "bad.tar.gz"
        path.write_bytes(data)
        with pytest.raises(ConfigError, match="bad.tar.gz cannot be read as a tar archive"):
            _untar.extract_archive(str(path), str(tmp_path / "bad"))


def test_an_archive_of_folders_and_files_is_written_directly_with_its_modes(tmp_path):
    path = str(tmp_path / "code.tar.gz")
    with tarfile.open(path, "w:gz") as tar:
        for name, mode, data in (("pkg", 0o755, None), ("pkg/run.sh", 0o755, b"echo\n"), ("pkg/a.py", 0o644, b"A\n"),
                                 ("./top.py", 0o666, b"T\n"), ("deep/er/b.py", 0o644, b"B\n")):
            info = tarfile.TarInfo(name)
            info.mode, info.mtime = mode, 1000
            if data is None:
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    assert _untar._plain_ustar(path) is not None
    dest = tmp_path / "code"
    _untar.extract_archive(path, str(dest))
    assert (dest / "pkg" / "a.py").read_bytes() == b"A\n" and (dest / "deep" / "er" / "b.py").read_bytes() == b"B\n"
    assert os.stat(str(dest / "pkg" / "run.sh")).st_mode & 0o777 == 0o755
    assert os.stat(str(dest / "top.py")).st_mode & 0o022 == 0  # no group/other write, as the data filter
    assert os.stat(str(dest / "pkg" / "a.py")).st_mtime == 1000


def _tree(folder):
    out = {}
    for parent, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(parent, name)
            st = os.lstat(path)
            data = open(path, "rb").read() if name in files else None
            out[os.path.relpath(path, folder)] = (st.st_mode, int(st.st_mtime) if data is not None else 0, data)
    return out


def test_the_own_ustar_reader_writes_what_tarfile_reads_and_leaves_anything_else_to_it(tmp_path):
    """The code archives this package builds are read by a small ustar reader (tarfile's objects per
    member cost more than writing the file), or unpacked as they are built (a local run): the same
    files, modes and times as from tarfile's reading; an archive with PAX headers, links, or a
    damaged header is left to tarfile."""
    import shutil

    from sagemaker_hetero._aws import code_archive as _archive
    from sagemaker_hetero._model.job import Code

    source = tmp_path / "src"
    (source / "pkg" / "deep").mkdir(parents=True)
    (source / "train.py").write_text("print('hi')\n")
    (source / "run.sh").write_text("echo\n")
    os.chmod(str(source / "run.sh"), 0o755)
    (source / "pkg" / "deep" / "m.py").write_bytes(b"\x00\xff" * 3000)
    (source / "pkg" / ("n" * 90) / ("m" * 90)).mkdir(parents=True)  # a name that needs ustar's prefix
    (source / "pkg" / ("n" * 90) / ("m" * 90) / "x.py").write_text("X = 1\n")
    archive = str(tmp_path / "sourcedir.tar.gz")
    (tmp_path / "as-built").mkdir()
    with _untar.Writer(archive, str(tmp_path / "as-built")) as writer:
        body, _ = _archive.build_archive(Code(entry_point="train.py", source_dir=str(source)), each=writer)
    with open(archive, "wb") as handle:
        shutil.copyfileobj(body, handle)
    assert _untar._plain_ustar(archive) is not None
    _untar.extract_archive(archive, str(tmp_path / "fast"))
    (tmp_path / "slow").mkdir()
    with _untar.Writer(archive, str(tmp_path / "slow"), _untar.limits()) as writer:
        _untar._extract_tar(archive, writer, _untar.limits())
    fast = _tree(str(tmp_path / "fast"))
    assert fast == _tree(str(tmp_path / "slow"))
    assert fast == _tree(str(tmp_path / "as-built"))  # a local run's code, unpacked as the archive is built
    assert fast["run.sh"][0] & 0o777 == 0o755 and fast["pkg/deep/m.py"][2] == b"\x00\xff" * 3000
    assert fast[os.path.join("pkg", "n" * 90, "m" * 90, "x.py")][2] == b"X = 1\n"

    long_name = archive_of(str(tmp_path / "long.tar.gz"), [("p" * 120 + "/" + "q" * 120, "file", b"x")])  # PAX
    assert _untar._plain_ustar(long_name) is None
    _untar.extract_archive(long_name, str(tmp_path / "long"))
    assert (tmp_path / "long" / ("p" * 120) / ("q" * 120)).read_bytes() == b"x"
    assert _untar._plain_ustar(archive_of(str(tmp_path / "l.tar.gz"), [("a", "file", b"x"), ("b", "sym", "a")])) \
        is None
    raw = bytearray(gzip.decompress(open(archive, "rb").read()))
    raw[0] ^= 1  # the first header's name changes: its checksum no longer holds
    with open(archive, "wb") as handle:
        handle.write(gzip.compress(bytes(raw)))
    assert _untar._plain_ustar(archive) is None
    with pytest.raises(ConfigError, match="cannot be read as a tar archive"):
        _untar.extract_archive(archive, str(tmp_path / "damaged"))
