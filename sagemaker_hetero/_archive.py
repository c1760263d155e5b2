"""The code archive ``sourcedir.tar.gz``, built reproducibly.

Same sources, same bytes: entries sorted, times, owners and permissions normalised, the gzip
header's time zeroed. Symbolic links are followed (the archive holds what they point at).
"""
import gzip
import hashlib
import io
import os
import tarfile
import tempfile

__all__ = ["build_archive", "archive_members", "s3_etag"]

_SPOOL_LIMIT = 64 * 1024 * 1024


def _entries(code):
    """``[(archive name, local path)]`` for every file and directory, sorted by archive name."""
    roots = []
    if code.source_dir is not None:
        root = code.source_dir
        for name in sorted(os.listdir(root)):
            roots.append((name, os.path.join(root, name)))
    else:
        roots.append((os.path.basename(code.entry_point), code.entry_point))
    for dep in code.dependencies or ():
        roots.append((os.path.basename(os.path.normpath(dep)), dep))
    out = {}
    for arcname, path in roots:
        _walk(arcname, path, out, set())
    return sorted(out.items())


def _walk(arcname, path, out, seen):
    real = os.path.realpath(path)
    if os.path.isdir(real):
        if real in seen:  # a link loop: stop here instead of recursing forever
            return
        out[arcname] = real
        for name in sorted(os.listdir(real)):
            _walk(arcname + "/" + name, os.path.join(real, name), out, seen | {real})
    elif os.path.exists(real):
        out[arcname] = real


def _info(arcname, path):
    info = tarfile.TarInfo(arcname)
    info.mtime = 0
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    if os.path.isdir(path):
        info.type = tarfile.DIRTYPE
        info.mode = 0o755
    else:
        info.size = os.path.getsize(path)
        info.mode = 0o755 if os.access(path, os.X_OK) else 0o644
    return info


def build_archive(code):
    """``(file object positioned at 0, size)``: the gzipped tar of a job's :class:`~._model.Code`."""
    spool = tempfile.SpooledTemporaryFile(max_size=_SPOOL_LIMIT)
    with gzip.GzipFile(filename="", mode="wb", fileobj=spool, mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for arcname, path in _entries(code):
                info = _info(arcname, path)
                if info.isdir():
                    tar.addfile(info)
                else:
                    with open(path, "rb") as f:
                        tar.addfile(info, f)
    size = spool.tell()
    spool.seek(0)
    return spool, size


def s3_etag(body, part_size=None):
    """The ETag S3 gives the bytes of ``body`` (a file object) once stored, without quotes: their MD5
    in hex when put whole (``part_size`` None), else, put in parts of ``part_size`` bytes, the MD5 of
    the parts' MD5s, ``-`` and the number of parts. Reads ``body`` from the start and rewinds it.
    (An object encrypted with SSE-KMS gets another ETag: it then never looks like the same bytes.)
    """
    body.seek(0)
    if part_size is None:
        digest = hashlib.md5()
        for chunk in iter(lambda: body.read(1 << 20), b""):
            digest.update(chunk)
        body.seek(0)
        return digest.hexdigest()
    digests = []
    for chunk in iter(lambda: body.read(part_size), b""):
        digests.append(hashlib.md5(chunk).digest())
    body.seek(0)
    return "%s-%d" % (hashlib.md5(b"".join(digests)).hexdigest(), len(digests))


def archive_members(data):
    """Names in an archive's bytes (for tests and the docs)."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        return tar.getnames()
