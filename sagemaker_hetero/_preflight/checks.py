"""The six checks of a preflight, each asking AWS what its subjects need and judging the answers.

Each check takes a :class:`Context` and returns findings; every call goes through the context's
:class:`ask.Asker` (or a session method, through :meth:`ask.Asker.through`), what a check reads from
an answer is read inside the call (an answer without it is unanswered too), and an unanswered call
becomes an "unknown" finding naming the permission. The session's :class:`state.State` keeps
what a later job can use (see its docstring), the calls that could not be answered too; the
quota-name map comes from the session, the file (``cache``), or ListServiceQuotas, in that order.
"""
import attrs

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._preflight import cache, judge, quotas, read as R
from sagemaker_hetero._preflight.ask import Unanswered
from sagemaker_hetero._preflight.report import (ACTIONS, IMAGE, KMS, OK, PROBLEM, QUOTAS, ROLE, S3, VPC, Finding,
                                                unknown)
from sagemaker_hetero._preflight.subjects import ecr_image, key_region, role_name

__all__ = ["Context", "CHECKERS", "quota_codes", "MAX_PAGES"]

#: At most this many pages of a listing are read (ListServiceQuotas, ListTrainingJobs).
MAX_PAGES = 100
_DECISIONS = ("allowed", "explicitDeny", "implicitDeny")
_PASSED = [{"ContextKeyName": "iam:PassedToService", "ContextKeyValues": [judge.SAGEMAKER], "ContextKeyType": "string"}]


@attrs.define
class Context(object):
    """One preflight: the session, its asker and state, the job's subjects, the caller's identity
    (GetCallerIdentity's answer, or the :class:`Unanswered` that kept it) and ``now`` (epoch seconds)."""

    session = attrs.field()
    asker = attrs.field()
    state = attrs.field()
    subjects = attrs.field()
    identity = attrs.field()
    now = attrs.field()
    fresh = attrs.field(factory=set)  # quota codes whose value was asked in this preflight
    counted = attrs.field(default=False)  # the use was counted in this preflight

    @property
    def region(self):
        return self.subjects.region


def _pages(ask, permission):
    """Every item of a listing, ``ask(token)`` answering one page as ``(items, next token)``; a listing
    still paging after :data:`MAX_PAGES` pages is :class:`Unanswered` (``permission``'s call): a part of
    it would be judged as the whole."""
    items, token = [], None
    for _ in range(MAX_PAGES):
        page, following = ask(token)
        items.extend(page)
        if not following or following == token:
            return items
        token = following
    raise Unanswered(permission, "still paging after %d pages of %d items; not read further" % (MAX_PAGES, len(items)))


def _page(key, read):
    """What a listing's page answers: ``([read(item) for each item under key], NextToken)``."""
    return lambda answer: ([read(item) for item in answer.get(key) or ()], answer.get("NextToken"))


def quota_codes(ctx):
    """``{quota name: code}`` of SageMaker in the job's region (the session's, the file's, or listed:
    the values listed are kept too)."""
    state = ctx.state
    if state.codes is None:
        codes = cache.read(ctx.region, ctx.now)
        if codes is None:
            listed = state.asked(("ListServiceQuotas",), lambda: _pages(lambda token: ctx.asker.call(
                "service-quotas", "ListServiceQuotas", read=_page("Quotas", R.quota_item), MaxResults=100,
                **dict(quotas.SERVICE, **({"NextToken": token} if token else {}))),
                ACTIONS[("service-quotas", "ListServiceQuotas")]))
            codes = dict((name, code) for name, code, _ in listed)
            for _, code, value in listed:
                if value is not None:
                    state.values[code] = value
                    ctx.fresh.add(code)
            if codes:  # an empty listing (an emulator's) is not kept for a day
                cache.write(ctx.region, codes, ctx.now)
        state.codes = codes
    return state.codes


