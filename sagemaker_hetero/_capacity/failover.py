"""A submission that tries the instance groups' other choices when SageMaker has no capacity for one
(docs/capacity.md): the caller's side of the runner's one path, never reached from the AWS edge.

:func:`submit` runs a checked plan as ``_runner.execute`` does (preflight, upload, create) and then,
when the estimator waits, the job; what it adds:

1. the preflight's quota check chooses: a group whose current type is over its quota (counting the
   jobs in progress) moves to its next choice before anything is uploaded, and the choice is said;
2. ``ResourceLimitExceeded`` at CreateTrainingJob moves the group whose type the quota names (else the
   first with a choice left) to its next choice, and a job that fails for capacity (its FailureReason
   or a secondary status message: ``_preflight.capacity.capacity_reason``) is followed by a new job,
   ``<name>-c<N>``, with the named group's (else the first group's with one left) next choice;
3. any other failure is raised as it is, never retried; with every choice failed, ``capacity_wait``
   seconds (a countdown; Ctrl-C ends it, no job running) and the first choices again, up to
   ``capacity_attempts`` attempts in all (default: one per choice);
4. the record: every attempt (``walk.Attempt``) on each job made (``job.attempts``), a table at the end
   when there was more than one, and a :class:`CapacityError` naming every choice tried when none ran.

Each attempt is ONE create call (a lost answer is recovered by ``_aws.create``: the job is described, never
created twice); the code is uploaded once (its key is its content's). A job with one choice and no
``capacity_wait`` or ``capacity_attempts`` goes the runner's way as before.
"""
import datetime
import math
import sys
import time

from sagemaker_hetero import _runner
from sagemaker_hetero._capacity import walk as W
from sagemaker_hetero._model import choices, record
from sagemaker_hetero._preflight import modes, quotas
from sagemaker_hetero._preflight import capacity as _capacity
from sagemaker_hetero._preflight.report import PROBLEM, QUOTAS
from sagemaker_hetero._preflight.state import state_of
from sagemaker_hetero.exceptions import (AWSError, CapacityError, ConfigError, PreflightError,
                                         UnexpectedStatusException, shown)

__all__ = ["Clock", "CLOCK", "applies", "submit", "countdown", "final_error"]


class Clock(object):
    """What a wait for capacity reads and sleeps with (tests hand in their own: no test sleeps)."""

    def now(self):
        return time.monotonic()

    def sleep(self, seconds):
        time.sleep(seconds)


#: The clock of :func:`countdown` (a test's may replace it).
CLOCK = Clock()


def applies(session, settings, job=None):
    """Whether a submission of ``job`` on ``session`` may make more than one job: an AWS session and an instance
    group with alternatives, or a ``capacity_wait`` or ``capacity_attempts`` given (``job``: the checked job;
    None: as ``settings`` give them, before the job's one check, which refuses any that is malformed)."""
    if session is None or session.local_mode:
        return False
    given = settings if job is None else job
    return choices.has_alternatives(settings) or bool(given.capacity_wait) or given.capacity_attempts is not None


def _stamp():
    """Now, as an attempt records a time (ISO 8601, UTC)."""
    return datetime.datetime.fromtimestamp(time.time(), datetime.timezone.utc).isoformat()


def _walk_of(settings, job):
    return W.Walk(choices.group_choices(settings) or [(g.name, [(g.instance_type, g.count)]) for g in job.groups])


def _groups(plan):
    return tuple((g.name, g.instance_type, g.count) for g in plan.job.groups)


