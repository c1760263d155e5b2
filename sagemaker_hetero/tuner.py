"""Hyperparameter tuning jobs over heterogeneous clusters, with the SageMaker Python SDK v2's names.

``HyperparameterTuner(estimator, objective_metric_name, hyperparameter_ranges, ...)`` tunes any
estimator of this package, instance groups included: its training job definition carries the
instance groups, the channels naming them and the distribution's hyperparameters exactly as the
estimator's CreateTrainingJob request does (docs/tuning.md).

One way through, as for an estimator: the estimator's arguments and ``fit``'s become the job model,
the tuner's the tuning model (``_tuning.model``); everything is checked in one round, then
``fit(dry_run=True)`` returns the CreateHyperParameterTuningJob request, or the session looks up
what it needs, checks the request again with it, uploads the code and creates the tuning job.
"""
import inspect
import sys
import time
from typing import Any, Dict, List, Optional, Union

from sagemaker_hetero._tuning import checks, describe, model, render
from sagemaker_hetero._checks import rules
from sagemaker_hetero._request.describe import image_framework, image_of, job_from_description
from sagemaker_hetero._request import names as _names
from sagemaker_hetero._model import variables as _variables
from sagemaker_hetero._model import build as _build
from sagemaker_hetero._defaults import (EARLY_STOPPING_TYPE, MAX_PARALLEL_TUNING_JOBS, OBJECTIVE_TYPE,
                                        TERMINAL_STATUSES, TUNING_STRATEGY)
from sagemaker_hetero._aws import poller
from sagemaker_hetero._tuning.config import (HyperbandStrategyConfig, StrategyConfig, TuningJobCompletionCriteriaConfig,
                                             WarmStartConfig, WarmStartTypes)
from sagemaker_hetero import _runner
from sagemaker_hetero.estimator import EstimatorBase
from sagemaker_hetero.exceptions import ConfigError, Problem, UnexpectedStatusException
from sagemaker_hetero.parameter import CategoricalParameter, ContinuousParameter, IntegerParameter, ParameterRange

__all__ = [
    "HyperparameterTuner",
    "TuningJob",
    "ContinuousParameter",
    "IntegerParameter",
    "CategoricalParameter",
    "ParameterRange",
    "WarmStartConfig",
    "WarmStartTypes",
    "TuningJobCompletionCriteriaConfig",
    "StrategyConfig",
    "HyperbandStrategyConfig",
]

_TUNING_SUBJECT = "the tuning job"
#: Tuning job statuses a waited-for job may end with without an exception (as in the SDK v2).
_ENDED_WELL = ("Completed", "Stopped")
# The fit arguments whose problems the constructor leaves to fit (with the estimator's own).
_TUNER_FIT_DECIDES = ("job_name", "include_cls_metadata", "estimator_kwargs") + tuple(
    model.estimator_arg(name) for name in _runner.FIT_DECIDES)




def _described(session, name, given=None):
    """The tuning job ``name``'s description (``given``, else DescribeHyperParameterTuningJob's answer): one
    whose fields are not of the types a tuning job's request has is a ConfigError naming each."""
    from sagemaker_hetero._cost import diff

    desc = given if given is not None else diff.described(session.describe_tuning_job, name, "tuning job")
    wrong = diff.type_problems(desc, "CreateHyperParameterTuningJob")
    if wrong:
        raise ConfigError(wrong, "tuning job %s" % name)
    return desc

