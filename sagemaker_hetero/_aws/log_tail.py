"""Reading a training job's CloudWatch log streams (the edge around the pure ``log_labels``).

:class:`LogTail` asks :class:`LogStreams` for the job's streams and each stream's events, and hands them to
a :class:`~sagemaker_hetero._aws.log_labels.LogLabeller`. Two ways to read:

- :meth:`LogTail.poll`, one poll of a follow: new streams are picked up, and each stream is read
  for at most ``MAX_PAGES_PER_POLL`` pages, so one busy stream cannot hold the others' lines back;
  what is left is read by the next poll;
- :meth:`LogTail.read_to_end`, for a job that has ended or a one-off read: every page of every
  stream, until GetLogEvents gives back the token it was given (CloudWatch's end of a stream; an
  empty page is not the end). The lines come in batches, in time order across the streams, as soon
  as no stream can still have an earlier one, so a long log is printed while it is read, and a
  stream is not read further ahead in time than a page or so of lines: what is held stays about
  a page or two per stream.

Every paging loop ends, whatever the service answers: a listing of the streams reads at most
``MAX_LISTING_PAGES`` pages, and a read to the end at most ``MAX_PAGES_TO_END`` pages of a stream
(and ``MAX_EMPTY_PAGES`` empty ones in a row), ``MAX_PAGES_PER_READ`` pages of all the streams
together; a stream cut is not read to the end again. Where a cap
cuts a read, one warning says so (the ``sagemaker_hetero`` logger: a line on stderr by default), naming
what was read; the lines read are shown. A follow is bounded per poll, not overall: it follows until
the job ends.

:class:`LogStreams` makes the calls (a session's ``log_streams``: DescribeLogStreams and
GetLogEvents through ``errors.call``, with botocore's adaptive retries); the waiter in
``training_job`` decides when to poll and backs off when CloudWatch keeps throttling.
"""
import collections
import json

from sagemaker_hetero._aws import errors, log_labels
from sagemaker_hetero.exceptions import ResourceNotFoundError, logger

__all__ = ["LogStreams", "LogTail", "MAX_PAGES_PER_POLL", "MAX_LINES_AHEAD", "MAX_LISTING_PAGES", "MAX_PAGES_TO_END",
           "MAX_EMPTY_PAGES", "MAX_PAGES_PER_READ"]

LOGGER = logger()  # its records shown (exceptions.shown)
#: GetLogEvents pages read per stream in one poll of a follow (each up to 10,000 events or 1 MB).
MAX_PAGES_PER_POLL = 20
#: DescribeLogStreams pages read in one listing of a job's streams (50 streams a page: 5,000 streams).
MAX_LISTING_PAGES = 100
#: GetLogEvents pages of one stream read to its end (up to 10,000 events or 1 MB each: far more than
#: a job writes), and empty pages in a row (CloudWatch skips a quiet time with a few, not without end).
MAX_PAGES_TO_END = 10000
MAX_EMPTY_PAGES = 100
#: GetLogEvents pages of all a job's streams read to their end in one read (an endpoint giving new pages
#: of every one of many streams without end is left within minutes, not hours).
MAX_PAGES_PER_READ = 10000
#: Reading to the end, a stream with this many lines read that are later than the last line read of
#: another stream is not read further until that one has caught up (a page holds up to 10,000).
MAX_LINES_AHEAD = 10000
_FIRST = float("-inf")  # the last time read of a stream nothing has been read of yet


