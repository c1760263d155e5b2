"""ONE poller for every wait: a training job's, a tuning job's and a pipeline execution's.

A :class:`Poller` asks its caller's ``describe()`` until the caller's ``seen(answer, now)`` says the
thing waited for has ended, and owns what every wait shares:

- the interval between polls: ``first`` seconds, doubled after each poll up to ``longest``; back to
  ``first`` after a change (:meth:`Poller.changed`) or new log lines (:meth:`Poller.heard`); doubled
  at once while the log reads are throttled (:meth:`Poller.slow_down`). ``poll`` is ``(first,
  longest)``, or one number for both, else the session's ``poll_interval``, else 2 s up to 30 s;
- throttling: a describe still throttled after botocore's retries is asked again after the longest
  interval, up to ``WAIT_THROTTLED_POLLS`` times in a row, before its ThrottlingError is raised;
- the heartbeat: after ``heartbeat`` seconds without a line printed (:meth:`Poller.quiet`), the
  caller prints a proof of life; ``None``: none;
- elapsed times, ``H:MM:SS`` from the start of the wait (:meth:`Poller.elapsed`).

:meth:`Poller.follow` is the whole wait of a tuning job or a pipeline execution: a line each time
their state changes. The poller makes no AWS call of its own, and reads the time only through the
``clock`` and ``sleep`` it is given (tests move a fake clock on). A line is written
:func:`~sagemaker_hetero.exceptions.shown` (a status message is text, never terminal control).
"""
import time

from sagemaker_hetero.exceptions import ThrottlingError, shown

__all__ = ["Poller", "bounds", "format_elapsed", "POLL_MIN_SECONDS", "POLL_MAX_SECONDS", "HEARTBEAT_SECONDS",
           "WAIT_THROTTLED_POLLS"]

POLL_MIN_SECONDS = 2.0
POLL_MAX_SECONDS = 30.0
#: After this many seconds without a line from a training job's waiter, it prints one ``still <status>``
#: line: proof of life for a reader, and under the 10 minutes after which some CI services kill a silent
#: build (CircleCI's ``no_output_timeout``, Travis).
HEARTBEAT_SECONDS = 300.0
#: How many polls in a row a wait takes a throttled describe (after botocore's retries), waiting the
#: longest poll interval after each, before it gives up.
WAIT_THROTTLED_POLLS = 5


def format_elapsed(seconds):
    """``seconds`` as ``H:MM:SS``."""
    seconds = int(seconds)
    return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def bounds(poll, session=None):
    """``(first, longest)`` seconds between polls: ``poll`` (a pair, or one number for both, as the
    SDK v2's ``logs_for_job(poll=10)`` gives), else the session's ``poll_interval``, else 2 s to 30 s."""
    poll = poll or (session.poll_interval if session is not None else None) or (POLL_MIN_SECONDS, POLL_MAX_SECONDS)
    if isinstance(poll, (int, float)):
        return poll, poll
    return poll


class Poller(object):
    """The timing of one wait: see the module's docstring."""

    def __init__(self, poll=None, session=None, clock=time.monotonic, sleep=time.sleep, heartbeat=None):
        self.first, self.longest = bounds(poll, session)
        self.clock = clock
        self.sleep = sleep
        self.heartbeat = heartbeat
        self.start = clock()
        self.delay = self.first
        #: when the current state began; when the waiter last printed a line
        self.since = self.said = self.start

    def run(self, describe, seen):
        """Ask ``describe()`` (throttling tolerated: :meth:`ask`) until ``seen(answer, now)`` is true,
        pausing between polls; the last answer."""
        while True:
            answer = self.ask(describe)
            if seen(answer, self.clock()):
                return answer
            self.pause()

    def ask(self, describe):
        """``describe()``, asked again after the longest interval while it is throttled (other clients
        of the account share the rate), up to ``WAIT_THROTTLED_POLLS`` times in a row."""
        throttled = 0
        while True:
            try:
                return describe()
            except ThrottlingError:
                throttled += 1
                if throttled > WAIT_THROTTLED_POLLS:
                    raise
                self.sleep(self.longest)

    def follow(self, describe, out, line_of, ended):
        """A wait that prints ``[<elapsed>] <line_of(answer)>`` each time that line changes, until
        ``ended(answer)``; the last answer."""
        last = []

        def seen(answer, now):
            line = line_of(answer)
            if not last or line != last[-1]:
                out.write(shown("[%s] %s\n" % (self.elapsed(now), line)))
                out.flush()
                last.append(line)
                self.changed(now)
            return ended(answer)

        return self.run(describe, seen)

    def elapsed(self, at):
        """The time from the start of the wait to ``at`` (a ``clock()`` reading), as ``H:MM:SS``."""
        return format_elapsed(at - self.start)

    def changed(self, now):
        """A new state, seen at ``now``: polls are ``first`` apart again, and a line was printed."""
        self.delay = self.first
        self.since = self.said = now

    def heard(self):
        """New log lines were printed: polls are ``first`` apart again, and the silence starts over."""
        self.delay = self.first
        self.said = self.clock()

    def slow_down(self):
        """Double the interval (up to ``longest``) at once: CloudWatch is throttling the log reads."""
        self.delay = min(self.delay * 2, self.longest)

    def quiet(self, now):
        """Whether a heartbeat line is due at ``now`` (``heartbeat`` seconds without a line); if so,
        the caller prints it, and the silence starts over."""
        if self.heartbeat and now - self.said >= self.heartbeat:
            self.said = now
            return True
        return False

    def pause(self):
        """Sleep the current interval, then double it (up to ``longest``)."""
        self.sleep(self.delay)
        self.slow_down()
