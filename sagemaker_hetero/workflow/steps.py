"""Pipeline steps, with the SageMaker Python SDK v2's names (``sagemaker.workflow.steps``)."""
import time
from typing import Any, Dict, List, Optional, Union

from sagemaker_hetero._model import variables as _variables
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
        return self.planned(values, path_exists, digest=False)[1]

    def planned(self, values=None, path_exists=_runner.local_path_exists, session=None, submit=False, digest=True):
        """``(plan, problems)``: the step's plan, its request rendered once with its parameters' values in
        their place (marked: :func:`~._definition.step_arguments` writes the parameters in), and every
        problem with the step, found on that request (``_runner.planned``; the plan is None for a step
        without an estimator of ours). Internal but stable: the pipeline's.

        Parameters
        ----------
        values : dict, optional
            Parameter name to an execution's value, in place of the defaults.
        path_exists : callable
            ``path_exists(kind, path)``, how local code paths are checked.
        session : Session, optional
            The session the step is created with (a pipeline's); default: the estimator's.
        submit : bool
            With the facts ``session`` looks up (the account, a role name's ARN), as the pipeline is created.
        digest : bool
            With the code key the session gives the archive.
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
            return None, found
        given = self.estimator.given_session
        if _runner.is_session(given) and given.local_mode:
            found.append(Problem("estimator.sagemaker_session", "a pipeline runs its steps in SageMaker: give the "
                                                                "estimator a Session, not a LocalSession"))
            given = session = None
        session = given if session is None else session
        _, made, more = _runner.planned(self._settings(), session, self.made_at, path_exists,
                                        facts=_runner.session_facts(session), values=values, submit=submit,
                                        digest=digest, stamp=False)
        return made, found + more

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
        tokens; raises :class:`ConfigError` listing every problem of the step's job.

        Parameters
        ----------
        values : dict, optional
            Parameter name to an execution's value, in place of the defaults.
        """
        made, problems = self.planned(values, digest=False)
        if problems:
            raise ConfigError(problems, "the training step %r" % (self.name,))
        return made.job, _runner.tokens_job(self._settings())

    # -- the step in a definition --------------------------------------------------------------

    @property
    def arguments(self) -> Dict[str, Any]:
        """The CreateTrainingJob request the step sends, with what the estimator's session knows
        without a call (an unknown account shows as ``<account-id>`` in the default bucket): its plan's
        request, rendered once, with the parameters written in."""
        return _definition.step_arguments(self.planned()[0])

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
