"""The user's own objects: ``InstanceGroup``, ``TrainingInput`` and ``ShuffleConfig``, with the SageMaker
Python SDK v2's names and argument order. Pure data: values are checked with the job, all at once.

They live here, low in the house, so the job model can read them without importing a public module;
``sagemaker_hetero.instance_group`` and ``sagemaker_hetero.inputs`` re-export them, and each class
names its public module as its ``__module__`` (reprs and pickles read as before).
"""
from typing import Any, Dict, List, Optional, Tuple, Union

from sagemaker_hetero._model import record
from sagemaker_hetero._model.keywords import keywords_checked

__all__ = ["InstanceGroup", "TrainingInput", "ShuffleConfig"]


def _choices(value):
    """An InstanceGroup's ``alternatives`` as a tuple (a record is hashable); each ``[type, count]`` pair
    a tuple too. Anything else is kept as given: the job's checks say what is wrong with it."""
    if isinstance(value, list):
        value = tuple(value)
    if isinstance(value, tuple):
        return tuple(tuple(v) if isinstance(v, list) else v for v in value)
    return value


@record.frozen
class InstanceGroup(object):
    """A named set of identical instances in a heterogeneous training job.

    ``InstanceGroup("data_group", "ml.c5.18xlarge", 2)``, in the SageMaker Python SDK v2's order. The
    values are checked with the job (``fit``, a dry run or the estimator), together with everything else.

    Parameters
    ----------
    instance_group_name : str, optional
        The group's name, unique in the job; channels and the distribution name groups by it.
    instance_type : str, optional
        The type of every instance of the group, e.g. ``"ml.p3.2xlarge"``.
    instance_count : int, optional
        How many instances the group has (at least 1).
    alternatives : list, optional
        Given by keyword (the SDK v2's three arguments keep their places): the group's other choices, in the
        order they are tried when SageMaker has no capacity or quota for the first (docs/capacity.md), each
        an instance type (the same count) or an ``(instance type, count)`` pair. Never sent: a request holds
        one choice per group.
    """

    instance_group_name: Optional[str] = record.field(default=None)
    instance_type: Optional[str] = record.field(default=None)
    instance_count: Optional[int] = record.field(default=None)
    alternatives: Optional[Tuple[Any, ...]] = record.field(default=None, repr=False, converter=_choices)

    @property
    def name(self):
        """The group's name (``instance_group_name``)."""
        return self.instance_group_name

    @property
    def type(self):
        """The group's instance type (``instance_type``)."""
        return self.instance_type

    @property
    def count(self):
        """The group's number of instances (``instance_count``)."""
        return self.instance_count


@record.frozen
class ShuffleConfig(object):
    """How a channel's S3 objects are shuffled (in Pipe mode): with the same seed, the same order.

    Parameters
    ----------
    seed : int
        The seed of the shuffle.
    """

    seed: int = record.field()


@record.frozen
class TrainingInput(object):
    """One channel of a training job: where its data is, and how and to which instance groups it goes.

    ``fit({"train": TrainingInput("s3://bucket/train", instance_groups=["data_group"])})``. If any
    channel names groups, every channel must (a rule of the SageMaker service, checked before anything
    is sent). In a local run, a ``file://`` URI is a folder of this machine.

    Parameters
    ----------
    s3_data : str, optional
        The data's S3 URI: a prefix, an object, or a manifest (see ``s3_data_type``).
    distribution : str, optional
        ``"FullyReplicated"`` (every host gets all of it) or ``"ShardedByS3Key"`` (each host a share).
    compression : str, optional
        ``"Gzip"`` when the data is compressed so (Pipe mode).
    content_type : str, optional
        The data's MIME type, passed on to the algorithm.
    record_wrapping : str, optional
        ``"RecordIO"`` to wrap each record (Pipe mode).
    s3_data_type : str, default 'S3Prefix'
        What ``s3_data`` is: ``"S3Prefix"``, ``"ManifestFile"``, ``"AugmentedManifestFile"`` or
        ``"Converse"``.
    instance_groups : list of str or InstanceGroup, optional
        The instance groups (names or InstanceGroup objects) that receive the channel; without it,
        every group does.
    input_mode : str, optional
        This channel's mode (``"File"``, ``"FastFile"`` or ``"Pipe"``), in place of the estimator's.
    attribute_names : list of str, optional
        The attributes of an augmented manifest's records to pass on.
    target_attribute_name : str, optional
        For AutoML jobs only: a training job refuses it (it has no target attribute).
    shuffle_config : ShuffleConfig, optional
        How to shuffle the channel's S3 objects.
    hub_access_config : dict, optional
        A HubAccessConfig request dict, for data from a SageMaker hub.
    model_access_config : dict, optional
        A ModelAccessConfig request dict, e.g. ``{"AcceptEula": True}``.
    """

    s3_data: Optional[str] = record.field(default=None)
    distribution: Optional[str] = record.field(default=None)
    compression: Optional[str] = record.field(default=None)
    content_type: Optional[str] = record.field(default=None)
    record_wrapping: Optional[str] = record.field(default=None)
    s3_data_type: str = record.field(default="S3Prefix")
    instance_groups: Optional[List[Union[str, Any]]] = record.field(default=None)
    input_mode: Optional[str] = record.field(default=None)
    attribute_names: Optional[List[str]] = record.field(default=None)
    target_attribute_name: Optional[str] = record.field(default=None)
    shuffle_config: Optional[ShuffleConfig] = record.field(default=None)
    hub_access_config: Optional[Dict[str, Any]] = record.field(default=None)
    model_access_config: Optional[Dict[str, Any]] = record.field(default=None)

    @property
    def config(self):
        """The channel as it appears in a CreateTrainingJob request (without its name)."""
        from sagemaker_hetero._model.arguments import channel_body
        from sagemaker_hetero._model.job import Channel, group_name

        groups = self.instance_groups
        names = tuple(group_name(g) for g in groups) if isinstance(groups, (list, tuple)) else groups
        return channel_body(Channel.of_input(None, self, groups=names))


# A misspelt keyword names the closest argument (the SDK v2's own TypeError names none).
for _cls in (InstanceGroup, ShuffleConfig, TrainingInput):
    _cls.__init__ = keywords_checked(_cls.__init__)
InstanceGroup.__module__ = "sagemaker_hetero.instance_group"
TrainingInput.__module__ = ShuffleConfig.__module__ = "sagemaker_hetero.inputs"
