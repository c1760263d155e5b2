"""The code archive ``sourcedir.tar.gz``'s format, reproducible: what goes in, given the entries.

Same sources, same bytes: entries sorted, times, owners and permissions normalised, the gzip
header's time zeroed. Names matching ``CODE_IGNORE`` (``.git``, ``.venv``, ``__pycache__``,
``.ipynb_checkpoints``) stay out (:func:`ignored`). The archive is stored under its SHA-256
(``_request.plan.code_plan``), so the same bytes go up once. Pure: the folders are walked and the files
read by the edge (``_aws.code_archive``: ``scan``, ``build_archive``, ``archive_digest``), which hands
:func:`write` the entries, a reader of their bytes and the file object to write to; ``tarfile`` is
imported only for a name a plain ustar header cannot hold, and ``gzip`` only when an archive is written
(the checks import this module for :func:`archive_name`: a dry run that writes none pays for neither).
"""
import stat
import struct
import sys

from sagemaker_hetero._defaults import CODE_ARCHIVE_LEVEL

__all__ = ["write", "Hashing", "ignored", "signature", "digest", "archive_name", "s3_etag", "s3_checksum",
           "checksum_of"]


def _sha256(data=b""):
    """A SHA-256 hash object: CPython's built-in one where there is one (``_sha2``, ``_sha256`` before
    3.12), else ``hashlib``'s. Importing ``hashlib`` sets up every OpenSSL algorithm, a few milliseconds a
    dry run need not pay for one hash; the digests are the same."""
    try:
        from _sha2 import sha256
    except ImportError:
        try:
            from _sha256 import sha256
        except ImportError:
            from hashlib import sha256
    return sha256(data)


_WILDCARDS = frozenset("*?[")
# tar's entry types and record size (``tarfile.DIRTYPE``, ``REGTYPE``, ``RECORDSIZE``)
_DIRTYPE, _REGTYPE, _RECORDSIZE = b"5", b"0", 20 * 512


def archive_name(path):
    """The name a dependency (a file or directory outside ``source_dir``) has at the archive's top:
    its last path component. ``None`` when it has none of its own (``..``, ``.``, ``/``): such a
    dependency would put ``../`` members into the archive, and is refused (``_checks.rules``)."""
    if sys.platform == "win32":  # os.path's rules, without importing os
        import ntpath as paths
    else:
        import posixpath as paths
    name = paths.basename(paths.normpath(path))
    return None if name in ("", ".", "..") or name == paths.sep else name


def ignored(name, ignore):
    """Whether ``name`` matches an ``fnmatch`` pattern of ``ignore`` (a plain name, the usual kind, by
    equality: no pattern is compiled for it)."""
    return any(name == pattern if not _WILDCARDS.intersection(pattern) else _fnmatch(name, pattern)
               for pattern in ignore)


def _fnmatch(name, pattern):
    import fnmatch  # a pattern with wildcards: rare

    return fnmatch.fnmatchcase(name, pattern)


def signature(entries):
    """What a scan saw, as a hashable value: each entry's name, size, mode, modification time and
    inode. Equal signatures: the archive would be the same bytes (a per-session cache's key)."""
    return tuple((name, st.st_size, st.st_mode, st.st_mtime_ns, st.st_ino) for name, _, st in entries)


def _mode(st):
    return 0o755 if stat.S_ISDIR(st.st_mode) or st.st_mode & 0o111 else 0o644


def _header(arcname, st):
    """The tar header of one entry: owner, group and time zeroed, the mode normalised. A plain ustar
    header (built here: ``tarfile``'s costs more than the file's data) when the name is ASCII and fits;
    else ``tarfile``'s PAX header, which holds any name."""
    is_dir = stat.S_ISDIR(st.st_mode)
    name = arcname + "/" if is_dir else arcname
    size = 0 if is_dir else st.st_size
    try:
        raw = name.encode("ascii")
    except UnicodeEncodeError:
        raw = None
    prefix = b""
    if raw is not None and len(raw) > 100:
        cut = raw.rfind(b"/", 0, 156)  # the longest prefix ustar holds, so the shortest name
        prefix, raw = (raw[:cut], raw[cut + 1:]) if cut > 0 and len(raw) - cut - 1 <= 100 else (b"", None)
    if raw is None or size >= 0o77777777777:
        import tarfile

        info = tarfile.TarInfo(arcname)
        info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
        info.type, info.size, info.mode = (_DIRTYPE if is_dir else _REGTYPE), size, _mode(st)
        return info.tobuf(tarfile.PAX_FORMAT, "utf-8", "surrogateescape")
    head = _USTAR.pack(raw, b"%07o\0" % _mode(st), b"0000000\0", b"0000000\0", b"%011o\0" % size,
                       b"00000000000\0", b"        ", _DIRTYPE if is_dir else _REGTYPE, b"",
                       b"ustar\x0000", b"", b"", b"0000000\0", b"0000000\0", prefix)
    checksum = b"%06o\0 " % sum(head)
    return head[:148] + checksum + head[156:]