class _Run(object):
    """One submission's failover (see the module docstring)."""

    def __init__(self, session, plan, settings, preflight, out, on_started):
        self.session, self.first, self.settings = session, plan, settings
        self.preflight, self.out, self.on_started = preflight, out, on_started
        self.walk = _walk_of(settings, plan.job)
        self.limit = plan.job.capacity_attempts or self.walk.size
        self.attempts, self.skipped, self.name = [], [], plan.job_name
        self.seen = lambda made: made  # what the preflight checks of a plan (submit's ``preflight_plan``)

    def say(self, text):
        self.out.write(shown(text) + "\n")
        self.out.flush()

    def planned(self, number):
        """The plan of attempt ``number`` with the walk's choices (the first plan's facts and code key)."""
        if number <= 1 and not self.walk.picks():
            return self.first
        first = self.first
        settings = record.evolve(choices.chosen(self.settings, self.walk.picks()),
                                 job_name=W.attempt_name(self.name, number))
        _, made, problems = _runner.planned(settings, self.session, first.made_at, facts=first.facts,
                                            digest=lambda job: first.code_digest, stamp=False)
        if problems:
            raise ConfigError(problems)
        return made

    def chosen_by_quota(self, number, mode):
        """The plan of attempt ``number`` after the preflight ``mode``: a group over its quota moved on
        while it has a choice left (each move said); any other problem raised."""
        plan = self.planned(number)
        while True:
            try:
                self.session.preflight(self.seen(plan), mode)
            except PreflightError as exc:
                if self._over_quota(exc, plan) is None:
                    raise
                plan = self.planned(number)
                continue
            if QUOTAS in modes.checks_of(mode) and mode != modes.WARN:
                for g, (name, instance_type, count) in enumerate(self.walk.current()):
                    if len(self.walk.choices[g][1]) > 1:
                        self.say("Capacity: instance group %s: %s, choice %d of %d (the quota check found no problem with it)."
                                 % (name, choices.choice_text(instance_type, count), self.walk.at[g] + 1,
                                    len(self.walk.choices[g][1])))
            return plan

    def _over_quota(self, exc, plan):
        findings = list(exc.report.problems) if exc.report is not None else []
        over = [f for f in findings if f.check == QUOTAS and f.result == PROBLEM]
        if not over or len(over) != len(findings):
            return None
        for g, (group, instance_type, count) in enumerate(self.walk.current()):
            hits = [f for f in over if f.argument == "instance_groups[%d].instance_type" % g]
            if hits and self.walk.left(g):
                name, before, after = self.walk.advance(g)
                why = "%s: %s" % (hits[0].subject, hits[0].detail)
                self.skipped.append((name, before, why, hits[0].fix))
                self.say("Capacity: instance group %s: %s is over its quota (%s); chose %s."
                         % (name, before, why, after))
                return g
        return None

    def attempt(self, plan, wait, logs):
        """``(job or None, Attempt, the failure for capacity or None)`` of one create call (and its wait)."""
        groups = _groups(plan)
        try:
            job = self.session.create(plan)
        except AWSError as exc:
            if exc.code != "ResourceLimitExceeded":
                raise
            stamp = _stamp()
            return None, W.Attempt(plan.job_name, groups, W.NOT_CREATED, "ResourceLimitExceeded: %s"
                                   % exc.aws_message, stamp, stamp), exc
        self.on_started(job)
        job.attempts = self.attempts
        if not wait:
            return job, W.Attempt(job.name, groups, W.IN_PROGRESS, None, _stamp()), None
        seen = _watched(job)
        try:
            desc = job.wait(logs=logs)
        except UnexpectedStatusException as exc:
            desc = seen.get("desc")
            reason = _capacity.capacity_reason(exc.status, desc)
            attempt = W.Attempt.of_job(job.name, groups, desc, exc.status, reason, seen=_stamp())
            if reason is None:  # never retried
                self.attempts.append(attempt)
                raise
            state_of(self.session).forget_use()  # its instances are not in use: count again
            return job, attempt, exc
        return job, W.Attempt.of_job(job.name, groups, desc, seen=_stamp()), None


def _watched(job):
    """``{"desc": the last description}`` of ``job`` once its wait ends badly (its ``failure`` wrapped)."""
    seen, failure = {}, job.failure

    def failed(name, status, desc):
        seen["desc"] = desc
        if failure is not None:
            return failure(name, status, desc)
        return UnexpectedStatusException(name, status, desc.get("FailureReason"))

    job.failure = failed
    return seen


def _moved(run, attempt):
    """Move the group ``attempt``'s failure names (else the first with a choice left); False: none has one."""
    group = run.walk.next_group(attempt.reason or "")
    if group is None:
        return False
    name, before, after = run.walk.advance(group)
    run.say("Capacity: %s (instance group %s as %s) %s; trying %s as %s." % (
        attempt.name, name, before, "was refused over a quota" if attempt.outcome == W.NOT_CREATED
        else "failed for capacity", name, after))
    return True