def _use(ctx):
    """``{quota name: instances}`` of the account's training jobs in progress (each described once per
    session while in progress)."""
    names = ctx.state.asked(("ListTrainingJobs",), lambda: _pages(lambda token: ctx.asker.call(
        "sagemaker", "ListTrainingJobs", read=_page("TrainingJobSummaries", R.job_name),
        StatusEquals="InProgress", MaxResults=100, **({"NextToken": token} if token else {})),
        ACTIONS[("sagemaker", "ListTrainingJobs")]))
    described, use = {}, {}
    for name in names:
        counts = ctx.state.described.get(name)
        if counts is None:
            counts = ctx.asker.call("sagemaker", "DescribeTrainingJob", missing=(E.ResourceNotFoundError,),
                                    read=lambda desc: quotas.in_use([desc]), TrainingJobName=name)
            if isinstance(counts, judge.Missing):
                continue  # ended and gone since it was listed
        described[name] = counts
        for quota, count in counts.items():
            use[quota] = use.get(quota, 0) + count
    ctx.state.described = described
    ctx.state.counted(use)
    ctx.counted = True
    return use


def _judged(ctx, needs, codes, again):
    """The findings of ``needs``; ``again``: ask for what was remembered rather than asked in this run."""
    use, gap = (None if again and not ctx.counted else ctx.state.use()), None
    if use is None and any(n.counted and n.name in codes for n in needs):
        try:  # jobs in progress that could not be counted are not asked about again in this session
            use = ctx.state.asked(("jobs in progress",), lambda: _use(ctx))
        except Unanswered as exc:
            gap = (exc.permission, exc.why)
    out = []
    for need in needs:
        code = codes.get(need.name)
        if code is None:
            out.append(unknown(QUOTAS, need.name, None, "Service Quotas lists no such SageMaker quota in %s (is the "
                                                        "instance type offered for training there?)" % ctx.region))
            continue
        if code not in ctx.fresh and (again or code not in ctx.state.values):
            try:
                value = ctx.state.asked(("GetServiceQuota", code), lambda: ctx.asker.call(
                    "service-quotas", "GetServiceQuota", read=lambda answer: R.quota_value(answer["Quota"]["Value"]),
                    QuotaCode=code, **quotas.SERVICE))
            except Unanswered as exc:
                out.append(unknown(QUOTAS, need.name, exc.permission, exc.why))
                continue
            ctx.state.values[code] = value
            ctx.fresh.add(code)
        out.append(quotas.judge(need, code, ctx.state.values[code], use, ctx.region, gap))
    return out


def check_quotas(ctx):
    needs = quotas.needs(ctx.subjects.job)
    if not needs:
        return []
    try:
        codes = quota_codes(ctx)
    except Unanswered as exc:
        return [unknown(QUOTAS, n.name, exc.permission, exc.why) for n in needs]
    findings = _judged(ctx, needs, codes, again=False)
    if any(f.result == PROBLEM for f in findings):  # told only from fresh answers
        findings = _judged(ctx, needs, codes, again=True)
    return findings


def _principal(ctx, identity, subject):
    """``(ARN to simulate, None)`` for the caller, or ``(None, finding)`` when no simulation is needed
    or possible: an assumed role's ARN is its role's, with the role's path (from IAM)."""
    arn = identity.get("Arn")
    if not isinstance(arn, str):
        return None, unknown(ROLE, subject, "sts:GetCallerIdentity", "GetCallerIdentity named no caller ARN (%r)"
                             % (arn,))
    parts = arn.split(":", 5)
    resource = parts[5] if len(parts) == 6 else ""
    if resource == "root":
        return None, Finding(ROLE, subject, OK, "the account's root user may pass any role")
    if parts[2:3] == ["iam"] and resource.startswith("user/"):
        return arn, None
    if parts[2:3] == ["sts"] and resource.startswith("assumed-role/"):
        name = resource.split("/")[1]
        return ctx.asker.through("iam:GetRole", lambda: ctx.session.iam_role(name, quick=True)["Arn"]), None
    return None, unknown(ROLE, subject, None, "%s is neither a user nor a role: its policies cannot be simulated"
                         % arn)


