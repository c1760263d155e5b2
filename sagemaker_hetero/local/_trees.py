"""A local job's data as the hosts see it: links to the data, hard-linked trees of the code.

A channel's files reach a host's folder as symbolic links to the data (copies where links cannot be
made): :func:`link_files` for a shard of files, :func:`link_or_copy` for a file or folder, the files
found by :func:`walk_files` (links followed, a link loop skipped). The code, unpacked once, reaches
every host as a tree of hard links (:class:`Tree`), in memory when it fits (:func:`fits_in_memory`).
"""
import os
import shutil
import sys

from sagemaker_hetero.local import _private, _untar

__all__ = ["link_files", "link_or_copy", "walk_files", "Tree", "fits_in_memory"]

_MEMORY_DIR = _private.MEMORY_DIR  # a tmpfs on Linux: code unpacked there costs no disk (memory_folder)


def link_files(base, files, dest):
    """A symbolic link ``dest/REL`` -> ``base/REL`` for each file ``REL`` of ``files`` (copies where
    links cannot be made); each folder is made once."""
    made = set()
    for rel in files:
        target = os.path.join(dest, rel)
        parent = os.path.dirname(target)
        if parent not in made:
            os.makedirs(parent, exist_ok=True)
            made.add(parent)
        source = os.path.join(base, rel)
        try:
            os.symlink(source, target)
        except (OSError, NotImplementedError):
            shutil.copy2(source, target)


def link_or_copy(source, dest):
    """A symbolic link ``dest`` -> ``source``; a copy where links cannot be made. Never changes ``source``."""
    parent = os.path.dirname(dest)
    if parent:
        os.makedirs(parent, exist_ok=True)
    try:
        os.symlink(source, dest, target_is_directory=os.path.isdir(source))
        return "link"
    except (OSError, NotImplementedError):
        if os.path.isdir(source):  # links followed, as a link would show them; a link loop is not
            os.makedirs(dest, exist_ok=True)
            link_files(source, walk_files(source), dest)
        else:
            shutil.copy2(source, dest)
        return "copy"


class Tree(object):
    """A folder, listed once (on first use), to be given to several hosts as trees of hard links
    (:meth:`link_into`)."""

    def __init__(self, folder):
        self.folder = folder
        self._entries = None  # (relative path, "dir" | "file" | "link", link target), parents first

    @property
    def entries(self):
        if self._entries is None:
            self._entries = []
            self._list(self.folder, "")
        return self._entries

    def _list(self, path, prefix):
        with os.scandir(path) as found:
            entries = sorted(found, key=lambda e: e.name)
        for entry in entries:
            rel = prefix + entry.name
            if entry.is_symlink():
                self._entries.append((rel, "link", os.readlink(entry.path)))
            elif entry.is_dir():
                self._entries.append((rel, "dir", None))
                self._list(entry.path, rel + os.sep)
            else:
                self._entries.append((rel, "file", None))

    def link_into(self, dest):
        """``dest`` as a copy of the folder made of hard links (copies where links fail).

        Folders are made anew and symbolic links recreated, so what ``dest`` holds is its own; files
        share their contents with the folder (a file rewritten in place changes in both).
        """
        os.makedirs(dest, exist_ok=True)
        source = self.folder
        for rel, kind, target in self.entries:
            dst = os.path.join(dest, rel)
            if kind == "dir":
                os.mkdir(dst)
            elif kind == "link":
                os.symlink(target, dst)
            else:
                src = os.path.join(source, rel)
                try:
                    os.link(src, dst)
                except OSError:
                    shutil.copy2(src, dst)


def fits_in_memory(size):
    """Whether ``size`` bytes may go into :func:`memory_folder`: at most :data:`_untar.MEMORY_LIMIT`,
    and a tenth of the free space."""
    if size is None or size > _untar.MEMORY_LIMIT or not sys.platform.startswith("linux"):
        return False
    try:
        space = os.statvfs(_MEMORY_DIR)
    except OSError:
        return False
    return size * 10 <= space.f_bavail * space.f_frsize


def walk_files(folder, on_loop=None):
    """Relative paths (``/``-separated) of the files under ``folder``, sorted; links followed.

    A link to a folder that is being walked already (one of the folders above it: a loop) is
    skipped and its path given to ``on_loop``; other links, to folders seen elsewhere, are followed.
    """
    out = []

    def visit(path, prefix, above):
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            try:
                if entry.is_dir():
                    info = entry.stat()
                    key = (info.st_dev, info.st_ino)
                    if key in above:
                        if on_loop is not None:
                            on_loop(entry.path)
                        continue
                    visit(entry.path, prefix + entry.name + "/", above | {key})
                elif entry.is_file():
                    out.append(prefix + entry.name)
            except OSError:  # vanished, or a link that cannot be followed
                continue

    info = os.stat(folder)
    visit(folder, "", frozenset([(info.st_dev, info.st_ino)]))
    return sorted(out)
