"""``_request.s3_uris``: every word for S3 URIs and keys."""
import pytest

from sagemaker_hetero._request import s3_uris as S


@pytest.mark.parametrize("value, is_uri", [("s3://b", True), ("S3://b/k", True), ("s3://", False), ("s3:///k", False),
                                           ("https://b/k", False), (None, False), (3, False)])
def test_is_s3_uri(value, is_uri):
    assert S.is_s3_uri(value) is is_uri


@pytest.mark.parametrize("uri, parts", [("s3://b/k/p", ("b", "k/p")), ("s3://b", ("b", "")), ("s3://b//k", ("b", "/k"))])
def test_parse_s3_uri_keeps_the_key_as_written(uri, parts):
    assert S.parse_s3_uri(uri) == parts


@pytest.mark.parametrize("url, parts", [("s3://b/k/p", ("b", "k/p")), ("s3://b//k", ("b", "k"))])
def test_parse_s3_url_as_the_sdk_v2(url, parts):
    assert S.parse_s3_url(url) == parts


def test_parse_s3_url_refuses_another_scheme():
    with pytest.raises(ValueError, match="Expecting 's3' scheme, got: https"):
        S.parse_s3_url("https://b/k")


@pytest.mark.parametrize("parts, key", [(("a", "b"), "a/b"), (("/a/", None, "", "b/"), "a/b"), ((None,), ""), (("a", 3), "a/3")])
def test_s3_key(parts, key):
    assert S.s3_key(*parts) == key


@pytest.mark.parametrize("args, end_slash, path", [
    (("s3://", "bucket", "/a//b/", "c"), False, "s3://bucket/a/b/c"),
    (("a", "", None, "b"), False, "a/b"),
    (("a", "b"), True, "a/b/"),
    (("s3://",), False, "s3://"),
])
def test_s3_path_join(args, end_slash, path):
    assert S.s3_path_join(*args, with_end_slash=end_slash) == path


@pytest.mark.parametrize("prefix, rest, key", [("", "k", "k"), ("p/", "k", "p/k"), ("p", "k", "p/k")])
def test_key_under(prefix, rest, key):
    assert S.key_under(prefix, rest) == key
