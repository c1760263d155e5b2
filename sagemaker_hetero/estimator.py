"""Estimators: describe a training job, validate it, dry-run it or start it.

The names and arguments are those of the SageMaker Python SDK v2, so code written for it runs
after changing ``sagemaker`` to ``sagemaker_hetero`` in its imports.

One way through, for the constructor, a dry run, AWS and a local run alike (``_runner``): one job
model, one plan rendered and checked once, run by the one executor. Internal but stable, for the tuner,
pipeline steps and the CLI: :attr:`EstimatorBase.framework`, :meth:`EstimatorBase.job_settings`,
:attr:`EstimatorBase.given_session`, :meth:`EstimatorBase.allowed_arguments` and
:attr:`EstimatorBase.current_job_name` (docs/architecture.md).
"""
import time
from typing import Any, Dict, List, Optional, Union

from sagemaker_hetero import _defaults as D
from sagemaker_hetero import _runner
from sagemaker_hetero._aws import sdk_config
from sagemaker_hetero._capacity import dry_run as _dry_run
from sagemaker_hetero._checks.rules import did_you_mean
from sagemaker_hetero._model import build as _build
from sagemaker_hetero._model import choices as _choices
from sagemaker_hetero._model import record
from sagemaker_hetero._model import variables as _variables
from sagemaker_hetero._model.docstrings import documented
from sagemaker_hetero._model.keywords import keywords_checked
from sagemaker_hetero._model.arguments import ESTIMATOR_FIELDS
from sagemaker_hetero._request import names as _names
from sagemaker_hetero.exceptions import ConfigError, Problem
from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup

__all__ = ["Estimator", "EstimatorBase", "Framework"]

_LOGS = (True, False, "All", "None", "Training", "Rules")
# Settings whose SageMaker Python SDK v2 name is a method; their values live under these names.
_PRIVATE = dict((name, "_" + name) for name in ("sagemaker_session", "hyperparameters", "enable_network_isolation",
                                                "enable_remote_debug", "enable_session_tag_chaining"))


def _fit_problems(session, logs, dry_run, preflight):
    """The problems of ``fit``'s own arguments with ``session``: ``logs``, the region a submission needs,
    ``preflight`` (the default is always right: a dry run then imports no preflight code)."""
    found = []
    if logs not in _LOGS:
        found.append(Problem("logs", "must be one of %s" % ", ".join(map(repr, _LOGS)), logs))
    if not dry_run:
        found.extend(_names.region_problems(_runner.session_facts(session).region, "sagemaker_session"))
    if preflight is not None:
        from sagemaker_hetero._preflight import modes

        found.extend(modes.problems(preflight, _runner.is_session(session) and session.local_mode, dry_run))
    return found


def _checked(settings, session, now, found=(), path_exists=_runner.local_path_exists, **kwargs):
    """THE estimator's settings -> checked job (``path_exists``: this machine's): the runner's checked
    plan, rendered once; raises :class:`ConfigError` with every problem."""
    return _runner.checked_plan(settings, session, now, path_exists=path_exists, found=found, **kwargs)


