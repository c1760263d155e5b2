"""``model.tar.gz`` and ``output.tar.gz`` of a local job: every host's folder, combined losing nothing,
read without following a link.

Each host's files go to the archive root, hosts taken in name order (``algo-1``, ``algo-2``, ...).
A path written by several hosts is kept once if every copy is the same (the same bytes, or links to
the same target); otherwise the first host's copy stays at the path and each other host's different
copy goes under ``<host>/<path>``.

The hosts wrote these folders, and the driver may see more than a host (a driver run as root, its
hosts in user namespaces that cannot read other users' files): nothing is read through a link. From
the job's folder down, each folder and file is opened relative to the one holding it with
``O_NOFOLLOW``; a symbolic link is stored as a link, its target as the host wrote it (as SageMaker
packs ``/opt/ml/model``: its target is not read); a ``model`` or ``output/data`` folder that is
itself a link is skipped with a message. Files other than regular ones (FIFOs, sockets) are left out.
"""
import collections
import gzip
import os
import posixpath
import stat
import tarfile

from sagemaker_hetero.local import _private

__all__ = ["Entry", "collect", "combine", "pack"]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_CHUNK = 1 << 20

#: One file or link of a host: ``path`` (for messages), ``top`` (a folder of the driver's: the job's)
#: and ``parts`` (the steps from it, each opened without following a link), ``kind`` ``"file"`` or
#: ``"link"``, a link's ``target``, and its ``os.lstat``.
Entry = collections.namedtuple("Entry", "path top parts kind target info")


def collect(folders, storage, artifacts_uri, job_dir, say):
    """Pack the ``model/`` and ``output/data/`` folders of every host of ``folders`` (``[(host, host
    folder), ...]`` in host order) to ``<artifacts_uri>/model.tar.gz`` and ``output.tar.gz`` through
    ``storage`` (a local job's ``_storage.Storage``; ``job_dir``: where an archive bound for S3 is made
    first); ``say`` tells what was moved, stored as a link or skipped. Returns the model archive's URI."""
    model_uri = None
    for source, archive in (("model", "model.tar.gz"), ("output/data", "output.tar.gz")):
        entries, moved = combine(folders, source, lambda path, why: say("skipped %s: %s" % (path, why)))
        for host, rel in moved:
            say("%s/%s differs from an earlier host's copy: stored as %s/%s in %s" % (source, rel, host, rel, archive))
        links = [name for name, entry in entries if entry.kind == "link"]
        if links:
            say("%s: %d symbolic link(s) stored as links, their targets not read (as SageMaker packs them): %s"
                % (archive, len(links), ", ".join(links[:3]) + (", ..." if links[3:] else "")))
        uri = posixpath.join(artifacts_uri, archive)
        local = storage.local_path(uri)
        try:
            tmp = pack(entries, local or os.path.join(job_dir, ".upload", archive), within=storage.root)
        except _private.NotPrivate as exc:  # a link a host put on the way
            raise RuntimeError("cannot write %s: %s" % (archive, exc))
        if local is None:
            storage.put(tmp, uri)
        if archive == "model.tar.gz":
            model_uri = storage.file_uri_of(uri)
    return model_uri


def combine(folders, sub, on_skip=None):
    """``(entries, moved)`` for the ``sub`` folder (``"model"``, ``"output/data"``) of each host of
    ``folders`` = ``[(host, host folder), ...]`` in host order.

    ``entries``: ``[(archive name, Entry)]``; ``moved``: ``[(host, path)]`` for each copy that differed
    from the first host's and was put under ``<host>/<path>``. ``on_skip(path, why)`` hears of a
    folder left out (a link, or not a folder).
    """
    entries, seen, moved = [], {}, []
    for host, folder in folders:
        for rel, entry in _walk(folder, sub.split("/"), on_skip):
            first = seen.get(rel)
            if first is None:
                seen[rel] = entry
                entries.append((rel, entry))
            elif not _same(first, entry):
                name = "%s/%s" % (host, rel)
                if name not in seen:
                    seen[name] = entry
                    entries.append((name, entry))
                moved.append((host, rel))
    return entries, moved


