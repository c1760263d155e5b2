"""Stage 2, the request: rendered once from the job model, and read back. Pure: no I/O, no clock."""