def _pass_role(ctx, identity, role_arn):
    try:
        principal, finding = _principal(ctx, identity, "iam:PassRole of %s" % role_arn)
        if finding is not None:
            return finding
        decision = ctx.asker.call("iam", "SimulatePrincipalPolicy", read=_decision, PolicySourceArn=principal,
                                  ActionNames=["iam:PassRole"], ResourceArns=[role_arn], ContextEntries=_PASSED)
    except Unanswered as exc:
        return unknown(ROLE, "iam:PassRole of %s" % role_arn, exc.permission, exc.why)
    return judge.pass_role(principal, role_arn, decision)


def _decision(answer):
    """SimulatePrincipalPolicy's decision on the one action and resource asked; an answer without one
    raises (the call is unanswered: never a problem made from nothing)."""
    decision = answer["EvaluationResults"][0]["EvalDecision"]
    if decision not in _DECISIONS:
        raise ValueError("EvalDecision %r is none of %s" % (decision, ", ".join(_DECISIONS)))
    return decision


def _role(ctx, given, name, account):
    """The role's own finding and its description (None unless it was found)."""
    subject = "role %s" % given
    if account is not None and account != ctx.identity["Account"]:
        return unknown(ROLE, subject, None, "a role of account %s: the caller's account %s cannot look it up"
                       % (account, ctx.identity["Account"])), None
    answer = None
    for fresh in (False, True):  # a problem is told from a fresh answer
        try:
            answer = ctx.asker.through(
                "iam:GetRole", lambda: R.role(ctx.session.iam_role(name, fresh=fresh, quick=True), name),
                missing=("NoSuchEntity",))
        except Unanswered as exc:
            return unknown(ROLE, subject, exc.permission, exc.why), None
        finding = judge.role(given, name, answer, ctx.identity["Account"])
        if finding.result != PROBLEM or isinstance(answer, judge.Missing):
            break
    return finding, (answer if not isinstance(answer, judge.Missing) else None)


def check_role(ctx):
    given = ctx.subjects.role
    if not isinstance(given, str):
        return []
    key = ("role", given)
    kept = ctx.state.findings(key)
    if kept is not None:
        return kept
    if isinstance(ctx.identity, Unanswered):
        return [unknown(ROLE, "role %s" % given, ctx.identity.permission, ctx.identity.why)]
    name, account = role_name(given)
    if name is None:
        return []  # not a role ARN: the checks refused it already
    finding, described = _role(ctx, given, name, account)
    findings = [finding]
    if described is not None:
        findings.append(_pass_role(ctx, ctx.identity, described["Arn"]))
    return ctx.state.keep(key, findings)


def _image_finding(ctx, uri):
    parsed = ecr_image(uri)
    if parsed is None:
        return unknown(IMAGE, uri, None, "not an ECR image URI: the job's role (or a private registry's "
                                         "credentials) decides whether SageMaker can pull it")
    account, region, repository, tag, digest = parsed
    if region != ctx.region:
        return Finding(IMAGE, uri, PROBLEM, "the image is in ECR in %s, the job runs in %s" % (region, ctx.region),
                       argument="image_uri", value=uri,
                       fix="push it to ECR in %s (SageMaker pulls training images from the job's region)" % ctx.region)
    if isinstance(ctx.identity, Unanswered):
        return unknown(IMAGE, uri, ctx.identity.permission, ctx.identity.why)
    if account != ctx.identity["Account"]:
        return unknown(IMAGE, uri, None, "an image of account %s's registry: its repository policy decides whether "
                                         "the job's role may pull it" % account)
    image_id = {"imageDigest": digest} if digest else {"imageTag": tag or "latest"}
    try:
        answer = ctx.asker.call("ecr", "DescribeImages", missing=("RepositoryNotFoundException",
                                                                  "ImageNotFoundException"),
                                registryId=account, repositoryName=repository, imageIds=[image_id])
    except Unanswered as exc:
        return unknown(IMAGE, uri, exc.permission, exc.why)
    return judge.image(uri, "image_uri", answer, "%s:%s" % (repository, digest or tag or "latest"))


def check_image(ctx):
    uri = ctx.subjects.image
    if not isinstance(uri, str):
        return []
    if ctx.subjects.image_from_table:
        return [Finding(IMAGE, uri, OK, "an AWS Deep Learning Containers image from this package's table")]
    key = ("image", uri)
    kept = ctx.state.findings(key)
    return kept if kept is not None else ctx.state.keep(key, [_image_finding(ctx, uri)])


