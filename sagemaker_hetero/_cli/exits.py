"""The exit codes of ``sagemaker-hetero`` (docs/cli.md), one place: every command returns one of them,
``cli.py`` re-exports them.

A crash never exits 1, so 1 always means a job that ended Failed or Stopped, but for ``diff``, where
it means a difference (as diff(1)'s).
"""
__all__ = ["EXIT_OK", "EXIT_JOB_FAILED", "EXIT_DIFFERENT", "EXIT_USAGE", "EXIT_AWS", "EXIT_UNEXPECTED", "EXIT_UNKNOWN",
           "EXIT_INTERRUPTED", "EXIT_BROKEN_PIPE"]

EXIT_OK = 0
EXIT_JOB_FAILED = 1
EXIT_DIFFERENT = 1  # diff: the requests differ (as diff(1) exits)
EXIT_USAGE = 2
EXIT_AWS = 3
EXIT_UNEXPECTED = 4
EXIT_UNKNOWN = 5  # preflight: no problem, but a check could not be made
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a writer whose reader went away
