"""The job model: one frozen, normalised description of a training job. Pure data.

A :class:`Job` is built once — from an estimator and ``fit``'s arguments or a CLI spec
(``_model.build``), or from a DescribeTrainingJob answer (``_request.describe``) — and every
consumer reads it: the request renderer (``_request.render``), the checks (``_checks.rules``), the
cluster view (``_request.view``), the local cluster and ``attach``. Nothing downstream derives these facts again.

Scalars (counts, sizes, names, URIs) are kept as the user gave them, right or wrong: the service's
limits are checked on the rendered request against botocore's model (``_checks.service``), and our own
rules on this model (``_checks.rules``). What *is* normalised here is structure: the cluster is always a
tuple of :class:`Group` (a cluster without instance groups is one group named
``homogeneousCluster``), every channel the request will carry is a :class:`Channel` naming its
groups by name (the SDK's own ``model`` and ``code`` channels included), the distribution is one
:class:`Distribution` tied to the group that runs it, and hyperparameters are the strings the job
receives.
"""
import posixpath

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model import record
from sagemaker_hetero._model.arguments import ARGUMENTS, job_default
from sagemaker_hetero._model.settings import model_class
from sagemaker_hetero._model.strategies import PLAIN, STRATEGIES  # noqa: F401 (STRATEGIES re-exported)

__all__ = ["Group", "Channel", "Distribution", "Code", "Job", "group_name", "enabled", "NOT_GIVEN", "STRATEGIES"]

NOT_GIVEN = object()

#: Channel kinds: the user's ``fit`` inputs, the SDK's model channel, the code of an isolated job.
INPUT, MODEL, CODE = "input", "model", "code"




def group_name(ref):
    """The group name a reference stands for: a name, or an InstanceGroup's name."""
    name = getattr(ref, "instance_group_name", NOT_GIVEN)
    return ref if name is NOT_GIVEN else name


def enabled(section):
    """Whether a strategy's section (``distribution["mpi"]``, ``["smdistributed"]["dataparallel"]``,
    ...) enables it: the one rule, read by the request's hyperparameters (``_hyperparameters``), the
    checks and the local launcher alike. As the SDK v2 reads ``section.get("enabled", False)``: a
    section without ``"enabled": True`` (``{}``, ``{"processes_per_host": 2}``) enables nothing.
    ``enabled`` is True or False: the checks refuse any other value (the SDK v2 would send it as it
    is, and the toolkit would take ``"false"`` for enabled)."""
    return isinstance(section, dict) and section.get("enabled", False) is True


@model_class
class Group(object):
    """One instance group; ``arg`` is where the user wrote it (``instance_groups[1]``, or ``None``
    for the one group of a cluster without instance groups)."""

    name = record.field()
    instance_type = record.field()
    count = record.field()
    arg = record.field(default=None)


@model_class
class Channel(object):
    """One channel of the request.

    ``groups``: the names of the groups that receive it (``None``: every group). ``kind``:
    :data:`INPUT`, :data:`MODEL` or :data:`CODE` (its ``uri`` is ``None``: the code archive's
    location is decided when the request is rendered). ``arg`` names the user's argument it came
    from (``inputs['train']``, ``model_uri``, ``source_dir``); ``plain`` is True when that argument
    is the URI itself rather than a TrainingInput.
    """

    name = record.field()
    uri = record.field()
    groups = record.field(default=None)
    data_type = record.field(default=D.S3_DATA_TYPE)
    distribution = record.field(default=D.S3_DISTRIBUTION)
    compression = record.field(default=None)
    content_type = record.field(default=None)
    record_wrapping = record.field(default=None)
    input_mode = record.field(default=None)
    attribute_names = record.field(default=None)
    shuffle_seed = record.field(default=None)
    hub_access_config = record.field(default=None)
    model_access_config = record.field(default=None)
    kind = record.field(default=INPUT)
    arg = record.field(default=None)
    plain = record.field(default=False)

    @classmethod
    def of_input(cls, name, value, groups=None, arg=None):
        """The channel of a TrainingInput-like ``value`` (read by attribute); ``groups`` are its
        groups' names (already resolved from ``value.instance_groups``)."""
        names = value.attribute_names
        shuffle = value.shuffle_config
        return cls(
            name=name,
            uri=value.s3_data,
            groups=groups,
            data_type=value.s3_data_type,
            distribution=value.distribution or D.S3_DISTRIBUTION,  # as the SDK v2: a falsy one is the default
            compression=value.compression,
            content_type=value.content_type,
            record_wrapping=value.record_wrapping,
            input_mode=value.input_mode,
            attribute_names=tuple(names) if isinstance(names, (list, tuple)) else names,
            shuffle_seed=getattr(shuffle, "seed", shuffle),
            hub_access_config=value.hub_access_config,
            model_access_config=value.model_access_config,
            arg=arg,
        )

    @property
    def is_local(self):
        """A ``file://`` channel (local runs only)."""
        return isinstance(self.uri, str) and self.uri.startswith("file://")


