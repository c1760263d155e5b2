"""A job's utilization as text, as HTML (a notebook's ``_repr_html_``) and as inline SVG: one small
chart per instance group, each metric a line from 0 to 100% over the job's time. Pure: no dependency,
no I/O (``plot`` writes the files)."""
from xml.sax import saxutils

from sagemaker_hetero._usage.metrics import LABELS, METRICS
from sagemaker_hetero.exceptions import shown

__all__ = ["text", "html", "group_svg", "svg", "escape", "COLOURS", "WIDTH", "HEIGHT"]

#: A line's colour per metric.
COLOURS = {"cpu": "#1f77b4", "memory": "#2ca02c", "disk": "#7f7f7f", "gpu": "#d62728", "gpu_memory": "#ff7f0e"}
#: One group's chart, pixels.
WIDTH, HEIGHT = 440, 150
_LEFT, _TOP, _RIGHT, _BOTTOM = 34, 22, 8, 30


def escape(text):
    """``text`` for SVG and HTML: markup escaped, and each control character (a job's or a service's, in a
    group's or a host's name) written visibly as :func:`~sagemaker_hetero.exceptions.shown` writes it (XML
    allows none but tab and newline)."""
    return saxutils.escape(shown(str(text)))


def _pct(value):
    return "-" if value is None else "%.1f%%" % value


def _cells(item):
    cells = []
    for key, _, label in METRICS:
        figures = item.figures(key)
        if figures["mean"] is not None:
            cells.append("%s %s (p95 %s)" % (label, _pct(figures["mean"]), _pct(figures["p95"])))
    return "; ".join(cells) or "no figures"


def size(group):
    """``2 x ml.c5.xlarge``; a group whose instance type is not known (a local job an earlier run left: its
    samples name its hosts' groups, not their types) says so rather than ``None``."""
    return "%s x %s" % (group.count, group.instance_type or "an instance type not known")


def _group_line(group):
    return "%s (%s, hosts %s): %s" % (group.name, size(group), ", ".join(group.hosts) or "none known", _cells(group))


def text(usage):
    """The usage in lines: a line per group with each metric's mean and p95, then one per host of it; the
    hosts whose group is not known; the verdict, the unknowns. Shown safely on a terminal (``shown``)."""
    lines = ["Utilization of %s (%s; 0-100%% of each instance):" % (usage.job_name, usage.status or "status unknown")]
    for group in usage.groups:
        lines.append("  " + _group_line(group))
        lines.extend("    %s: %s" % (h.host, _cells(h)) for h in usage.hosts if h.group == group.name)
    unknown = [h for h in usage.hosts if h.group is None]
    if unknown:
        lines.append("  ? (group not known, hosts %s)" % ", ".join(h.host for h in unknown))
        lines.extend("    %s: %s" % (h.host, _cells(h)) for h in unknown)
    lines.append("Verdict: " + usage.verdict.text)
    lines.extend("Unknown: " + u for u in usage.unknowns)
    return shown("\n".join(lines))


def _span(usage):
    times = [t for g in usage.groups for points in g.series.values() if points for t, _ in points]
    return (min(times), max(times)) if times else (0, 1)


def group_svg(group, span, x=0, y=0):
    """One group's chart as an ``<svg>`` element (at ``x``, ``y`` in a bigger one), over ``span`` (t0, t1)."""
    start, end = span
    wide, high = WIDTH - _LEFT - _RIGHT, HEIGHT - _TOP - _BOTTOM
    scale = float(end - start) or 1.0

    def point(t, v):
        return "%.1f,%.1f" % (_LEFT + wide * (t - start) / scale, _TOP + high * (1 - min(max(v, 0.0), 100.0) / 100.0))

    parts = ['<svg xmlns="http://www.w3.org/2000/svg" x="%d" y="%d" width="%d" height="%d" role="img" '
             'class="sagemaker-hetero-usage">' % (x, y, WIDTH, HEIGHT),
             '<title>%s</title>' % escape("%s: %s" % (group.name, size(group))),
             '<text x="%d" y="14" font-size="12" font-family="sans-serif">%s</text>' % (
                 _LEFT, escape("%s (%s)" % (group.name, size(group)))),
             '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#ccc"/>' % (_LEFT, _TOP, wide, high)]
    for value in (0, 50, 100):
        parts.append('<text x="2" y="%d" font-size="9" font-family="sans-serif">%d%%</text>' % (
            _TOP + high * (1 - value / 100.0) + 3, value))
    legend = 0
    for key, _, label in METRICS:
        points = group.series.get(key)
        if not points:
            continue
        parts.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"><title>%s</title></polyline>'
                     % (COLOURS[key], " ".join(point(t, v) for t, v in points), escape(label)))
        parts.append('<text x="%d" y="%d" font-size="9" font-family="sans-serif" fill="%s">%s %s</text>' % (
            _LEFT + legend, HEIGHT - 8, COLOURS[key], escape(label), _pct(group.figures(key)["mean"])))
        legend += 80
    if not legend:
        parts.append('<text x="%d" y="%d" font-size="10" font-family="sans-serif">no figures</text>' % (
            _LEFT + 8, _TOP + high // 2))
    parts.append("</svg>")
    return "".join(parts)


def svg(usage):
    """Every group's chart, one under the other, as one SVG document."""
    span = _span(usage)
    height = HEIGHT * max(1, len(usage.groups))
    charts = "".join(group_svg(g, span, 0, HEIGHT * i) for i, g in enumerate(usage.groups))
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">%s</svg>\n' % (WIDTH, height, charts))


def _row(group):
    cells = "".join("<td>%s</td>" % escape("%s / %s" % (_pct(group.figures(k)["mean"]), _pct(group.figures(k)["p95"])))
                    for k, _, _ in METRICS)
    return "<tr><td>%s</td><td>%s</td>%s</tr>" % (escape(group.name), escape(size(group)), cells)


def html(usage):
    """The usage as HTML: the verdict, a table of each group's mean / p95, its chart, the unknowns."""
    span = _span(usage)
    head = "".join("<th>%s</th>" % escape(LABELS[k]) for k, _, _ in METRICS)
    parts = ['<div class="sagemaker-hetero-usage"><p><b>%s</b>: %s</p>' % (escape(usage.job_name),
                                                                          escape(usage.verdict.text)),
             "<table><tr><th>group</th><th>instances</th>%s</tr>%s</table>" % (
                 head, "".join(_row(g) for g in usage.groups)),
             "<div>%s</div>" % "".join(group_svg(g, span) for g in usage.groups)]
    if usage.unknowns:
        parts.append("<ul>%s</ul>" % "".join("<li>unknown: %s</li>" % escape(u) for u in usage.unknowns))
    parts.append("</div>")
    return "".join(parts)
