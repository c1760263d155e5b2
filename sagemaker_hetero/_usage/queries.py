"""The GetMetricData queries of a job's hosts, and their answers read back. Pure.

Each host ``algo-N`` publishes its five metrics in the namespace :data:`NAMESPACE` with the one
dimension ``Host`` = ``<job>/algo-N``; one query per host and metric (``Average`` over
:func:`period` seconds), :data:`MAX_QUERIES` to a call, so a job of up to 100 hosts takes one call
(and more only when CloudWatch pages its answer).
"""
import datetime
import math

from sagemaker_hetero._defaults import TRAINING_JOBS_NAMESPACE
from sagemaker_hetero._usage.metrics import METRICS

__all__ = ["NAMESPACE", "MAX_QUERIES", "MAX_POINTS", "MIN_PERIOD", "hosts_of", "period", "queries", "batches",
           "MINUTE_DAYS", "window", "days_gone", "is_sample", "read"]

NAMESPACE = TRAINING_JOBS_NAMESPACE
#: GetMetricData's limit of queries per call.
MAX_QUERIES = 500
#: Samples per series at most: the period grows (by whole minutes) to keep a long job's under it.
MAX_POINTS = 1440
#: SageMaker publishes a host's metrics once a minute.
MIN_PERIOD = 60
#: Days CloudWatch keeps one-minute data points: a job that started longer ago answers none at a minute's period.
MINUTE_DAYS = 15
#: Minutes added before the job's start and after its end, so no sample at the edges is missed.
_MARGIN = datetime.timedelta(minutes=2)


def hosts_of(groups):
    """``algo-1`` .. ``algo-N``: the hosts of a job of ``groups`` (``[(name, type, count)]``), N the sum
    of the counts (those not whole numbers count none)."""
    total = sum(c for _, _, c in groups if isinstance(c, int) and not isinstance(c, bool) and c > 0)
    return ["algo-%d" % i for i in range(1, total + 1)]


def _utc(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return datetime.datetime.fromtimestamp(value, datetime.timezone.utc)
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.timezone.utc)
    return None


def window(desc, now):
    """``(start, end)`` datetimes of a job's metrics: its training start (else creation) to its end
    (else ``now``, seconds since the epoch), with a margin; None when the description has no start."""
    start = _utc(desc.get("TrainingStartTime")) or _utc(desc.get("CreationTime"))
    end = _utc(desc.get("TrainingEndTime")) or _utc(now)
    if start is None or end is None:
        return None
    return start - _MARGIN, max(end, start) + _MARGIN


def period(start, end):
    """Seconds per sample: a minute, or more whole minutes when the window holds more than ``MAX_POINTS``."""
    seconds = (end - start).total_seconds()
    return max(MIN_PERIOD, int(math.ceil(seconds / MAX_POINTS / MIN_PERIOD)) * MIN_PERIOD)


def days_gone(start, now):
    """Whole days since ``start`` (a datetime) at ``now`` (seconds since the epoch) when past
    :data:`MINUTE_DAYS` (CloudWatch no longer holds the job's one-minute figures), else None."""
    days = int((now - start.timestamp()) // 86400)
    return days if days > MINUTE_DAYS else None


def queries(job_name, hosts, seconds):
    """``([query], {id: (host, metric key)})``: one ``Average`` query per host and metric."""
    out, ids = [], {}
    for i, host in enumerate(hosts):
        for j, (key, name, _) in enumerate(METRICS):
            query_id = "m%d_%d" % (i, j)
            ids[query_id] = (host, key)
            out.append({"Id": query_id, "ReturnData": True, "MetricStat": {
                "Metric": {"Namespace": NAMESPACE, "MetricName": name,
                           "Dimensions": [{"Name": "Host", "Value": "%s/%s" % (job_name, host)}]},
                "Period": seconds, "Stat": "Average"}})
    return out, ids


def batches(items, size=MAX_QUERIES):
    """``items`` in lists of at most ``size``."""
    return [items[i:i + size] for i in range(0, len(items), size)]


def _seconds(value):
    moment = _utc(value)
    return None if moment is None else moment.timestamp()


def is_sample(value):
    """Whether ``value`` can be a utilization figure: a finite number >= 0 (not NaN, an infinity, a negative
    number, a bool or another type: what no host publishes)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < float("inf")


def read(answer, ids, raw):
    """Add an answer's ``MetricDataResults`` to ``raw`` (``{host: {metric: [(t, value)]}}``), sorted by time;
    a result of an id not asked, or of another shape, and a value that is no utilization (:func:`is_sample`)
    are left out."""
    for result in answer.get("MetricDataResults") or ():
        if not isinstance(result, dict) or result.get("Id") not in ids:
            continue
        host, key = ids[result["Id"]]
        times, values = result.get("Timestamps") or [], result.get("Values") or []
        points = [(_seconds(t), float(v)) for t, v in zip(times, values)
                  if _seconds(t) is not None and is_sample(v)]
        if points:
            series = raw.setdefault(host, {}).setdefault(key, [])
            series.extend(points)
            series.sort()
