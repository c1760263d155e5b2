"""What a ``LocalSession`` answers of the session protocol (``_runner.SessionProtocol``) that only an AWS
session does: "not applicable" (no account to look up or check, no upload, no preflight)."""
from sagemaker_hetero.exceptions import UnexpectedStatusException

__all__ = ["NotAws"]


class NotAws(object):
    """The session protocol's AWS-only attributes, answered for a session without an AWS account."""

    #: a local job is followed, not polled
    poll_interval = None
    #: the SDK v2's local-mode configuration (``config["local"]["container_root"]``); None: none
    config = None

    def lookup_facts(self, job):
        """:meth:`facts`: a local run looks nothing up.

        Parameters
        ----------
        job : Job
            The checked job model.
        """
        return self.facts()

    def code_digest(self, job):
        """None: a local run's code archive never goes to S3.

        Parameters
        ----------
        job : Job
            The job model.
        """
        return None

    def preflight(self, plan, mode, out=None):
        """Nothing: a preflight checks a job against an AWS account (``fit`` refuses one for a local run).

        Parameters
        ----------
        plan : Plan
            The job's plan.
        mode : bool, str, list or None
            ``fit``'s ``preflight``.
        out : file, optional
            Unused.
        """

    def provision(self, plan):
        """Nothing: a local run needs no bucket or role.

        Parameters
        ----------
        plan : Plan
            The job's plan.
        """

    def upload_code(self, plan):
        """Nothing: a local run's code archive is written in the job's folder.

        Parameters
        ----------
        plan : Plan
            The job's plan.
        """

    def quick_client(self, service):
        """None: a local run asks AWS nothing.

        Parameters
        ----------
        service : str
            The service's name.
        """
        return None

    def caller_identity(self, quick=False):
        """None: a local run has no AWS caller.

        Parameters
        ----------
        quick : bool, default False
            As ``Session.caller_identity`` takes it (nothing is asked either way).
        """
        return None

    def job_failure(self, job_name, status, desc):
        """The ``UnexpectedStatusException`` of a job that ended ``status``.

        Parameters
        ----------
        job_name : str
            The job.
        status : str
            The status it ended with.
        desc : dict
            Its description.
        """
        return UnexpectedStatusException(job_name, status, desc.get("FailureReason"))
