"""Stage 1, the job model: what the user described, as one normalised model. Pure: no I/O, no clock."""
