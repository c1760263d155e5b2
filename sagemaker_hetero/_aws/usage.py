"""A training job's utilization from CloudWatch (edge): its hosts' metrics by GetMetricData, each host's
group from what the job wrote in its logs (the log labeller's mapping, never guessed), and its billed
cost per group; the figures and the verdict are ``_usage``'s.

Whatever cannot be had (GetMetricData denied, logs not readable, no price) is an unknown of the result,
said in a sentence naming the permission, never an error: the package's rule (docs/preflight.md).
"""
import time

from sagemaker_hetero._aws import errors, log_labels, log_tail
from sagemaker_hetero._request import describe, read_back
from sagemaker_hetero._usage import figures, queries
from sagemaker_hetero.exceptions import AWSError, ConfigError, Problem

__all__ = ["utilization", "metrics", "host_groups", "MAX_METRIC_PAGES"]

#: Pages of one GetMetricData batch's answer read at most: CloudWatch pages past 100,800 data points, and a
#: batch holds at most ``queries.MAX_QUERIES`` x ``queries.MAX_POINTS`` (720,000: 8 pages); an endpoint that
#: pages on is left after these, and said (an unknown), not followed for minutes.
MAX_METRIC_PAGES = 50


def metrics(clients, job_name, hosts, start, end, seconds, unknowns=None):
    """``{host: {metric: [(t, value)]}}`` of ``hosts`` from ``start`` to ``end``: GetMetricData with at most
    ``queries.MAX_QUERIES`` queries a call, each page of its answer read, up to :data:`MAX_METRIC_PAGES` a
    batch (more is said in ``unknowns``, a list). AWSError propagates."""
    client = clients.client("cloudwatch")
    items, ids = queries.queries(job_name, hosts, seconds)
    raw = {}
    for batch in queries.batches(items):
        token = None
        for page in range(MAX_METRIC_PAGES):
            params = {"MetricDataQueries": batch, "StartTime": start, "EndTime": end, "ScanBy": "TimestampAscending"}
            if token:
                params["NextToken"] = token
            answer = errors.call(client, "GetMetricData", **params)
            queries.read(answer, ids, raw)
            following = answer.get("NextToken")
            if not following or following == token:
                break
            token = following
            if page == MAX_METRIC_PAGES - 1 and unknowns is not None:
                unknowns.append("the rest of the figures: GetMetricData's answer still had a NextToken after %d "
                                "pages (at most 8 are expected); the figures are those pages'" % MAX_METRIC_PAGES)
    return raw


def host_groups(streams, job_name, groups):
    """``{host: group or None}`` of the job's log streams: each stream's group as the log labeller learns
    it (the marker line or the training environment the host printed, both at the stream's start: one
    poll reads the first ``log_tail.MAX_PAGES_PER_POLL`` pages of each stream, not the whole log); a job
    of one group has every host in it. AWSError propagates."""
    names = [name for name, _, _ in groups]
    if len(names) == 1:
        return {}
    labeller = log_labels.LogLabeller(names)
    tail = log_tail.LogTail(streams, job_name, labeller)
    tail.poll()  # the lines themselves are not kept
    tail.finish()
    found = {}
    for stream, group in labeller.streams.items():
        host = log_labels.parse_stream_name(stream).host
        if group is not None or host not in found:
            found[host] = group if group is not None else found.get(host)
    return found


def _groups_of_hosts(session, job_name, groups, hosts, unknowns):
    if len(groups) == 1:
        return dict((h, groups[0][0]) for h in hosts)
    try:
        found = host_groups(session.log_streams, job_name, groups)
    except AWSError as exc:
        unknowns.append("which host is in which instance group (logs:DescribeLogStreams, logs:GetLogEvents): %s"
                        % _why(exc))
        found = {}
    mapped = dict((h, None) for h in hosts)
    mapped.update((h, g) for h, g in found.items() if h in mapped)  # a stream of no host of the job: not one
    return mapped


def _why(exc):
    return (getattr(exc, "aws_message", None) or str(exc).splitlines()[0] or type(exc).__name__)


def _bills(desc, region, prices, fetch, boto_session, unknowns):
    if desc.get("BillableTimeInSeconds") is None:
        return {}
    from sagemaker_hetero._aws.pricing import bill_of

    try:
        bill = bill_of(desc, region, prices, fetch, boto_session)
    except (AWSError, ConfigError) as exc:
        unknowns.append("the billed cost per group: %s" % str(exc).splitlines()[0])
        return {}
    return dict((g.name, g.billed_usd) for g in bill.groups)


def utilization(session, job_name, prices=None, fetch=True, clock=time.time):
    """The :class:`~sagemaker_hetero._usage.figures.Usage` of the AWS job ``job_name``; DescribeTrainingJob's
    errors propagate (no such job), every other failure to ask is an unknown of the result. ``prices`` is read
    first, as ``cost`` reads it: a price file that cannot be read or holds a mistake is a ``ConfigError``."""
    from sagemaker_hetero._cost.table import table_of

    prices = table_of(prices, "prices")
    desc = session.describe_training_job(job_name)
    if isinstance(desc.get("LocalRun"), dict):
        raise ConfigError([Problem("job_name", "is a local job: CloudWatch holds no figures of it; its hosts' samples "
                                   "are read by: sagemaker-hetero usage %s --local" % job_name, job_name)])
    groups = read_back.groups_of(desc)
    hosts = queries.hosts_of(groups)
    unknowns = []
    mapping = _groups_of_hosts(session, job_name, groups, hosts, unknowns)
    span = queries.window(desc, clock())
    raw, seconds = {}, None
    if span is None:
        unknowns.append("the figures: the job's description has no start time")
    else:
        seconds = queries.period(*span)
        try:
            raw = metrics(session._clients, job_name, sorted(mapping, key=figures.host_order), span[0], span[1],
                          seconds, unknowns)
        except AWSError as exc:
            unknowns.append("the figures (cloudwatch:GetMetricData): %s" % _why(exc))
        else:
            gone = queries.days_gone(span[0], clock())
            if not raw and gone:
                unknowns.append("the figures: GetMetricData answered none; CloudWatch keeps one-minute figures "
                                "%d days, and the job started %d days ago" % (queries.MINUTE_DAYS, gone))
    region = describe.region_of(desc) or session.boto_region_name
    bills = _bills(desc, region, prices, fetch, session.boto_session, unknowns)
    return figures.build(job_name, desc.get("TrainingJobStatus"), groups, mapping, raw, bills, unknowns, seconds)
