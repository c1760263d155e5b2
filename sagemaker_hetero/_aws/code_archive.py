"""The code archive's edge: the folders walked and the files read for ``sourcedir.tar.gz``, whose format
is ``_model.archive``'s (pure: it is handed the entries and a reader of their bytes).

Symbolic links are followed (the archive holds what they point at). :func:`archive_digest` hashes the
archive as it is written, keeping nothing (a dry run's code key); ``tempfile`` is imported only where
an archive is kept, ``tarfile`` where one is read back.
"""
import os
import stat

from sagemaker_hetero._defaults import CODE_IGNORE
from sagemaker_hetero._model import archive

__all__ = ["scan", "write_archive", "build_archive", "archive_digest", "archive_members", "read_file"]

_SPOOL_LIMIT = 64 * 1024 * 1024


def read_file(path, size):
    """At most ``size`` bytes of the file at ``path`` (a file entry's data, its size as scanned)."""
    with open(path, "rb") as f:
        return f.read(size)


def scan(code, ignore=CODE_IGNORE):
    """``[(archive name, local path, os.stat result)]`` for every file and directory of a job's
    :class:`~._model.job.Code`, sorted by archive name; names matching a pattern of ``ignore`` (``fnmatch``,
    matched against each name inside ``source_dir`` and the dependency directories, e.g. ``.git``) are
    left out with all they hold. Symbolic links are followed (one ``stat`` per entry); a link loop
    stops where it repeats a directory."""
    roots = []
    if code.source_dir is not None:
        root = code.source_dir
        roots.extend((name, os.path.join(root, name)) for name in os.listdir(root)
                     if not archive.ignored(name, ignore))
    else:
        roots.append((os.path.basename(code.entry_point), code.entry_point))
    for dep in code.dependencies or ():
        roots.append((archive.archive_name(dep) or os.path.basename(os.path.abspath(dep)), dep))
    out = {}
    for arcname, path in roots:
        _walk(arcname, path, out, (), ignore)
    return sorted((name, path, st) for name, (path, st) in out.items())


def _walk(arcname, path, out, ancestors, ignore):
    try:
        st = os.stat(path)
    except OSError:  # a dangling link
        return
    if not stat.S_ISDIR(st.st_mode):
        out[arcname] = (path, st)
        return
    ident = (st.st_dev, st.st_ino)
    if ident in ancestors:  # a link loop: stop here instead of recursing forever
        return
    out[arcname] = (path, st)
    ancestors += (ident,)
    for name in os.listdir(path):
        if not archive.ignored(name, ignore):
            _walk(arcname + "/" + name, os.path.join(path, name), out, ancestors, ignore)


def write_archive(entries, each=None):
    """``(file object positioned at 0, size)``: the gzipped tar of scanned ``entries``.

    ``each(name, is_dir, mode, data)``, if given, sees every entry as it goes in, with the mode the
    archive gives it and the bytes it holds (a local run unpacks the code from these, without
    reading the archive back)."""
    import tempfile

    spool = tempfile.SpooledTemporaryFile(max_size=_SPOOL_LIMIT)
    archive.write(entries, spool, read_file, each)
    size = spool.tell()
    spool.seek(0)
    return spool, size


def archive_digest(code, ignore=CODE_IGNORE):
    """The SHA-256 (hex) of the archive :func:`build_archive` would build for ``code``, hashed as it is
    written: the same as ``_model.archive.digest`` of that archive, without keeping it."""
    sink = archive.Hashing()
    archive.write(scan(code, ignore), sink, read_file)
    return sink.hash.hexdigest()


def build_archive(code, ignore=CODE_IGNORE, each=None):
    """``(file object positioned at 0, size)``: the gzipped tar of a job's :class:`~._model.job.Code`
    (``each``: see :func:`write_archive`)."""
    return write_archive(scan(code, ignore), each)


def archive_members(data):
    """Names in an archive's bytes (for tests and the docs)."""
    import io
    import tarfile

    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        return tar.getnames()
