"""The cluster of a job as a table, for notebooks (HTML) and terminals (text). Pure.

One row per instance group: its type and count, the channels it receives and whether it runs the
distributed launcher; then the image and where the output goes. Drawn from the job model: an
estimator shows its own job (with the channels of its latest ``fit``), a dry run
(:class:`RenderedRequest`) the job it rendered, and below it the cost estimate of its request,
which the dry run hands over as a function of ``prices`` (it makes no call).
"""
import json

import attrs

from sagemaker_hetero._model import images
from sagemaker_hetero._request import names
from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model.job import CODE, MODEL

__all__ = ["GroupRow", "ClusterView", "RenderedRequest", "view_of"]

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
    """What the table shows; :meth:`text` and :meth:`html` draw it."""

    title = attrs.field()
    rows = attrs.field()
    image = attrs.field()
    output = attrs.field()
    notes = attrs.field(default=())
    cost = attrs.field(default=None)  # the cost estimate shown below the table (``_cost.estimate.Estimate``)

    def text(self):
        table = [_COLUMNS] + [row.cells() for row in self.rows]
        widths = [max(len(r[i]) for r in table) for i in range(len(_COLUMNS))]
        lines = [self.title]
        for r in table:
            lines.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())
        lines.append("  image:  %s" % self.image)
        lines.append("  output: %s" % self.output)
        lines.extend("  %s" % note for note in self.notes)
        if self.cost is not None:
            lines.append(self.cost.text())
        return "\n".join(lines)

    def html(self, details=None):
        """An HTML fragment; every user string is escaped. ``details``: text shown folded below."""
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
            "<p>image: <code>%s</code><br>output: <code>%s</code>%s</p>"
            % (e(self.image), e(self.output), "".join("<br>%s" % e(n) for n in self.notes)),
        ]
        if self.cost is not None:
            parts.append(self.cost.html())
        if details is not None:
            parts.append("<details><summary>request</summary><pre>%s</pre></details>" % e(details))
        parts.append("</div>")
        return "\n".join(parts)


def _str(value):
    return _NONE if value is None else str(value)


def _escape(value):
    import html  # notebooks only: a dry run does not pay for it

    return html.escape(_str(value), quote=True)


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


def view_of(job, title, region=None, image=None):
    """The :class:`ClusterView` of the job model ``job``; ``image`` overrides the image shown."""
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
    if job.output_path is not None:
        output = str(job.output_path)
    elif region is not None:
        output = "s3://%s/ (the default bucket)" % names.default_bucket_name(region, D.ACCOUNT_PLACEHOLDER)
    else:
        output = "the default bucket (s3://sagemaker-{region}-{account}/)"
    notes = []
    if job.code is not None:
        source = job.code.source_dir
        notes.append("entry point: %s%s" % (job.code.entry_point, " in %s" % source if source else ""))
    if strategy and launcher is None:
        notes.append("distribution: %s (no instance group named)" % strategy)
    return ClusterView(
        title=title,
        rows=rows,
        image=image if image is not None else _image(job, region),
        output=output,
        notes=tuple(notes),
    )


class RenderedRequest(dict):
    """A CreateTrainingJob request, as ``fit(dry_run=True)`` returns it.

    A ``dict`` in every way: it compares equal to the plain dict, serialises to the same JSON and is
    passed as ``create_training_job(**request)``; ``repr`` and ``pprint`` show the dict. In addition
    it shows its cluster as a table in Jupyter (``_repr_html_``, with the request folded below), and
    :meth:`describe_cluster` gives the same table as text. ``dict(request)`` is a plain copy.
    """

    __slots__ = ("plan", "estimate")

    def __init__(self, request=(), plan=None, estimate=None):
        super(RenderedRequest, self).__init__(request)
        self.plan = plan
        #: ``estimate(prices)``: the request's cost estimate shown below the cluster (None: none)
        self.estimate = estimate

    def __reduce__(self):  # copies and pickles are plain requests again
        return (dict, (dict(self),))

    def _view(self, prices=None):
        plan = self.plan
        label = D.FRAMEWORK_LABELS[plan.job.framework] if plan.job.framework else "Generic"
        title = "%s training job %s" % (label, plan.job_name)
        image = self.get("AlgorithmSpecification", {}).get("TrainingImage")
        view = view_of(plan.job, title, region=plan.region, image=image)
        return attrs.evolve(view, cost=self.estimate(prices)) if self.estimate is not None else view

    def describe_cluster(self, prices=None):
        """The cluster as a text table (instance groups, channels, launcher, image, output), then its cost
        estimate (no call: ``prices``, a price file's path or a mapping, else ``SAGEMAKER_HETERO_PRICES``'s
        file, and the price cache)."""
        return self._view(prices).text()

    def _repr_html_(self):
        try:
            return self._view().html(details=json.dumps(self, indent=2))
        except Exception:  # noqa: BLE001 - a notebook falls back to the dict's repr
            return None
