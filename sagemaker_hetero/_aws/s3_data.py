"""S3 data: the work behind ``Session.upload_data``, ``download_data``, ``read_s3_file``,
``list_s3_files`` and ``upload_string_as_file_body`` (``sagemaker_hetero.s3`` calls those by URI).

Where a local file goes and where an object lands are decided before any AWS call, as the SageMaker
Python SDK v2 decides (:func:`files_to_upload`, :func:`download_targets`: a key that would land
outside the target folder is refused before anything is written). :class:`S3Data` then makes the
calls, through ``errors.call`` (boto3's managed transfers for files: multipart when large), with
``ExpectedBucketOwner`` on the default bucket a session made up. The S3-URI vocabulary is
``_request.s3_uris``.
"""
import os

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._aws import errors
from sagemaker_hetero._request.s3_uris import key_under

__all__ = ["S3Data", "files_to_upload", "download_targets", "listed", "MAX_LIST_PAGES", "MAX_EMPTY_LIST_PAGES"]

LOGGER = E.logger()  # its records shown (exceptions.shown)
#: ListObjectsV2 pages one listing reads (1,000 objects a page: 10 million objects), and empty pages in a
#: row: an endpoint that gives a next page without end makes the listing fail, saying so, never loop.
MAX_LIST_PAGES = 10000
MAX_EMPTY_LIST_PAGES = 100


def listed(call, params):
    """``[(key, size)]`` of every object ListObjectsV2 lists for ``params``, page after page (``call(**page)``
    makes the call). Raises ``AWSError`` when the pages go on past ``MAX_LIST_PAGES`` (or
    ``MAX_EMPTY_LIST_PAGES`` empty ones in a row): a part of a listing is never taken for the whole."""
    objects, token, empty, pages = [], None, 0, 0
    while pages < MAX_LIST_PAGES and empty < MAX_EMPTY_LIST_PAGES:
        response = call(**(dict(params, ContinuationToken=token) if token else params))
        page = [(o["Key"], o.get("Size") if isinstance(o.get("Size"), int) else 0)
                for o in response.get("Contents") or () if isinstance(o, dict) and isinstance(o.get("Key"), str)]
        objects.extend(page)
        pages, empty = pages + 1, 0 if page else empty + 1
        token = response.get("NextContinuationToken")
        if not token or not isinstance(token, str) or response.get("IsTruncated") is False:
            return objects
    raise E.AWSError(
        "ListObjectsV2 of s3://%s/%s kept giving a next page after %d pages (%d objects, the last %d pages empty); "
        "not read further" % (params.get("Bucket"), params.get("Prefix") or "", pages, len(objects), empty),
        code="TooManyPages", operation="ListObjectsV2",
        hint="List a narrower prefix; if AWS_ENDPOINT_URL (or endpoint_url) is set, check what it points at.")


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
                         % (E.shown(key), E.shown(real), root))  # a key S3 listed: text in a traceback


class S3Data(object):
    """The S3 data operations of a session (``clients``), the owner of its buckets known to ``account``."""

    def __init__(self, clients, account):
        self.clients = clients
        self.account = account

    def upload(self, path, bucket, key_prefix, callback=None, extra_args=None):
        """Upload the file or folder ``path`` under ``key_prefix``: ``s3://{bucket}/{key_prefix}/{file
        name}`` for a file, ``s3://{bucket}/{key_prefix}`` for a folder."""
        files, file_name = files_to_upload(path, key_prefix)
        owner = self.account.expected_owner(bucket)
        if owner:
            extra_args = dict(extra_args or {}, ExpectedBucketOwner=owner)
        for local_path, key in files:
            self._upload_file(local_path, bucket, key, callback, extra_args)
        if file_name is not None:
            return "s3://%s/%s" % (bucket, key_under(key_prefix, file_name))
        return "s3://{}/{}".format(bucket, key_prefix)

    def put_string(self, body, bucket, key, kms_key=None):
        """Write ``body`` to ``s3://{bucket}/{key}`` (encrypted with ``kms_key`` if given); that URI."""
        params = {"Bucket": bucket, "Key": key, "Body": body}
        if kms_key is not None:
            params.update(SSEKMSKeyId=kms_key, ServerSideEncryption="aws:kms")
        owner = self.account.expected_owner(bucket)
        if owner:
            params["ExpectedBucketOwner"] = owner
        errors.call(self.clients.client("s3"), "PutObject", **params)
        return "s3://{}/{}".format(bucket, key)

    def download(self, path, bucket, key_prefix, extra_args=None):
        """Download every object whose key starts with ``key_prefix`` into the folder ``path``
        (:func:`download_targets`); the local paths written."""
        s3 = self.clients.client("s3")
        owner = self.account.expected_owner(bucket)
        params = {"Bucket": bucket, "Prefix": key_prefix}
        if owner:
            params["ExpectedBucketOwner"] = owner
        objects = self._objects(params)
        if not objects:
            LOGGER.info("Nothing to download from bucket: %s, key_prefix: %s.", bucket, key_prefix)
            return []
        directories, files = download_targets(path, key_prefix, objects)
        download_args = dict(extra_args or {})
        if owner:
            download_args["ExpectedBucketOwner"] = owner
        for directory in directories:
            os.makedirs(directory, exist_ok=True)
        downloaded = []
        for key, destination in files:
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            errors.call(s3, "DownloadFile", Bucket=bucket, Key=key, Filename=destination,
                        ExtraArgs=download_args or None)
            downloaded.append(destination)
        return downloaded

    def read(self, bucket, key):
        """The body of the object ``s3://{bucket}/{key}``, decoded as UTF-8."""
        params = {"Bucket": bucket, "Key": key}
        owner = self.account.expected_owner(bucket)
        if owner:
            params["ExpectedBucketOwner"] = owner
        response = errors.call(self.clients.client("s3"), "GetObject", **params)
        return response["Body"].read().decode("utf-8")

    def keys(self, bucket, key_prefix):
        """The keys of the objects in ``bucket`` that start with ``key_prefix``."""
        return [key for key, _ in self._objects({"Bucket": bucket, "Prefix": key_prefix})]

    def _objects(self, params):
        """``[(key, size)]`` of every object ListObjectsV2 lists for ``params`` (:func:`listed`)."""
        s3 = self.clients.client("s3")
        return listed(lambda **page: errors.call(s3, "ListObjectsV2", **page), params)

    def _upload_file(self, local_path, bucket, key, callback, extra_args):
        """One managed upload (boto3's transfer: multipart when large), its errors translated."""
        import boto3.exceptions

        try:
            errors.call(self.clients.client("s3"), "UploadFile", Filename=local_path, Bucket=bucket, Key=key,
                        Callback=callback, ExtraArgs=extra_args)
        except boto3.exceptions.S3UploadFailedError as exc:
            # boto3 wraps the failed request's ClientError; the one translator reads that
            cause = exc.__context__ if exc.__context__ is not None else exc
            raise errors.translate(cause, "UploadFile") from errors.quieted(exc)
