"""The cluster of a job as a table, for notebooks (HTML) and terminals (text). Pure.

One row per instance group: its type and count, the channels it receives and whether it runs the
distributed launcher; then the image, where the output goes and (for a rendered request) where the
code archive is. The rows come from the job model; the image, output and code are never worked out
here: a dry run (``_request.rendered.RenderedRequest``) shows what its request holds (:func:`view_of_plan`), an
estimator (with the channels of its latest ``fit``) what ``_request.plan`` would put in the request
with its session's facts (:func:`view_of_job`), so the view cannot disagree with the request. Below a dry run's table
comes the cost estimate of its request, which the dry run hands over as a function of ``prices``
(it makes no call).
"""
import attrs

from sagemaker_hetero._model import images
from sagemaker_hetero._request import plan as _plan
from sagemaker_hetero._request.read_back import image_of
from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model.job import CODE, MODEL
from sagemaker_hetero.exceptions import shown

__all__ = ["GroupRow", "ClusterView", "view_of", "view_of_job", "view_of_plan"]

_COLUMNS = ("group", "instance type", "count", "channels", "launcher")
_NONE = "-"


@attrs.frozen
class GroupRow(object):
    name = attrs.field()
    instance_type = attrs.field()
    instance_count = attrs.field()
    channels = attrs.field(default=())
    launcher = attrs.field(default=None)

    def cells(self):
        return (
            _str(self.name),
            _str(self.instance_type),
            _str(self.instance_count),
            ", ".join(self.channels) or _NONE,
            self.launcher or _NONE,
        )


@attrs.frozen
class ClusterView(object):
    """What the table shows; :meth:`text` and :meth:`html` draw it (``code``: None, not shown)."""

    title = attrs.field()
    rows = attrs.field()
    image = attrs.field()
    output = attrs.field()
    notes = attrs.field(default=())
    code = attrs.field(default=None)
    cost = attrs.field(default=None)  # the cost estimate shown below the table (``_cost.estimate.Estimate``)

    def _lines(self):
        """``(label, value)`` below the table: the image, the output, the code archive."""
        lines = [("image", self.image), ("output", self.output)]
        return lines + ([("code", self.code)] if self.code is not None else [])

    def text(self):
        """The view as text; names read back from a described job (attach) are shown, never terminal control."""
        table = [_COLUMNS] + [row.cells() for row in self.rows]
        widths = [max(len(r[i]) for r in table) for i in range(len(_COLUMNS))]
        lines = [self.title]
        for r in table:
            lines.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())
        lines.extend("  %-7s %s" % (label + ":", value) for label, value in self._lines())
        lines.extend("  %s" % note for note in self.notes)
        if self.cost is not None:  # a table, or one line when no price is known
            brief = self.cost.brief()
            lines.append("  cost:   %s" % brief if brief else self.cost.text())
        return shown("\n".join(lines))

    def html(self, details=None):
        """An HTML fragment; every user string is escaped, its control characters shown (a name read back
        from a described job). ``details``: text shown folded below."""
        e = _escape
        head = "".join("<th style=\"text-align:left\">%s</th>" % e(c) for c in _COLUMNS)
        body = "".join(
            "<tr>%s</tr>" % "".join("<td style=\"text-align:left\">%s</td>" % e(cell) for cell in row.cells())
            for row in self.rows
        )
        parts = [
            '<div class="sagemaker-hetero-cluster">',
            "<p><strong>%s</strong></p>" % e(self.title),
            "<table><thead><tr>%s</tr></thead><tbody>%s</tbody></table>" % (head, body),
            "<p>%s%s</p>" % ("<br>".join("%s: <code>%s</code>" % (label, e(value)) for label, value in self._lines()),
                             "".join("<br>%s" % e(n) for n in self.notes)),
        ]
        if self.cost is not None:
            brief = self.cost.brief()
            parts.append("<p>cost: %s</p>" % e(brief) if brief else self.cost.html())
        if details is not None:
            parts.append("<details><summary>request</summary><pre>%s</pre></details>" % e(details))
        parts.append("</div>")
        return "\n".join(parts)


def _str(value):
    return _NONE if value is None else str(value)


def _escape(value):
    import html  # notebooks only: a dry run does not pay for it

    return html.escape(shown(_str(value)), quote=True)


def _image(job, region):
    try:
        if region is not None or job.image_uri is not None:
            return str(images.training_image(job, region))
    except images.ImageLookupError:  # an image that cannot be resolved is described instead
        pass
    if job.framework is not None and job.framework_version is not None:
        return "%s %s %s (the image is chosen when the job is rendered)" % (
            job.framework, job.framework_version, job.py_version or "")
    return _NONE


_SUFFIX = {MODEL: " (model)", CODE: " (source)"}
_DEFAULT_BUCKET = " (the default bucket)"


def view_of(job, title, image, output, code=None):
    """The :class:`ClusterView` of the job model ``job``, with ``image``, ``output`` and ``code`` (the
    code archive's URI, or None) shown as given: the caller takes them from the request."""
    strategy = job.distribution.strategy if job.distribution is not None else None
    launcher = job.launcher_group if job.heterogeneous else (D.HOMOGENEOUS_GROUP if strategy else None)
    rows = tuple(
        GroupRow(
            group.name,
            group.instance_type,
            group.count,
            tuple("%s%s" % (c.name, _SUFFIX.get(c.kind, "")) for c in job.channels if job.receives(c, group.name)),
            strategy if launcher is not None and group.name == launcher else None,
        )
        for group in job.groups
    )
    notes = []
    if job.code is not None:
        source = job.code.source_dir
        notes.append("entry point: %s%s" % (job.code.entry_point, " in %s" % source if source else ""))
    if strategy and launcher is None:
        notes.append("distribution: %s (no instance group named)" % strategy)
    if job.output_path is None and output != _NONE:
        output = "%s%s" % (output, _DEFAULT_BUCKET)
    return ClusterView(title=title, rows=rows, image=image, output=output, notes=tuple(notes), code=code)


def view_of_job(job, title, facts):
    """The view of a job not rendered yet (an estimator's): the image and the output path the request
    would hold with ``facts`` (``_request.plan.output_path``, as :func:`~._request.plan.make_plan`)."""
    return view_of(job, title, _image(job, facts.region), _str(_plan.output_path(job, facts)))


def view_of_plan(plan, request):
    """The view of a rendered ``request`` (its :class:`~._request.plan.Plan` ``plan``): the image and the
    output path exactly as the request holds them, and the code archive's URI it was rendered with."""
    label = D.FRAMEWORK_LABELS[plan.job.framework] if plan.job.framework else "Generic"
    title = "%s training job %s" % (label, request.get("TrainingJobName", plan.job_name))
    image = image_of(request)
    output = request.get("OutputDataConfig", {}).get("S3OutputPath")
    return view_of(plan.job, title, _str(image), _str(output), code=plan.code.s3_uri if plan.code is not None else None)
