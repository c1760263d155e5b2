"""Write a job's utilization charts to a file: ``.svg`` and ``.html`` as ``charts`` draws them (no
dependency), ``.png`` through matplotlib, the optional ``plot`` extra
(``pip install 'sagemaker-hetero[plot]'``)."""
import os
from sagemaker_hetero._usage import charts
from sagemaker_hetero._usage.metrics import METRICS
from sagemaker_hetero.exceptions import ConfigError, Problem, shown

__all__ = ["KINDS", "EXTRA_HINT", "write"]

#: The file kinds a plot is written as, by the file name's ending.
KINDS = (".svg", ".html", ".png")
EXTRA_HINT = "pip install 'sagemaker-hetero[plot]'"


def write(usage, path, argument="path"):
    """Write ``usage``'s charts to ``path`` (its ending says the kind: :data:`KINDS`); ConfigError
    naming ``argument`` for another ending, or a PNG without matplotlib (the ``plot`` extra)."""
    kind = os.path.splitext(str(path))[1].lower()
    if kind not in KINDS:
        raise ConfigError([Problem(argument, "must end in %s (the file's kind)" % ", ".join(KINDS), path)])
    try:
        if kind == ".png":
            return _png(usage, path, argument)
        document = charts.svg(usage) if kind == ".svg" else (
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head><body>%s</body></html>\n"
            % (charts.escape(usage.job_name), charts.html(usage)))
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(document)
    except OSError as exc:
        raise ConfigError([Problem(argument, "cannot be written: %s" % (exc.strerror or exc), path)])
    return path


def _png(usage, path, argument):
    try:  # the Figure alone, not pyplot: a notebook's backend is left as it is
        from matplotlib.figure import Figure
    except ImportError:
        raise ConfigError([Problem(argument, "a PNG needs matplotlib, the optional 'plot' extra: %s (or write "
                                   ".svg or .html, which need nothing)" % EXTRA_HINT, path)])
    groups = usage.groups or ()
    figure = Figure(figsize=(6, 2.2 * max(1, len(groups))))
    axes = figure.subplots(max(1, len(groups)), 1, squeeze=False)
    for axis, group in zip(axes[:, 0], groups):
        for key, _, label in METRICS:
            points = group.series.get(key)
            if points:
                axis.plot([t - points[0][0] for t, _ in points], [v for _, v in points],
                          color=charts.COLOURS[key], label=label)
        axis.set_ylim(0, 100)
        axis.set_title(shown("%s (%s)" % (group.name, charts.size(group))), fontsize=9)
        axis.set_ylabel("%")
        axis.set_xlabel("seconds", fontsize=7)
        if axis.get_legend_handles_labels()[0]:
            axis.legend(fontsize=7, loc="upper right")
    figure.tight_layout()
    figure.savefig(path, format="png")
    return path
