"""The rules that are ours, checked on the job model. Pure: path checks arrive as a function.

The service's field limits (types, lengths, ranges, patterns, enums) are not here: they are checked
on the rendered request against botocore's model (``_checks.service`` through ``_checks.round_one``). Here are the
rules no field limit expresses — heterogeneous clusters (unique group names, one distribution
group, all-or-none channel routing), framework versions and training images, code paths — and the
few documented rules of ours that are stricter than the model (docs/validation.md says why).

``problems(job)`` returns every :class:`Problem`, each under the user's argument name.
"""
import numbers

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model import hyperparameters as H
from sagemaker_hetero._request import s3_uris
from sagemaker_hetero._model import images, instance_types
from sagemaker_hetero._model.archive import archive_name
from sagemaker_hetero._model import strategies
from sagemaker_hetero._model.job import CODE, INPUT, MODEL
from sagemaker_hetero._model.strategies import LAUNCHERS, STRATEGIES, UNGROUPABLE
from sagemaker_hetero._model.keywords import did_you_mean
from sagemaker_hetero.exceptions import Problems

__all__ = ["problems", "did_you_mean", "tag_problems"]

# The strategies' facts (frameworks, launchers and their order, groupable) are _model/strategies.py's table.
_PYTORCH_ONLY, _TENSORFLOW_ONLY = strategies.only_for("pytorch"), strategies.only_for("tensorflow")


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def problems(job, region=None, path_exists=None):
    """Every problem of ours with ``job``. ``region`` (if known): the training image must exist
    there. ``path_exists(kind, path)`` (``kind`` ``"file"``, ``"dir"`` or ``"any"``) checks the local
    code paths; without it they are not checked."""
    out = Problems()
    _check_cluster(job, out)
    _check_role(job, out)
    _check_image(job, region, out)
    _check_code(job, path_exists, out)
    _check_channels(job, out)
    _check_distribution(job, out)
    _check_job(job, out)
    _check_hyperparameters(job, out)
    _check_tags(job, out)
    return out.items


def _where(group, field):
    """The user's name of a group's field: ``instance_groups[1].instance_count`` or ``instance_count``."""
    return "%s.%s" % (group.arg, field) if group.arg else field


# -- cluster and role --------------------------------------------------------------------------


def _check_cluster(job, out):
    seen = set()
    for group in job.groups:
        if job.heterogeneous:
            name = group.name
            if isinstance(name, str) and name in seen:
                out.add(_where(group, "instance_group_name"), "is used by another instance group; names must be unique", name)
            if isinstance(name, str):
                seen.add(name)
        count = group.count
        if count is not None and _is_int(count) and count < 1:
            out.add(_where(group, "instance_count"), "must be an integer >= 1", count)


def _check_role(job, out):
    if job.role is None:
        out.add("role", "is required: an IAM role ARN or role name that SageMaker can assume", None)


# -- image and code ----------------------------------------------------------------------------


def _check_image(job, region, out):
    fw = job.framework
    if job.image_uri is not None:
        if not isinstance(job.image_uri, str) or not job.image_uri:
            out.add("image_uri", "must be an image URI", job.image_uri)
    elif fw is None:
        out.add("image_uri", "is required for the generic Estimator", None)
    if fw is None:
        return
    label = D.FRAMEWORK_LABELS[fw]
    version = job.framework_version
    if version is None:
        if job.image_uri is None:
            out.add("framework_version", "is required to choose the %s training image (or give image_uri)" % label,
                    None)
            if job.py_version is None:
                out.add("py_version", "is required with framework_version to choose the %s training image" % label,
                        None)
        return
    if not isinstance(version, str):
        out.add("framework_version", "must be a string such as '1.12.1'", version)
        return
    if job.heterogeneous:
        minimum = D.HETERO_MIN_VERSION[fw]
        given = images.version_tuple(version)
        if given and given[: len(minimum)] < minimum:
            out.add("framework_version", "heterogeneous clusters need %s %s or later" % (label, ".".join(map(str, minimum))),
                    version)
    if job.image_uri is not None:
        return
    try:
        available = images.py_versions(fw, version)
    except images.ImageLookupError as exc:
        out.add("framework_version", str(exc), version)
        return
    if job.py_version is None:
        out.add("py_version", "is required (%s %s images: %s)" % (label, version, ", ".join(available)), None)
    elif job.py_version not in available:
        out.add("py_version", "no %s %s training image for this Python (available: %s)" % (label, version,
                                                                                           ", ".join(available)),
                job.py_version)
    elif region is not None:
        try:
            images.training_image(job, region)
        except images.ImageLookupError as exc:  # the region is the session's
            out.add("sagemaker_session", str(exc), region)


