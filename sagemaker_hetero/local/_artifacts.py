"""``model.tar.gz`` and ``output.tar.gz`` of a local job: every host's folder, combined losing nothing.

Each host's files go to the archive root, hosts taken in name order (``algo-1``, ``algo-2``, ...).
A path written by several hosts is kept once if every copy has the same bytes; otherwise the first
host's copy stays at the path and each other host's different copy goes under ``<host>/<path>``.
"""
import filecmp
import gzip
import os
import tarfile

from sagemaker_hetero.local import _storage

__all__ = ["combine", "pack"]


def combine(folders, on_loop=None):
    """``(entries, moved)`` for ``folders`` = ``[(host, folder), ...]`` in host order.

    Links are followed; a link back to a folder above it (a loop) is skipped and given to ``on_loop``.

    ``entries``: ``[(archive name, local file)]``; ``moved``: ``[(host, path)]`` for each copy
    that differed from the first host's and was put under ``<host>/<path>``.
    """
    entries, seen, moved = [], {}, []
    for host, folder in folders:
        if not os.path.isdir(folder):
            continue
        for rel in _storage.walk_files(folder, on_loop):
            path = os.path.join(folder, *rel.split("/"))
            first = seen.get(rel)
            if first is None:
                seen[rel] = path
                entries.append((rel, path))
            elif not filecmp.cmp(first, path, shallow=False):
                name = "%s/%s" % (host, rel)
                if name not in seen:
                    seen[name] = path
                    entries.append((name, path))
                moved.append((host, rel))
    return entries, moved


def pack(entries, dest):
    """Write ``entries`` (from :func:`combine`) as the gzipped tar ``dest``; returns ``dest``."""
    parent = os.path.dirname(dest)
    if parent:
        os.makedirs(parent, exist_ok=True)
    tmp = dest + ".part"
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
            with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT, dereference=True) as tar:
                for name, path in sorted(entries):
                    tar.add(path, arcname=name, recursive=False)
    os.replace(tmp, dest)
    return dest