_USTAR = struct.Struct("100s8s8s8s12s12s8sc100s8s32s32s8s8s155s12x")
_FLUSH = 1 << 20  # the tar stream goes to zlib in pieces of about this size


class Hashing(object):
    """A write-only file that keeps the SHA-256 of what is written, not the bytes."""

    def __init__(self):
        self.hash = _sha256()

    def write(self, data):
        self.hash.update(data)
        return len(data)

    def flush(self):
        pass


def write(entries, fileobj, read, each=None):
    """Write the gzipped tar of ``entries`` (``[(archive name, local path, os.stat result)]``, sorted) to
    ``fileobj``; ``read(path, size)``: the bytes of a file entry (raises ``OSError``). ``each(name, is_dir,
    mode, data)``, if given, sees every entry as it goes in, with the mode the archive gives it and the
    bytes it holds (a local run unpacks the code from these, without reading the archive back)."""
    import gzip

    with gzip.GzipFile(filename="", mode="wb", fileobj=fileobj, mtime=0, compresslevel=CODE_ARCHIVE_LEVEL) as gz:
        pending, held = [], 0
        for arcname, path, st in entries:
            pending.append(_header(arcname, st))
            held += 512
            if stat.S_ISDIR(st.st_mode):
                if each is not None:
                    each(arcname, True, _mode(st), None)
            else:
                data = read(path, st.st_size)
                if len(data) != st.st_size:
                    raise OSError("%s changed size while the code archive was built" % path)
                if each is not None:
                    each(arcname, False, _mode(st), data)
                pending.append(data)
                pending.append(b"\0" * (-len(data) % 512))
                held += len(data)
            if held >= _FLUSH:
                gz.write(b"".join(pending))
                pending, held = [], 0
        pending.append(b"\0" * 1024)  # the end-of-archive marker
        data = b"".join(pending)
        gz.write(data + b"\0" * (-len(data) % _RECORDSIZE))


def digest(body):
    """The SHA-256 (hex) of ``body`` (a file object), read from the start and rewound: the archive's
    content address."""
    body.seek(0)
    h = _sha256()
    for chunk in iter(lambda: body.read(1 << 20), b""):
        h.update(chunk)
    body.seek(0)
    return h.hexdigest()


def s3_etag(body, part_size=None):
    """The ETag S3 gives the bytes of ``body`` (a file object) once stored, without quotes: their MD5
    in hex when put whole (``part_size`` None), else, put in parts of ``part_size`` bytes, the MD5 of
    the parts' MD5s, ``-`` and the number of parts. Reads ``body`` from the start and rewinds it.
    (An object encrypted with SSE-KMS gets another ETag: it then never looks like the same bytes.)
    """
    import hashlib

    return _of_parts(body, part_size, hashlib.md5, lambda h: h.hexdigest())


def s3_checksum(body, part_size=None):
    """The SHA-256 checksum S3 keeps for the bytes of ``body`` (a file object) stored with
    ``ChecksumAlgorithm="SHA256"``, as HeadObject answers it: put whole (``part_size`` None), their
    SHA-256 in base64; put in parts of ``part_size`` bytes, the SHA-256 of the parts' raw SHA-256
    digests in base64, ``-`` and the number of parts. Reads ``body`` from the start and rewinds it."""
    import base64

    return _of_parts(body, part_size, _sha256, lambda h: base64.b64encode(h.digest()).decode("ascii"))


def checksum_of(data):
    """The SHA-256 of ``data`` (bytes) in base64, as S3 writes checksums."""
    import base64

    return base64.b64encode(_sha256(data).digest()).decode("ascii")


def _of_parts(body, part_size, new, text):
    """``text`` of the ``new`` hash of ``body`` (whole), or of its parts' digests, ``-`` and their number."""
    body.seek(0)
    if part_size is None:
        whole = new()
        for chunk in iter(lambda: body.read(1 << 20), b""):
            whole.update(chunk)
        body.seek(0)
        return text(whole)
    digests = []
    for chunk in iter(lambda: body.read(part_size), b""):
        digests.append(new(chunk).digest())
    body.seek(0)
    return "%s-%d" % (text(new(b"".join(digests))), len(digests))
