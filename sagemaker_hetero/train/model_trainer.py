"""SageMaker Python SDK v3's ``ModelTrainer`` (``sagemaker.train.model_trainer``), on this package's one path.

``ModelTrainer(...)`` takes SDK v3's keyword-only arguments, names and defaults; ``train()`` sends the
CreateTrainingJob request SDK v3 sends (docs/v3.md: the same fields, the code and driver channels
ours), after every check of this package, and ``train(dry_run=True)`` returns that request without
an upload, an AWS call or credentials. The job is the generic SDK v2 estimator's to the runner
(``train/_settings.py``), so preflight, cost, diff, logs by group and local runs serve it unchanged.
"""
import enum
import functools
import time
import warnings
from typing import Any, Dict, List, Optional, Union

from sagemaker_hetero import _runner
from sagemaker_hetero._model import build as _build
from sagemaker_hetero.core.training.configs import (CheckpointConfig, Compute, InfraCheckConfig, InputData,
                                                    MetricDefinition, Networking, OutputDataConfig,
                                                    RemoteDebugConfig, RetryStrategy, SessionChainingConfig,
                                                    SourceCode, StoppingCondition, Tag, TensorBoardOutputConfig,
                                                    TrainingImageConfig, parameters_section)
from sagemaker_hetero.exceptions import ConfigError, PreflightError, Problem, UnexpectedStatusException
from sagemaker_hetero.train import _settings
from sagemaker_hetero.train import _upload
from sagemaker_hetero.train.distributed import SMP, DistributedConfig

__all__ = ["Mode", "ModelTrainer"]


class Mode(enum.Enum):
    """Where ``train`` runs the job: SageMaker (default), or this machine (this package's local cluster)."""

    LOCAL_CONTAINER = "LOCAL_CONTAINER"
    SAGEMAKER_TRAINING_JOB = "SAGEMAKER_TRAINING_JOB"


#: ModelTrainer arguments the facade does not carry, and what they are.
_NOT_CARRIED = (("algorithm_name", "a marketplace algorithm (algorithm_name)"),
                ("model_package_config", "a model package (model_package_config)"),
                ("config_mgr", "a SageMakerConfig manager (config_mgr)"))
_HETERO_WARNING = ("%s without instance_group_names runs on every host of a heterogeneous job, as in SDK v3: %s. "
                   "Pass instance_group_names=[...] to launch it on one group only (docs/v3.md).")


