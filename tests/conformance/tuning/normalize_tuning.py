"""Normalise recorded CreateHyperParameterTuningJob and CreatePipeline requests so that two runs of
the same scenario compare equal.

- Job-name timestamps become ``-{timestamp}`` (``-YYYY-MM-DD-HH-MM-SS-mmm``, training job names)
  and ``-{short-timestamp}`` (``-YYMMDD-HHMM``, tuning job names), wherever they appear.
- A CreatePipeline request's ``PipelineDefinition`` (JSON text) is parsed, and its training steps'
  ``DebugHookConfig`` and ``ProfilerConfig`` are dropped: sagemaker-hetero sends them only when
  asked (difference D2, as ``../normalize.py`` does for CreateTrainingJob).
- A pipeline request's ``ClientRequestToken`` is dropped: a fresh idempotency token each call (the
  harness records the SDK v2's parameters before botocore adds one).
"""
import json
import re

_TS = re.compile(r"-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}-\d{3}")
_SHORT_TS = re.compile(r"-\d{6}-\d{4}\b")
_DROPPED = ("DebugHookConfig", "ProfilerConfig")


def _stamps(value):
    text = _TS.sub("-{timestamp}", json.dumps(value, sort_keys=True))
    return json.loads(_SHORT_TS.sub("-{short-timestamp}", text))


def normalize_tuning(request):
    """A CreateHyperParameterTuningJob request, normalised."""
    return _stamps(request)


def normalize_pipeline(request):
    """A CreatePipeline request, its definition parsed, normalised."""
    req = dict((k, v) for k, v in request.items() if k != "ClientRequestToken")
    if isinstance(req.get("PipelineDefinition"), str):
        definition = json.loads(req["PipelineDefinition"])
        for step in definition.get("Steps") or ():
            if step.get("Type") == "Training":
                step["Arguments"] = dict((k, v) for k, v in step["Arguments"].items() if k not in _DROPPED)
        req["PipelineDefinition"] = definition
    return _stamps(req)
