"""THE S3-URI vocabulary: every word for S3 URIs and keys, in one place. Pure: standard library only.

Two readings of a URI, for two uses: :func:`is_s3_uri` / :func:`parse_s3_uri` read a URI the
checks accept (``s3://bucket/key``, the scheme in any case, the key as written), and
:func:`parse_s3_url` / :func:`s3_path_join` are the SageMaker Python SDK v2's public functions
(``sagemaker_hetero.s3``), with its semantics (the key without leading slashes; a ValueError for
another scheme). :func:`s3_key` and :func:`key_under` put keys together.
"""
from functools import reduce
from typing import Tuple
from urllib.parse import urlparse

__all__ = ["is_s3_uri", "parse_s3_uri", "s3_key", "parse_s3_url", "s3_path_join", "key_under"]


def is_s3_uri(value):
    """``s3://bucket[/key]`` with a bucket (the scheme in any case, as the SDK v2 parses it)."""
    return isinstance(value, str) and value[:5].lower() == "s3://" and len(value) > 5 and value[5] != "/"


def parse_s3_uri(uri):
    """``("bucket", "key/prefix")`` of ``s3://bucket/key/prefix`` (the key as written)."""
    bucket, _, key = uri[len("s3://"):].partition("/")
    return bucket, key


def s3_key(*parts):
    """Join S3 key parts with single slashes (empty parts skipped)."""
    parts = [str(p).strip("/") for p in parts if p is not None]
    return "/".join(p for p in parts if p)


def parse_s3_url(url: str) -> Tuple[str, str]:
    """``(bucket, key)`` of ``s3://bucket/key`` (the key without its leading slashes); a ValueError
    for another scheme.

    Parameters
    ----------
    url : str
        The S3 URI.
    """
    parsed_url = urlparse(url)
    if parsed_url.scheme != "s3":
        raise ValueError("Expecting 's3' scheme, got: {} in {}.".format(parsed_url.scheme, url))
    return parsed_url.netloc, parsed_url.path.lstrip("/")


def s3_path_join(*args: str, with_end_slash: bool = False) -> str:
    """The arguments joined by single slashes, empty or None ones skipped: no slash at the start nor
    (unless ``with_end_slash``) at the end, a leading ``"s3://"`` kept.

    ``s3_path_join("s3://", "bucket", "/a//b/", "c")`` is ``"s3://bucket/a/b/c"``.

    Parameters
    ----------
    *args : str
        The parts.
    with_end_slash : bool, default False
        End the path with a slash.
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