def _check_code(job, path_exists, out):
    code = job.code
    if code is None:
        return
    if code.location is not None and not s3_uris.is_s3_uri(code.location):
        out.add("code_location", "must be an S3 URI (s3://bucket/prefix): the code archive is uploaded there",
                code.location)
    level = code.log_level
    if not _is_int(level):
        out.add("container_log_level", "must be a logging level such as logging.INFO (20)", level)
    if path_exists is None:
        return
    entry, source = code.entry_point, code.source_dir
    if source is not None and not code.in_s3:
        if not path_exists("dir", source):
            out.add("source_dir", "is not a directory", source)
        elif not path_exists("file", source.rstrip("/") + "/" + entry):
            out.add("entry_point", "is not a file inside source_dir %r" % source, entry)
    elif source is None and not path_exists("file", entry):
        out.add("entry_point", "is not a file", entry)
    for i, dep in enumerate(code.dependencies):
        if not isinstance(dep, str) or not dep or not path_exists("any", dep):
            out.add("dependencies[%d]" % i, "is not a file or directory", dep)
        elif archive_name(dep) is None:
            out.add("dependencies[%d]" % i, "must end in a name of its own (the archive keeps a dependency under its "
                    "last path component; this one has none, and its files would land outside the code directory): "
                    "name the directory itself, e.g. '../mylib' instead of '..'", dep)


# -- channels ----------------------------------------------------------------------------------


def _check_channels(job, out):
    seen = {}
    for channel in job.channels:
        name = channel.name
        if not isinstance(name, str):
            continue
        if name in seen:
            first = seen[name]
            if first.kind == INPUT and channel.kind == MODEL:
                out.add(first.arg, "is also the model channel (model_channel_name); rename one", name)
            elif first.kind == INPUT and channel.kind == CODE:
                out.add(first.arg, "is the code channel of a network-isolated job; rename it", name)
            else:
                out.add(channel.arg, "channel names must be unique", name)
        else:
            seen[name] = channel
    users = [c for c in job.channels if c.kind == INPUT]
    assigned = [c.name for c in users if c.groups is not None]
    unassigned = [c.name for c in users if c.groups is None]
    if assigned and unassigned:
        out.add("inputs", "if any channel names instance groups, every channel must: %s name groups, %s do not"
                % (", ".join(map(repr, assigned)), ", ".join(map(repr, unassigned))))


# -- distribution ------------------------------------------------------------------------------


