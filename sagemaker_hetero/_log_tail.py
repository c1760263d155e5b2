"""Following a training job's CloudWatch log streams (the edge around the pure ``_logs``).

:class:`LogTail` asks the session for the job's streams (new ones are picked up on every poll) and
each stream's new events, and hands them to a :class:`~sagemaker_hetero._logs.LogLabeller`. The
session makes the calls (through ``_aws_errors.call``, with botocore's adaptive retries); the
waiter in ``_job`` decides when to poll and backs off when CloudWatch keeps throttling.
"""
from sagemaker_hetero import _logs
from sagemaker_hetero.exceptions import ResourceNotFoundError

__all__ = ["LogTail", "MAX_PAGES_PER_POLL"]

#: GetLogEvents pages read per stream and poll (each up to 10,000 events or 1 MB).
MAX_PAGES_PER_POLL = 20


class LogTail(object):
    """The new lines of a job's log streams, one :meth:`poll` at a time."""

    def __init__(self, session, job_name, labeller):
        self.session = session
        self.job_name = job_name
        self.labeller = labeller
        self._tokens = {}  # stream name -> the token after the last event read
        self._pending = []  # lines read by a poll that then failed; returned by the next one

    @property
    def stream_names(self):
        return sorted(self._tokens)

    def poll(self):
        """New lines of every stream, labelled, in time order.

        An AWS error (throttling after every retry, say) propagates; what was read before it is
        kept and returned by the next successful poll.
        """
        names = self.session._log_stream_names(_logs.stream_prefix(self.job_name))
        for name in names:
            self._tokens.setdefault(name, None)
        for name in sorted(self._tokens):
            self._read(name)
        lines, self._pending = self._pending, []
        return _logs.merge(lines)

    def finish(self):
        """Whatever the labeller still holds back, once no more events will come."""
        lines, self._pending = self._pending, []
        return _logs.merge(lines + self.labeller.finish())

    def _read(self, name):
        """Feed the stream's new events to the labeller, page by page (progress kept per page)."""
        token = self._tokens[name]
        for _ in range(MAX_PAGES_PER_POLL):
            try:
                page, next_token = self.session._log_events(name, token)
            except ResourceNotFoundError:
                return  # the stream went away
            self._pending.extend(self.labeller.feed(name, page))
            if next_token is None or next_token == token:
                return
            token = self._tokens[name] = next_token
            if not page:
                return
