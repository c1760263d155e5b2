"""S3 keys and local paths as the SageMaker Python SDK v2 makes them: pure, standard library only.

``parse_s3_url`` and ``s3_path_join`` (public in ``sagemaker_hetero.s3``), and where
``Session.upload_data`` puts a local file and ``Session.download_data`` an object, decided without AWS.
"""
import os

from functools import reduce
from typing import Tuple
from urllib.parse import urlparse

__all__ = ["parse_s3_url", "s3_path_join", "key_under", "files_to_upload", "download_targets"]


def parse_s3_url(url: str) -> Tuple[str, str]:
    """``(bucket, key)`` of ``s3://bucket/key`` (the key without its leading slashes); a ValueError
    for another scheme."""
    parsed_url = urlparse(url)
    if parsed_url.scheme != "s3":
        raise ValueError("Expecting 's3' scheme, got: {} in {}.".format(parsed_url.scheme, url))
    return parsed_url.netloc, parsed_url.path.lstrip("/")


def s3_path_join(*args: str, with_end_slash: bool = False) -> str:
    """The arguments joined by single slashes, empty or None ones skipped: no slash at the start nor
    (unless ``with_end_slash``) at the end, a leading ``"s3://"`` kept.

    ``s3_path_join("s3://", "bucket", "/a//b/", "c")`` is ``"s3://bucket/a/b/c"``.
    """
    delimiter = "/"
    merged_path = ""
    for index, path in enumerate(a for a in args if a is not None and a != ""):
        if index == 0 or merged_path[-1:] == delimiter or path[:1] == delimiter:
            merged_path += path
        else:
            merged_path += delimiter + path
    if with_end_slash and merged_path and merged_path[-1] != delimiter:
        merged_path += delimiter

    def add(sequence, char):
        return sequence if sequence[-1] == delimiter and char == delimiter else sequence + char

    filtered_path = merged_path
    if filtered_path.startswith("s3://"):
        filtered_path = reduce(add, filtered_path[5:], filtered_path[:5])
    elif filtered_path:
        filtered_path = reduce(add, filtered_path)
    filtered_path = filtered_path.lstrip(delimiter)
    if not with_end_slash and filtered_path != "s3://":
        filtered_path = filtered_path.rstrip(delimiter)
    return filtered_path


def key_under(prefix, rest):
    """``{prefix}/{rest}``, without doubling a slash the prefix ends with nor starting with one."""
    return prefix + rest if not prefix or prefix.endswith("/") else prefix + "/" + rest


def files_to_upload(path, key_prefix):
    """``([(local path, key)], file name)`` of what ``upload_data`` sends: one file (and its name), or
    every file under a folder, keyed by its path relative to the folder (and None)."""
    if not os.path.isdir(path):
        name = os.path.basename(path)
        return [(path, key_under(key_prefix, name))], name
    files = []
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames.sort()
        relative = "" if dirpath == path else os.path.relpath(dirpath, start=path).replace(os.sep, "/") + "/"
        for name in sorted(filenames):
            files.append((os.path.join(dirpath, name), key_under(key_prefix, relative + name)))
    return files, None


def download_targets(path, key_prefix, objects):
    """``(folders, [(key, local path)])`` of ``download_data``: each object of ``objects`` (``(key,
    size)``) at its key relative to ``key_prefix`` under ``path`` (at its file name when
    ``key_prefix`` has an extension or is the key itself); an empty object whose key ends with ``/``
    as a folder. A ValueError, before anything is written, if one would land outside ``path``."""
    single_file = bool(os.path.splitext(key_prefix)[1])
    folders, files = [], []
    for key, size in objects:
        if single_file or key == key_prefix:
            tail = os.path.basename(key)
        elif key_prefix:
            tail = os.path.relpath(key, key_prefix)
        else:
            tail = key
        target = os.path.join(path, tail)
        _check_within(target, path, key)
        if key.endswith("/") and int(size) == 0:
            folders.append(target)
        else:
            files.append((key, target))
    return folders, files


def _check_within(target, directory, key):
    root = os.path.realpath(directory)
    real = os.path.realpath(target)
    if real != root and not real.startswith(root + os.sep):
        raise ValueError("Path traversal detected: '%s' resolves to '%s' which is outside the target directory '%s'"
                         % (key, real, root))