def _check_distribution(job, out):
    dist = job.distribution
    if dist is None:
        return
    options = dist.options
    for key, value in options.items():
        if key not in STRATEGIES:
            out.add("distribution.%s" % (key,), "is not a distribution strategy%s" % did_you_mean(key, STRATEGIES + ("instance_groups",)), key)
        elif not isinstance(value, dict):
            out.add("distribution.%s" % key, "must be a dict such as {'enabled': True}", value)
    sm = options.get("smdistributed")
    if isinstance(sm, dict):
        for key in sm:
            if key not in ("dataparallel", "modelparallel"):
                out.add("distribution.smdistributed.%s" % (key,), "must be dataparallel or modelparallel", key)
    _check_enabled_flags(options, out)
    if job.framework == "tensorflow":
        for key in _PYTORCH_ONLY:
            if key in options:
                out.add("distribution.%s" % key, "is a PyTorch strategy; TensorFlow supports %s" % _said(
                        [s.name for s in strategies.TABLE if "tensorflow" in s.frameworks]), key)
    elif job.framework == "pytorch":
        for key in _TENSORFLOW_ONLY:
            if key in options:
                out.add("distribution.%s" % key, "is a TensorFlow strategy", key)
    launchers = [key for key in LAUNCHERS if dist.enabled(key)]
    if len(launchers) > 1:
        out.add("distribution", "%s all launch the training: enable one (the SDK v2 would silently run only one)"
                % " and ".join(launchers), launchers)
    if dist.enabled("mpi") and dist.smddp:
        out.add("distribution", "mpi and smdistributed dataparallel exclude each other; enable one",
                sorted(str(k) for k in options))
    if dist.smddp and dist.smmp:
        out.add("distribution.smdistributed", "dataparallel and modelparallel exclude each other", sm)
    if dist.smmp and not dist.enabled("mpi"):
        out.add("distribution.mpi", "smdistributed modelparallel runs under MPI: enable mpi too", options.get("mpi"))
    mpi = options.get("mpi") if isinstance(options.get("mpi"), dict) else {}
    per_host = mpi.get("processes_per_host")
    if per_host is not None and (not _is_int(per_host) or per_host < 1):
        out.add("distribution.mpi.processes_per_host", "must be an integer >= 1", per_host)
    custom = mpi.get("custom_mpi_options")
    if custom is not None and not isinstance(custom, str):
        out.add("distribution.mpi.custom_mpi_options", "must be a string", custom)
    for key, value, arg in H.sdk_entries(job):
        if arg == "distribution" and not isinstance(value, H.Ref):
            try:
                H.encode(value)
            except ValueError as exc:
                out.add("distribution", "%s must be JSON-serialisable (%s)" % (key, exc), value)
    _check_distribution_group(job, dist, out)
    _check_p5(job, dist, out)


def _said(names):
    """``a, b and c``."""
    return ", ".join(names[:-1]) + " and " + names[-1]


def _check_enabled_flags(options, out):
    """Each strategy section's ``enabled``, when given, is True or False (the job model's one rule,
    ``_model.enabled``, reads nothing else as enabled)."""
    sections = [(key, value) for key, value in options.items() if key != "smdistributed"]
    sm = options.get("smdistributed")
    if isinstance(sm, dict):
        sections += [("smdistributed.%s" % part, sm.get(part)) for part in ("dataparallel", "modelparallel")]
    for key, section in sections:
        if isinstance(section, dict) and "enabled" in section and not isinstance(section["enabled"], bool):
            out.add("distribution.%s.enabled" % (key,), "must be True or False: the SDK v2 sends any other value as it "
                    "is, and the training toolkit reads one such as 'false' or 1 as enabled",
                    section["enabled"])


def _check_distribution_group(job, dist, out):
    enabled = dist.strategy is not None
    malformed = any(not isinstance(v, dict) for v in dist.options.values())
    if not job.heterogeneous:
        _check_smddp_type(job, job.groups[0] if job.groups else None, "instance_type", dist, out)
        return
    for key in UNGROUPABLE:
        if key in dist.options:
            out.add("distribution.%s" % key, "cannot be tied to one instance group; heterogeneous clusters support mpi, "
                    "smdistributed and torch_distributed", key)
    if dist.named is None:
        if dist.group is None and len(job.groups) > 1:
            names = ", ".join(repr(g.name) for g in job.groups)
            out.add("distribution.instance_groups",
                    "must name the one instance group that runs the distributed training (groups: %s)" % names, None)
        elif not enabled and not malformed:
            out.add("distribution", "enables no strategy", dist.options)
    elif dist.group is not None and not enabled and not malformed:
        out.add("distribution", "names instance group %r but enables no strategy (mpi, smdistributed or "
                "torch_distributed)" % (dist.group,), dist.options)
    _check_smddp_type(job, job.group(dist.group) if dist.group is not None else None, "distribution.instance_groups",
                      dist, out)