class EstimatorBase(object):
    """What every estimator shares. Use :class:`Estimator`, ``PyTorch`` or ``TensorFlow``.

    Each estimator's ``__init__`` names every argument it takes, with the SageMaker Python SDK v2's
    names, order and defaults; an argument it does not know is a ``TypeError`` naming the closest one.
    """

    #: None (the generic Estimator), ``"pytorch"`` or ``"tensorflow"``
    framework = None
    _signatures = {}
    _told = None  # problems -> problems: how fit and preflight tell their check's problems (a CLI spec's paths)

    def _setup(self, arguments):
        """Keep an ``__init__``'s arguments (its ``locals()``) as the SDK v2 keeps them, refuse unknown
        keywords, and check the job (all but what ``fit`` can still change)."""
        arguments = dict(arguments)
        arguments.pop("self", None)
        arguments.pop("__class__", None)
        session = arguments.get("sagemaker_session")
        self._config_tags = sdk_config.apply(arguments, session.sagemaker_config if _runner.is_session(session)
                                             else None)
        for name, value in arguments.items():
            setattr(self, _PRIVATE.get(name, name), value)
        if self._hyperparameters is None:
            self._hyperparameters = {}
        elif isinstance(self._hyperparameters, dict):
            self._hyperparameters = dict(self._hyperparameters)
        self.latest_training_job = None
        #: the channels (``{name: TrainingInput or URI}``) of the latest ``fit`` or ``attach``
        self.latest_inputs = None
        self._current_job_name = None
        if _runner.check_deferred():  # the job's one check is its fit's or preflight's (the CLI's)
            return
        _checked(self.job_settings(), self._sagemaker_session, time.time(), path_exists=None,
                 later=_runner.FIT_DECIDES, digest=False)
        if "distribution" in self.__dict__:  # kept as the SDK v2 keeps it, once checked
            self.distribution = _build.sdk_distribution(self.framework, self.distribution, self.instance_groups)

    @property
    def sagemaker_session(self):
        """The session jobs go through. As in the SDK v2 there always is one: without one given, a
        ``Session()`` is made the first time it is asked for (a dry run does not ask: no boto3)."""
        if self._sagemaker_session is None:
            from sagemaker_hetero.session import Session

            self._sagemaker_session = Session()
        return self._sagemaker_session

    @sagemaker_session.setter
    def sagemaker_session(self, value):
        self._sagemaker_session = value

    @property
    def given_session(self):
        """The session given (None: none yet), without making one as :attr:`sagemaker_session` does."""
        return self._sagemaker_session

    @property
    def current_job_name(self):
        """The name of the latest job: started, attached, or named by a dry run (None: none yet)."""
        return self._current_job_name

    @current_job_name.setter
    def current_job_name(self, value):
        self._current_job_name = value

    @classmethod
    def allowed_arguments(cls):
        """The names of the arguments this estimator takes."""
        if cls not in EstimatorBase._signatures:
            import inspect  # not at import: a dry run never needs it

            names = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
            EstimatorBase._signatures[cls] = frozenset(names)
        return EstimatorBase._signatures[cls]

    # -- the SageMaker Python SDK v2's accessors -----------------------------------------------

    def hyperparameters(self):
        """The user's hyperparameters (without the SDK's own keys)."""
        return dict(self._hyperparameters) if isinstance(self._hyperparameters, dict) else self._hyperparameters

    def set_hyperparameters(self, **kwargs):
        """Add hyperparameters to the estimator's, or change them, as the SageMaker Python SDK v2 does.

        Parameters
        ----------
        **kwargs
            The hyperparameters, by name.
        """
        self._hyperparameters.update(kwargs)

    def enable_network_isolation(self):
        """Whether the job runs without network access (the SageMaker Python SDK v2's accessor)."""
        return bool(self._enable_network_isolation)

    def get_remote_debug_config(self):
        """``{"EnableRemoteDebug": ...}`` as the request holds it, or None (the SDK v2's accessor)."""
        return None if self._enable_remote_debug is None else {"EnableRemoteDebug": self._enable_remote_debug}

    def get_session_chaining_config(self):
        """``{"EnableSessionTagChaining": ...}`` as the request holds it, or None (the SDK v2's accessor)."""
        value = self._enable_session_tag_chaining
        return None if value is None else {"EnableSessionTagChaining": value}

    def enable_remote_debug(self):
        """Turn remote debugging on for the latest (running) job: UpdateTrainingJob."""
        self._update_remote_debug(True)

    def disable_remote_debug(self):
        """Turn remote debugging off for the latest (running) job: UpdateTrainingJob."""
        self._update_remote_debug(False)

    def _update_remote_debug(self, enabled):
        job = self._latest_job()
        job.sagemaker_session.update_training_job(job.name, remote_debug_config={"EnableRemoteDebug": enabled})
        self._enable_remote_debug = enabled

    def _latest_job(self):
        if self.latest_training_job is None:
            raise ValueError("the estimator has no training job yet: call fit() or attach() first")
        return self.latest_training_job

    def get_app_url(self, app_type, open_in_default_web_browser=True, create_presigned_domain_url=False,
                    domain_id=None, user_profile_name=None, optional_create_presigned_url_kwargs=None):
        """The URL of SageMaker Studio's TensorBoard app with the latest job in it (the SDK v2's method).

        Inside Studio it opens the app of Studio's own domain; outside, a presigned domain URL, else
        the console's TensorBoard landing page.

        Parameters
        ----------
        app_type : str or SupportedInteractiveAppTypes
            The app: TensorBoard is the one there is.
        open_in_default_web_browser : bool, default True
            Open the URL in a browser and return ``""``.
        create_presigned_domain_url : bool, default False
            Outside Studio, make a presigned domain URL (with ``domain_id`` and ``user_profile_name``).
        domain_id : str, optional
            The Studio domain of the presigned URL.
        user_profile_name : str, optional
            The user profile of the presigned URL.
        optional_create_presigned_url_kwargs : dict, optional
            More arguments of CreatePresignedDomainUrl, e.g. ``{"ExpiresInSeconds": 300}``.

        Returns
        -------
        str
            The URL, or ``""`` once opened in a browser.
        """
        from sagemaker_hetero._aws import apps

        region = _names.known_region(_runner.session_facts(self._sagemaker_session).region)
        return apps.app_url(app_type, region, self._current_job_name, lambda: self.sagemaker_session,
                            open_in_default_web_browser, create_presigned_domain_url, domain_id, user_profile_name,
                            optional_create_presigned_url_kwargs)

    @property
    def model_data(self):
        """The S3 URI of the latest job's model artifacts (``model.tar.gz``), once it has completed."""
        desc = self._latest_job().describe()
        return (desc.get("ModelArtifacts") or {}).get("S3ModelArtifacts")

    # -- building the request ------------------------------------------------------------------

    def job_settings(self, inputs=None, job_name=None, experiment_config=None):
        """The ``JobSettings`` of this estimator's arguments with ``fit``'s (internal but stable).

        Parameters
        ----------
        inputs : str, TrainingInput or dict, optional
            ``fit``'s inputs.
        job_name : str, optional
            ``fit``'s job name.
        experiment_config : dict, optional
            ``fit``'s experiment configuration.
        """
        values = {}
        for name in ESTIMATOR_FIELDS:
            attr = _PRIVATE.get(name, name)
            if attr in self.__dict__:
                values[name] = self.__dict__[attr]
        values["config_tags"] = self._config_tags
        return _build.settings(self.framework, values, inputs, job_name, experiment_config)

    def fit(
        self,
        inputs: Optional[Union[str, TrainingInput, Dict[str, Union[str, TrainingInput]]]] = None,
        wait: bool = True,
        logs: Union[bool, str] = "All",
        job_name: Optional[str] = None,
        experiment_config: Optional[Dict[str, str]] = None,
        dry_run: bool = False,
        preflight: Any = None,
    ) -> Optional[Dict[str, Any]]:
        """Start the training job (then ``latest_training_job``), or with ``dry_run=True`` return its request
        unsent. Everything is checked first: a ``ConfigError`` lists every problem, and nothing is sent
        unless the request is valid.

        Parameters
        ----------
        inputs : str, TrainingInput or dict, optional
            The channels: one S3 URI or ``TrainingInput`` (the channel ``"training"``), or a dict of
            channel name to either. In a local run, ``file://`` URIs are folders of this machine.
        wait : bool, default True
            Wait for the job to end (an error if it does not complete); with instance groups' alternatives, a
            job that fails for capacity is followed by one with the next choice (docs/capacity.md).
        logs : bool or str, default 'All'
            The logs shown while waiting: ``"All"`` (True), ``"None"`` (False), ``"Training"``, ``"Rules"``.
        job_name : str, optional
            The job's name, in place of one made from ``base_job_name`` and a timestamp.
        experiment_config : dict, optional
            The SageMaker Experiments run the job belongs to.
        dry_run : bool, default False
            Send nothing: return the CreateTrainingJob request (a dict that also shows the cluster).
        preflight : bool, str or list, optional
            On AWS, check the job against the account before anything is uploaded or created
            (docs/preflight.md): by default (None) its quotas and role, with the answers kept by the
            session; ``True`` every check; ``"warn"`` every check, problems printed without stopping;
            a list of check names those; ``False`` none. A problem raises :class:`PreflightError`.

        Returns
        -------
        dict or None
            The request of a dry run, else None.
        """
        session = self._sagemaker_session
        found = _fit_problems(session, logs, dry_run, preflight)
        now = time.time()
        settings = self.job_settings(inputs, job_name, experiment_config)
        found.extend(_variables.outside_pipeline(settings))
        if session is None and not dry_run and not found:  # a submission's session, made before its facts
            session = self.sagemaker_session
        plan = _checked(settings, session, now, found, submit=not dry_run, told=self._told)
        self.latest_inputs = dict(settings.channels) or None
        if dry_run:
            self._current_job_name = plan.job_name
            return _dry_run.rendered(plan, settings)
        self._submit(session, plan, preflight, settings, wait, logs)
        return None

    def _submit(self, session, plan, preflight, settings, wait, logs):
        """Start the checked ``plan`` through ``session`` (the runner's one path, after the preflight), waiting
        when asked; with alternatives or capacity_wait, through the failover (``_capacity.failover``)."""
        from sagemaker_hetero._capacity import failover

        if failover.applies(session, settings, plan.job):
            return failover.submit(session, plan, settings, preflight, wait, logs, on_started=self._now_latest)
        started = self._now_latest(_runner.execute(session, plan, preflight))
        if wait:
            started.wait(logs=logs)

    def _now_latest(self, started):
        self._current_job_name = started.name
        self.latest_training_job = started
        self._started(started)
        return started

    # -- what a job will cost, and what changed since another --------------------------------

    def _dry_plan(self, inputs=None, job_name=None, experiment_config=None, account_id=None):
        """The plan ``fit(dry_run=True)`` renders (``inputs`` default: the latest ``fit``'s), with no
        side effect on the estimator; ``account_id`` stands in for an account the session has not looked up."""
        session = self._sagemaker_session
        facts = _runner.session_facts(session)
        found = _names.region_problems(facts.region, "sagemaker_session", placeholder_ok=True)
        if facts.account_id is None and account_id is not None:
            facts = record.evolve(facts, account_id=account_id)
        now = time.time()
        settings = self.job_settings(self.latest_inputs if inputs is None else inputs, job_name, experiment_config)
        return _checked(settings, session, now, found, facts=facts)

    def estimate_cost(self, inputs=None, prices=None, fetch=True):
        """What the job would cost, per instance group (see docs/cost.md): count x on-demand USD per
        hour, and the worst case at ``max_run`` (plus a warm pool's keep-alive); "unknown" for a group
        without a price, never a guess. Nothing is created or uploaded.

        Parameters
        ----------
        inputs : str, TrainingInput or dict, optional
            The channels, as ``fit`` takes them (default: the latest ``fit``'s).
        prices : str or dict, optional
            A price file's path, or a mapping of instance type to USD per hour, read first (default:
            the file ``SAGEMAKER_HETERO_PRICES`` names); then the cache.
        fetch : bool, default True
            Read prices missing from both from the AWS Price List (pricing:GetProducts; a failure makes
            them unknown, never an error).

        Returns
        -------
        Estimate
            Per group and in all: ``groups``, ``hourly_usd``, ``worst_case_usd``, ``text()``, ``to_dict()``.
        """
        from sagemaker_hetero._aws.pricing import estimate_of

        plan = self._dry_plan(inputs)
        session = self._sagemaker_session
        boto_session = session.boto_session if fetch and _runner.is_session(session) else None
        others = _choices.alternative_rows(self.job_settings(self.latest_inputs if inputs is None else inputs))
        return estimate_of(plan.request, plan.region, prices, fetch, boto_session, alternatives=others)

    def diff(self, job_name_or_request, inputs=None):
        """What differs between this estimator's request (``fit(inputs, dry_run=True)``'s) and a previous
        job's, field by field in request terms (see docs/cost.md). The job name, timestamps and what
        derives from them are no difference; the code key differs only when the code does.

        Parameters
        ----------
        job_name_or_request : str or dict
            A training job's name (described, and read back as ``attach`` reads it), or a saved request.
        inputs : str, TrainingInput or dict, optional
            The channels, as ``fit`` takes them (default: the latest ``fit``'s).

        Returns
        -------
        Diff
            ``changes``, ``paths``, ``equal``, ``text()``, ``to_dict()``.
        """
        from sagemaker_hetero._cost import diff

        if isinstance(job_name_or_request, str):
            old = diff.described(self.sagemaker_session.describe_training_job, job_name_or_request)
            against = "job %s" % job_name_or_request
        elif isinstance(job_name_or_request, dict):
            old, against = job_name_or_request, "the request given"
        else:
            raise ConfigError([Problem("job_name_or_request", "must be a training job's name or a request (a dict)",
                                       job_name_or_request)])
        plan = self._dry_plan(inputs, account_id=diff.account_of(old))
        return _runner.diffed(old, plan, against)

    def preflight(self, inputs=None, job_name=None, experiment_config=None, checks=None):
        """Check the job ``fit(inputs, ...)`` would start against the AWS account, without uploading or
        creating anything: quotas, role, image, KMS keys, data and buckets, network (docs/preflight.md).

        Parameters
        ----------
        inputs : str, TrainingInput or dict, optional
            The channels, as ``fit`` takes them.
        job_name : str, optional
            The job's name, as ``fit`` takes it.
        experiment_config : dict, optional
            The SageMaker Experiments run, as ``fit`` takes it.
        checks : list of str, optional
            The checks to make (default: all of ``sagemaker_hetero.preflight.CHECKS``).

        Returns
        -------
        PreflightReport
            ``ok``, ``problems``, ``unknowns``; ``print(report)`` shows a table.
        """
        from sagemaker_hetero._preflight import gate, modes, run

        session = self.sagemaker_session
        chosen = modes.checks_of(True if checks is None else list(checks) if isinstance(checks, (list, tuple))
                                  else checks)
        found = [] if chosen else [Problem("checks", "must be a list of checks among %s" % ", ".join(modes.CHECKS),
                                           checks)]
        if not gate.is_aws(session):
            found.append(Problem("sagemaker_session", "a preflight checks a job against an AWS account: pass a "
                                                      "Session, not a local one", session))
        now = time.time()
        plan = _checked(self.job_settings(inputs, job_name, experiment_config), session, now, found, digest=False,
                        lookup=run.looked_up(session), told=self._told)
        return run.run(session, plan, chosen, begun=True)

    def _started(self, job):
        """What the SDK v2 keeps of a job it started, beyond its name (a framework estimator's own)."""

    # -- jobs started elsewhere, logs, and how an estimator shows itself ------------------------

    @classmethod
    def attach(cls, training_job_name: str, sagemaker_session: Optional[Any] = None,
               model_channel_name: str = D.MODEL_CHANNEL) -> "EstimatorBase":
        """An estimator rebuilt from an existing training job (the SageMaker Python SDK v2's ``attach``).

        The job is described once: instance groups (in order), channels with their instance groups
        (``latest_inputs``), distribution and its group, framework and Python versions (from the
        image tag), entry point and code (the job's ``sourcedir.tar.gz`` in S3), hyperparameters,
        role, output, volume, limits, VPC and the rest. ``latest_training_job`` is the job, so
        ``.wait()``, ``.logs()`` or ``.describe()`` work on it, and
        ``fit(estimator.latest_inputs, job_name=..., dry_run=True)`` renders the job's request again.
        Tags are not part of a job's description and are not restored.

        Parameters
        ----------
        training_job_name : str
            The job.
        sagemaker_session : Session, optional
            The session to describe it with (default: a new ``Session()``).
        model_channel_name : str, default 'model'
            The name of the job's model channel, if it has one (``model_uri``).

        Returns
        -------
        EstimatorBase
            An estimator of this class.
        """
        from sagemaker_hetero._request import describe
        from sagemaker_hetero._aws.training_job import TrainingJob
        from sagemaker_hetero._cost import diff

        if sagemaker_session is None:
            from sagemaker_hetero.session import Session

            sagemaker_session = Session()
        desc = diff.described(sagemaker_session.describe_training_job, training_job_name)
        wrong = diff.type_problems(desc)
        if wrong:
            raise ConfigError(wrong, "job %s" % training_job_name)
        job = describe.job_from_description(desc, framework=cls.framework, region=sagemaker_session.boto_region_name,
                                            model_channel_name=model_channel_name)
        kwargs, inputs = _build.arguments(job)
        allowed = cls.allowed_arguments()
        estimator = cls(sagemaker_session=sagemaker_session, **dict((k, v) for k, v in kwargs.items() if k in allowed))
        estimator.latest_inputs = inputs
        estimator.latest_training_job = TrainingJob(sagemaker_session, training_job_name, framework=cls.framework,
                                                    failure=sagemaker_session.job_failure)
        estimator._current_job_name = training_job_name
        return estimator

    def logs(self, instance_groups=None):
        """Print the latest job's logs until it ends, each line labelled ``[<group>/<host>]`` (docs/logs.md).

        Parameters
        ----------
        instance_groups : list of str, optional
            Show only these groups' hosts (default: every group's).
        """
        job = self._latest_job()
        if hasattr(job, "logs"):
            return job.logs(follow=True, instance_groups=instance_groups)
        return job.wait(logs="All")

    def _view(self):
        facts = _runner.session_facts(self._sagemaker_session)
        title = "%s estimator" % type(self).__name__
        if self.latest_training_job is not None:
            title += " (latest job: %s)" % self._current_job_name
        elif self._current_job_name:  # named by a dry run: nothing started
            title += " (dry run of %s; no job started)" % self._current_job_name
        # the job as the planner builds it (its problems are the checks'), as the session's facts show it
        job = _runner.planned(self.job_settings(self.latest_inputs), None, facts=facts, digest=False)[0]
        from sagemaker_hetero._request import view

        return view.view_of_job(job, title, facts)

    def describe_cluster(self):
        """The cluster as a text table: each instance group's type and count, the channels it
        receives and which group runs the distributed launcher, then the image and the output."""
        return self._view().text()

    def __repr__(self):
        try:
            return self.describe_cluster()
        except Exception:  # noqa: BLE001 - repr never fails
            return "<%s estimator>" % type(self).__name__

    def _repr_html_(self):
        try:
            return self._view().html()
        except Exception:  # noqa: BLE001 - a notebook falls back to repr
            return None


