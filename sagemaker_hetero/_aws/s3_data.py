"""Where ``Session.upload_data`` puts a local file and ``Session.download_data`` an object, decided
before any AWS call, as the SageMaker Python SDK v2 decides (standard library only). The S3-URI
vocabulary is ``_request.s3_uris``; these file-walking helpers join the AWS edge in a later step.
"""
import os

from sagemaker_hetero._request.s3_uris import key_under

__all__ = ["files_to_upload", "download_targets"]


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