@model_class
class Distribution(object):
    """The distribution: its strategies (the user's dict without ``instance_groups``) and ``group``,
    the name of the one instance group that runs it (``None`` without instance groups: every host).

    ``named`` are the group names the user's ``instance_groups`` gave (``None`` if not given), kept
    so the checks can say what was wrong with them.
    """

    options = record.field()
    group = record.field(default=None)
    named = record.field(default=None)

    def enabled(self, key):
        """Whether strategy ``key`` is enabled (:func:`enabled` of its section)."""
        return enabled(self.options.get(key))

    @property
    def smddp(self):
        sm = self.options.get("smdistributed")
        return enabled(sm.get("dataparallel") if isinstance(sm, dict) else None) or self.enabled("pytorchddp")

    @property
    def smmp(self):
        sm = self.options.get("smdistributed")
        return enabled(sm.get("modelparallel") if isinstance(sm, dict) else None)

    @property
    def strategy(self):
        """``"torch_distributed"``, ``"mpi (8 processes per host)"``, ... or ``None`` when none is enabled."""
        labels = []
        mpi = self.options.get("mpi")
        if enabled(mpi):
            per_host = mpi.get("processes_per_host")
            labels.append("mpi (%s processes per host)" % per_host if per_host else "mpi")
        sm = self.options.get("smdistributed")
        if isinstance(sm, dict):
            labels.extend("smdistributed %s" % part for part in ("dataparallel", "modelparallel") if enabled(sm.get(part)))
        for key in ("pytorchddp",) + tuple(name for _, name in PLAIN):
            if self.enabled(key):
                labels.append(key)
        return " + ".join(labels) or None


@model_class
class Code(object):
    """The code every host runs: ``entry_point`` (relative to ``source_dir`` when that is given),
    ``source_dir`` (a folder, or an S3 ``.tar.gz`` used as it is), ``dependencies``, and
    ``location`` (``code_location``: where the archive is uploaded)."""

    entry_point = record.field()
    source_dir = record.field(default=None)
    dependencies = record.field(default=())
    location = record.field(default=None)
    log_level = record.field(default=D.CONTAINER_LOG_LEVEL)

    @property
    def program(self):
        """``sagemaker_program``: the entry point as the container finds it in the unpacked archive."""
        if self.source_dir is not None or not isinstance(self.entry_point, str):
            return self.entry_point
        return posixpath.basename(self.entry_point.replace("\\", "/"))

    @property
    def in_s3(self):
        """The code is an archive in S3 already (nothing to build or upload)."""
        return isinstance(self.source_dir, str) and self.source_dir.startswith("s3://")


def _job_fields():
    """The Job's attributes: its structure, then one per argument of the table that an attribute holds."""
    fields = dict(
        framework=record.field(default=None),  # None (generic Estimator), "pytorch" or "tensorflow"
        heterogeneous=record.field(default=False),
        groups=record.field(default=()),
        channels=record.field(default=()),
        distribution=record.field(default=None),
        code=record.field(default=None),
        hyperparameters=record.field(default=()),  # ((key, encoded value), ...): the user's own
        json_hyperparameters=record.field(default=True),  # encoded as JSON (else str(), a bare generic image)
        empty_hyperparameters=record.field(default=False),  # HyperParameters {} sent when none (ModelTrainer)
        max_pending_time=record.field(default=None),  # StoppingCondition.MaxPendingTimeInSeconds (ModelTrainer)
        sent_false=record.field(default=()),  # ((request key, argument), ...): flags sent as false (ModelTrainer)
        makes_default_bucket=record.field(default=False),  # its submission makes the default bucket (ModelTrainer)
        subnets=record.field(default=None),
        security_group_ids=record.field(default=None),
        environment=record.field(default=None),  # ((name, value), ...) or None
        tags=record.field(default=None),  # ({"Key": ..., "Value": ...}, ...) or None
        metric_definitions=record.field(default=None),
        debugger_hook_config=record.field(default=None),  # request format; True: to the output path
        profiler_config=record.field(default=None),
        model_dir=record.field(default=None),  # TensorFlow: None = the default, False = left out
        job_name=record.field(default=None),
        base_job_name=record.field(default=None),
    )
    for argument in ARGUMENTS:
        if argument.setting and argument.attribute is not None:
            fields[argument.attribute] = record.field(default=job_default(argument))
    return fields


@model_class(these=_job_fields())
class Job(object):
    """A training job, normalised. See the module docstring. Besides its structure, each argument of
    the table (``_model.arguments``) that one attribute holds is an attribute here: ``image_uri``
    (given explicitly, else the framework's image), ``output_path`` (None: the default bucket),
    ``spot``, ...

    A job is never compared (it is built, read and evolved); its repr shows what differs from the
    defaults (:func:`~sagemaker_hetero._model.settings.model_class`)."""

    @property
    def group_names(self):
        return [g.name for g in self.groups]

    def group(self, name):
        """The :class:`Group` named ``name``, or None."""
        for g in self.groups:
            if g.name == name:
                return g
        return None

    @property
    def host_count(self):
        """The number of hosts (None while a count is not a whole number)."""
        counts = [g.count for g in self.groups]
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in counts):
            return None
        return sum(counts)

    @property
    def instance_types(self):
        return [g.instance_type for g in self.groups]

    @property
    def launcher_group(self):
        """The group whose hosts run the distributed launcher (None: none, or every host)."""
        dist = self.distribution
        if dist is None or dist.strategy is None:
            return None
        return dist.group

    def receives(self, channel, group):
        """Whether hosts of ``group`` (a name) receive ``channel``."""
        return channel.groups is None or group in channel.groups