@documented
class Estimator(EstimatorBase):
    """A training job that runs your own image (``image_uri``), with or without an entry point.

    Describe the cluster with ``instance_type`` and ``instance_count``, or with ``instance_groups`` (a
    list of ``InstanceGroup``) for a heterogeneous one. ``fit(inputs)`` starts the job, and
    ``fit(inputs, dry_run=True)`` returns its CreateTrainingJob request without sending anything.
    Every argument is checked before anything is sent: a ``ConfigError`` lists every problem at once,
    and an unknown keyword is a ``TypeError`` naming the closest argument.
    """

    @keywords_checked
    def __init__(
        self,
        image_uri: Optional[str] = None,
        role: Optional[str] = None,
        instance_count: Optional[int] = None,
        instance_type: Optional[str] = None,
        keep_alive_period_in_seconds: Optional[int] = None,
        volume_size: int = D.VOLUME_SIZE_GB,
        volume_kms_key: Optional[str] = None,
        max_run: int = D.MAX_RUN_SECONDS,
        input_mode: str = D.INPUT_MODE,
        output_path: Optional[str] = None,
        output_kms_key: Optional[str] = None,
        base_job_name: Optional[str] = None,
        sagemaker_session: Optional[Any] = None,
        hyperparameters: Optional[Dict[str, Any]] = None,
        tags: Optional[Union[List[Dict[str, str]], Dict[str, str]]] = None,
        subnets: Optional[List[str]] = None,
        security_group_ids: Optional[List[str]] = None,
        model_uri: Optional[str] = None,
        model_channel_name: str = D.MODEL_CHANNEL,
        metric_definitions: Optional[List[Dict[str, str]]] = None,
        encrypt_inter_container_traffic: Optional[bool] = None,
        use_spot_instances: bool = False,
        max_wait: Optional[int] = None,
        checkpoint_s3_uri: Optional[str] = None,
        checkpoint_local_path: Optional[str] = None,
        enable_network_isolation: Optional[bool] = None,
        *,
        debugger_hook_config: Optional[Union[bool, Dict[str, Any]]] = None,
        enable_sagemaker_metrics: Optional[bool] = None,
        profiler_config: Optional[Dict[str, Any]] = None,
        disable_profiler: bool = False,
        environment: Optional[Dict[str, str]] = None,
        max_retry_attempts: Optional[int] = None,
        source_dir: Optional[str] = None,
        container_log_level: int = D.CONTAINER_LOG_LEVEL,
        code_location: Optional[str] = None,
        entry_point: Optional[str] = None,
        dependencies: Optional[List[str]] = None,
        instance_groups: Optional[List[InstanceGroup]] = None,
        training_repository_access_mode: Optional[str] = None,
        training_repository_credentials_provider_arn: Optional[str] = None,
        container_entry_point: Optional[List[str]] = None,
        container_arguments: Optional[List[str]] = None,
        disable_output_compression: bool = False,
        enable_infra_check: Optional[bool] = None,
        enable_remote_debug: Optional[bool] = None,
        enable_session_tag_chaining: Optional[bool] = None,
        training_plan: Optional[str] = None,
        instance_placement_config: Optional[Dict[str, Any]] = None,
        job_name: Optional[str] = None,
        capacity_wait: float = 0,
        capacity_attempts: Optional[int] = None,
    ) -> None:
        self._setup(locals())


class Framework(EstimatorBase):
    """Base of the framework estimators: an entry point run in a deep learning container."""