class ModelTrainer(object):
    """A training job described with SDK v3's configuration classes (see ``help(ModelTrainer.__init__)``).

    ``train(input_data_config)`` starts it (``latest_training_job`` then), ``train(..., dry_run=True)``
    returns its CreateTrainingJob request unsent. Everything is checked first: a ``ConfigError`` lists
    every problem, each under the ModelTrainer argument it comes from.
    """

    _told = None  # problems -> problems: how train and preflight tell their check's problems (a CLI spec's)

    def __init__(
        self,
        *,
        training_mode: Mode = Mode.SAGEMAKER_TRAINING_JOB,
        sagemaker_session: Optional[Any] = None,
        role: Optional[str] = None,
        base_job_name: Optional[str] = None,
        input_s3_key_prefix: Optional[str] = None,
        source_code: Optional[SourceCode] = None,
        distributed: Optional[DistributedConfig] = None,
        compute: Optional[Compute] = None,
        networking: Optional[Networking] = None,
        stopping_condition: Optional[StoppingCondition] = None,
        training_image: Optional[str] = None,
        training_image_config: Optional[TrainingImageConfig] = None,
        algorithm_name: Optional[str] = None,
        output_data_config: Optional[OutputDataConfig] = None,
        input_data_config: Optional[List[InputData]] = None,
        checkpoint_config: Optional[CheckpointConfig] = None,
        training_input_mode: Optional[str] = "File",
        environment: Optional[Dict[str, str]] = None,
        hyperparameters: Optional[Union[Dict[str, Any], str]] = None,
        tags: Optional[List[Tag]] = None,
        local_container_root: Optional[str] = None,
        model_package_config: Optional[Any] = None,
        config_mgr: Optional[Any] = None,
    ) -> None:
        self.training_mode = training_mode
        self.sagemaker_session = sagemaker_session
        self.role = role
        self.input_s3_key_prefix = input_s3_key_prefix
        self.source_code = source_code
        self.distributed = distributed
        self.compute = compute
        self.networking = networking
        self.stopping_condition = stopping_condition
        self.training_image = training_image
        self.training_image_config = training_image_config
        self.algorithm_name = algorithm_name
        self.output_data_config = output_data_config
        self.input_data_config = input_data_config
        self.checkpoint_config = checkpoint_config
        self.training_input_mode = training_input_mode
        self.environment = dict(environment) if isinstance(environment, dict) else ({} if environment is None
                                                                                  else environment)
        self.hyperparameters = {} if hyperparameters is None else hyperparameters
        self.tags = tags
        self.local_container_root = local_container_root
        self.model_package_config = model_package_config
        self.config_mgr = config_mgr
        self.base_job_name = _settings.base_job_name(base_job_name, training_image)
        self._latest_training_job = None
        self._metric_definitions = None  # type: Optional[List[MetricDefinition]]
        self._retry_strategy = None  # type: Optional[RetryStrategy]
        self._infra_check_config = None  # type: Optional[InfraCheckConfig]
        self._remote_debug_config = None  # type: Optional[RemoteDebugConfig]
        self._session_chaining_config = None  # type: Optional[SessionChainingConfig]
        self._tensorboard_output_config = None  # type: Optional[TensorBoardOutputConfig]
        self._checked_now()

    def _checked_now(self):
        """Every problem, at construction (unless left to ``train``'s or ``preflight``'s one check, the
        CLI's: ``_runner.one_check``)."""
        self._hyperparameters_file()
        if not _runner.check_deferred():
            self._planned(None, self._session(dry_run=True), time.time(), submit=False)

    # -- SDK v3's builders: each sets a request field and returns the trainer ------------------

    def with_checkpoint_config(self, checkpoint_config: Optional[CheckpointConfig] = None) -> "ModelTrainer":
        """Keep checkpoints (default: ``CheckpointConfig()``, in S3 under the job's prefix)."""
        self.checkpoint_config = checkpoint_config if checkpoint_config is not None else CheckpointConfig()
        return self

    def with_metric_definitions(self, metric_definitions: List[MetricDefinition]) -> "ModelTrainer":
        """Read these metrics from the logs."""
        self._metric_definitions = metric_definitions
        return self

    def with_retry_strategy(self, retry_strategy: RetryStrategy) -> "ModelTrainer":
        """Retry the job after an internal error."""
        self._retry_strategy = retry_strategy
        return self

    def with_infra_check_config(self, infra_check_config: Optional[InfraCheckConfig] = None) -> "ModelTrainer":
        """Run the service's infrastructure checks first (default: on)."""
        self._infra_check_config = infra_check_config or InfraCheckConfig(**_settings.enabled(InfraCheckConfig))
        return self

    def with_remote_debug_config(self, remote_debug_config: Optional[RemoteDebugConfig] = None) -> "ModelTrainer":
        """Allow remote debugging (default: on)."""
        self._remote_debug_config = remote_debug_config or RemoteDebugConfig(**_settings.enabled(RemoteDebugConfig))
        return self

    def with_session_chaining_config(self, session_chaining_config: Optional[SessionChainingConfig] = None
                                     ) -> "ModelTrainer":
        """Chain the session tags of the job's role (default: on)."""
        self._session_chaining_config = session_chaining_config or SessionChainingConfig(
            **_settings.enabled(SessionChainingConfig))
        return self

    def with_tensorboard_output_config(self, tensorboard_output_config: Optional[TensorBoardOutputConfig] = None
                                       ) -> "ModelTrainer":
        """TensorBoard output: not carried by this package (``train`` refuses it, naming SDK v3)."""
        self._tensorboard_output_config = tensorboard_output_config or TensorBoardOutputConfig()
        return self

    @classmethod
    def from_recipe(cls, *args, **kwargs):
        """Recipes are SDK v3's alone: refused, naming the package."""
        raise ConfigError([_settings.not_carried("from_recipe", "a training recipe", kwargs.get("training_recipe"))])

    @classmethod
    def from_jumpstart_config(cls, *args, **kwargs):
        """JumpStart models are SDK v3's alone: refused, naming the package."""
        raise ConfigError([_settings.not_carried("from_jumpstart_config", "a JumpStart model",
                                                 kwargs.get("jumpstart_config"))])

    # -- the job -----------------------------------------------------------------------------

    @classmethod
    def attach(cls, training_job_name: str, sagemaker_session: Optional[Any] = None) -> "ModelTrainer":
        """A trainer rebuilt from an existing training job, its ``latest_training_job`` that job
        (``wait``, ``logs``, ``describe``); ``train(dry_run=True)`` renders its request again. The source
        code and distribution come back from the job's driver files (this package's); tags do not.

        Parameters
        ----------
        training_job_name : str
            The job.
        sagemaker_session : Session, optional
            The session to describe it with (default: a new ``Session()``).
        """
        from sagemaker_hetero._aws.training_job import TrainingJob
        from sagemaker_hetero._cost import diff
        from sagemaker_hetero._request import s3_uris
        from sagemaker_hetero.train import _attach

        if sagemaker_session is None:
            from sagemaker_hetero.session import Session

            sagemaker_session = Session()
        desc = diff.described(sagemaker_session.describe_training_job, training_job_name)
        read = lambda uri: sagemaker_session.read_s3_file(*s3_uris.parse_s3_uri(uri))  # noqa: E731
        trainer = cls(sagemaker_session=sagemaker_session, **_attach.arguments(desc, read))
        trainer._latest_training_job = TrainingJob(sagemaker_session, training_job_name,
                                                   failure=sagemaker_session.job_failure)
        return trainer

    @property
    def latest_training_job(self):
        """The latest job ``train`` started (a ``TrainingJob``: ``wait``, ``logs``, ``describe``), or None."""
        return self._latest_training_job

    def _hyperparameters_file(self):
        """SDK v3's hyperparameters given as a file's path: read once, JSON, else YAML (as SDK v3 reads it;
        YAML needs PyYAML), within a spec's limits."""
        if not isinstance(self.hyperparameters, str):
            return
        from sagemaker_hetero._checks import text

        path, noun = self.hyperparameters, "hyperparameters file"
        try:
            loaded = text.loads(text.text_of(text.read_bounded(path), path, noun), path, None, noun)
        except OSError as exc:
            raise ConfigError([Problem("hyperparameters", "must be a dict, or the path of a JSON or YAML file "
                                       "holding one: %s" % (exc.strerror or exc), path)])
        except ConfigError as exc:
            raise ConfigError([p.renamed("hyperparameters") for p in exc.problems])
        if not isinstance(loaded, dict):
            raise ConfigError([Problem("hyperparameters", "the file must hold a mapping of names to values (got a "
                                       "%s)" % type(loaded).__name__, path)])
        self.hyperparameters = loaded

    def _own_problems(self, session):
        """What the runner cannot see: arguments not carried, the source code, the distribution's group."""
        found = [_settings.not_carried(name, what, getattr(self, name)) for name, what in _NOT_CARRIED
                 if getattr(self, name) is not None]
        if self._tensorboard_output_config is not None:
            found.append(_settings.not_carried("with_tensorboard_output_config", "TensorBoard output",
                                               self._tensorboard_output_config))
        if not isinstance(self.training_mode, Mode):
            found.append(Problem("training_mode", "must be Mode.SAGEMAKER_TRAINING_JOB or Mode.LOCAL_CONTAINER",
                                 self.training_mode))
        if not self.training_image:
            found.append(Problem("training_image", "must be the training image's URI", self.training_image))
        found.extend(_upload.source_problems(self.source_code, self.distributed, _runner.local_path_exists))
        found.extend(_upload.distributed_problems(self.distributed, self.compute))
        if self.training_mode == Mode.LOCAL_CONTAINER and _runner.is_session(session) and not session.local_mode:
            found.append(Problem("training_mode", "Mode.LOCAL_CONTAINER runs on this machine: pass a LocalSession "
                                 "(or no session), not an AWS Session", self.training_mode))
        return found

    def _session(self, dry_run):
        """The session ``train`` uses: the one given; else a ``LocalSession`` for a local run, a new
        ``Session`` for a submission, none for a dry run (no boto3)."""
        session = self.sagemaker_session
        if session is None and self.training_mode == Mode.LOCAL_CONTAINER:
            from sagemaker_hetero.local import LocalSession

            session = self.sagemaker_session = LocalSession()
        elif session is None and not dry_run:
            from sagemaker_hetero.session import Session

            session = self.sagemaker_session = Session()
        return session

    def _settings(self, inputs, facts, now):
        """``(settings, uploads, problems)``: the job's SDK v2 settings with the facts ``facts``."""
        base = self.base_job_name or "model-trainer-job"
        name = _settings.job_name(base, now)
        managed = _upload.Locations(facts, base, name, self.input_s3_key_prefix, self.local_container_root)
        if facts.local and isinstance(self.source_code, SourceCode):  # a local run's driver folder, written once
            try:
                files = _upload.driver_files(self.source_code, self.distributed)
            except ConfigError:  # told by _own_problems
                files = None
            if files:
                managed.drivers_folder = _upload.local_drivers(files, self.local_container_root)
        values = _settings.values(self, managed.output(), managed.under("checkpoints"), local=facts.local)
        values.update(self._builder_values())
        found = []
        groups = [g.instance_group_name for g in (self.compute.instance_groups or [])
                  if hasattr(g, "instance_group_name")] if self.compute is not None else []
        channels, uploads, more = _settings.channels(_settings.merged(self.input_data_config, inputs), managed.uri,
                                                     groups or None, self.source_code is not None)
        found.extend(more)
        if self.source_code is not None:
            values.update(container_entry_point=_upload.CONTAINER_ENTRYPOINT,
                          container_arguments=_upload.CONTAINER_ARGUMENTS)
            smp = getattr(self.distributed, "smp", None)
            if isinstance(smp, SMP):  # SDK v3: model parallelism's parameters as one hyperparameter
                values["hyperparameters"] = dict(values["hyperparameters"] or {}, **smp._to_mp_hyperparameters())
            channels.extend(_settings.managed_channels(self.source_code, managed.uri, groups or None))
            if self.source_code.source_dir and not str(self.source_code.source_dir).startswith("s3://"):
                uploads[_settings.MANAGED[0]] = self.source_code.source_dir
        values.update(base_job_name=base, job_name=name, distribution_as_given=True,
                      empty_hyperparameters=True)
        settings = _build.settings(None, values, dict(channels) if channels else None)
        return settings, uploads, found

    def _builder_values(self):
        """What the ``with_*`` builders set, as the SDK v2 arguments of their request fields."""
        out = {}
        if self._metric_definitions:
            out["metric_definitions"] = [{"Name": m.name, "Regex": m.regex} if hasattr(m, "regex") else m
                                         for m in self._metric_definitions]
        for config in (self._retry_strategy, self._infra_check_config, self._remote_debug_config,
                       self._session_chaining_config):
            if config is not None:
                _settings.by_request_path((type(config).__name__,), config, out)
        return out

    def _plan(self, inputs, session, now, submit=False, facts=None, with_settings=False):
        """``(job, plan, problems, uploads)``: the runner's planner on this job as ``session`` runs it
        (``facts``: default the session's, without a call), every problem under the v3 argument's name
        (``with_settings``: and the job's settings, fifth)."""
        found = self._own_problems(session)
        facts = _runner.session_facts(session) if facts is None else facts
        settings, uploads, more = self._settings(inputs, facts, now)
        found.extend(more)
        session_ok = session if session is None or _runner.is_session(session) else None
        if session_ok is None and session is not None:
            found.append(Problem("sagemaker_session", "must be a sagemaker_hetero Session or LocalSession", session))
        job, made, problems = _runner.planned(settings, session_ok, now, _runner.local_path_exists, found,
                                              facts=facts, submit=submit, digest=False)
        problems = [_settings.renamed(p) for p in problems]
        return (job, made, problems, uploads, settings) if with_settings else (job, made, problems, uploads)

    def _planned(self, inputs, session, now, submit):
        """``(plan, uploads, settings)``: the job checked and rendered once by the runner, as ``session`` runs it
        (its facts looked up for a submission); raises :class:`ConfigError` with every problem."""
        facts = _bucket_facts(session) if submit and not session.local_mode else None
        _, made, problems, uploads, settings = self._plan(inputs, session, now, submit, facts=facts,
                                                          with_settings=True)
        problems = problems if self._told is None else self._told(problems)
        if problems:
            raise ConfigError(problems)
        if submit and not session.local_mode:  # the default bucket, by name (created if missing, as SDK v3 does)
            from sagemaker_hetero._model import record

            bucket = session.default_bucket()
            if facts is not None and facts.default_bucket == bucket:
                return made, uploads, settings  # rendered once, under the bucket's name
            facts = record.evolve(made.facts, default_bucket=bucket)
            settings, uploads, _ = self._settings(inputs, facts, now)
            made = _runner.checked_plan(settings, session, now, _runner.local_path_exists, facts=facts)
        return made, uploads, settings

    def _warn_every_host(self):
        groups = (self.compute.instance_groups or []) if self.compute is not None else []
        if isinstance(self.distributed, DistributedConfig) and len(groups) > 1 and \
                not getattr(self.distributed, "instance_group_names", None):
            from sagemaker_hetero._model import instance_types

            kinds = [(getattr(g, "instance_group_name", "?"), instance_types.gpu(getattr(g, "instance_type", None)))
                     for g in groups]
            gpus, cpus = [n for n, gpu in kinds if gpu], [n for n, gpu in kinds if not gpu]
            who = ("the CPU hosts of %s join the GPU rendezvous of %s" % (", ".join(cpus), ", ".join(gpus))
                   if gpus and cpus else "the hosts of %s join one rendezvous" % ", ".join(n for n, _ in kinds))
            warnings.warn(_HETERO_WARNING % (type(self.distributed).__name__, who), UserWarning, stacklevel=3)

    def train(self, input_data_config: Optional[List[InputData]] = None, wait: bool = True, logs: bool = True,
              dry_run: bool = False, preflight: Any = None) -> Optional[Dict[str, Any]]:
        """Start the training job, as SDK v3's ``train`` does (None; ``latest_training_job`` then), or with
        ``dry_run=True`` return its CreateTrainingJob request unsent (no upload, no AWS call).

        Parameters
        ----------
        input_data_config : list of InputData, optional
            More channels; one of the constructor's name replaces it.
        wait : bool, default True
            Wait for the job to end; a failed job raises ``FailedStatusError``.
        logs : bool, default True
            Show the logs while waiting, each line labelled ``[<group>/<host>]``.
        dry_run : bool, default False
            Send nothing: return the request (a dict that also shows the cluster).
        preflight : bool, str or list, optional
            This package's preflight before anything is uploaded (docs/preflight.md).
        """
        session = self._session(dry_run)
        now = time.time()
        made, uploads, settings = self._planned(input_data_config, session, now, submit=not dry_run)
        self._warn_every_host()
        if dry_run:
            from sagemaker_hetero._capacity import dry_run as _dry_run

            return _dry_run.rendered(made, settings)
        from sagemaker_hetero._capacity import failover
        from sagemaker_hetero.core.utils.exceptions import FailedStatusError

        drivers = _upload.driver_files(self.source_code, self.distributed)
        before_create = functools.partial(_upload.upload, session, made, uploads, drivers)
        seen = functools.partial(_unseen, names=set(uploads) | {_settings.DRIVERS_CHANNEL})
        try:
            if failover.applies(session, settings, made.job):  # alternatives, capacity_wait (docs/capacity.md)
                failover.submit(session, made, settings, preflight, wait, "All" if logs else "None",
                                on_started=self._started, before_create=before_create, preflight_plan=seen)
                return None
            session.preflight(seen(made), preflight)  # before anything is uploaded
            self._started(_runner.execute(session, made, False, before_create=before_create))
            if wait:
                self._latest_training_job.wait(logs="All" if logs else "None")
        except UnexpectedStatusException as exc:
            raise FailedStatusError.of(exc) from exc
        except PreflightError as exc:  # its findings under the v3 arguments' names
            if exc.report is None:
                raise
            raise _settings.renamed_report(exc.report).error() from None
        except ConfigError as exc:  # what the account lacks (an input bucket), under the v3 arguments' names
            if type(exc) is not ConfigError:
                raise
            raise ConfigError([_settings.renamed(p) for p in exc.problems], exc.subject) from None
        return None

    def _started(self, job):
        self._latest_training_job = job
        return job

    # -- what this package adds: cost, diff, preflight, logs ----------------------------------

    def job_settings(self, input_data_config=None):
        """The job's settings as its dry run makes them (what the failover and the cost estimates read
        the instance groups' alternatives of); raises :class:`ConfigError` with every problem."""
        return self._planned(input_data_config, self.sagemaker_session, time.time(), submit=False)[2]

    def estimate_cost(self, input_data_config=None, prices=None, fetch=True):
        """What the job would cost per instance group (docs/cost.md); nothing is created or uploaded."""
        from sagemaker_hetero._aws.pricing import estimate_of
        from sagemaker_hetero._model import choices

        made, _, settings = self._planned(input_data_config, self.sagemaker_session, time.time(), submit=False)
        session = self.sagemaker_session
        boto_session = session.boto_session if fetch and _runner.is_session(session) else None
        return estimate_of(made.request, made.region, prices, fetch=fetch, boto_session=boto_session,
                           alternatives=choices.alternative_rows(settings))

    def diff(self, job_name_or_request, input_data_config=None):
        """What differs between this trainer's request and a previous job's (docs/cost.md)."""
        from sagemaker_hetero._cost import diff

        if isinstance(job_name_or_request, str):
            old = diff.described(self._aws_session().describe_training_job, job_name_or_request)
            against = "job %s" % job_name_or_request
        elif isinstance(job_name_or_request, dict):
            old, against = job_name_or_request, "the request given"
        else:
            raise ConfigError([Problem("job_name_or_request", "must be a training job's name or a request (a dict)",
                                       job_name_or_request)])
        return _runner.diffed(old, self._diff_plan(input_data_config, diff.account_of(old)), against)

    def _diff_plan(self, input_data_config, account_id):
        """The dry run's plan, in ``account_id`` (the earlier job's) when the session has not looked one up."""
        from sagemaker_hetero._model import record

        session = self.sagemaker_session
        facts = _runner.session_facts(session)
        if facts.account_id is None and account_id is not None:
            facts = record.evolve(facts, account_id=account_id)
        _, made, problems, _ = self._plan(input_data_config, session, time.time(), facts=facts)
        problems = problems if self._told is None else self._told(problems)
        if problems:
            raise ConfigError(problems)
        return made

    def preflight(self, input_data_config=None, checks=None):
        """Check the job against the AWS account without uploading or creating anything (docs/preflight.md)."""
        from sagemaker_hetero._preflight import modes, run

        session = self._aws_session()
        chosen = modes.checks_of(True if checks is None else list(checks) if isinstance(checks, (list, tuple))
                                 else checks)
        now = time.time()
        found = self._own_problems(session)
        if not chosen:
            found.append(Problem("checks", "must be a list of checks among %s" % ", ".join(modes.CHECKS), checks))
        lookup = run.looked_up(session)  # the account asked first: the default bucket's name in the settings
        settings, uploads, more = self._settings(input_data_config, lookup(None), now)
        plan = _runner.checked_plan(settings, session, now, _runner.local_path_exists, found + more, digest=False,
                                    lookup=lookup, told=self._told_as_v3)
        report = run.run(session, _unseen(plan, set(uploads) | {_settings.DRIVERS_CHANNEL}), chosen, begun=True)
        return _settings.renamed_report(report)

    def _told_as_v3(self, problems):
        """``problems`` under the ModelTrainer arguments' names (as ``_plan`` tells them), then as ``_told``."""
        problems = [_settings.renamed(p) for p in problems]
        return problems if self._told is None else self._told(problems)

    def _aws_session(self):
        if self.sagemaker_session is None:
            from sagemaker_hetero.session import Session

            self.sagemaker_session = Session()
        return self.sagemaker_session

    def logs(self, instance_groups=None):
        """Print the latest job's logs until it ends, each line labelled ``[<group>/<host>]``."""
        if self._latest_training_job is None:
            raise ValueError("the trainer has no training job yet: call train() first")
        return self._latest_training_job.logs(follow=True, instance_groups=instance_groups)

    def __repr__(self):
        return "ModelTrainer(training_image=%r, base_job_name=%r)" % (self.training_image, self.base_job_name)


