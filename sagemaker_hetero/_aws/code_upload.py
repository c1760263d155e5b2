"""The code archive at its content address in S3, an object there trusted only by what S3 computed.

:func:`store` puts an archive at ``{prefix}/code/{sha256}/sourcedir.tar.gz`` (D6) with
``If-None-Match: *`` and a SHA-256 checksum (``ChecksumAlgorithm="SHA256"``: S3 checks the bytes
against it and keeps it), whole or in parts. An object already at the key is reused only when the
checksum S3 keeps for it (``HeadObject`` with ``ChecksumMode="ENABLED"``) is the one these bytes
get, whole or in the parts it was stored in; caller metadata and the key's name prove nothing, as
anyone who may write to the prefix can put anything at a key they can compute. An object S3 keeps
no SHA-256 checksum for is put again over (``If-Match`` its ETag) when its ETag is these bytes'
(this archive, uploaded without a checksum by an older version); any other object, or one this
identity may not read, stops the submission with an error naming the key, what was found and what
to do, and is left as it is. Every call goes through :func:`sagemaker_hetero._aws.errors.call`.

:class:`CodeArchives` is a session's side: the archive's digest (for the request's code key, the
archive built once per tree as scanned) and its upload, once per key per session.
"""
import base64
import threading

from sagemaker_hetero._aws import errors
from sagemaker_hetero._aws import code_archive
from sagemaker_hetero._model import archive
from sagemaker_hetero._request import s3_uris
from sagemaker_hetero import exceptions as E

__all__ = ["MULTIPART_THRESHOLD", "MULTIPART_CHUNKSIZE", "KEPT_ARCHIVES", "CodeArchives", "part_size", "store"]

LOGGER = E.logger()  # its records shown (exceptions.shown)

#: A code archive larger than this goes up in parts (S3 multipart upload), else in one PutObject.
MULTIPART_THRESHOLD = 256 * 1024 * 1024
#: The size of each part (S3: at least 5 MiB, at most 10,000 parts; larger archives get larger parts).
MULTIPART_CHUNKSIZE = 16 * 1024 * 1024
#: How many built code archives a session keeps until their upload (more are built again when needed).
KEPT_ARCHIVES = 4
_MIN_PART = 5 * 1024 * 1024
_MAX_PARTS = 10000
# What an object at the key is: these bytes by S3's SHA-256 checksum; these bytes by their ETag only
# (no SHA-256 checksum kept: put them again, with one); anything else.
_SAME, _UNCHECKED, _OTHER = "same", "unchecked", "other"
_KEEP_HINT = ("It is never overwritten, and no job runs it: delete it (the next submission uploads this archive again, with "
              "its checksum), or set code_location to another prefix.")


