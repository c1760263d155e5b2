"""The exit codes of ``sagemaker-hetero``, one place: every command returns one of them, ``cli.py``
re-exports them, ``--help``'s epilog is made from :data:`MEANINGS` and docs/cli.md's table says its
words (tests/cli/test_exits.py).

A crash never exits 1, so 1 always means a job that ended Failed or Stopped, but for ``diff``, where
it means a difference (as diff(1)'s).
"""
__all__ = ["EXIT_OK", "EXIT_JOB_FAILED", "EXIT_DIFFERENT", "EXIT_USAGE", "EXIT_AWS", "EXIT_UNEXPECTED", "EXIT_UNKNOWN",
           "EXIT_INTERRUPTED", "EXIT_BROKEN_PIPE", "MEANINGS", "epilog"]

EXIT_OK = 0
EXIT_JOB_FAILED = 1
EXIT_DIFFERENT = 1  # diff: the requests differ (as diff(1) exits)
EXIT_USAGE = 2
EXIT_AWS = 3
EXIT_UNEXPECTED = 4
EXIT_UNKNOWN = 5  # preflight: no problem, but a check could not be made
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a writer whose reader went away

#: ``(code, in --help's words or None, in docs/cli.md's table's words)``: what each code means, in order.
MEANINGS = (
    (EXIT_OK, "success", "success; for `submit --wait`/`--logs`, `logs --follow` and `local`: the job Completed; "
     "for `status`: the job is not Failed or Stopped"),
    (EXIT_JOB_FAILED, "job Failed or Stopped", "the job Failed or was Stopped: its final status, last status message "
     "and failure reason are printed on stderr; for `diff`: the requests differ"),
    (EXIT_USAGE, "invalid spec or usage (or a preflight problem)", "an invalid spec or command line, or a problem the "
     "preflight found (`preflight`, `submit`): every problem is listed on stderr (`preflight`: on stdout, in its table)"),
    (EXIT_AWS, "AWS error", "an AWS error (no credentials, access denied, a job that does not exist, throttling after "
     "every retry, ...)"),
    (EXIT_UNEXPECTED, "unexpected error (--debug shows its traceback)", "an unexpected error: a file that could not be "
     "written, or a bug in sagemaker-hetero; one line on stderr (the traceback too with `--debug` or "
     "`SAGEMAKER_HETERO_DEBUG=1`)"),
    (EXIT_UNKNOWN, "preflight could not make every check", "`preflight` found no problem, but some checks could not "
     "be made (a permission it lacks, an endpoint it could not reach): their rows say `unknown` and name the permission"),
    (EXIT_INTERRUPTED, None, "interrupted (Ctrl-C); a job already created keeps running"),
    (EXIT_BROKEN_PIPE, None, "stdout was closed early (`sagemaker-hetero logs JOB | head`); nothing more is printed"),
)


def epilog():
    """``--help``'s last words: the codes below 128 (a signal's are the shell's), from :data:`MEANINGS`."""
    told = ", ".join("%d %s" % (code, words) for code, words, _ in MEANINGS if words is not None)
    return "Exit codes: %s. See docs/cli.md for the spec format." % told
