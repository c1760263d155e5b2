"""The user's own objects: ``InstanceGroup``, ``TrainingInput`` and ``ShuffleConfig``, with the SageMaker
Python SDK v2's names and argument order. Pure data: values are checked with the job, all at once.

They live here, low in the house, so the job model can read them without importing a public module;
``sagemaker_hetero.instance_group`` and ``sagemaker_hetero.inputs`` re-export them, and each class
names its public module as its ``__module__`` (reprs and pickles read as before).
"""
from typing import Any, Dict, List, Optional, Union

import attrs

__all__ = ["InstanceGroup", "TrainingInput", "ShuffleConfig"]


@attrs.frozen
class InstanceGroup(object):
    """A named set of identical instances in a heterogeneous training job.

    ``InstanceGroup("data_group", "ml.c5.18xlarge", 2)`` - the same positional order as the
    SageMaker Python SDK v2 (``instance_group_name, instance_type, instance_count``). Values are
    checked when the job is validated (``fit`` or a dry run), together with everything else.
    """

    instance_group_name: Optional[str] = attrs.field(default=None)
    instance_type: Optional[str] = attrs.field(default=None)
    instance_count: Optional[int] = attrs.field(default=None)

    @property
    def name(self):
        return self.instance_group_name

    @property
    def type(self):
        return self.instance_type

    @property
    def count(self):
        return self.instance_count


@attrs.frozen
class ShuffleConfig(object):
    """Shuffle the S3 objects of a channel with ``seed`` (used in Pipe mode)."""

    seed: int = attrs.field()


@attrs.frozen
class TrainingInput(object):
    """One channel of a training job.

    ``instance_groups`` names the groups (names or :class:`InstanceGroup` objects) that receive
    the channel; without it every group receives it. If any channel names groups, every channel
    must (a rule of the SageMaker service, checked before anything is sent).
    """

    s3_data: Optional[str] = attrs.field(default=None)
    distribution: Optional[str] = attrs.field(default=None)
    compression: Optional[str] = attrs.field(default=None)
    content_type: Optional[str] = attrs.field(default=None)
    record_wrapping: Optional[str] = attrs.field(default=None)
    s3_data_type: str = attrs.field(default="S3Prefix")
    instance_groups: Optional[List[Union[str, Any]]] = attrs.field(default=None)
    input_mode: Optional[str] = attrs.field(default=None)
    attribute_names: Optional[List[str]] = attrs.field(default=None)
    target_attribute_name: Optional[str] = attrs.field(default=None)
    shuffle_config: Optional[ShuffleConfig] = attrs.field(default=None)
    hub_access_config: Optional[Dict[str, Any]] = attrs.field(default=None)
    model_access_config: Optional[Dict[str, Any]] = attrs.field(default=None)

    @property
    def config(self):
        """The channel as it appears in a CreateTrainingJob request (without its name)."""
        from sagemaker_hetero._model.arguments import channel_body
        from sagemaker_hetero._model.job import Channel, group_name

        groups = self.instance_groups
        names = tuple(group_name(g) for g in groups) if isinstance(groups, (list, tuple)) else groups
        return channel_body(Channel.of_input(None, self, groups=names))


InstanceGroup.__module__ = "sagemaker_hetero.instance_group"
TrainingInput.__module__ = ShuffleConfig.__module__ = "sagemaker_hetero.inputs"