def part_size(size, threshold, chunksize):
    """The part size for an upload of ``size`` bytes: None (one PutObject) up to ``threshold``, else
    ``chunksize``, at least S3's minimum, and large enough for S3's 10,000 parts."""
    return None if size <= threshold else max(chunksize, _MIN_PART, -(-size // _MAX_PARTS))


class CodeArchives(object):
    """A session's code archives, uploaded through ``clients`` to keys whose owner ``account`` knows.

    :meth:`digest` scans a job's code tree (one ``stat`` per entry) and builds the archive only when the
    scan differs from every earlier one of this session, keeping the built archive (up to
    ``KEPT_ARCHIVES``, the oldest dropped) until its upload; :meth:`upload` puts it at its content
    address (:func:`store`) unless this session has stored it already. Thread-safe: one upload at a
    time, the others find the archive stored."""

    def __init__(self, clients, account):
        self.clients = clients
        self.account = account
        self._digests = {}  # (ignored names, the scan's signature) -> SHA-256
        self._built = {}  # SHA-256 -> (body, size): built, not uploaded yet
        self._stored = set()  # (bucket, key): known to hold its archive, nothing to send
        self._lock = threading.Lock()
        self._upload_lock = threading.Lock()

    def digest(self, job, ignore):
        """The SHA-256 of ``job``'s code archive without the names ``ignore`` (its key's content
        address), or None when it ships no archive to upload."""
        code = job.code
        if code is None or code.in_s3:
            return None
        entries = code_archive.scan(code, ignore)
        key = (ignore, archive.signature(entries))
        with self._lock:
            found = self._digests.get(key)
        if found is not None:
            return found
        body, size = code_archive.write_archive(entries)
        digest = archive.digest(body)
        with self._lock:
            self._digests[key] = digest
            if digest in self._built:
                body.close()
            else:
                self._built[digest] = (body, size)
                while len(self._built) > KEPT_ARCHIVES:  # the oldest goes; rebuilt if needed
                    self._built.pop(next(iter(self._built)))[0].close()
        return digest

    def upload(self, plan, ignore, threshold, chunksize):
        """Put the plan's code archive where the plan says (in parts of ``chunksize`` bytes above
        ``threshold``), unless it is known to be there (nothing to do without code, or with code
        already in S3). An archive that is no longer the one the plan names is a ConfigError."""
        if plan.code is None or not plan.code.upload:
            return
        bucket, key = s3_uris.parse_s3_uri(plan.code.s3_uri)
        with self._upload_lock:  # one upload of an archive at a time: the others find it stored
            if (bucket, key) in self._stored:
                return
            with self._lock:
                body, size = self._built.pop(plan.code_digest, (None, None))
            if body is None:
                body, size = code_archive.build_archive(plan.job.code, ignore)
            try:
                if plan.code_digest is not None and archive.digest(body) != plan.code_digest:
                    raise E.ConfigError([E.Problem(
                        "source_dir" if plan.job.code.source_dir else "entry_point",
                        "changed while the job was being submitted (its archive is no longer the one the request "
                        "names); submit again")])
                self._put(plan, body, size, part_size(size, threshold, chunksize))
            finally:
                body.close()
            self._stored.add((bucket, key))

    def _put(self, plan, body, size, part):
        """Put the code archive at its key (its content address), never over an object that is there
        already, unless S3's checksums show that object is these bytes (:func:`store`)."""
        bucket, key = s3_uris.parse_s3_uri(plan.code.s3_uri)
        expected = self.account.expected_owner(bucket)
        target = (bucket, key, {"ExpectedBucketOwner": expected} if expected else {})
        digest = plan.code_digest or archive.digest(body)
        store(self.clients.client("s3"), target, body, size, part, digest, job_name=plan.job_name)


def store(s3, target, body, size, part, digest, job_name=None):
    """Put ``body`` (``size`` bytes, SHA-256 ``digest`` in hex) at ``target`` (bucket, key, extra
    parameters such as ``ExpectedBucketOwner``), in parts of ``part`` bytes (None: whole), unless
    S3 shows the object there is these bytes. In parts, the object is looked for first, so that no
    part is sent for an archive that is there."""
    head = _head(s3, target) if part is not None else None
    if head is None:
        try:
            return _send(s3, target, body, part, digest, {"IfNoneMatch": "*"})
        except E.AWSError as exc:
            if exc.code != "PreconditionFailed":
                raise
        head = _head(s3, target, there=True)
    found = _compare(s3, target, head, body, size, part)
    if found == _SAME:
        return None
    if found == _OTHER:
        raise _other_bytes(target, head, size, digest, job_name)
    LOGGER.info("s3://%s/%s holds this code archive (by its ETag) without a SHA-256 checksum (an upload of an "
                "older sagemaker-hetero): putting it again, with its checksum.", target[0], target[1])
    try:
        return _send(s3, target, body, part, digest, {"IfMatch": head["ETag"]})
    except E.AWSError as exc:
        if exc.code != "PreconditionFailed":
            raise
        raise exc.hinted("s3://%s/%s changed while it was being checked; submit again." % target[:2],
                         job_name=job_name)


def _head(s3, target, there=False):
    """HeadObject (with S3's checksum) of the object at ``target``; None if there is none or, unless
    S3 said it is ``there``, if it cannot be read (HeadObject answers 403 for a missing key to an
    identity without s3:ListBucket). An object that is there and cannot be read is an error: its
    checksum cannot be compared."""
    bucket, key, extra = target
    try:
        return errors.call(s3, "HeadObject", Bucket=bucket, Key=key, ChecksumMode="ENABLED", **extra)
    except E.ResourceNotFoundError as exc:
        if not there:
            return None
        raise exc.hinted("s3://%s/%s was there (S3 refused to write over it) and is gone: submit again."
                         % (bucket, key))
    except E.AccessDeniedError as exc:
        if not there:
            return None
        raise exc.hinted(
            "s3://%s/%s is there (S3 refused to write over it), and this identity may not read it, so the SHA-256 "
            "checksum S3 keeps for it cannot be compared with this code archive's: no job runs it. Grant "
            "s3:GetObject on the code prefix (and kms:Decrypt when the bucket encrypts with KMS), or set "
            "code_location to another prefix." % (bucket, key))


def _compare(s3, target, head, body, size, part):
    """What the object ``head`` describes is (_SAME, _UNCHECKED or _OTHER), by S3's SHA-256 checksum
    of it when it has one, else by its ETag."""
    if head.get("ContentLength") not in (None, size):
        return _OTHER
    if head.get("ChecksumSHA256"):
        return _SAME if _matches(s3, target, head, "ChecksumSHA256", body, part, archive.s3_checksum) else _OTHER
    return _UNCHECKED if _matches(s3, target, head, "ETag", body, part, archive.s3_etag) else _OTHER


def _matches(s3, target, head, field, body, part, compute):
    """Whether ``head[field]`` (S3's checksum or ETag) is what ``compute(body, part size)`` gives these
    bytes as S3 stored them: whole, or in as many parts as its ``-N`` says, of ``part`` bytes or of
    the size of the object's first part (asked for only when ``part`` does not give it)."""
    stored = head.get(field, "").strip('"')
    parts = _parts(stored) or _parts(head.get("ETag", "").strip('"'))
    if parts is None:
        return compute(body, None) == stored
    tried = None
    if part and -(-head.get("ContentLength", 0) // part) == parts:
        tried = part
        if _same_value(compute(body, part), stored):
            return True
    bucket, key, extra = target
    first = errors.call(s3, "HeadObject", Bucket=bucket, Key=key, PartNumber=1, **extra)["ContentLength"]
    return first != tried and first > 0 and _same_value(compute(body, first), stored)


def _parts(value):
    """The N of a value ending in ``-N`` (an object stored in N parts), else None."""
    count = value.rpartition("-")[2] if "-" in value else ""
    return int(count) if count.isdigit() else None


def _same_value(computed, stored):
    """Whether ``stored`` is ``computed``; a composite value's ``-N`` may be left out of an answer
    (moto leaves it out; the digest is of every part's digest all the same)."""
    return stored in (computed, computed.rpartition("-")[0])


def _other_bytes(target, head, size, digest, job_name):
    bucket, key = target[:2]
    ours = "this archive's %s (%d bytes)" % (base64.b64encode(bytes.fromhex(digest)).decode("ascii"), size)
    if head.get("ChecksumSHA256"):
        found = "the SHA-256 checksum S3 keeps for it is %s (%s bytes), %s" % (
            head["ChecksumSHA256"], head.get("ContentLength"), ours)
    else:
        found = ("S3 keeps no SHA-256 checksum for it (it was put there without one) and its ETag %s (%s bytes) is "
                 "not this archive's" % (head.get("ETag", "").strip('"'), head.get("ContentLength")))
    return E.AWSError(
        "s3://%s/%s holds other bytes than the code archive whose SHA-256 names it: %s" % (bucket, key, found),
        code="PreconditionFailed", operation="PutObject", job_name=job_name, hint=_KEEP_HINT)


def _send(s3, target, body, part, digest, condition):
    """One PutObject (``part`` None) or a multipart upload of ``body`` with its SHA-256 checksum, and
    ``condition`` (``IfNoneMatch`` or ``IfMatch``) on the request that makes the object appear."""
    bucket, key, extra = target
    body.seek(0)
    try:
        if part is None:
            checksum = base64.b64encode(bytes.fromhex(digest)).decode("ascii")
            errors.call(s3, "PutObject", Bucket=bucket, Key=key, Body=body, ChecksumAlgorithm="SHA256",
                        ChecksumSHA256=checksum, **dict(extra, **condition))
        else:
            _put_in_parts(s3, target, body, part, condition)
    except E.AWSError as exc:
        if exc.code == "NoSuchBucket":
            raise exc.hinted("The code bucket %r does not exist; create it or change output_path/code_location."
                             % bucket)
        raise


def _put_in_parts(s3, target, body, part, condition):
    """A multipart upload with a SHA-256 checksum on each part, each call through the translator;
    aborted if anything fails, so no parts are left to pay for. ``condition`` goes on
    CompleteMultipartUpload (S3 honours If-None-Match and If-Match there)."""
    bucket, key, extra = target
    upload = errors.call(s3, "CreateMultipartUpload", Bucket=bucket, Key=key, ChecksumAlgorithm="SHA256",
                         **extra)
    ids = dict(extra, Bucket=bucket, Key=key, UploadId=upload["UploadId"])
    try:
        parts = []
        for number in range(1, _MAX_PARTS + 1):
            chunk = body.read(part)
            if not chunk:
                break
            checksum = archive.checksum_of(chunk)
            answer = errors.call(s3, "UploadPart", PartNumber=number, Body=chunk, ChecksumAlgorithm="SHA256",
                                 ChecksumSHA256=checksum, **ids)
            parts.append({"PartNumber": number, "ETag": answer["ETag"], "ChecksumSHA256": checksum})
        errors.call(s3, "CompleteMultipartUpload", MultipartUpload={"Parts": parts}, **dict(ids, **condition))
    except BaseException:
        try:
            errors.call(s3, "AbortMultipartUpload", **ids)
        except E.AWSError as exc:
            LOGGER.warning("Could not abort the multipart upload %s of s3://%s/%s (%s); a bucket lifecycle rule "
                           "(AbortIncompleteMultipartUpload) removes such parts.", ids["UploadId"], bucket, key, exc)
        raise
