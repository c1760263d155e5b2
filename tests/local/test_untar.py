"""A code archive unpacks inside its folder or not at all."""
import io
import os
import tarfile

import pytest

from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.local import _untar


def archive_of(tmp_path, members):
    path = str(tmp_path / "code.tar.gz")
    with tarfile.open(path, "w:gz") as tar:
        for name, kind, value in members:
            info = tarfile.TarInfo(name)
            if kind == "dir":
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            elif kind in ("sym", "hard"):
                info.type, info.linkname = (tarfile.SYMTYPE if kind == "sym" else tarfile.LNKTYPE), value
                tar.addfile(info)
            else:
                info.size = len(value)
                tar.addfile(info, io.BytesIO(value))
    return path


ESCAPES = {
    "chained links": [("a", "sym", "."), ("a/b", "sym", ".."), ("a/b/evil", "file", b"x")],
    "link then file through it": [("d", "dir", None), ("d/up", "sym", "../.."), ("d/up/evil", "file", b"x")],
    "dot-dot name": [("../evil", "file", b"x")],
    "absolute link": [("abs", "sym", "/etc")],
    "hard link out": [("h", "hard", "../../outside")],
}


@pytest.mark.parametrize("data_filter", [True, False], ids=["tarfile-filter", "own-checks"])
@pytest.mark.parametrize("case", sorted(ESCAPES))
def test_the_extractor_refuses_members_leading_out_of_the_folder(tmp_path, case, data_filter):
    if data_filter and getattr(tarfile, "data_filter", None) is None:
        pytest.skip("this Python's tarfile has no data filter")
    (tmp_path / "outside").write_text("keep")
    archive = archive_of(tmp_path, ESCAPES[case])
    dest = tmp_path / "deep" / "code"
    dest.mkdir(parents=True)
    with pytest.raises(ConfigError, match="code archive must unpack inside its folder"):
        _untar.extract_archive(archive, str(dest), data_filter=data_filter)
    assert not (tmp_path / "deep" / "evil").exists() and not (tmp_path / "evil").exists()
    assert (tmp_path / "outside").read_text() == "keep"


@pytest.mark.parametrize("data_filter", [True, False], ids=["tarfile-filter", "own-checks"])
def test_the_extractor_keeps_links_that_stay_inside(tmp_path, data_filter):
    if data_filter and getattr(tarfile, "data_filter", None) is None:
        pytest.skip("this Python's tarfile has no data filter")
    archive = archive_of(tmp_path, [
        ("pkg", "dir", None), ("pkg/mod.py", "file", b"X = 1\n"), ("alias", "sym", "pkg"),
        ("pkg/same.py", "hard", "pkg/mod.py"), ("run.sh", "file", b"echo\n"),
    ])
    dest = tmp_path / "code"
    _untar.extract_archive(archive, str(dest), data_filter=data_filter)
    assert (dest / "alias" / "mod.py").read_text() == "X = 1\n"
    assert (dest / "pkg" / "same.py").read_text() == "X = 1\n"
    assert os.path.islink(str(dest / "alias"))


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
            out[os.path.relpath(path, folder)] = (st.st_mode, int(st.st_mtime), data)
    return out


def test_the_own_archive_reader_writes_what_tarfile_writes_and_leaves_anything_else_to_it(tmp_path):
    """The code archives this package builds are read by a small ustar reader (tarfile's objects per
    member cost more than writing the file), or unpacked as they are built (a local run): same files,
    modes and times as tarfile's extraction; an archive with PAX headers, links, or a damaged header
    is left to tarfile."""
    import gzip
    import shutil

    from sagemaker_hetero import _archive
    from sagemaker_hetero._model import Code

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
    body, _ = _archive.build_archive(Code(entry_point="train.py", source_dir=str(source)),
                                     each=_untar.PlainWriter(archive, str(tmp_path / "as-built")))
    with open(archive, "wb") as handle:
        shutil.copyfileobj(body, handle)
    assert _untar._plain_ustar(archive) is not None
    _untar.extract_archive(archive, str(tmp_path / "fast"))
    with tarfile.open(archive) as tar:
        _untar._extract_plain(archive, tar, str(tmp_path / "slow"), tar.getmembers())
    fast = _tree(str(tmp_path / "fast"))
    assert fast == _tree(str(tmp_path / "slow"))
    assert fast == _tree(str(tmp_path / "as-built"))  # a local run's code, unpacked as the archive is built
    assert fast["run.sh"][0] & 0o777 == 0o755 and fast["pkg/deep/m.py"][2] == b"\x00\xff" * 3000
    assert fast[os.path.join("pkg", "n" * 90, "m" * 90, "x.py")][2] == b"X = 1\n"

    long_name = archive_of(tmp_path, [("p" * 120 + "/" + "q" * 120, "file", b"x")])  # PAX header
    assert _untar._plain_ustar(long_name) is None
    _untar.extract_archive(long_name, str(tmp_path / "long"))
    assert (tmp_path / "long" / ("p" * 120) / ("q" * 120)).read_bytes() == b"x"
    assert _untar._plain_ustar(archive_of(tmp_path, [("a", "file", b"x"), ("b", "sym", "a")])) is None
    raw = bytearray(gzip.decompress(open(archive, "rb").read()))
    raw[0] ^= 1  # the first header's name changes: its checksum no longer holds
    with open(archive, "wb") as handle:
        handle.write(gzip.compress(bytes(raw)))
    assert _untar._plain_ustar(archive) is None
    with pytest.raises(tarfile.ReadError):
        _untar.extract_archive(archive, str(tmp_path / "damaged"))