def _check_p5(job, dist, out):
    """As the SDK v2: smdistributed (data or model parallel) does not run on ml.p5.48xlarge unless
    torch_distributed launches it; any group of the job on that type counts."""
    if "smdistributed" not in dist.options or dist.enabled("torch_distributed"):
        return
    p5 = [t for t in job.instance_types if instance_types.smdistributed_refused(t)]
    if p5:
        out.add("distribution.smdistributed", "SMDataParallel and SMModelParallel do not support %s instances "
                "unless torch_distributed is enabled too" % p5[0], dist.options["smdistributed"])


def _check_smddp_type(job, group, where, dist, out):
    if not dist.smddp or group is None or not isinstance(group.instance_type, str):
        return
    itype = group.instance_type
    if not instance_types.gpu(itype):
        out.add(where, "smdistributed dataparallel needs GPU instances; %s has none" % itype, itype)
    elif not instance_types.smddp(itype):
        out.add(where, "smdistributed dataparallel supports %s and p%d or newer p types" % (
            ", ".join(instance_types.SMDDP_INSTANCE_TYPES), instance_types.SMDDP_MIN_P_GENERATION), itype)


# -- job settings ------------------------------------------------------------------------------


def _check_job(job, out):
    if _is_int(job.max_run) and job.max_run > D.MAX_RUN_LIMIT_SECONDS:
        out.add("max_run", "must be at most %d seconds (28 days, the longest AWS lets a training job run)"
                % D.MAX_RUN_LIMIT_SECONDS, job.max_run)
    if job.spot and job.max_wait is None:
        out.add("max_wait", "is required with use_spot_instances", None)
    if job.max_wait is not None:
        if _is_int(job.max_wait) and _is_int(job.max_run) and job.max_wait < job.max_run:
            out.add("max_wait", "must be >= max_run (%d)" % job.max_run, job.max_wait)
        if not job.spot:
            out.add("max_wait", "is only for managed spot training (use_spot_instances=True)", job.max_wait)
    if _is_int(job.volume_size) and job.volume_size < 1:
        out.add("volume_size", "must be an integer number of GB >= 1", job.volume_size)
    if job.checkpoint_local_path and not job.checkpoint_s3_uri:
        out.add("checkpoint_local_path", "needs checkpoint_s3_uri", job.checkpoint_local_path)
    _check_capacity(job, out)
    subnets, groups = job.subnets, job.security_group_ids
    if bool(subnets) != bool(groups):
        given, missing = ("subnets", "security_group_ids") if subnets else ("security_group_ids", "subnets")
        out.add(missing, "is required with %s (a VPC needs both)" % given, groups if subnets else subnets)


def _check_capacity(job, out):
    wait, attempts = job.capacity_wait, job.capacity_attempts
    if not isinstance(wait, numbers.Real) or isinstance(wait, bool) or not 0 <= wait <= D.MAX_RUN_LIMIT_SECONDS:
        out.add("capacity_wait", "must be a number of seconds from 0 (do not wait) to %d" % D.MAX_RUN_LIMIT_SECONDS,
                wait)
    if attempts is not None and (not _is_int(attempts) or not 1 <= attempts <= 100):
        out.add("capacity_attempts", "must be an integer from 1 to 100 (jobs made for capacity reasons), or None "
                                     "for one per choice", attempts)


def _check_hyperparameters(job, out):
    own = set(key for key, _ in job.hyperparameters if isinstance(key, str))
    for key, _, _ in H.sdk_entries(job):
        if key in own:
            out.add("hyperparameters[%r]" % (key,), "is set by the SDK itself; remove it", key)


def _check_tags(job, out):
    out.items.extend(tag_problems(job.tags))


def tag_problems(tags, arg="tags"):
    """Our rules for a list of ``{"Key": ..., "Value": ...}`` tags given as the argument ``arg``."""
    out = Problems()
    keys = set()
    for i, tag in enumerate(tags or ()):
        key = tag.get("Key") if isinstance(tag, dict) else None
        if not isinstance(key, str):
            continue
        if key.lower().startswith("aws:"):
            out.add("%s[%d].Key" % (arg, i), "keys starting with 'aws:' are reserved by AWS", key)
        elif key in keys:
            out.add("%s[%d].Key" % (arg, i), "is used by another tag", key)
        keys.add(key)
    return out.items
