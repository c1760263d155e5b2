"""Pipeline steps, with the SageMaker Python SDK v2's names (``sagemaker.workflow.steps``)."""
import time
from typing import Any, Dict, List, Optional, Union

from sagemaker_hetero._request import plan as _plan
from sagemaker_hetero._model import variables as _variables
from sagemaker_hetero._model import build as _build
from sagemaker_hetero import _runner
from sagemaker_hetero.estimator import EstimatorBase
from sagemaker_hetero.exceptions import ConfigError, Problem
from sagemaker_hetero.workflow import _definition

__all__ = ["TrainingStep"]

#: What the SDK v2's TrainingStep takes that this one does not, and what to do instead.
_STEP_UNSUPPORTED = (
    ("step_args", "is not supported: give estimator= and inputs="),
    ("cache_config", "is not supported"),
    ("retry_policies", "is not supported"),
)



class TrainingStep(object):
    """A step that runs the estimator's training job: its arguments are the estimator's
    CreateTrainingJob request with ``inputs``, without the job's name (each execution names its own
    job), pipeline parameters written as ``{"Get": "Parameters.<name>"}``.

    The arguments are the SDK v2's (``step_args`` is not taken: give ``estimator`` and ``inputs``).
    Everything is checked when the step is made, with its parameters' default values. The estimator's
    default job name is fixed then, so the code archive's place (under that name) is the same in
    ``definition()`` and ``upsert()``.

    Parameters
    ----------
    name : str
        The step's name.
    step_args : object, optional
        Not taken: give ``estimator`` and ``inputs``.
    estimator : EstimatorBase, optional
        The estimator whose training job the step runs.
    display_name : str, optional
        The step's display name.
    description : str, optional
        The step's description.
    inputs : str, TrainingInput or dict, optional
        The estimator's ``fit`` inputs.
    cache_config : object, optional
        Not taken (the SDK v2's step caching).
    depends_on : list of str or TrainingStep, optional
        The steps that must end first.
    retry_policies : list, optional
        Not taken (the SDK v2's retry policies).
    """

    step_type = _definition.TRAINING

    def __init__(
        self,
        name: str,
        step_args: Optional[Any] = None,
        estimator: Optional[EstimatorBase] = None,
        display_name: Optional[str] = None,
        description: Optional[str] = None,
        inputs: Optional[Any] = None,
        cache_config: Optional[Any] = None,
        depends_on: Optional[List[Union[str, "TrainingStep"]]] = None,
        retry_policies: Optional[List[Any]] = None,
    ) -> None:
        """Make the step, checking everything; the parameters are the class's."""
        self.name = name
        self.step_args = step_args
        self.estimator = estimator
        self.display_name = display_name
        self.description = description
        self.inputs = inputs
        self.cache_config = cache_config
        self.depends_on = depends_on
        self.retry_policies = retry_policies
        #: when the step was made (epoch seconds): it names the step's job (internal but stable)
        self.made_at = time.time()
        self.check()

    # -- the job, checked ----------------------------------------------------------------------

    def _settings(self):
        return self.estimator.job_settings(self.inputs)

    def problems(self, values=None, path_exists=_runner.local_path_exists):
        """Every problem with the step (its estimator's arguments by name), with its parameters' values
        in their place.

        Parameters
        ----------
        values : dict, optional
            Parameter name to an execution's value, in place of the defaults.
        path_exists : callable
            ``path_exists(kind, path)``, how local code paths are checked.
        """
        found = []
        if not isinstance(self.name, str) or not self.name:
            found.append(Problem("name", "must be a step name", self.name))
        for name, message in _STEP_UNSUPPORTED:
            value = getattr(self, name)
            if value is not None:
                found.append(Problem(name, message, value))
        if not isinstance(self.estimator, EstimatorBase):
            found.append(Problem("estimator", "must be an estimator of sagemaker_hetero (Estimator, PyTorch, TensorFlow)",
                                 self.estimator))
            return found
        session = self.estimator.given_session
        if _runner.is_session(session) and session.local_mode:
            found.append(Problem("estimator.sagemaker_session", "a pipeline runs its steps in SageMaker: give the "
                                                                "estimator a Session, not a LocalSession"))
            session = None
        _, _, more = _runner.prepare(self._settings(), session, self.made_at, path_exists,
                                     facts=_runner.session_facts(session), values=values)
        return found + more

    def check(self):
        """Raise :class:`ConfigError` listing every problem with the step."""
        problems = self.problems()
        if problems:
            raise ConfigError(problems, "the training step %r" % (self.name,))

    def parameters(self):
        """``[(argument path, parameter)]``: the pipeline parameters among the estimator's arguments."""
        return _variables.find(self._settings())

    def jobs(self, values=None):
        """``(job, tokens_job)``: the step's job with its parameters' values in their place, and with their
        tokens (what ``_model.variables.merged`` reads).

        Parameters
        ----------
        values : dict, optional
            Parameter name to an execution's value, in place of the defaults.
        """
        settings = self._settings()
        job = _build.build(_variables.with_values(settings, values)[0])[0]
        tokens_job = _build.build(_variables.with_tokens(settings))[0]
        return job, tokens_job

    # -- the step in a definition --------------------------------------------------------------

    @property
    def arguments(self) -> Dict[str, Any]:
        """The CreateTrainingJob request the step sends, with what the estimator's session knows
        without a call (an unknown account shows as ``<account-id>`` in the default bucket)."""
        job, tokens_job = self.jobs()
        session = self.estimator.given_session
        facts, digest = _runner.session_facts(session), _runner.code_digest(session, job)
        return _definition.step_arguments(_plan.make_plan(job, facts, self.made_at, code_digest=digest),
                                          _plan.make_plan(tokens_job, facts, self.made_at, code_digest=digest))

    def to_request(self, arguments=None) -> Dict[str, Any]:
        """The step as a pipeline definition lists it.

        Parameters
        ----------
        arguments : dict, optional
            The step's arguments, in place of :attr:`arguments`.
        """
        depends_on = [getattr(d, "name", d) for d in self.depends_on or ()]
        return _definition.step_request(self.name, self.arguments if arguments is None else arguments,
                                        self.display_name, self.description, depends_on)

    def __repr__(self):
        return "TrainingStep(%r)" % (self.name,)
