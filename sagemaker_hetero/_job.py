"""A started training job: describe it, wait for it, stop it."""
import sys
import time

from sagemaker_hetero.exceptions import UnexpectedStatusException

__all__ = ["TrainingJob", "format_elapsed"]

TERMINAL = ("Completed", "Failed", "Stopped")
POLL_MIN_SECONDS = 2.0
POLL_MAX_SECONDS = 30.0


def format_elapsed(seconds):
    seconds = int(seconds)
    return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


class TrainingJob(object):
    """Handle on a training job (``estimator.latest_training_job``)."""

    def __init__(self, session, name, request=None):
        self.sagemaker_session = session
        self.name = name
        self.request = request

    @property
    def job_name(self):
        return self.name

    def __repr__(self):
        return "TrainingJob(%r)" % (self.name,)

    def __str__(self):
        return self.name

    def describe(self):
        return self.sagemaker_session.describe_training_job(self.name)

    def stop(self):
        self.sagemaker_session.stop_training_job(self.name)

    def wait(self, logs="All", poll=None, out=None, clock=time.monotonic, sleep=time.sleep):
        """Poll until the job ends, printing each new status on one line; return the description.

        Raises :class:`UnexpectedStatusException` if the job ends Failed or Stopped. Ctrl-C stops
        the waiting, not the job. ``poll`` is ``(first, longest)`` seconds between polls (default:
        the session's ``poll_interval``, else 2 s doubling up to 30 s).
        """
        out = out or sys.stdout
        first, longest = poll or getattr(self.sagemaker_session, "poll_interval", None) or (
            POLL_MIN_SECONDS,
            POLL_MAX_SECONDS,
        )
        start = clock()
        delay = first
        last = None
        try:
            while True:
                desc = self.describe()
                status = desc.get("TrainingJobStatus")
                secondary = desc.get("SecondaryStatus")
                message = _status_message(desc)
                seen = (status, secondary, message)
                if seen != last:
                    last = seen
                    delay = first
                    text = status if not secondary or secondary == status else "%s/%s" % (status, secondary)
                    line = "[%s] %s: %s" % (format_elapsed(clock() - start), self.name, text)
                    if message:
                        line += " - " + message
                    out.write(line + "\n")
                    out.flush()
                if status in TERMINAL:
                    break
                sleep(delay)
                delay = min(delay * 2, longest)
        except KeyboardInterrupt:
            out.write(
                "\nStopped waiting for %s; the job keeps running. Stop it with: aws sagemaker "
                "stop-training-job --training-job-name %s\n" % (self.name, self.name)
            )
            out.flush()
            raise
        if status != "Completed":
            raise UnexpectedStatusException(self.name, status, desc.get("FailureReason"))
        return desc


def _status_message(desc):
    transitions = desc.get("SecondaryStatusTransitions") or []
    if transitions:
        return transitions[-1].get("StatusMessage") or ""
    return ""