def submit(session, plan, settings, preflight=None, wait=True, logs="All", out=None, on_started=None,
           before_create=None, preflight_plan=None):
    """Run the checked ``plan`` (of ``settings``) through ``session`` with failover (the module docstring);
    the job that ran (``wait``: it completed). ``on_started(job)`` is told each job made; ``before_create()``
    is called once, after the upload and before the first create call (a ModelTrainer's code and driver
    channels uploaded: ``_runner.execute``'s); ``preflight_plan(plan)``: what the preflight checks of each
    plan (a ModelTrainer's without the channels ``before_create`` uploads)."""
    out = out or sys.stdout
    run = _Run(session, plan, settings, preflight, out, on_started or (lambda job: None))
    if preflight_plan is not None:
        run.seen = preflight_plan
    checks = modes.checks_of(preflight)
    plan = run.chosen_by_quota(1, preflight)
    _runner.upload(session, [plan])
    if before_create is not None:
        before_create()
    number, failure = 0, None
    while True:
        number += 1
        if number > 1:
            plan = run.planned(number)
        try:
            job, attempt, failure = run.attempt(plan, wait, logs)
        except UnexpectedStatusException:  # not for capacity: never retried
            _summary(run)
            raise
        run.attempts.append(attempt)
        if number == 1 and job is not None:
            run.name = job.name  # a taken default name: the next free stamp
        if failure is None:
            _summary(run)
            return job
        if number >= run.limit:
            break
        if not _moved(run, attempt):
            wait_s = run.first.job.capacity_wait
            if not wait_s:
                break
            try:
                countdown(wait_s, out)
            except KeyboardInterrupt:  # the attempts so far, as at any other end
                _summary(run)
                raise
            run.walk.restart()
            if QUOTAS in checks and not _rechosen(run, number + 1):
                break
    _summary(run)
    raise final_error(session, run.first, run.attempts, run.skipped, failure)


def _rechosen(run, number):
    """After the wait: the first choices again, a group over its quota moved on; False when one is over its
    quota with no choice left (the failover ends)."""
    try:
        run.chosen_by_quota(number, [QUOTAS])
    except PreflightError as exc:
        run.say("Capacity: after the wait, a choice is still over its quota: %s" % exc)
        return False
    return True


def _summary(run):
    if len(run.attempts) > 1:
        run.say("Capacity: %d attempts:\n%s" % (len(run.attempts), W.table(run.attempts)))


def countdown(seconds, out, clock=None):
    """Wait ``seconds`` with a countdown line (``clock``: :data:`CLOCK`); Ctrl-C ends it (and is raised)."""
    clock = clock or CLOCK
    end = clock.now() + seconds
    try:
        while True:
            left = end - clock.now()
            if left <= 0:
                break
            out.write("\rCapacity: every choice failed; the first choices again in %d s (Ctrl-C to stop)  "
                      % math.ceil(left))
            out.flush()
            clock.sleep(min(1.0, left))
        out.write("\n")
    except KeyboardInterrupt:
        out.write("\nStopped waiting for capacity: no job of this submission is running.\n")
        out.flush()
        raise


def _quota_fixes(session, job, attempts, skipped):
    """What quota increases would have let a choice run: each refused choice's fix, once."""
    fixes = [fix for _, _, _, fix in skipped if fix]
    state = state_of(session)
    for attempt in attempts:
        if attempt.outcome == W.NOT_CREATED:
            finding = quotas.limit_finding(attempt.reason, job, state.codes or {}, session.boto_region_name)
            if finding is not None and finding.fix:
                fixes.append(finding.fix)
    return sorted(set(fixes), key=fixes.index)


def final_error(session, first, attempts, skipped, failure):
    """The error when no choice ran: one attempt alone (no choice skipped) its own error, as before; else a
    :class:`CapacityError` naming every choice tried, why each failed, and the quota increases to request."""
    if len(attempts) == 1 and not skipped:
        if isinstance(failure, CapacityError):
            failure.attempts = list(attempts)
        return failure
    last = attempts[-1]
    lines = ["Every choice was tried: %d attempt%s." % (len(attempts), "" if len(attempts) == 1 else "s"),
             W.table(attempts)]
    lines.extend("Not tried: instance group %s as %s, over its quota (%s)." % (g, c, why) for g, c, why, _ in skipped)
    fixes = _quota_fixes(session, first.job, attempts, skipped)
    if fixes:
        lines.append("Quota increases that would let a choice run:\n" + "\n".join("  - " + f for f in fixes))
    else:
        lines.append("No choice was refused over a quota: SageMaker had no capacity for any. Try later "
                     "(capacity_wait), add alternatives, or reserve capacity with a SageMaker training plan.")
    advice = getattr(failure, "advice", None) or ""
    lines.extend(line for line in advice.splitlines() if line.startswith("Types of the same family"))
    error = CapacityError(last.name, last.outcome, last.reason, instance_groups=list(last.groups),
                          same_family_types=getattr(failure, "same_family_types", None), advice="\n".join(lines),
                          attempts=attempts)
    if last.outcome == W.NOT_CREATED:  # no such job: SageMaker refused to create it
        error.args = ("Training job %s was not created: %s\n%s" % (last.name, last.reason, error.advice),)
    return error