def _key_finding(ctx, argument, key_id):
    elsewhere = key_region(key_id)
    if elsewhere is not None and elsewhere != ctx.region:
        return Finding(KMS, key_id, PROBLEM, "the key is in %s, the job runs in %s" % (elsewhere, ctx.region),
                       argument=argument, value=key_id,
                       fix="pass a key of %s (a KMS key is used in its own region only)" % ctx.region)
    try:
        answer = ctx.asker.call("kms", "DescribeKey", missing=("NotFoundException",), read=R.key_metadata,
                                KeyId=key_id)
    except Unanswered as exc:
        return unknown(KMS, key_id, exc.permission, exc.why)
    return judge.key(argument, key_id, answer, ctx.region)


def check_kms(ctx):
    out = []
    for argument, key_id in ctx.subjects.keys:
        kept = ctx.state.findings(("kms", argument, key_id))
        out.extend(kept if kept is not None else ctx.state.keep(("kms", argument, key_id),
                                                                [_key_finding(ctx, argument, key_id)]))
    return out


def _remembered(ctx, key, make):
    kept = ctx.state.findings(key)
    return kept if kept is not None else ctx.state.keep(key, make())


def _bucket_findings(ctx, subject):
    try:
        answer = ctx.asker.call("s3", "GetBucketLocation", missing=("NoSuchBucket",), Bucket=subject.name,
                                read=lambda answer: {"LocationConstraint": R.location(answer)})
    except Unanswered as exc:
        return [unknown(S3, "s3://%s" % subject.name, exc.permission, exc.why)]
    finding = judge.bucket(subject, answer, ctx.region)
    if finding.result == OK:
        ctx.state.usable.add(subject.name)  # there, in the job's region: its data can be looked at
    return [finding]


def _data_findings(ctx, subject):
    try:
        answer = ctx.asker.call("s3", "ListObjectsV2", missing=("NoSuchBucket",), Bucket=subject.bucket,
                                Prefix=subject.key, MaxKeys=1, read=R.listing)
    except Unanswered as exc:
        return [unknown(S3, subject.uri, exc.permission, exc.why)]
    return [judge.data(subject, answer)]


def check_s3(ctx):
    out = []
    for subject in ctx.subjects.buckets:
        if subject.default:
            out.append(judge.default_bucket(subject, ctx.region))
            ctx.state.usable.add(subject.name)
            continue
        out.extend(_remembered(ctx, ("bucket", subject.name), lambda: _bucket_findings(ctx, subject)))
    for subject in ctx.subjects.data:
        if subject.bucket in ctx.state.usable:  # else the bucket's finding says what is wrong
            out.extend(_remembered(ctx, ("data", subject.uri, subject.object), lambda: _data_findings(ctx, subject)))
    return out


def _vpc_findings(ctx, subnets, groups):
    try:
        found = ctx.asker.call("ec2", "DescribeSubnets", read=R.subnets(subnets),
                               Filters=[{"Name": "subnet-id", "Values": list(subnets)}])
        found_groups = ctx.asker.call("ec2", "DescribeSecurityGroups", read=R.groups(groups),
                                      Filters=[{"Name": "group-id", "Values": list(groups)}])
    except Unanswered as exc:
        return [unknown(VPC, ", ".join(subnets + groups), exc.permission, exc.why)]
    return judge.vpc(subnets, groups, found, found_groups, ctx.subjects.job.host_count)


def check_vpc(ctx):
    subnets, groups = ctx.subjects.subnets, ctx.subjects.security_groups
    if not subnets and not groups:
        return []
    return _remembered(ctx, ("vpc", subnets, groups, ctx.subjects.job.host_count),
                       lambda: _vpc_findings(ctx, subnets, groups))


#: check name -> the function making it.
CHECKERS = {QUOTAS: check_quotas, ROLE: check_role, IMAGE: check_image, KMS: check_kms, S3: check_s3, VPC: check_vpc}