def _walk(folder, parts, on_skip):
    """``[(relative path, Entry)]`` of the files and links under ``folder/parts...``, sorted; no link
    followed (``folder`` itself is opened from its parent, the job's folder, as a step)."""
    top, start = os.path.dirname(folder), [os.path.basename(folder)] + parts
    out, pending = [], [[]]
    while pending:
        below = pending.pop()
        try:
            fd = _private.open_below(top, start + below)
        except FileNotFoundError:
            continue
        except OSError:
            if on_skip is not None:
                on_skip(os.path.join(top, *(start + below)), "a symbolic link or not a folder, not followed")
            continue
        try:
            for name in os.listdir(fd):
                try:
                    info = os.stat(name, dir_fd=fd, follow_symlinks=False)
                    kind = stat.S_IFMT(info.st_mode)
                    target = os.readlink(name, dir_fd=fd) if kind == stat.S_IFLNK else None
                except OSError:  # vanished meanwhile
                    continue
                steps = below + [name]
                if kind == stat.S_IFDIR:
                    pending.append(steps)
                elif kind in (stat.S_IFREG, stat.S_IFLNK):
                    entry = Entry(os.path.join(folder, *(parts + steps)), top, start + steps,
                                  "file" if target is None else "link", target, info)
                    out.append(("/".join(steps), entry))
        finally:
            os.close(fd)
    return sorted(out, key=lambda pair: pair[0])


def _open_file(entry):
    """A descriptor of the regular file ``entry``, opened without following a link; None if it is no
    longer a regular file (a FIFO is opened without waiting, then refused)."""
    try:
        folder = _private.open_below(entry.top, entry.parts[:-1])
    except OSError:
        return None
    try:
        fd = os.open(entry.parts[-1], os.O_RDONLY | _NOFOLLOW | _CLOEXEC | os.O_NONBLOCK, dir_fd=folder)
    except OSError:
        return None
    finally:
        os.close(folder)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


def _same(a, b):
    """Whether two hosts' copies are the same: links to the same target, or files of the same bytes."""
    if a.kind != b.kind:
        return False
    if a.kind == "link":
        return a.target == b.target
    if a.info.st_size != b.info.st_size:
        return False
    fds = [_open_file(a), _open_file(b)]
    try:
        if None in fds:
            return False
        while True:
            one, two = os.read(fds[0], _CHUNK), os.read(fds[1], _CHUNK)
            if one != two:
                return False
            if not one:
                return True
    finally:
        for fd in fds:
            if fd is not None:
                os.close(fd)


def pack(entries, dest, within=None):
    """Write ``entries`` (from :func:`combine`) as the gzipped tar ``dest``; returns ``dest``.

    ``within``: a folder of the driver's above ``dest`` (the root of local jobs): the folders from it
    down to ``dest`` are opened (made, mode 0700, where missing) without following a link. Elsewhere
    (``file://`` outputs of the user's choice) the folders are made as the user makes them. The
    archive is written as ``dest.part``, a new file, then renamed.
    """
    folder = _dest_folder(os.path.dirname(dest), within)
    name = os.path.basename(dest)
    tmp = name + ".part"
    try:
        try:
            os.unlink(tmp, dir_fd=folder)
        except FileNotFoundError:
            pass
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o666, dir_fd=folder)
        with os.fdopen(fd, "wb") as raw:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
                with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT, dereference=True) as tar:
                    for arcname, entry in sorted(entries, key=lambda pair: pair[0]):
                        _add(tar, arcname, entry)
        os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
    finally:
        os.close(folder)
    return dest


def _dest_folder(parent, within):
    if within is not None:
        within = os.path.abspath(within)
        rel = os.path.relpath(os.path.abspath(parent), within)
        if rel == "." or not (rel == os.pardir or rel.startswith(os.pardir + os.sep)):
            return _private.open_below(within, [p for p in rel.split(os.sep) if p not in ("", ".")], make=True)
    os.makedirs(parent, exist_ok=True)
    return _private.open_dir(parent)


def _add(tar, arcname, entry):
    """Add one Entry: a link as a link; a file from a descriptor opened without following a link."""
    if entry.kind == "link":
        info = tarfile.TarInfo(arcname)
        info.type, info.linkname, info.mode = tarfile.SYMTYPE, entry.target, 0o777
        info.mtime, info.uid, info.gid = entry.info.st_mtime, entry.info.st_uid, entry.info.st_gid
        tar.addfile(info)
        return
    fd = _open_file(entry)
    if fd is None:
        return  # replaced since it was listed
    with os.fdopen(fd, "rb") as handle:
        tar.addfile(tar.gettarinfo(arcname=arcname, fileobj=handle), handle)
