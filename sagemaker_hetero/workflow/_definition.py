"""Pipeline definitions: a training step's arguments, the definition SageMaker Pipelines takes, the
CreatePipeline request, and every problem before it. Pure: no I/O, no clock.

A training step's arguments are its estimator's CreateTrainingJob request (one :class:`_request.plan.Plan`,
rendered as for a dry run) without the job's name, which an execution gives each run (the
``TrainingJobName`` and the ``sagemaker_job_name`` hyperparameter, as the SDK v2 leaves them out),
and with its pipeline parameters written in (``_model.variables.merged``).
"""
from sagemaker_hetero._checks import round_one
from sagemaker_hetero._request.render import Rendered
from sagemaker_hetero._model import variables as _variables
from sagemaker_hetero.exceptions import Problem
from sagemaker_hetero.workflow.parameters import Parameter, ParameterInteger, ParameterString

__all__ = ["CREATE_OPERATION", "START_OPERATION", "VERSION", "TRAINING", "DEFAULT_EXPERIMENT_CONFIG", "step_arguments",
           "step_request", "definition", "create_request", "request_problems", "pipeline_problems",
           "execution_parameters", "step_arg"]

CREATE_OPERATION = "CreatePipeline"
START_OPERATION = "StartPipelineExecution"
#: The pipeline definition format the SDK v2 writes.
VERSION = "2020-12-01"
#: A training step's type in a definition.
TRAINING = "Training"
#: Each execution is a trial of an experiment named after the pipeline (the SDK v2's default).
DEFAULT_EXPERIMENT_CONFIG = {"ExperimentName": {"Get": "Execution.PipelineName"},
                             "TrialName": {"Get": "Execution.PipelineExecutionId"}}
# Left out of a step's arguments: an execution names each run of the step.
_JOB_NAME_HYPERPARAMETER = "sagemaker_job_name"


def step_arg(step_name, path):
    """The pipeline's name for an argument of a step's estimator: ``steps['Train'].<argument>``."""
    return "steps[%r].%s" % (step_name, path)


def step_arguments(plan):
    """A training step's arguments: ``plan``'s request (rendered once, from the values of its parameters,
    marked) with the parameters written in where their values went, and where a string derived from
    one holds it (the request's ``derived``), without the training job's name."""
    arguments = _variables.merged(plan.request, _variables.derived_view(plan.request, plan.rendered.derived))
    arguments.pop("TrainingJobName", None)
    hyperparameters = arguments.get("HyperParameters")
    if isinstance(hyperparameters, dict):
        hyperparameters.pop(_JOB_NAME_HYPERPARAMETER, None)
    return arguments


def step_request(name, arguments, display_name=None, description=None, depends_on=None):
    """A training step as the definition lists it."""
    request = {"Name": name, "Type": TRAINING, "Arguments": arguments}
    if depends_on:
        request["DependsOn"] = list(depends_on)
    if display_name:
        request["DisplayName"] = display_name
    if description:
        request["Description"] = description
    return request


def definition(parameters, experiment_config, steps):
    """The pipeline definition (a dict; its JSON text is what CreatePipeline takes) of ``parameters``
    (``Parameter`` objects), an experiment configuration and the steps' requests."""
    return {
        "Version": VERSION,
        "Metadata": {},
        "Parameters": [p.to_request() for p in parameters],
        "PipelineExperimentConfig": experiment_config,
        "Steps": list(steps),
    }


def create_request(name, role_arn, definition_text, token, description=None, tags=None, parallelism_config=None):
    """The CreatePipeline request (UpdatePipeline takes it without ``ClientRequestToken`` and ``Tags``)."""
    request = {"PipelineName": name, "ClientRequestToken": token, "RoleArn": role_arn,
               "PipelineDefinition": definition_text}
    if description is not None:
        request["PipelineDescription"] = description
    if tags:
        request["Tags"] = [dict(t) if isinstance(t, dict) else t for t in tags]
    if parallelism_config is not None:
        request["ParallelismConfiguration"] = parallelism_config
    return request


