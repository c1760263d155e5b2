"""A session's boto3 clients, made on first use with our retry configuration (edge: imports boto3).

:class:`Clients` holds one client per name: ``"sagemaker"``, ``"s3"``, ``"sts"``, ``"iam"`` with
botocore's standard retries (:data:`RETRIES`), and ``"<service>-poll"`` (``"sagemaker-poll"``,
``"logs-poll"``) with adaptive retries (:data:`POLL_RETRIES`) for polling and log reading, which
can afford to slow down under throttling, and ``"<service>-quick"`` (:func:`single_attempt_client`: one
attempt, :data:`QUICK_TIMEOUTS`) for what must not wait on an endpoint (a preflight; a given SageMaker
client serves ``"sagemaker-quick"`` too). Retries the user configured (``AWS_RETRY_MODE``,
``AWS_MAX_ATTEMPTS``, the profile's ``retry_mode``/``max_attempts``) win, as they do for boto3, except
for the single-attempt clients.

:func:`new_boto_session` makes the boto3 sessions the SDK builds itself (``Session()`` without
``boto_session``, the CLI's, the local runner's for ``s3://`` data): every ``boto3.Session()``
builds a botocore session with a loader of its own, so its first clients read and parse the
service models again (SageMaker's is several MB of JSON): about 0.3 s per new session with four
clients on a small machine. These share one loader per data path (``AWS_DATA_PATH`` or the
profile's ``data_path``) for the whole process instead; each session still reads its own
credentials, region, profile and configuration.
"""
import os
import threading
import weakref
from typing import Any, Dict, Optional

import boto3
import botocore.config
import botocore.exceptions
import botocore.session

from sagemaker_hetero._aws import errors

__all__ = ["Clients", "new_boto_session", "checked_boto_session", "retries", "single_attempt_client", "USER_AGENT",
           "RETRIES", "POLL_RETRIES", "QUICK_TIMEOUTS"]

#: Added to botocore's user agent on every call of ours.
USER_AGENT = "sagemaker-hetero/0.1.0"
#: botocore's standard retry mode (throttling and transient errors, exponential backoff with jitter).
RETRIES = {"mode": "standard", "max_attempts": 8}
#: Polling and log reading can afford to slow down under throttling: adaptive mode.
POLL_RETRIES = {"mode": "adaptive", "max_attempts": 10}
#: Seconds a single-attempt client waits to connect and for an answer (botocore's default: 60 each).
QUICK_TIMEOUTS = {"connect_timeout": 5, "read_timeout": 15}
_POLL = "-poll"
_QUICK = "-quick"
_LOADERS = {}  # type: Dict[Optional[str], Any]
_LOCK = threading.Lock()


def new_boto_session(region_name=None, profile_name=None):
    # type: (Optional[str], Optional[str]) -> boto3.Session
    """``boto3.Session(region_name=..., profile_name=...)`` whose botocore loader is the process's."""
    core = botocore.session.Session()
    if profile_name is not None:
        core.set_config_variable("profile", profile_name)
    data_path = core.get_config_variable("data_path")
    with _LOCK:
        loader = _LOADERS.get(data_path)
        if loader is None:
            loader = _LOADERS[data_path] = core.get_component("data_loader")
        else:
            core.register_component("data_loader", loader)
        session = boto3.Session(botocore_session=core, region_name=region_name, profile_name=profile_name)
        # boto3 appends its own data folder to the loader's search paths for every new session: keep one.
        paths = loader.search_paths
        while len(paths) > 1 and paths[-1] in paths[:-1]:
            paths.pop()
    return session


def checked_boto_session(profile_name=None, region_name=None):
    """:func:`new_boto_session`, botocore's errors (an unknown profile, say) raised as ours."""
    try:
        return new_boto_session(region_name=region_name, profile_name=profile_name)
    except botocore.exceptions.BotoCoreError as exc:
        raise errors.translate(exc, "Session")


def retries(boto_session, defaults):
    """Our retry ``defaults``, unless the user configured retries (``AWS_RETRY_MODE``,
    ``AWS_MAX_ATTEMPTS`` or ``retry_mode``/``max_attempts`` in the profile), which win as they do
    for boto3."""
    result = dict(defaults)
    try:
        scoped = boto_session._session.get_scoped_config()
    except Exception:  # noqa: BLE001 - a missing profile is reported by boto3 itself later
        scoped = {}
    mode = os.environ.get("AWS_RETRY_MODE") or scoped.get("retry_mode")
    attempts = os.environ.get("AWS_MAX_ATTEMPTS") or scoped.get("max_attempts")
    if mode:
        result["mode"] = mode
    if attempts:
        result.pop("max_attempts", None)
        result["total_max_attempts"] = int(attempts)
    return result


# boto3 session -> {(service, region, purpose): client}: the single-attempt clients made with it
_SINGLE = weakref.WeakKeyDictionary()


def single_attempt_client(boto_session, service, region, purpose):
    """A client of ``service`` in ``region`` made from ``boto_session`` without botocore's own retries (its
    caller retries what it wants to: a preflight retries throttling only, and does not wait on an
    endpoint that is down or slow: :data:`QUICK_TIMEOUTS`), shared by every caller with that boto3
    session; ``purpose`` goes into the user agent."""
    with _LOCK:
        made = _SINGLE.setdefault(boto_session, {})
        client = made.get((service, region, purpose))
        if client is None:
            config = botocore.config.Config(retries={"mode": "standard", "total_max_attempts": 1},
                                            user_agent_extra="%s %s" % (USER_AGENT, purpose), **QUICK_TIMEOUTS)
            client = made[(service, region, purpose)] = boto_session.client(service, region_name=region, config=config)
        return client


class Clients(object):
    """The clients of one ``boto_session`` in ``region``, by name, each made on first use (thread-safe).

    A given ``sagemaker_client`` serves ``"sagemaker"``, ``"sagemaker-poll"`` and ``"sagemaker-quick"``."""

    def __init__(self, boto_session, region, sagemaker_client=None):
        self.boto_session = boto_session
        self.region = region
        self._made = {}
        self._lock = threading.Lock()
        if sagemaker_client is not None:
            self._made["sagemaker"] = self._made["sagemaker" + _POLL] = sagemaker_client
            self._made["sagemaker" + _QUICK] = sagemaker_client

    def client(self, name):
        """The client ``name``: a service's name, ``"<service>-poll"`` for its polling client, or
        ``"<service>-quick"`` for its single-attempt one (:func:`single_attempt_client`, shared)."""
        if name.endswith(_QUICK) and name not in self._made:
            return single_attempt_client(self.boto_session, name[:-len(_QUICK)], self.region, "preflight")
        with self._lock:
            client = self._made.get(name)
            if client is None:
                service, defaults = (name[:-len(_POLL)], POLL_RETRIES) if name.endswith(_POLL) else (name, RETRIES)
                config = botocore.config.Config(retries=retries(self.boto_session, defaults),
                                                user_agent_extra=USER_AGENT)
                client = self._made[name] = self.boto_session.client(service, region_name=self.region, config=config)
            return client
