"""What a session looks up in AWS once and remembers: the facts a request needs (``_request.plan.Facts``).

:class:`Account` makes the calls that turn a checked job's names into facts: the caller's identity
and account id (STS GetCallerIdentity, once), the default bucket ``sagemaker-{region}-{account}`` (HeadBucket,
created if missing; a 403 told apart by ListBuckets: another account's name, or a permission this
identity lacks), a role's description and a role name's ARN (IAM GetRole, once per name, shared with the preflight) and whether each channel's bucket
exists (HeadBucket, once per bucket, however many threads submit at once). After the first job of
a session a job needs none of these calls. It also says which bucket is the default bucket this
session made up, so that S3 calls on it send ``ExpectedBucketOwner`` (:meth:`Account.expected_owner`).
Every call goes through ``_aws.errors.call``.
"""
import threading

import attrs

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._aws import errors
from sagemaker_hetero._request import plan, s3_uris
from sagemaker_hetero._request.names import default_bucket_name

__all__ = ["Account", "ELSEWHERE"]

#: What to do when the default bucket cannot be used (the CLI says it in its own words).
ELSEWHERE = "Pass Session(default_bucket='a-bucket-you-own') or output_path and code_location."


class Account(object):
    """The look-ups of one session (``clients``: its :class:`~._aws.clients.Clients`) in ``region``;
    ``bucket_name`` is the default bucket's name when one was given (else None: the made-up
    ``sagemaker-{region}-{account}``). Thread-safe."""

    def __init__(self, clients, region, bucket_name=None):
        self.clients = clients
        self.region = region
        self.bucket_name = bucket_name
        #: the account id once looked up (None until then)
        self.known_id = None
        self._caller = None
        self._roles = {}
        self._bucket_ready = set()
        self._role_arns = {}
        self._checked_input_buckets = set()
        self._lock = threading.RLock()

    def id(self):
        """The caller's AWS account id (one STS call per session)."""
        return self.caller_identity()["Account"]

    def caller_identity(self, quick=False):
        """GetCallerIdentity's answer (``Account``, ``Arn``, ``UserId``), asked once per session (``quick``:
        by a single attempt, with short timeouts)."""
        with self._lock:
            if self._caller is None:
                response = errors.call(self.clients.client("sts-quick" if quick else "sts"), "GetCallerIdentity")
                self._caller = dict((k, response.get(k)) for k in ("Account", "Arn", "UserId"))
                self.known_id = response["Account"]
            return dict(self._caller)

    def iam_role(self, name, fresh=False, quick=False):
        """IAM's description of the role ``name`` (GetRole's ``Role``), asked once per session unless ``fresh``
        (``quick``: by a single attempt, with short timeouts)."""
        with self._lock:
            if fresh or name not in self._roles:
                iam = self.clients.client("iam-quick" if quick else "iam")
                self._roles[name] = errors.call(iam, "GetRole", RoleName=name)["Role"]
            return self._roles[name]

    def default_bucket(self):
        """The default bucket's name, created if missing (``sagemaker-{region}-{account}``)."""
        name = self.bucket_name or default_bucket_name(self.region, self.id())
        self._ensure_bucket(name)
        return name

    def facts(self, default_bucket_prefix=None):
        """What is known without a call: the region and what has been looked up so far."""
        with self._lock:
            return plan.Facts(region=self.region, account_id=self.known_id, default_bucket=self.bucket_name,
                              default_bucket_prefix=default_bucket_prefix, role_arns=dict(self._role_arns))

    def looked_up_facts(self, job, default_bucket_prefix=None):
        """The facts ``job``'s request needs, looked up: the account and the default bucket (created if
        missing) when the job uses it, and the role's ARN."""
        bucket = self.default_bucket() if plan.needs_default_bucket(job) else self.bucket_name
        if isinstance(job.role, str):
            self.role_arn(job.role)
        return attrs.evolve(self.facts(default_bucket_prefix), default_bucket=bucket)

    def request_facts(self, job, default_bucket_prefix=None):
        """The facts ``job``'s request is rendered with, looked up without creating anything: the
        account when the default bucket ``sagemaker-{region}-{account}`` is the job's, and the role
        name's ARN (a failure to look it up leaves the ARN the name would have, and is raised by
        :meth:`provision`)."""
        bucket = self.bucket_name
        if bucket is None and plan.needs_default_bucket(job):
            bucket = default_bucket_name(self.region, self.id())
        if isinstance(job.role, str):
            try:
                self.role_arn(job.role)
            except E.AWSError:
                pass  # told by provision, after the preflight's role check
        return attrs.evolve(self.facts(default_bucket_prefix), default_bucket=bucket)

    def provision(self, job):
        """What the account must hold before ``job``'s code is uploaded: its input buckets (a missing
        one is a ``ConfigError``), the default bucket (created if missing) when the job uses it, and its
        role (a role name that cannot be looked up raises here)."""
        self.check_input_buckets(job)
        if plan.needs_default_bucket(job):
            self.default_bucket()
        if isinstance(job.role, str):
            self.role_arn(job.role)

    def role_arn(self, role):
        """The ARN of the role ``role`` (a name, looked up once; an ARN as it is)."""
        if role.startswith("arn:"):
            return role
        with self._lock:
            if role not in self._role_arns:
                try:
                    self._role_arns[role] = self.iam_role(role)["Arn"]
                except E.ResourceNotFoundError as exc:
                    raise exc.hinted(
                        "There is no IAM role named %r in this account; pass the role ARN or create "
                        "a role that trusts sagemaker.amazonaws.com." % role
                    )
            return self._role_arns[role]

    def check_input_buckets(self, job):
        """Refuse channels whose bucket does not exist (each bucket asked about once per session)."""
        problems = []
        s3 = self.clients.client("s3")
        for channel in job.channels:
            if not s3_uris.is_s3_uri(channel.uri):
                continue
            bucket = s3_uris.parse_s3_uri(channel.uri)[0]
            with self._lock:  # one HeadBucket per bucket, however many threads submit at once
                if bucket in self._checked_input_buckets:
                    continue
                try:
                    errors.call(s3, "HeadBucket", Bucket=bucket)
                except E.ResourceNotFoundError:
                    problems.append(E.Problem(channel.arg, "the bucket %r does not exist (or is in no region you can "
                                              "see)" % bucket, channel.uri))
                    continue
                except E.AWSError:
                    pass  # denied, or in another region: the training role may see what we cannot
                self._checked_input_buckets.add(bucket)
        if problems:
            raise E.ConfigError(problems)

    def expected_owner(self, bucket):
        """This account when ``bucket`` is the ``sagemaker-{region}-{account}`` default bucket this
        session named and looked up, else None: S3 calls on it then send ``ExpectedBucketOwner``, as the
        SDK v2 does against someone else owning that predictable name. A bucket you named yourself
        (``default_bucket=``, the SDK defaults configuration) may be another account's, and is not checked."""
        with self._lock:
            return self._made_up_owner(bucket) if bucket in self._bucket_ready else None

    def _made_up_owner(self, bucket):
        """This account when ``bucket`` is the default bucket name this session made up
        (``sagemaker-{region}-{account}``, no ``default_bucket`` given), else None."""
        with self._lock:
            if not bucket or self.bucket_name is not None or self.known_id is None:
                return None
            return self.known_id if bucket == default_bucket_name(self.region, self.known_id) else None

    def _ensure_bucket(self, name):
        with self._lock:
            if name in self._bucket_ready:
                return
            s3 = self.clients.client("s3")
            params = {"Bucket": name}
            owner = self._made_up_owner(name)
            if owner:  # a name anyone can guess: S3 answers 403 if another account holds it
                params["ExpectedBucketOwner"] = owner
            try:
                errors.call(s3, "HeadBucket", **params)
            except E.ResourceNotFoundError:
                self._create_bucket(name)
            except E.AccessDeniedError as exc:
                raise self._bucket_denied(name, exc)
            self._bucket_ready.add(name)

    def _bucket_denied(self, name, exc):
        """The error for a 403 from HeadBucket on the default bucket: another account owns the name, or
        this identity may not use a bucket of its own account. ListBuckets (this account's buckets) tells
        which, when the identity may call it."""
        try:
            listed = errors.call(self.clients.client("s3"), "ListBuckets", Prefix=name)
        except E.AWSError:
            return exc.hinted(
                "The bucket %s exists, but this identity may not use it: either another account owns the name, or "
                "this identity lacks s3:ListBucket on it (and s3:ListAllMyBuckets, which would tell which). %s"
                % (name, ELSEWHERE))
        if any(bucket.get("Name") == name for bucket in listed.get("Buckets") or ()):
            return exc.hinted(
                "The bucket %s is this account's, but this identity may not use it: HeadBucket needs s3:ListBucket "
                "on it (and the upload s3:PutObject). Grant those, or: %s" % (name, ELSEWHERE))
        return exc.hinted(
            "The bucket %s exists but belongs to another AWS account (it is not among this account's buckets). %s"
            % (name, ELSEWHERE),
            cls=E.BucketOwnedByOtherAccountError,
        )

    def _create_bucket(self, name):
        params = {"Bucket": name}
        if self.region != "us-east-1":
            params["CreateBucketConfiguration"] = {"LocationConstraint": self.region}
        try:
            errors.call(self.clients.client("s3"), "CreateBucket", **params)
        except E.AWSError as exc:
            if exc.code == "BucketAlreadyOwnedByYou":
                return
            if exc.code == "BucketAlreadyExists":
                raise exc.hinted(
                    "The default bucket name %s belongs to another AWS account. %s" % (name, ELSEWHERE),
                    cls=E.BucketOwnedByOtherAccountError,
                )
            raise