class HyperparameterTuner(object):
    """Tunes an estimator's hyperparameters with a SageMaker hyperparameter tuning job.

    The arguments are the SageMaker Python SDK v2's, in its order. The estimator may have instance
    groups: every training job of the tuning job runs on them, with the channels routed and the
    distribution on its group as the estimator's own job. The constructor checks everything that
    ``fit`` cannot change; ``fit`` (and its dry run) checks everything again with the inputs.

    Parameters
    ----------
    estimator : EstimatorBase
        The estimator whose training jobs are tuned.
    objective_metric_name : str
        The metric to optimise, one of ``metric_definitions``' names (or a built-in algorithm's).
    hyperparameter_ranges : dict
        Hyperparameter name to a range: ``ContinuousParameter``, ``IntegerParameter`` or
        ``CategoricalParameter``.
    metric_definitions : list of dict, optional
        The metrics read from the logs, ``[{"Name": ..., "Regex": ...}]`` (default: the estimator's).
    strategy : str, default 'Bayesian'
        The search: ``"Bayesian"``, ``"Random"``, ``"Hyperband"`` or ``"Grid"``.
    objective_type : str, default 'Maximize'
        ``"Maximize"`` or ``"Minimize"`` the objective.
    max_jobs : int, optional
        How many training jobs at most (default: 1, and for Grid what its ranges give).
    max_parallel_jobs : int, default 1
        How many run at once.
    max_runtime_in_seconds : int, optional
        The longest the tuning job may run.
    tags : list of dict or dict, optional
        The tuning job's tags.
    base_tuning_job_name : str, optional
        The prefix of the tuning job's default name.
    warm_start_config : WarmStartConfig, optional
        Start from the results of earlier tuning jobs.
    strategy_config : StrategyConfig, optional
        The strategy's configuration (Hyperband's resource bounds).
    completion_criteria_config : TuningJobCompletionCriteriaConfig, optional
        When the tuning job may end early.
    early_stopping_type : str, default 'Off'
        ``"Auto"`` stops training jobs that are not going to improve the objective.
    estimator_name : str, optional
        Accepted as the SDK v2 takes it (for several estimators, which this tuner does not take).
    random_seed : int, optional
        Makes the choice of hyperparameters repeatable.
    autotune : bool, default False
        Let SageMaker choose the ranges and settings not given.
    hyperparameters_to_keep_static : list of str, optional
        With ``autotune``: hyperparameters it must not tune.
    """

    _told = None  # problems -> problems: how fit tells its check's problems (a CLI spec's paths)

    def __init__(
        self,
        estimator: EstimatorBase,
        objective_metric_name: Optional[str],
        hyperparameter_ranges: Dict[str, ParameterRange],
        metric_definitions: Optional[List[Dict[str, str]]] = None,
        strategy: str = TUNING_STRATEGY,
        objective_type: str = OBJECTIVE_TYPE,
        max_jobs: Optional[int] = None,
        max_parallel_jobs: int = MAX_PARALLEL_TUNING_JOBS,
        max_runtime_in_seconds: Optional[int] = None,
        tags: Optional[Union[List[Dict[str, str]], Dict[str, str]]] = None,
        base_tuning_job_name: Optional[str] = None,
        warm_start_config: Optional[WarmStartConfig] = None,
        strategy_config: Optional[StrategyConfig] = None,
        completion_criteria_config: Optional[TuningJobCompletionCriteriaConfig] = None,
        early_stopping_type: str = EARLY_STOPPING_TYPE,
        estimator_name: Optional[str] = None,
        random_seed: Optional[int] = None,
        autotune: bool = False,
        hyperparameters_to_keep_static: Optional[List[str]] = None,
    ) -> None:
        """Make the tuner, checking everything ``fit`` cannot change; the parameters are the class's."""
        self.estimator = estimator
        self.objective_metric_name = objective_metric_name
        self._hyperparameter_ranges = hyperparameter_ranges
        self.metric_definitions = metric_definitions
        self.strategy = strategy
        self.objective_type = objective_type
        self.max_jobs = model.default_max_jobs(max_jobs, strategy)
        self.max_parallel_jobs = max_parallel_jobs
        self.max_runtime_in_seconds = max_runtime_in_seconds
        self.tags = tags
        self.base_tuning_job_name = base_tuning_job_name
        self.warm_start_config = warm_start_config
        self.strategy_config = strategy_config
        self.completion_criteria_config = completion_criteria_config
        self.early_stopping_type = early_stopping_type
        self.estimator_name = estimator_name
        self.random_seed = random_seed
        self.autotune = autotune
        self.hyperparameters_to_keep_static = hyperparameters_to_keep_static
        #: the :class:`TuningJob` of the latest ``fit`` or ``attach``
        self.latest_tuning_job = None
        self._current_job_name = None
        if not _runner.check_deferred():  # else the job's one check is its fit's (the CLI's tune submit)
            self._checked(None, None, False, None, time.time(), later=_TUNER_FIT_DECIDES)

    # -- the SDK v2's accessors ----------------------------------------------------------------

    @property
    def sagemaker_session(self):
        """The estimator's session (made on first use when none was given, as the estimator's)."""
        return self.estimator.sagemaker_session

    def hyperparameter_ranges(self) -> Optional[Dict[str, Any]]:
        """The ranges as the request holds them (``ParameterRanges``), or None without ranges."""
        if self._hyperparameter_ranges is None:
            return None
        tuning, _ = model.build(self._settings())
        return render.parameter_ranges(tuning, getattr(self.estimator, "framework", None) is not None)[0]

    # -- checking and rendering ----------------------------------------------------------------

    def _settings(self, job_name=None, include_cls_metadata=False):
        return model.TuningSettings(
            objective_metric_name=self.objective_metric_name,
            hyperparameter_ranges=self._hyperparameter_ranges,
            metric_definitions=self.metric_definitions,
            strategy=self.strategy,
            objective_type=self.objective_type,
            max_jobs=self.max_jobs,
            max_parallel_jobs=self.max_parallel_jobs,
            max_runtime_in_seconds=self.max_runtime_in_seconds,
            tags=self.tags,
            base_tuning_job_name=self.base_tuning_job_name,
            warm_start_config=self.warm_start_config,
            strategy_config=self.strategy_config,
            completion_criteria_config=self.completion_criteria_config,
            early_stopping_type=self.early_stopping_type,
            random_seed=self.random_seed,
            job_name=job_name,
            include_cls_metadata=include_cls_metadata,
        )

    def _checked(self, inputs, job_name, include_cls_metadata, estimator_kwargs, now, path_exists=None, later=(),
                 need_region=False, dry_run=False):
        """The tuning job's plan (over the training job's) after every check, each request rendered once
        (``_tuning.checks.planned``; a fit's with the code key, a submission's with the facts its session
        looks up); raises :class:`ConfigError` listing every problem but those of the arguments in ``later``."""
        estimator = self.estimator
        if not isinstance(estimator, EstimatorBase):
            raise ConfigError([Problem("estimator", "must be an estimator of sagemaker_hetero (Estimator, PyTorch, "
                                                    "TensorFlow)", estimator)], _TUNING_SUBJECT)
        found = []
        for name, message in checks.UNSUPPORTED:
            value = getattr(self, name)
            if value not in (None, False):
                found.append(Problem(name, message, value))
        if estimator_kwargs is not None:
            found.append(Problem("estimator_kwargs", "goes with several estimators, which this tuner does not tune",
                                 estimator_kwargs))
        session = estimator.given_session
        if session is not None and not _runner.is_session(session):
            found.append(Problem("estimator.sagemaker_session", "must be a sagemaker_hetero Session", session))
            session = None
        facts = _runner.session_facts(session)
        if need_region and not dry_run:
            found.extend(_names.region_problems(facts.region, "estimator.sagemaker_session"))
        settings = estimator.job_settings(inputs, job_name)
        if need_region:  # fit: a tuning job is started with values
            found.extend(p.renamed(model.estimator_arg(p.path)) for p in _variables.outside_pipeline(settings))
        submit = need_region and not dry_run
        if submit and session is None and not found:  # a submission's session, made before its facts
            session = estimator.sagemaker_session
        _, _, made, problems = checks.planned(settings, self._settings(job_name, include_cls_metadata), session,
                                              facts, now, path_exists, found, submit=submit, digest=need_region)
        problems = [p for p in problems if p.path not in later and not (later and p.path.startswith("inputs"))]
        problems = problems if self._told is None else self._told(problems)
        if problems:
            raise ConfigError(problems, _TUNING_SUBJECT)
        return made

    def fit(
        self,
        inputs: Optional[Any] = None,
        job_name: Optional[str] = None,
        include_cls_metadata: bool = False,
        estimator_kwargs: Optional[Dict[str, Any]] = None,
        wait: bool = True,
        dry_run: bool = False,
    ) -> Optional[Dict[str, Any]]:
        """Start the tuning job, or with ``dry_run=True`` return its request unsent. Everything is checked
        first: a ``ConfigError`` lists every problem, and nothing is sent unless the request is valid.

        Parameters
        ----------
        inputs : str, TrainingInput or dict, optional
            The estimator's ``fit`` inputs.
        job_name : str, optional
            The tuning job's name, at most 32 characters (default: ``base_tuning_job_name`` or the
            image's name, and the minute).
        include_cls_metadata : bool, default False
            Name a generic estimator's class in the static hyperparameters (framework estimators' are).
        estimator_kwargs : dict, optional
            More ``fit`` arguments of the estimator (``job_name`` names the training jobs' prefix).
        wait : bool, default True
            Wait for the tuning job to end.
        dry_run : bool, default False
            Send nothing: return the CreateHyperParameterTuningJob request.
        """
        now = time.time()
        plan = self._checked(inputs, job_name, include_cls_metadata, estimator_kwargs, now,
                             path_exists=_runner.local_path_exists, need_region=True, dry_run=dry_run)
        if dry_run:
            self._current_job_name = plan.job_name
            return plan.request
        session = self.estimator.sagemaker_session
        try:
            _runner.execute(session, plan, preflight=False)
        except ConfigError as exc:  # an input bucket that does not exist
            raise ConfigError(exc.problems, _TUNING_SUBJECT)
        self._current_job_name = plan.job_name
        self.estimator.current_job_name = plan.training.job_name
        self.latest_tuning_job = TuningJob(session, plan.job_name, plan.request)
        if wait:
            self.latest_tuning_job.wait()
        return None

    # -- the tuning job ------------------------------------------------------------------------

    def _latest(self):
        if self.latest_tuning_job is None:
            raise ValueError("No tuning job available: call fit() or attach() first")
        return self.latest_tuning_job

    def describe(self) -> Dict[str, Any]:
        """DescribeHyperParameterTuningJob of the latest tuning job."""
        return self._latest().describe()

    def wait(self) -> Dict[str, Any]:
        """Wait for the latest tuning job to end (see :meth:`TuningJob.wait`)."""
        return self._latest().wait()

    def stop_tuning_job(self) -> None:
        """Stop the latest tuning job."""
        self._latest().stop()

    def best_training_job(self) -> str:
        """The name of the latest tuning job's best training job so far."""
        return self._best()["TrainingJobName"]

    def _best(self):
        desc = self._latest().describe()
        best = desc.get("BestTrainingJob")
        if not best:
            raise ValueError("Best training job not available for tuning job: %s" % self._latest().name)
        return best

    def best_estimator(self, best_training_job: Optional[Dict[str, Any]] = None) -> EstimatorBase:
        """An estimator attached to the best training job.

        Parameters
        ----------
        best_training_job : dict, optional
            ``{"TrainingJobName": ...}`` (default: the latest tuning job's best so far).
        """
        best = best_training_job or self._best()
        return type(self.estimator).attach(best["TrainingJobName"], sagemaker_session=self.sagemaker_session)

    @classmethod
    def attach(cls, tuning_job_name: str, sagemaker_session: Optional[Any] = None,
               job_details: Optional[Dict[str, Any]] = None, estimator_cls: Optional[Any] = None
               ) -> "HyperparameterTuner":
        """A tuner rebuilt from an existing tuning job (the SageMaker Python SDK v2's ``attach``).

        The job is described once (or ``job_details`` is its description): the estimator is rebuilt
        from the training job definition (instance groups, routed channels, distribution and its
        group, code, static hyperparameters, ...) as the class its static hyperparameters name (or
        ``estimator_cls``: a class or its name), the tuner from the tuning configuration (ranges,
        objective, strategy, limits, warm start, completion criteria). ``latest_tuning_job`` is the
        job; tags are not part of a description and are not restored.

        Parameters
        ----------
        tuning_job_name : str
            The tuning job.
        sagemaker_session : Session, optional
            The session to describe it with (default: a new ``Session()``).
        job_details : dict, optional
            Its description, in place of asking for it.
        estimator_cls : type or str, optional
            The estimator class (or its name), in place of the one its static hyperparameters name.
        """
        if sagemaker_session is None:
            from sagemaker_hetero.session import Session

            sagemaker_session = Session()
        desc = _described(sagemaker_session, tuning_job_name, job_details)
        request = describe.definition_as_training_request(desc)
        estimator_class = _estimator_class(estimator_cls or describe.estimator_class_name(desc), request)
        job = job_from_description(request, framework=estimator_class.framework,
                                   region=sagemaker_session.boto_region_name)
        kwargs, inputs = _build.arguments(job)
        metric_definitions = kwargs.pop("metric_definitions", None)
        allowed = estimator_class.allowed_arguments()
        estimator = estimator_class(sagemaker_session=sagemaker_session,
                                    **dict((k, v) for k, v in kwargs.items() if k in allowed))
        estimator.latest_inputs = inputs
        tuning = describe.tuning_from_description(desc, as_json=estimator_class.framework is not None)
        tuner = cls(estimator, metric_definitions=metric_definitions, **describe.arguments(tuning))
        tuner.latest_tuning_job = TuningJob(sagemaker_session, tuning_job_name)
        tuner._current_job_name = tuning_job_name
        return tuner


