"""Training inputs (channels), with the SageMaker Python SDK v2's names and argument order."""
import attrs

__all__ = ["TrainingInput", "ShuffleConfig"]


@attrs.frozen
class ShuffleConfig(object):
    """Shuffle the S3 objects of a channel with ``seed`` (used in Pipe mode)."""

    seed = attrs.field()


@attrs.frozen
class TrainingInput(object):
    """One channel of a training job.

    ``instance_groups`` names the groups (names or :class:`InstanceGroup` objects) that receive
    the channel; without it every group receives it. If any channel names groups, every channel
    must (a rule of the SageMaker service, checked before anything is sent).
    """

    s3_data = attrs.field(default=None)
    distribution = attrs.field(default=None)
    compression = attrs.field(default=None)
    content_type = attrs.field(default=None)
    record_wrapping = attrs.field(default=None)
    s3_data_type = attrs.field(default="S3Prefix")
    instance_groups = attrs.field(default=None)
    input_mode = attrs.field(default=None)
    attribute_names = attrs.field(default=None)
    target_attribute_name = attrs.field(default=None)
    shuffle_config = attrs.field(default=None)
    hub_access_config = attrs.field(default=None)
    model_access_config = attrs.field(default=None)

    @property
    def config(self):
        """The channel as it appears in a CreateTrainingJob request (without its name)."""
        from sagemaker_hetero import _model, _wire

        groups = self.instance_groups
        names = tuple(_model.group_name(g) for g in groups) if isinstance(groups, (list, tuple)) else groups
        return _wire.channel_body(_model.Channel.of_input(None, self, groups=names))