class LogStreams(object):
    """The training jobs' log streams of a session (``clients``: its ``"logs-poll"`` client, adaptive
    retries), as a :class:`LogTail` reads them."""

    def __init__(self, clients):
        self.clients = clients

    def names(self, prefix):
        """Names of the training job log streams starting with ``prefix`` (none if the log group
        does not exist yet), at most ``MAX_LISTING_PAGES`` pages of them: see :meth:`listing`."""
        return self.listing(prefix)[0]

    def listing(self, prefix):
        """``(names, cut)``: :meth:`names`, and whether ``MAX_LISTING_PAGES`` cut the listing short."""
        client = self.clients.client("logs-poll")
        names, seen, token = [], set(), None
        for _ in range(MAX_LISTING_PAGES):
            params = {"logGroupName": log_labels.LOG_GROUP, "logStreamNamePrefix": prefix}
            if token:
                params["nextToken"] = token
            try:
                response = errors.call(client, "DescribeLogStreams", **params)
            except ResourceNotFoundError:
                return names, False
            page = [s.get("logStreamName") for s in response.get("logStreams") or () if isinstance(s, dict)]
            page = [name for name in page if isinstance(name, str) and name.startswith(prefix)]
            for name in page:
                if name not in seen:
                    seen.add(name)
                    names.append(name)
            next_token = response.get("nextToken")
            if not page or not next_token or next_token == token:
                return names, False
            token = next_token
        return names, True

    def events(self, stream_name, token=None):
        """``([(timestamp ms, message)], next token)``: the stream's events after ``token``."""
        params = {"logGroupName": log_labels.LOG_GROUP, "logStreamName": stream_name, "startFromHead": True}
        if token:
            params["nextToken"] = token
        response = errors.call(self.clients.client("logs-poll"), "GetLogEvents", **params)
        events = [(_timestamp(e.get("timestamp")), _message(e.get("message")))
                  for e in response.get("events") or () if isinstance(e, dict)]
        token = response.get("nextForwardToken")
        return events, token if isinstance(token, str) else None


