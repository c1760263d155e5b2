"""Pipelines, with the SageMaker Python SDK v2's names (``sagemaker.workflow.pipeline``).

``Pipeline(name, parameters=[...], steps=[TrainingStep(...)])``: ``definition()`` is the pipeline
definition (JSON text) SageMaker Pipelines takes; ``upsert(role_arn)`` checks everything, uploads
each step's code and creates the pipeline (or updates it); ``start()`` starts an execution.
"""
import json
import sys
import time
import uuid
from typing import Any, Dict, List, Optional

from sagemaker_hetero import _runner
from sagemaker_hetero._aws import poller
from sagemaker_hetero.exceptions import ConfigError, Problem, Problems, UnexpectedStatusException
from sagemaker_hetero.workflow import _definition
from sagemaker_hetero.workflow.parameters import Parameter
from sagemaker_hetero.workflow.steps import TrainingStep

__all__ = ["Pipeline", "PipelineExecution"]

_PIPELINE_SUBJECT = "the pipeline"
#: A pipeline execution's statuses from which it does not move on, and the one that is success.
EXECUTION_ENDS = ("Succeeded", "Failed", "Stopped")
EXECUTION_SUCCEEDED = "Succeeded"
#: The experiment configuration when none is given: the SDK v2's default.
_DEFAULT = object()



class Pipeline(object):
    """A SageMaker pipeline of training steps, with the SDK v2's arguments in its order.

    Parameters
    ----------
    name : str, default ''
        The pipeline's name.
    parameters : list of Parameter, optional
        The pipeline parameters the steps' arguments use.
    pipeline_experiment_config : dict, optional
        In the definition's format; None for none (default: the SDK v2's, the pipeline and execution
        names).
    steps : list of TrainingStep, optional
        The steps.
    sagemaker_session : Session, optional
        The session it is created with (default: the first step's estimator's).
    """

    def __init__(
        self,
        name: str = "",
        parameters: Optional[List[Parameter]] = None,
        pipeline_experiment_config: Any = _DEFAULT,
        steps: Optional[List[TrainingStep]] = None,
        sagemaker_session: Optional[Any] = None,
    ) -> None:
        """Make the pipeline; the parameters are the class's."""
        self.name = name
        self.parameters = list(parameters or [])
        self.pipeline_experiment_config = (dict(_definition.DEFAULT_EXPERIMENT_CONFIG)
                                           if pipeline_experiment_config is _DEFAULT else pipeline_experiment_config)
        self.steps = list(steps or [])
        self._sagemaker_session = sagemaker_session

    def __repr__(self):
        """``Pipeline(name=..., steps=[...], parameters=[...])``: the names of its steps and parameters."""
        return "Pipeline(name=%r, steps=%r, parameters=%r)" % (
            self.name, [getattr(s, "name", s) for s in self.steps], [getattr(p, "name", p) for p in self.parameters])

    @property
    def sagemaker_session(self):
        """The session the pipeline is created with: the one given, else the first step's estimator's
        (made on first use when none was given)."""
        if self._sagemaker_session is None:
            for step in self.steps:
                estimator = getattr(step, "estimator", None)
                if estimator is not None:
                    return estimator.sagemaker_session
            from sagemaker_hetero.session import Session

            self._sagemaker_session = Session()
        return self._sagemaker_session

    # -- checks and the definition -------------------------------------------------------------

    def problems(self, values=None):
        """Every problem with the pipeline: its name, parameters and steps (each step's estimator
        arguments as ``steps['<step>'].<argument>``), with the parameters' values in their place.

        Parameters
        ----------
        values : dict, optional
            Parameter name to an execution's value, in place of the defaults.
        """
        return self._planned(values, digest=False)[0]

    def _planned(self, values=None, session=None, submit=False, digest=True):
        """``(problems, plans)``: every problem with the pipeline, and each step's plan, its request
        rendered once and checked once (``TrainingStep.planned``; None for a step that is no TrainingStep)."""
        out, plans, shapes = [], [], []
        if not isinstance(self.steps, list) or not self.steps:
            out.append(Problem("steps", "must hold at least one TrainingStep", self.steps))
        for i, step in enumerate(self.steps):
            if not isinstance(step, TrainingStep):
                out.append(Problem("steps[%d]" % i, "must be a TrainingStep", step))
                plans.append(None)
                continue
            made, problems = step.planned(values, session=session, submit=submit, digest=digest)
            plans.append(made)
            out.extend(p.renamed(_definition.step_arg(step.name, p.path)) for p in problems)
            used = step.parameters() if hasattr(step.estimator, "job_settings") else []
            shapes.append((step.name, step.depends_on, used))
        out.extend(_definition.pipeline_problems(self.parameters, shapes))
        return out, plans

    def _check(self, problems):
        if problems:
            raise ConfigError(problems, _PIPELINE_SUBJECT)

    def _definition_text(self, arguments):
        steps = [step.to_request(arguments[i]) for i, step in enumerate(self.steps)]
        text = json.dumps(_definition.definition(self.parameters, self.pipeline_experiment_config, steps))
        return text

    def definition(self) -> str:
        """The pipeline definition (JSON text), with what the steps' sessions know without a call (an
        unknown account shows as ``<account-id>`` in a default bucket); raises :class:`ConfigError`
        listing every problem first."""
        problems, plans = self._planned()
        self._check(problems)
        return self._definition_text([_definition.step_arguments(plan) for plan in plans])

    def upsert(self, role_arn: Optional[str] = None, description: Optional[str] = None,
               tags: Optional[List[Dict[str, str]]] = None, parallelism_config: Optional[Dict[str, Any]] = None
               ) -> Dict[str, Any]:
        """Create the pipeline, or update it if one of this name exists; its answer (``PipelineArn``).

        Nothing is uploaded or created before everything is checked: the pipeline, its steps (with
        each input bucket, the account, default bucket and role looked up) and the CreatePipeline
        request. Then each step's code is uploaded and the pipeline created. ``tags`` apply when it is
        created (an update keeps the pipeline's tags).

        Parameters
        ----------
        role_arn : str, optional
            The IAM role SageMaker Pipelines runs the steps with (required).
        description : str, optional
            The pipeline's description.
        tags : list of dict, optional
            Its tags, when it is created.
        parallelism_config : dict, optional
            ``{"MaxParallelExecutionSteps": n}``.
        """
        early = [] if isinstance(self.steps, list) and self.steps else [None]
        early.extend(i for i, step in enumerate(self.steps or ()) if not isinstance(step, TrainingStep))
        # each step's plan rendered once and checked once, with the facts the pipeline's session looks up
        # (nothing created) when the pipeline has a role and its steps are steps
        session = self.sagemaker_session if role_arn is not None and not early else None
        problems, plans = self._planned(session=session, submit=session is not None)
        if role_arn is None:
            problems.append(Problem("role_arn", "is required: the IAM role ARN SageMaker Pipelines runs the "
                                                "steps with", None))
        token = uuid.uuid4().hex
        text = "{}"  # the request as far as it is known (with steps that have problems, without them)
        if not problems:
            text = self._definition_text([_definition.step_arguments(plan) for plan in plans])
        request = _definition.create_request(self.name, role_arn, text, token, description, tags, parallelism_config)
        problems = Problems(problems).add_new(_definition.request_problems(request))
        self._check(problems)
        plans = list(zip(self.steps, plans))
        try:  # the runner's executor: every step's input buckets, default bucket and role, the code, then
            # the one create call, CreatePipeline (no preflight: the steps' jobs are created when they run)
            return _runner.execute(session, [plan for _, plan in plans], preflight=False,
                                   create=lambda: session.upsert_pipeline(request),
                                   renamed=lambda i, p: p.renamed(_definition.step_arg(plans[i][0].name, p.path)))
        except ConfigError as exc:
            self._check(exc.problems)
            raise

    def describe(self) -> Dict[str, Any]:
        """DescribePipeline."""
        return self.sagemaker_session.describe_pipeline(self.name)

    def start(self, parameters: Optional[Dict[str, Any]] = None, execution_display_name: Optional[str] = None,
              execution_description: Optional[str] = None, parallelism_config: Optional[Dict[str, Any]] = None
              ) -> "PipelineExecution":
        """Start an execution; every value is checked as the defaults are before anything is sent.

        Parameters
        ----------
        parameters : dict, optional
            Parameter name to value, in place of the defaults.
        execution_display_name : str, optional
            The execution's display name.
        execution_description : str, optional
            The execution's description.
        parallelism_config : dict, optional
            ``{"MaxParallelExecutionSteps": n}`` for this execution.
        """
        pipeline_parameters, problems = _definition.execution_parameters(self.parameters, parameters)
        if not problems:
            problems = [p for p in self.problems(values=parameters) if not p.path.startswith("parameters[")]
        request = {"PipelineName": self.name, "ClientRequestToken": uuid.uuid4().hex}
        for key, value in (("PipelineParameters", pipeline_parameters),
                           ("PipelineExecutionDisplayName", execution_display_name),
                           ("PipelineExecutionDescription", execution_description),
                           ("ParallelismConfiguration", parallelism_config)):
            if value:
                request[key] = value
        problems.extend(_definition.request_problems(request, _definition.START_OPERATION))
        self._check(problems)
        response = self.sagemaker_session.start_pipeline_execution(request)
        return PipelineExecution(response["PipelineExecutionArn"], self.sagemaker_session)