#: The user's argument of each part of a CreatePipeline or StartPipelineExecution request.
_ORIGINS = {("PipelineName",): "name", ("RoleArn",): "role_arn", ("PipelineDefinition",): "definition()",
            ("PipelineDescription",): "description", ("Tags",): "tags", ("ParallelismConfiguration",): "parallelism_config",
            ("PipelineExecutionDisplayName",): "execution_display_name",
            ("PipelineExecutionDescription",): "execution_description", ("PipelineParameters",): "parameters"}


def request_problems(request, operation=CREATE_OPERATION):
    """The service model's limits on a CreatePipeline (or StartPipelineExecution) request, named as
    ``Pipeline``, ``upsert`` and ``start`` name their arguments."""
    origins = dict(_ORIGINS)
    for i, item in enumerate(request.get("PipelineParameters") or ()):
        origins[("PipelineParameters", i)] = "parameters[%r]" % (item.get("Name"),)
    return round_one.rendered_problems(Rendered(request=request, origins=origins), operation)


def pipeline_problems(parameters, steps):
    """Our rules for a pipeline: ``parameters`` are pipeline parameters with distinct names; ``steps``
    (``(name, depends_on, [(argument path, parameter)])`` each) have distinct names, depend on steps
    of the pipeline, and use only its parameters."""
    out = []
    declared = {}
    for i, parameter in enumerate(parameters):
        if not isinstance(parameter, Parameter):
            out.append(Problem("parameters[%d]" % i, "must be a ParameterString or ParameterInteger", parameter))
        elif parameter.name in declared:
            out.append(Problem("parameters[%d]" % i, "names the same parameter as another one", parameter.name))
        else:
            declared[parameter.name] = parameter
    names = [name for name, _, _ in steps]
    for i, (name, depends_on, used) in enumerate(steps):
        if names.index(name) != i:
            out.append(Problem("steps[%d]" % i, "has the name of another step; step names must be unique", name))
        for j, other in enumerate(depends_on or ()):
            other = getattr(other, "name", other)
            if other not in names or other == name:
                out.append(Problem("steps[%r].depends_on[%d]" % (name, j), "is not another step of the pipeline (steps: %s)"
                                   % ", ".join(repr(n) for n in names if n != name), other))
        for path, parameter in used:
            if parameter.name not in declared:
                out.append(Problem(step_arg(name, path), "is pipeline parameter %r, which is not among the pipeline's "
                                   "parameters" % parameter.name, parameter.name))
            elif declared[parameter.name] != parameter:
                out.append(Problem(step_arg(name, path), "is a pipeline parameter %r unlike the pipeline's of that name "
                                   "(%r)" % (parameter.name, declared[parameter.name]), parameter))
    return out


def execution_parameters(parameters, values):
    """``(PipelineParameters, problems)`` of an execution's ``values`` (name -> value) for the pipeline's
    ``parameters``: each a parameter of the pipeline, an integer for a ``ParameterInteger``, a string for a
    ``ParameterString``."""
    declared = dict((p.name, p) for p in parameters)
    out, problems = [], []
    for name, value in (values or {}).items():
        parameter = declared.get(name)
        arg = "parameters[%r]" % (name,)
        if parameter is None:
            problems.append(Problem(arg, "is not a parameter of the pipeline (parameters: %s)"
                                    % ", ".join(repr(n) for n in declared), value))
            continue
        if isinstance(parameter, ParameterInteger) and (not isinstance(value, int) or isinstance(value, bool)):
            problems.append(Problem(arg, "must be an integer (a ParameterInteger)", value))
            continue
        if isinstance(parameter, ParameterString) and not isinstance(value, str):
            problems.append(Problem(arg, "must be a string (a ParameterString)", value))
            continue
        out.append({"Name": name, "Value": str(value)})
    return out, problems
