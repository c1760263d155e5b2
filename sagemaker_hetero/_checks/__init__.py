"""Stage 3, the checks: every problem, before anything is sent. Pure: no I/O, no clock."""
