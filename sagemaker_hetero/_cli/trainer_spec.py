"""A ``framework: model_trainer`` spec: SDK v3's ModelTrainer arguments, as the CLI reads them.

::

    framework: model_trainer
    training_image: 763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-ubuntu22.04
    role: arn:aws:iam::123456789012:role/SageMakerRole
    source_code: {source_dir: src, entry_script: train.py}
    distributed: {type: torchrun, instance_group_names: [gpu]}
    compute:
      instance_groups:
        - {instance_group_name: gpu, instance_type: ml.g5.xlarge, instance_count: 2}
        - {instance_group_name: cpu, instance_type: ml.c5.xlarge, instance_count: 1}
    input_data_config:
      - {channel_name: train, data_source: {s3_data_type: S3Prefix, s3_uri: "s3://bucket/train",
                                            instance_group_names: [gpu]}}
      - {channel_name: prep, data_source: "s3://bucket/prep"}

Every key is the ModelTrainer argument or configuration field of that name; a local ``source_dir``
(and a local channel) is relative to the spec's folder. The job goes through ``ModelTrainer`` itself,
so a spec and a script cannot drift; every problem is named by its path in the spec.
"""
import os

from sagemaker_hetero.core.training import configs as C
from sagemaker_hetero.exceptions import ConfigError, Problem, Problems, UnexpectedStatusException
from sagemaker_hetero.train import distributed as _distributed
from sagemaker_hetero.train.model_trainer import ModelTrainer

__all__ = ["FRAMEWORK", "TrainerSpec", "parse"]

FRAMEWORK = "model_trainer"
#: argument -> its configuration class (a mapping in the spec)
_CONFIGS = {"source_code": C.SourceCode, "networking": C.Networking, "stopping_condition": C.StoppingCondition,
            "output_data_config": C.OutputDataConfig, "checkpoint_config": C.CheckpointConfig,
            "training_image_config": C.TrainingImageConfig}
_PLAIN = ("role", "base_job_name", "input_s3_key_prefix", "training_image", "training_input_mode", "environment",
          "hyperparameters", "algorithm_name")
_LAUNCHERS = {"torchrun": _distributed.Torchrun, "mpi": _distributed.MPI}
KEYS = ("framework", "compute", "distributed", "input_data_config", "tags") + tuple(_CONFIGS) + _PLAIN


def _made(path, cls, value, out, nested=None):
    """``cls(**value)`` (its nested fields made by ``nested``: field -> maker), or None with the problem."""
    if not isinstance(value, dict):
        out.append(Problem(path, "must be a mapping of %s's fields" % cls.__name__, value))
        return None
    value = dict(value)
    for field, make in (nested or {}).items():
        if value.get(field) is not None:
            value[field] = make("%s.%s" % (path, field), value[field], out)
    try:
        return cls(**value)
    except TypeError as exc:
        out.append(Problem(path, "%s's fields are keyword arguments: %s" % (cls.__name__, exc), value))
        return None


def _listed(path, cls, value, out, nested=None):
    if not isinstance(value, list):
        out.append(Problem(path, "must be a list of %s mappings" % cls.__name__, value))
        return None
    return [_made("%s[%d]" % (path, i), cls, item, out, nested) for i, item in enumerate(value)]


def _data_source(path, value, out):
    return value if isinstance(value, str) else _made(path, C.S3DataSource, value, out)


def _distributed_config(path, value, out):
    if not isinstance(value, dict) or value.get("type") not in _LAUNCHERS:
        out.append(Problem(path + ".type" if isinstance(value, dict) else path,
                           "must be one of %s" % ", ".join(sorted(_LAUNCHERS)),
                           value.get("type") if isinstance(value, dict) else value))
        return None
    fields = dict((k, v) for k, v in value.items() if k != "type")
    return _made(path, _LAUNCHERS[value["type"]], fields, out)


def _local(base_dir, path):
    if base_dir is None or not isinstance(path, str) or "://" in path or os.path.isabs(path):
        return path
    return os.path.join(base_dir, path)


def arguments(data, base_dir, out):
    """The ModelTrainer keyword arguments of the spec ``data`` (its problems appended to ``out``)."""
    from sagemaker_hetero._checks.rules import did_you_mean

    kwargs = {}
    for key, value in data.items():
        if key not in KEYS:
            out.append(Problem(str(key), "is not a model_trainer spec key" + (did_you_mean(key, KEYS, cutoff=0.5)
                                                                           or " (valid keys: %s)" % ", ".join(KEYS)),
                               key))
        elif value is None:
            continue  # not given
        elif key in _CONFIGS:
            nested = {"training_repository_auth_config": lambda p, v, o: _made(p, C.TrainingRepositoryAuthConfig,
                                                                               v, o)}
            kwargs[key] = _made(key, _CONFIGS[key], value, out, nested)
        elif key == "compute":
            groups = {"instance_groups": lambda p, v, o: _listed(p, C.InstanceGroup, v, o)}
            kwargs[key] = _made(key, C.Compute, value, out, groups)
        elif key == "distributed":
            kwargs[key] = _distributed_config(key, value, out)
        elif key == "input_data_config":
            kwargs[key] = _listed(key, C.InputData, value, out, {"data_source": _data_source})
        elif key == "tags":
            kwargs[key] = _listed(key, C.Tag, value, out)
        elif key != "framework":
            kwargs[key] = value
    source = kwargs.get("source_code")
    if isinstance(source, C.SourceCode):
        source.source_dir = _local(base_dir, source.source_dir)
    for channel in kwargs.get("input_data_config") or []:
        if isinstance(channel, C.InputData):
            channel.data_source = _local(base_dir, channel.data_source)
    return kwargs