def _estimator_class(given, request):
    """The estimator class ``given`` (a class, or a class name such as ``"PyTorch"`` or
    ``"sagemaker.pytorch.estimator.PyTorch"``); without one, the framework of the training image's."""
    from sagemaker_hetero.estimator import Estimator
    from sagemaker_hetero.pytorch import PyTorch
    from sagemaker_hetero.tensorflow import TensorFlow

    classes = dict((c.__name__, c) for c in (Estimator, PyTorch, TensorFlow))
    if inspect.isclass(given) and issubclass(given, EstimatorBase):
        return given
    if isinstance(given, str) and given.rpartition(".")[2] in classes:
        return classes[given.rpartition(".")[2]]
    if given is not None:
        raise ConfigError([Problem("estimator_cls", "must be Estimator, PyTorch or TensorFlow (a class or its name)%s"
                                   % rules.did_you_mean(str(given), classes), given)], _TUNING_SUBJECT)
    parsed = image_framework(image_of(request))
    return PyTorch if parsed and parsed[0] == "pytorch" else TensorFlow if parsed else Estimator


class TuningJob(object):
    """Handle on a tuning job (``tuner.latest_tuning_job``).

    Parameters
    ----------
    session : Session
        The session it runs in.
    name : str
        The tuning job's name.
    request : dict, optional
        Its CreateHyperParameterTuningJob request, when this process sent it.
    """

    def __init__(self, session, name, request=None):
        """Make the handle; the parameters are the class's."""
        self.sagemaker_session = session
        self.name = name
        self.request = request

    @property
    def job_name(self):
        """The tuning job's name (``name``)."""
        return self.name

    def __repr__(self):
        return "TuningJob(%r)" % (self.name,)

    def describe(self):
        """DescribeHyperParameterTuningJob's answer."""
        return self.sagemaker_session.describe_tuning_job(self.name)

    def stop(self):
        """Stop the tuning job (one that has ended is left as it is)."""
        self.sagemaker_session.stop_tuning_job(self.name)

    def wait(self, poll=None, out=None, clock=time.monotonic, sleep=time.sleep):
        """Poll until the tuning job ends, printing a line each time its status or its training jobs'
        counts change; return the description. Raises :class:`UnexpectedStatusException` if it ends
        Failed (Completed and Stopped are ends, as in the SDK v2).

        Parameters
        ----------
        poll : float or tuple, optional
            Seconds between polls, or ``(first, longest)`` (default: 2 s doubling up to 30 s); a throttled
            describe is asked again, as a training job's waiter does (``_aws.poller``).
        out : file, optional
            Where to print (default: standard output).
        clock, sleep : callable
            The monotonic clock and the sleep used between polls (replaced in tests).
        """
        out = out or sys.stdout
        waiting = poller.Poller(poll, self.sagemaker_session, clock, sleep)
        try:
            desc = waiting.follow(self.describe, out, describe.status_line,
                                  lambda d: d.get("HyperParameterTuningJobStatus") in TERMINAL_STATUSES)
        except KeyboardInterrupt:
            out.write("\nStopped waiting for %s; the tuning job keeps running. Stop it with: aws sagemaker "
                      "stop-hyper-parameter-tuning-job --hyper-parameter-tuning-job-name %s\n" % (self.name, self.name))
            out.flush()
            raise
        status = desc.get("HyperParameterTuningJobStatus")
        if status not in _ENDED_WELL:
            raise UnexpectedStatusException(self.name, status, desc.get("FailureReason"), _ENDED_WELL, kind="Tuning job")
        return desc
