"""The command line's private parts (``cli.py`` is its public face): the commands by concern (``submit``,
``watch``, ``tune``, ``cost``: each adds its own to the parser), what every command reads first
(``inputs``), the exit codes (``exits``), a job spec as estimator arguments (``spec``) and its tuning
section as a tuner's (``tuning_spec``)."""
