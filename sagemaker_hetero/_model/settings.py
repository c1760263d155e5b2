"""The job as the user described it: a frozen snapshot of an estimator's arguments plus ``fit``'s.

Nothing here checks or converts values: ``_model.build`` turns these settings into the job model.
The fields are made from the table of arguments (``_model.arguments``): one per argument that is
part of the job, with the default a setting not given at all takes (a CLI spec without it).
"""
from sagemaker_hetero._model import record
from sagemaker_hetero._model.arguments import ARGUMENTS, ESTIMATOR_FIELDS, settings_default

__all__ = ["JobSettings", "ESTIMATOR_FIELDS", "short_repr", "model_class"]


def short_repr(value):
    """``Name(field=..., ...)`` of a record, naming only the fields not at their defaults: the repr of the
    large model classes, made without generating one per class at import."""
    given = ["%s=%r" % (f.name, getattr(value, f.name)) for f in record.fields(type(value))
             if getattr(value, f.name) is not f.default]
    return "%s(%s)" % (type(value).__name__, ", ".join(given))


def model_class(cls=None, these=None):
    """``record.frozen`` for the job model's and the request's internal classes, which are made on every
    import and never compared field by field: no generated ``__eq__``, ``__hash__`` or ``__repr__``
    (:func:`short_repr` names what differs from the defaults), no slots (a slotted class is made
    twice). ``these``: the fields, when the class body does not hold them."""

    def make(cls):
        cls.__repr__ = short_repr
        return record.frozen(cls, these=these, eq=False, repr=False, slots=False)

    return make if cls is None else make(cls)


def _fields():
    fields = dict(
        framework=record.field(default=None),  # None (generic Estimator), "pytorch" or "tensorflow"
        channels=record.field(default=()),  # ((name, str-or-TrainingInput), ...) from fit(inputs)
        inputs_problem=record.field(default=None),  # (what is wrong with fit's inputs as a whole, the inputs given)
        config_tags=record.field(default=None),  # the defaults configuration's, appended unless given
        output_compression=record.field(default=None),  # CompressionType sent as given (ModelTrainer: "GZIP")
        distribution_as_given=record.field(default=False),  # ModelTrainer: a channel without one sends none
        empty_hyperparameters=record.field(default=False),  # ModelTrainer: HyperParameters {} sent when none
        max_pending_time=record.field(default=None),  # ModelTrainer: StoppingCondition.MaxPendingTimeInSeconds
        sent_false=record.field(default=()),  # ModelTrainer: ((request key, argument), ...) sent as false when given so
        makes_default_bucket=record.field(default=False),  # ModelTrainer: the submission makes the default bucket
    )
    for argument in ARGUMENTS:
        if argument.setting:
            fields[argument.name] = record.field(default=settings_default(argument))
    return fields


@model_class(these=_fields())
class JobSettings(object):
    """Everything the user said about one training job: ``framework`` (``None`` for the generic
    Estimator, ``"pytorch"`` or ``"tensorflow"``), ``channels`` (``(name, str-or-TrainingInput)``
    pairs from ``fit(inputs)``), and one field per argument of the table.

    Settings are never compared (they are built, read and evolved); their repr shows only what differs
    from the defaults (:func:`model_class`)."""
