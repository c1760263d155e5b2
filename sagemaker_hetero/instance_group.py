"""Instance groups: the parts of a heterogeneous cluster."""
from typing import Optional

import attrs

__all__ = ["InstanceGroup"]


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
