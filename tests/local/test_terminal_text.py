"""A local host's output and failure reach the session's stream as text, never as terminal control
(issue 28): its escape sequences are shown (``\\x1b``), in the relayed lines, the driver's own
``[local]`` lines and the error; the carriage returns that end a progress bar's updates stay (each
update is a record of its own, labelled: docs/local.md), one a host put inside a line does not.
"""
import re

import pytest

from sagemaker_hetero.exceptions import LocalJobError

from ._helpers import estimator_for

#: What must never reach the stream raw, but for the relay's own ends of updates (\r)
CONTROL_BUT_CR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")

HOST = r'''
import os, sys
hostile = "says \x1b]52;c;ZXZpbA==\x07\x1b]8;;https://evil.example/\x1b\\link \x1b[2A\x1b[2J\x1bc\x9b31m del\x7f"
print("line: " + hostile, flush=True)
sys.stdout.write("bar 10%\rbar 20%\x1b[1A\rbar 30%\n")
sys.stdout.flush()
with open(os.path.join(os.environ["SAGEMAKER_BASE_DIR"], "output", "failure"), "w") as f:
    f.write("failed: " + hostile + "\nsecond\rline")
sys.exit(3)
'''


def test_a_hosts_escape_sequences_and_failure_are_shown_as_text(session_factory, write_code):
    session = session_factory()
    estimator = estimator_for(session, write_code(HOST), groups=(("cpu", "ml.c5.xlarge", 1),), job_name="hostile")
    with pytest.raises(LocalJobError) as info:
        estimator.fit()
    out = session.out.getvalue()
    assert CONTROL_BUT_CR.findall(out) == []
    assert "[cpu/algo-1] line: says \\x1b]52;c;ZXZpbA==\\x07\\x1b]8;;https://evil.example/\\x1b\\link " in out
    assert "\\x1b[2A\\x1b[2J\\x1bc\\x9b31m del\\x7f" in out
    # a progress bar: each update a labelled record, ended by the relay's \r
    assert "[cpu/algo-1] bar 10%\r[cpu/algo-1] bar 20%\\x1b[1A\r[cpu/algo-1] bar 30%\n" in out
    assert all(out[i + 1:i + 2] in ("[", "") for i in [m.start() for m in re.finditer("\r", out)])
    failed = [line for line in out.splitlines() if line.startswith("[local] hostile: Failed:")]
    assert failed and CONTROL.findall(failed[0]) == [] and "failed: says \\x1b]52;c;" in failed[0]
    text = str(info.value)
    assert CONTROL.findall(text) == []
    assert "  failed: says \\x1b]52;c;ZXZpbA==\\x07" in text and "[cpu/algo-1] line: says \\x1b]52;c;" in text
    assert info.value.failure.startswith("failed: says \x1b]52;c;ZXZpbA==\x07")  # as the host wrote it
    reason = estimator.latest_training_job.describe()["FailureReason"]
    assert "\x1b]52;c;" in reason  # the description keeps what the host said
