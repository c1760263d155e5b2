"""Single facts read back from a CreateTrainingJob request or a DescribeTrainingJob answer: a value at a
path, THE training image (:func:`image_of`; a plan's ``image``) and THE instance groups (:func:`groups_of`).
Pure and light (the dry run's plan reads its image here); ``_request.describe`` re-exports them.
"""
from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model.arguments import GROUP_FIELDS

__all__ = ["value_at", "image_of", "groups_of", "group_names"]


def value_at(desc, path):
    """The value at ``path`` (a tuple of keys) in a request or description, or None if it is not there."""
    node = desc
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _groups_of(desc):
    """``[(name, type, count)]`` of ResourceConfig.InstanceGroups, or None without instance groups."""
    groups = value_at(desc, ("ResourceConfig", "InstanceGroups"))
    if not groups:
        return None
    return [tuple(g.get(key) for key, _, _ in GROUP_FIELDS) for g in groups]


def groups_of(desc):
    """THE reading back of a request's (or description's) cluster: ``[(name, instance_type, count)]`` of its
    instance groups, or for a cluster without groups the one ``homogeneousCluster`` of its type and count."""
    groups = _groups_of(desc)
    if groups is None:
        return [(D.HOMOGENEOUS_GROUP, value_at(desc, ("ResourceConfig", "InstanceType")),
                 value_at(desc, ("ResourceConfig", "InstanceCount")))]
    return groups


def group_names(desc):
    """The job's instance group names; ``["homogeneousCluster"]`` for a cluster without groups."""
    return [g[0] for g in groups_of(desc)]


def image_of(desc):
    """THE reading of a job's training image URI from a request or a description (None: none)."""
    return value_at(desc, ("AlgorithmSpecification", "TrainingImage"))
