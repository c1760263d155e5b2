"""The CLI's spec reading: a job spec as estimator arguments, its tuning section as a tuner's."""
