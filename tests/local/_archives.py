"""Code archives built on the fly for the unpacking tests: ordinary ones, and ones made to escape or to explode."""
import gzip
import io
import tarfile

# Every archive that tries to write outside its folder names what it writes EVIL.
EVIL = "evil-sagemaker-hetero"


def archive_of(path, members, compresslevel=1):
    """A gzipped tar at ``path`` of ``(name, kind, value)`` members, in order: kind ``"dir"``,
    ``"file"`` (value: its bytes), ``"sym"`` or ``"hard"`` (value: the link's target)."""
    with tarfile.open(path, "w:gz", compresslevel=compresslevel) as tar:
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


def path_max_members(levels=16, up=1):
    """The PATH_MAX technique (CVE-2025-4517): folders of 247-character names, each reached through a
    one-letter link, so that a short path (``a/b/c/...``) stands for a real one longer than PATH_MAX,
    where ``os.path.realpath`` stops resolving and goes on by the names alone. A link at the end of
    that path climbs back ``levels`` folders (to the folder unpacked into, as the system resolves
    it); a link ``escape`` goes through it and ``up`` more; a file is written through ``escape``."""
    long_name = "d" * 247
    members, real, short = [], "", []
    for level in range(levels):
        letter = chr(ord("a") + level)
        members += [(real + long_name, "dir", None), (real + letter, "sym", long_name)]
        real += long_name + "/"
        short.append(letter)
    deep = "/".join(short) + "/" + "l" * 254
    members += [(deep, "sym", "/".join([".."] * levels)), ("escape", "sym", deep + "/.." * up),
                ("escape/" + EVIL, "file", b"written outside\n")]
    return members


def escapes(outside_file):
    """Archives (name -> members) that try to write outside the folder, or to link out of it;
    ``outside_file``: an absolute path a member names (it must stay as it is)."""
    return {
        "path-max link chain": path_max_members(up=2),
        "chained links": [("a", "sym", "."), ("a/b", "sym", ".."), ("a/b/" + EVIL, "file", b"x")],
        "link then a file through it": [("d", "dir", None), ("d/up", "sym", "../.."), ("d/up/" + EVIL, "file", b"x")],
        "link through a later link": [("a/b/c", "dir", None), ("a/b/c/l2", "sym", "l1/.."),
                                      ("a/b/c/l1", "sym", "../../..")],
        "dot-dot name": [("../" + EVIL, "file", b"x")],
        "absolute name": [(outside_file, "file", b"overwritten\n")],
        "absolute link": [("abs", "sym", "/etc")],
        "hard link out": [("h", "hard", "../../outside")],
        "hard link to an absolute path": [("h", "hard", outside_file)],
    }


def gzip_with_a_small_trailer(path, size):
    """A valid gzipped tar at ``path`` holding one file of ``size`` zero bytes, whose gzip trailer
    (what ``gzip -l`` reads) says 1,024: the archive is two gzip members, the last one holding only
    the tar's end-of-archive marker."""
    info = tarfile.TarInfo("zeros")
    info.size = size
    head = info.tobuf(tarfile.USTAR_FORMAT)
    with open(path, "wb") as out:
        with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=1, mtime=0) as first:
            first.write(head)
            block = b"\0" * (1 << 20)
            for start in range(0, size, len(block)):
                first.write(block[:size - start])
            first.write(b"\0" * (-size % 512))
        out.write(gzip.compress(b"\0" * 1024, mtime=0))
    return path


def with_a_long_pax_header(path, size):
    """A gzipped tar at ``path`` whose one member carries a PAX record of ``size`` bytes (a comment)."""
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT, compresslevel=1) as tar:
        info = tarfile.TarInfo("train.py")
        info.pax_headers = {"comment": "x" * size}
        tar.addfile(info, io.BytesIO(b""))
    return path