class TrainerSpec(object):
    """A parsed ``framework: model_trainer`` spec: what the CLI's commands read of a spec."""

    framework = FRAMEWORK
    estimator_class = ModelTrainer
    inputs = None
    experiment_config = None
    tuning = None

    def __init__(self, kwargs, problems):
        self.kwargs = kwargs
        self.problems = tuple(problems)

    def trainer(self, sagemaker_session=None):
        """The ModelTrainer (raises :class:`ConfigError` like its constructor, with the spec's problems first)."""
        if self.problems:
            raise ConfigError(list(self.problems))
        return ModelTrainer(sagemaker_session=sagemaker_session, **self.kwargs)

    def planned(self, session=None, facts=None, now=0.0, path_exists=None, digest=True):
        """``(job, plan, problems)``: the trainer's plan, as ``session`` runs it with ``facts``, rendered once:
        the spec's own problems first, then the trainer's of what could be read (:meth:`told`)."""
        try:
            trainer = self._trainer(session)
        except ConfigError as exc:
            return None, None, self.told(exc.problems)
        job, made, problems, _ = trainer._plan(None, session, now, facts=facts)
        return job, made, self.told(problems)

    def told(self, found):
        """The trainer's problems ``found`` after the spec's own (a part of the spec reported as malformed is
        not reported again); a ModelTrainer argument's name is its key in the spec."""
        return Problems(self.problems).add_new(found, within=True)

    def _trainer(self, session):
        """The ModelTrainer of what could be read, its check left to its ``train`` or ``preflight``
        (``_runner.one_check``), which tell their problems as :meth:`told` does."""
        from sagemaker_hetero import _runner

        with _runner.one_check():
            trainer = ModelTrainer(sagemaker_session=session, **dict((k, v) for k, v in self.kwargs.items()
                                                                     if v is not None))
        trainer._told = self.told
        return trainer

    def settings(self):
        """The job's settings as a dry run makes them (what ``cost`` and ``render --cost`` read the instance
        groups' alternatives of); raises :class:`ConfigError` like :meth:`trainer`."""
        from sagemaker_hetero._request.plan import Facts

        settings, _, _ = self._trainer(None)._settings(None, Facts(region=None), 0.0)  # nothing rendered
        return settings

    def estimator(self, sagemaker_session=None):
        """What ``submit``, ``preflight`` and ``local`` drive: the trainer behind the estimators' calls."""
        return _Driven(self.trainer(sagemaker_session))

    def driven(self, sagemaker_session=None):
        """:meth:`estimator`, whose ``train`` or ``preflight`` is the job's one check (its constructor checks
        nothing), every problem told in the spec's terms."""
        return _Driven(self._trainer(sagemaker_session))

    def group_names(self):
        """The names of the spec's instance groups, as ``--group`` takes them (None: a one-group job's)."""
        groups = getattr(self.kwargs.get("compute"), "instance_groups", None)
        return [getattr(g, "instance_group_name", None) for g in groups] if isinstance(groups, list) and groups \
            else None


class _Driven(object):
    """A ModelTrainer as the CLI's commands drive an estimator: ``fit``, ``preflight``, ``latest_training_job``."""

    def __init__(self, trainer):
        self.trainer = trainer

    def job_settings(self, inputs=None):
        return self.trainer.job_settings()

    def fit(self, inputs=None, wait=True, experiment_config=None, preflight=None, logs=None):
        """``train``; a failed job raises the estimator's error (the ``FailedStatusError``'s cause: a
        :class:`CapacityError` with its attempts), as the CLI reports an estimator's."""
        from sagemaker_hetero.core.utils.exceptions import FailedStatusError

        shown = wait if logs is None else logs not in (False, "None")
        try:
            self.trainer.train(wait=wait, logs=shown, preflight=preflight)
        except FailedStatusError as exc:
            if isinstance(exc.__cause__, UnexpectedStatusException):
                raise exc.__cause__
            raise

    def preflight(self, inputs=None, experiment_config=None):
        return self.trainer.preflight()

    @property
    def latest_training_job(self):
        return self.trainer.latest_training_job


def parse(data, base_dir=None):
    """The :class:`TrainerSpec` of the mapping ``data`` (its problems kept, never raised here)."""
    out = []
    kwargs = arguments(data, base_dir, out)
    return TrainerSpec(kwargs, out)