class PipelineExecution(object):
    """An execution of a pipeline (``Pipeline.start()``).

    Parameters
    ----------
    arn : str
        The execution's ARN.
    sagemaker_session : Session
        The session it runs in.
    """

    def __init__(self, arn, sagemaker_session):
        """Make the handle; the parameters are the class's."""
        self.arn = arn
        self.sagemaker_session = sagemaker_session

    def __repr__(self):
        return "PipelineExecution(%r)" % (self.arn,)

    def describe(self) -> Dict[str, Any]:
        """DescribePipelineExecution."""
        return self.sagemaker_session.describe_pipeline_execution(self.arn)

    def wait(self, poll=None, out=None, clock=time.monotonic, sleep=time.sleep) -> Dict[str, Any]:
        """Poll until the execution ends, printing each new status; return the description. Raises
        :class:`UnexpectedStatusException` unless it Succeeded.

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
        waiting = poller.Poller(poll, None, clock, sleep)
        desc = waiting.follow(self.describe, out, lambda d: "%s: %s" % (self.arn, d.get("PipelineExecutionStatus")),
                              lambda d: d.get("PipelineExecutionStatus") in EXECUTION_ENDS)
        status = desc.get("PipelineExecutionStatus")
        if status != EXECUTION_SUCCEEDED:
            raise UnexpectedStatusException(self.arn, status, desc.get("FailureReason"), (EXECUTION_SUCCEEDED,),
                                            kind="Pipeline execution")
        return desc