class LogTail(object):
    """The lines of a job's log streams (``streams``: a :class:`LogStreams`), labelled, read one
    :meth:`poll` at a time or to the end."""

    def __init__(self, streams, job_name, labeller):
        self.streams = streams
        self.job_name = job_name
        self.labeller = labeller
        self._tokens = {}  # stream name -> the token after the last page read
        self._last = {}  # stream name -> the timestamp of the last event read
        self._pending = []  # lines read but not returned yet (a poll that then failed, or a batch's tail)
        self._cut = set()  # streams a read to the end stopped reading at a cap (not read to the end again)
        self._listing_cut = False  # whether a listing of the streams was cut (said once)

    @property
    def stream_names(self):
        return sorted(self._tokens)

    def poll(self):
        """New lines of every stream, labelled, in time order: at most ``MAX_PAGES_PER_POLL`` pages
        per stream.

        An AWS error (throttling after every retry, say) propagates; what was read before it is
        kept and returned by the next successful poll.
        """
        for name in self._list():
            self._read(name, MAX_PAGES_PER_POLL)
        lines, self._pending = self._pending, []
        return log_labels.merge(lines)

    def read_to_end(self):
        """Batches (lists) of lines, labelled, in time order, until every page of every stream is read.

        Round by round, one page of each stream not yet at its end; a batch holds the lines older
        than the last line read of every such stream. A stream that is ahead (``MAX_LINES_AHEAD``
        lines read that wait for another stream to catch up) is not read in that round, so a
        stream sparse in time does not pile up while a dense one is read. A stream whose pages
        reach ``MAX_PAGES_TO_END`` (or ``MAX_EMPTY_PAGES`` empty ones in a row, or all of them together
        ``MAX_PAGES_PER_READ``) is cut: one warning
        names each stream cut, and it is not read to the end again. An AWS error propagates
        from the generator; what was read is kept, and the next ``read_to_end`` (or :meth:`poll`)
        goes on from there.
        """
        active = [name for name in self._list() if name not in self._cut]
        read = _Read()
        try:
            while True:
                active = self._round(active, read)
                lines = log_labels.merge(self._pending)
                if active:
                    cut = _before(lines, min(self._last.get(name, _FIRST) for name in active))
                    lines, self._pending = lines[:cut], lines[cut:]
                else:
                    self._pending = []
                if lines:
                    yield lines
                if not active:
                    return
        finally:
            self._tell_cut(read)

    def _round(self, active, read):
        """Read a page of each stream of ``active`` that is not ahead of the others (``read``: the
        counts of this read to the end); the streams still to read."""
        low = min(self._last.get(name, _FIRST) for name in active) if active else None
        ahead = collections.Counter(line[log_labels.STREAM] for line in self._pending)
        still = []
        for name in active:
            if ahead[name] >= MAX_LINES_AHEAD and self._last.get(name, _FIRST) > low:
                still.append(name)  # not read this round: the others have to catch up first
            elif read.pages[name] >= MAX_PAGES_TO_END or read.empty[name] >= MAX_EMPTY_PAGES or \
                    read.total >= MAX_PAGES_PER_READ:
                read.cut.append(name)
            else:
                more, count = self._read(name, 1)
                read.pages[name] += 1
                read.total += 1
                read.events[name] += count
                read.empty[name] = 0 if count else read.empty[name] + 1
                if more:
                    still.append(name)
        return still

    def _tell_cut(self, read):
        """One warning naming the streams a read to the end cut, and what was read of each."""
        if not read.cut:
            return
        self._cut.update(read.cut)
        LOGGER.warning(
            "The logs of %s are cut: CloudWatch Logs kept giving a next page (GetLogEvents) after %s; "
            "the lines read are shown, the rest is not (at most %d pages of a stream, or %d empty pages in a row, "
            "are read, and %d pages in all).", self.job_name,
            ", ".join("%d pages (%d events) of %r" % (read.pages[n], read.events[n], n) for n in read.cut),
            MAX_PAGES_TO_END, MAX_EMPTY_PAGES, MAX_PAGES_PER_READ)

    def finish(self):
        """Whatever the labeller still holds back, once no more events will come."""
        lines, self._pending = self._pending, []
        return log_labels.merge(lines + self.labeller.finish())

    def _list(self):
        """The names of every stream of the job so far (new ones added), sorted. A listing cut by
        ``MAX_LISTING_PAGES`` is said once."""
        names, cut = self.streams.listing(log_labels.stream_prefix(self.job_name))
        for name in names:
            self._tokens.setdefault(name, None)
        if cut and not self._listing_cut:
            self._listing_cut = True
            LOGGER.warning(
                "The log streams of %s are listed in part: CloudWatch Logs kept giving a next page "
                "(DescribeLogStreams) after %d pages (%d streams); the logs of those streams are shown, any "
                "streams past them are not.", self.job_name, MAX_LISTING_PAGES, len(names))
        return sorted(self._tokens)

    def _read(self, name, pages):
        """Feed up to ``pages`` pages of the stream's new events to the labeller (progress kept per
        page); ``(more, events)``: ``more`` False once the stream's end is reached (or the stream is
        gone), and how many events were read."""
        token, count = self._tokens[name], 0
        for _ in range(pages):
            try:
                page, next_token = self.streams.events(name, token)
            except ResourceNotFoundError:
                return False, count  # the stream went away
            if page:
                count += len(page)
                self._last[name] = page[-1][0]
                self._pending.extend(self.labeller.feed(name, page))
            if next_token is None or next_token == token:
                return False, count
            token = self._tokens[name] = next_token
            if not page:
                return True, count  # a follow's poll stops at an empty page; the next read goes on
        return True, count


def _timestamp(value):
    """An event's time in ms as CloudWatch gives it, or 0 for a value that is no finite number (so that
    lines can always be put in order)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value in (_FIRST, -_FIRST):
        return 0
    return int(value)


def _message(value):
    """An event's message as text: a string as it is, nothing for none, any other value as JSON."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    try:
        return json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return type(value).__name__


class _Read(object):
    """What one read to the end has read: pages, events and empty pages in a row per stream, and the
    streams it cut."""

    def __init__(self):
        self.pages = collections.Counter()
        self.events = collections.Counter()
        self.empty = collections.Counter()
        self.total = 0  # pages of every stream
        self.cut = []


def _before(lines, timestamp):
    """How many of ``lines`` (in time order) are older than ``timestamp``."""
    low, high = 0, len(lines)
    while low < high:
        middle = (low + high) // 2
        if lines[middle][log_labels.TIMESTAMP] < timestamp:
            low = middle + 1
        else:
            high = middle
    return low