def _bucket_facts(session):
    """The facts a submission's code and driver channels are placed with, when the session already knows its
    default bucket or its account (a later job of the session): the job is then rendered once under it
    (``Facts.bucket``). None otherwise: no AWS call comes before the job's own problems, so the job is checked
    first, then the bucket named and the job rendered under it (a first submission renders twice)."""
    from sagemaker_hetero._model import record

    facts = _runner.session_facts(session)
    if facts.default_bucket is None and (facts.account_id is None or not facts.region):
        return None
    return record.evolve(facts, default_bucket=facts.bucket())


def _unseen(made, names):
    """The plan ``made`` as the preflight checks it: without the channels ``names`` that ``train`` uploads
    after the preflight (the code, the driver, local folders), whose data is not there yet."""
    from sagemaker_hetero._model import record

    return record.evolve(made, job=record.evolve(made.job, channels=tuple(
        c for c in made.job.channels if c.name not in names)))


def _document():
    """Each public method's numpydoc ``Parameters`` section, made from its signature."""
    import inspect

    ModelTrainer.__init__.__doc__ = "Describe a training job with SDK v3's arguments (keyword-only)."
    ModelTrainer.__doc__ = "%s\n\n%s" % (inspect.cleandoc(ModelTrainer.__doc__),
                                          parameters_section(ModelTrainer.__init__))
    for name, value in list(vars(ModelTrainer).items()):
        function = value.__func__ if isinstance(value, classmethod) else value
        if name.startswith("_") or not inspect.isfunction(function) or "Parameters\n---" in (function.__doc__ or ""):
            continue
        if len(inspect.signature(function).parameters) > 1:
            function.__doc__ = "%s\n\n%s" % (inspect.cleandoc(function.__doc__), parameters_section(function))


_document()
