"""The cluster of a job as a table, for notebooks (HTML) and terminals (text). Pure.

One row per instance group: its type and count, the channels it receives and whether it runs the
distributed launcher; then the image and where the output goes. An estimator shows the view of its
settings (with the channels of its latest job); a rendered request (:class:`RenderedRequest`, what
``fit(dry_run=True)`` returns) shows the view of the request.
"""
import html
import json

import attrs

from sagemaker_hetero import _context, _request
from sagemaker_hetero._settings import group_name

__all__ = ["GroupRow", "ClusterView", "RenderedRequest", "view_from_settings", "HOMOGENEOUS_GROUP"]

HOMOGENEOUS_GROUP = "homogeneousCluster"
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

    def text(self):
        table = [_COLUMNS] + [row.cells() for row in self.rows]
        widths = [max(len(r[i]) for r in table) for i in range(len(_COLUMNS))]
        lines = [self.title]
        for r in table:
            lines.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())
        lines.append("  image:  %s" % self.image)
        lines.append("  output: %s" % self.output)
        lines.extend("  %s" % note for note in self.notes)
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
        if details is not None:
            parts.append("<details><summary>request</summary><pre>%s</pre></details>" % e(details))
        parts.append("</div>")
        return "\n".join(parts)


def _str(value):
    return _NONE if value is None else str(value)


def _escape(value):
    return html.escape(_str(value), quote=True)


def _enabled(section):
    return isinstance(section, dict) and section.get("enabled", False) is True


def strategy_label(distribution):
    """``"torch_distributed"``, ``"mpi (8 processes per host)"``, ... or ``None``."""
    if not isinstance(distribution, dict):
        return None
    labels = []
    mpi = distribution.get("mpi")
    if _enabled(mpi):
        per_host = mpi.get("processes_per_host")
        labels.append("mpi (%s processes per host)" % per_host if per_host else "mpi")
    sm = distribution.get("smdistributed")
    if isinstance(sm, dict):
        for part in ("dataparallel", "modelparallel"):
            if _enabled(sm.get(part)):
                labels.append("smdistributed %s" % part)
    for key in ("pytorchddp", "torch_distributed", "pytorchxla", "parameter_server", "multi_worker_mirrored_strategy"):
        if _enabled(distribution.get(key)):
            labels.append(key)
    return " + ".join(labels) or None


def _channel_groups(value):
    refs = getattr(value, "instance_groups", None)
    if refs is None or not isinstance(refs, (list, tuple)):
        return None
    return [group_name(r) for r in refs]


def _image(settings, region):
    try:
        if region is not None or settings.image_uri is not None:
            return _request.image_for(settings, region)
    except Exception:  # noqa: BLE001 - an image that cannot be resolved is described instead
        pass
    if settings.framework is not None and settings.framework_version is not None:
        return "%s %s %s (the image is chosen when the job is rendered)" % (
            settings.framework,
            settings.framework_version,
            settings.py_version or "",
        )
    return _NONE


def view_from_settings(settings, title, region=None, image=None):
    """The :class:`ClusterView` of ``settings`` (with its channels); ``image`` overrides the image shown."""
    if settings.is_hetero and isinstance(settings.instance_groups, (list, tuple)):
        groups = [
            (getattr(g, "instance_group_name", g), getattr(g, "instance_type", None), getattr(g, "instance_count", None))
            for g in settings.instance_groups
        ]
    else:
        groups = [(HOMOGENEOUS_GROUP, settings.instance_type, settings.instance_count)]
    channels = [(name, _channel_groups(value)) for name, value in settings.channels]
    if settings.model_uri is not None:
        channels.append(("%s (model)" % settings.model_channel_name, None))
    if settings.enable_network_isolation and settings.has_code:
        channels.append(("code (source)", None))
    strategy = strategy_label(settings.distribution)
    launcher_group = None
    if strategy:
        refs = settings.distribution.get("instance_groups") if isinstance(settings.distribution, dict) else None
        if refs and isinstance(refs, (list, tuple)):
            launcher_group = group_name(refs[0])
        elif len(groups) == 1:
            launcher_group = groups[0][0]
    rows = tuple(
        GroupRow(
            name,
            itype,
            count,
            tuple(c for c, names in channels if names is None or name in names),
            strategy if name == launcher_group else None,
        )
        for name, itype, count in groups
    )
    if settings.output_path is not None:
        output = settings.output_path
    elif region is not None:
        output = "s3://%s/ (the default bucket)" % _context.placeholder_bucket(region)
    else:
        output = "the default bucket (s3://sagemaker-{region}-{account}/)"
    notes = []
    if settings.entry_point is not None:
        notes.append("entry point: %s%s" % (settings.entry_point, " in %s" % settings.source_dir if settings.source_dir else ""))
    if strategy and launcher_group is None:
        notes.append("distribution: %s (no instance group named)" % strategy)
    return ClusterView(
        title=title,
        rows=rows,
        image=image if image is not None else _image(settings, region),
        output=output,
        notes=tuple(notes),
    )


def request_view(request):
    """The :class:`ClusterView` of a CreateTrainingJob request (or DescribeTrainingJob answer)."""
    from sagemaker_hetero import _wire_in

    settings = _wire_in.settings_from_description(request)
    label = {"pytorch": "PyTorch", "tensorflow": "TensorFlow"}.get(settings.framework, "Generic")
    title = "%s training job %s" % (label, settings.job_name)
    return view_from_settings(settings, title, image=_wire_in.training_image(request))


class RenderedRequest(dict):
    """A CreateTrainingJob request, as ``fit(dry_run=True)`` returns it.

    A ``dict`` in every way: it compares equal to the plain dict, serialises to the same JSON and is
    passed as ``create_training_job(**request)``; ``repr`` and ``pprint`` show the dict. In addition
    it shows its cluster as a table in Jupyter (``_repr_html_``, with the request folded below), and
    :meth:`describe_cluster` gives the same table as text. ``dict(request)`` is a plain copy.
    """

    __slots__ = ()

    def describe_cluster(self):
        """The cluster as a text table (instance groups, channels, launcher, image, output)."""
        return request_view(self).text()

    def _repr_html_(self):
        try:
            return request_view(self).html(details=json.dumps(self, indent=2))
        except Exception:  # noqa: BLE001 - a notebook falls back to the dict's repr
            return None
