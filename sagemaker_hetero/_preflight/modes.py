"""``fit``'s ``preflight`` argument: what each value means, and the problems of a wrong one. Pure.

``None`` (the default): the :data:`report.DEFAULT_CHECKS` on AWS, a problem stops ``fit``; ``True``:
every check, a problem stops ``fit``; ``"warn"``: every check, problems are printed and ``fit``
goes on; ``False``: none; a list of check names: those, a problem stops ``fit``. A local run and a
dry run are never checked: the default does nothing there, and any other value but ``False`` is a
problem.
"""
from sagemaker_hetero._preflight.report import CHECKS, DEFAULT_CHECKS
from sagemaker_hetero.exceptions import Problem

__all__ = ["WARN", "CHECKS", "checks_of", "problems"]

WARN = "warn"
_MEANING = "True, False, 'warn', None (the default) or a list of checks (%s)" % ", ".join(CHECKS)


def checks_of(preflight):
    """The checks ``preflight`` asks for (a tuple in :data:`CHECKS` order), or None for a value that
    means nothing."""
    if preflight is None:
        return DEFAULT_CHECKS
    if preflight is False:
        return ()
    if preflight is True or preflight == WARN:
        return CHECKS
    if isinstance(preflight, (list, tuple, set, frozenset)) and all(isinstance(c, str) for c in preflight):
        if set(preflight) <= set(CHECKS):
            return tuple(c for c in CHECKS if c in preflight)
    return None


def problems(preflight, local=False, dry_run=False):
    """The problems of ``fit(preflight=...)`` for a ``local`` session or a ``dry_run``."""
    if checks_of(preflight) is None:
        return [Problem("preflight", "must be %s" % _MEANING, preflight)]
    if preflight is None or preflight is False:
        return []
    if dry_run:
        return [Problem("preflight", "a dry run sends nothing and checks nothing against AWS; leave preflight out, "
                                     "or call estimator.preflight(inputs) to check the account", preflight)]
    if local:
        return [Problem("preflight", "a local run uses no AWS account to check; leave preflight out", preflight)]
    return []
