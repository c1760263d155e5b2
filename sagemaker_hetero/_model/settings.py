"""The job as the user described it: a frozen snapshot of an estimator's arguments plus ``fit``'s.

Nothing here checks or converts values: ``_model.build`` turns these settings into the job model.
The fields are made from the table of arguments (``_model.arguments``): one per argument that is
part of the job, with the default a setting not given at all takes (a CLI spec without it).
"""
import attrs

from sagemaker_hetero._model.arguments import ARGUMENTS, ESTIMATOR_FIELDS, settings_default

__all__ = ["JobSettings", "ESTIMATOR_FIELDS"]


def _fields():
    fields = dict(
        framework=attrs.field(default=None),  # None (generic Estimator), "pytorch" or "tensorflow"
        channels=attrs.field(default=()),  # ((name, str-or-TrainingInput), ...) from fit(inputs)
        inputs_problem=attrs.field(default=None),  # what is wrong with fit's inputs as a whole
        config_tags=attrs.field(default=None),  # the defaults configuration's, appended unless given
    )
    for argument in ARGUMENTS:
        if argument.setting:
            fields[argument.name] = attrs.field(default=settings_default(argument))
    return fields


@attrs.frozen(these=_fields())
class JobSettings(object):
    """Everything the user said about one training job: ``framework`` (``None`` for the generic
    Estimator, ``"pytorch"`` or ``"tensorflow"``), ``channels`` (``(name, str-or-TrainingInput)``
    pairs from ``fit(inputs)``), and one field per argument of the table."""
