"""The preflight: a job checked against the AWS account before anything is uploaded (docs/preflight.md).

Pure parts: ``report`` (findings, the report, the permissions), ``subjects`` (what to check, read
from a Plan), ``quotas`` and ``judge`` (answers -> findings), ``modes`` (``fit``'s ``preflight``
values). The edge: ``ask`` (every AWS call), ``cache`` (the quota-name file), ``state`` (what a
session remembers), ``checks`` and ``run`` (one preflight), ``gate`` (``fit``'s use of it) and
``capacity`` (a job that failed for capacity). It sits above the AWS edge, which it calls, and below
the estimators and the session, which call it: nothing of the edge imports it.
"""
