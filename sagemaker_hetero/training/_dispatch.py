"""Forking one entry point by instance group."""
import sys

from ._marker import format_marker

__all__ = ["run_by_group", "cluster_groups"]


def cluster_groups(env):
    """The instance group names of the cluster (``[current group]`` for a file without groups).

    Parameters
    ----------
    env : Environment
        This host's environment.
    """
    return list(env.instance_groups) or [env.current_instance_group]


def run_by_group(handlers, env=None):
    """Call the handler of this host's instance group with the environment; return its result.

    A mapping that misses a group of the cluster, names a group that is not in it, or holds something
    not callable is refused with one ``ValueError`` listing every problem, before anything runs. Then
    the marker line ``[sagemaker-hetero] host=<host> group=<group> instance_type=<type>`` is printed
    to stdout (flushed), and the handler is called.

    Parameters
    ----------
    handlers : dict
        Every group of the cluster to a callable taking the environment, e.g.
        ``{"data_group": serve, "dnn_group": train}``; a homogeneous job has the one group
        ``homogeneousCluster``.
    env : Environment, optional
        This host's environment (default: built from the job's files); any object with the toolkit's
        property names works.
    """
    if env is None:
        from .environment import Environment

        env = Environment()
    groups = cluster_groups(env)
    _check_handlers(handlers, groups)
    group = env.current_instance_group
    sys.stdout.write(format_marker(env.current_host, group, env.current_instance_type) + "\n")
    sys.stdout.flush()
    return handlers[group](env)


def _check_handlers(handlers, groups):
    if not hasattr(handlers, "keys") or not hasattr(handlers, "__getitem__"):
        raise ValueError(
            "run_by_group: expected a mapping of instance group name to handler, got %s"
            % type(handlers).__name__
        )
    problems = []
    for group in groups:
        if group not in handlers:
            problems.append("no handler for instance group %r of this cluster" % (group,))
    for name in handlers.keys():
        if name not in groups:
            problems.append("a handler is given for %r, which is not an instance group of this cluster" % (name,))
        elif not callable(handlers[name]):
            problems.append("the handler for %r is not callable (got %r)" % (name, handlers[name]))
    if problems:
        head = "run_by_group: %d problem%s with the handlers (the cluster's instance groups are %r):" % (
            len(problems),
            "" if len(problems) == 1 else "s",
            groups,
        )
        raise ValueError("\n".join([head] + ["  - %s" % p for p in problems]))
