"""Uploads to and downloads from S3 by URI, as the SageMaker Python SDK v2's ``sagemaker.s3``.

``S3Uploader`` and ``S3Downloader`` are thin: each parses the URI and calls the session's
``upload_data``, ``upload_string_as_file_body``, ``download_data``, ``read_s3_file`` or
``list_s3_files`` (``sagemaker_hetero.session.Session``), so every AWS call goes through the
session. Without ``sagemaker_session`` they create a ``Session()``. Which key a local file gets and
where a downloaded object lands is decided without AWS (``_aws.s3_data``, ``_request.s3_uris``).
Importing this module does not import boto3.
"""
from typing import Any, Callable, List, Optional

from sagemaker_hetero._request.s3_uris import parse_s3_url, s3_path_join

__all__ = ["S3Uploader", "S3Downloader", "s3_path_join", "parse_s3_url"]

_KMS = "aws:kms"


def _session(sagemaker_session):
    if sagemaker_session:
        return sagemaker_session
    from sagemaker_hetero.session import Session  # imports boto3: only when a session is needed

    return Session()


class S3Uploader(object):
    """Uploads a local file or folder, or a string, to an S3 URI."""

    @staticmethod
    def upload(
        local_path: str,
        desired_s3_uri: str,
        kms_key: Optional[str] = None,
        sagemaker_session: Optional[Any] = None,
        callback: Optional[Callable[[int], Any]] = None,
    ) -> str:
        """Upload a file, or a folder with everything under it; the S3 URI of the file, or of the
        folder's prefix (``Session.upload_data``).

        Parameters
        ----------
        local_path : str
            The file or folder.
        desired_s3_uri : str
            The S3 prefix it goes under.
        kms_key : str, optional
            The KMS key to encrypt it with.
        sagemaker_session : Session, optional
            The session (default: a new ``Session()``).
        callback : callable, optional
            Called with the number of bytes sent, chunk by chunk.
        """
        session = _session(sagemaker_session)
        bucket, key_prefix = parse_s3_url(url=desired_s3_uri)
        extra_args = {"SSEKMSKeyId": kms_key, "ServerSideEncryption": _KMS} if kms_key is not None else None
        return session.upload_data(
            path=local_path, bucket=bucket, key_prefix=key_prefix, callback=callback, extra_args=extra_args
        )

    @staticmethod
    def upload_string_as_file_body(
        body: str,
        desired_s3_uri: Optional[str] = None,
        kms_key: Optional[str] = None,
        sagemaker_session: Optional[Any] = None,
    ) -> str:
        """Write a string to an S3 object, and return the object's URI.

        Parameters
        ----------
        body : str
            The object's content.
        desired_s3_uri : str
            The object's URI.
        kms_key : str, optional
            The KMS key to encrypt it with.
        sagemaker_session : Session, optional
            The session (default: a new ``Session()``).
        """
        session = _session(sagemaker_session)
        bucket, key = parse_s3_url(desired_s3_uri)
        session.upload_string_as_file_body(body=body, bucket=bucket, key=key, kms_key=kms_key)
        return desired_s3_uri


class S3Downloader(object):
    """Downloads, reads and lists what is under an S3 URI."""

    @staticmethod
    def download(
        s3_uri: str,
        local_path: str,
        kms_key: Optional[str] = None,
        sagemaker_session: Optional[Any] = None,
    ) -> List[str]:
        """Download every object under an S3 URI into a folder; the local paths (``Session.download_data``).

        Parameters
        ----------
        s3_uri : str
            The S3 prefix (or object).
        local_path : str
            The folder.
        kms_key : str, optional
            Accepted and not sent: S3 decrypts an object it encrypted with a KMS key for any caller
            allowed to use the key (docs/migrating.md).
        sagemaker_session : Session, optional
            The session (default: a new ``Session()``).
        """
        session = _session(sagemaker_session)
        bucket, key_prefix = parse_s3_url(url=s3_uri)
        return session.download_data(path=local_path, bucket=bucket, key_prefix=key_prefix)

    @staticmethod
    def read_file(s3_uri: str, sagemaker_session: Optional[Any] = None) -> str:
        """The body of an S3 object, decoded as UTF-8.

        Parameters
        ----------
        s3_uri : str
            The object's URI.
        sagemaker_session : Session, optional
            The session (default: a new ``Session()``).
        """
        session = _session(sagemaker_session)
        bucket, object_key = parse_s3_url(url=s3_uri)
        return session.read_s3_file(bucket=bucket, key_prefix=object_key)

    @staticmethod
    def list(s3_uri: str, sagemaker_session: Optional[Any] = None) -> List[str]:
        """The S3 URIs of the objects whose keys start with the key of an S3 URI.

        Parameters
        ----------
        s3_uri : str
            The S3 prefix.
        sagemaker_session : Session, optional
            The session (default: a new ``Session()``).
        """
        session = _session(sagemaker_session)
        bucket, key_prefix = parse_s3_url(url=s3_uri)
        file_keys = session.list_s3_files(bucket=bucket, key_prefix=key_prefix)
        return [s3_path_join("s3://", bucket, file_key) for file_key in file_keys]
