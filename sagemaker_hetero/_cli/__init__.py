"""The command line's private parts (``cli.py`` is its public face): what every command reads first,
a job spec as estimator arguments, its tuning section as a tuner's."""
