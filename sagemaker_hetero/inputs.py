"""Training inputs (channels), with the SageMaker Python SDK v2's names and argument order."""
from typing import Any, Dict, List, Optional, Union

import attrs

__all__ = ["TrainingInput", "ShuffleConfig"]


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
        from sagemaker_hetero._request import render as _wire
        from sagemaker_hetero._model import job as _model

        groups = self.instance_groups
        names = tuple(_model.group_name(g) for g in groups) if isinstance(groups, (list, tuple)) else groups
        return _wire.channel_body(_model.Channel.of_input(None, self, groups=names))
