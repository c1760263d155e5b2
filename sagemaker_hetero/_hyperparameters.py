"""Hyperparameters as SageMaker receives them: user values encoded, plus the SDK's own keys."""
import json

__all__ = ["encoder", "sdk_keys", "distribution_hyperparameters", "uses_mpi"]


def encoder(settings):
    """How user values are encoded: JSON for framework code, ``str()`` for a bare generic image."""
    if settings.framework is None and not settings.has_code:
        return str
    return json.dumps


def _enabled(section):
    return isinstance(section, dict) and section.get("enabled", False) is True


def uses_mpi(settings):
    dist = settings.distribution or {}
    return _enabled(dist.get("mpi"))


def distribution_hyperparameters(settings, group_type=None):
    """The distribution's hyperparameters (unencoded), in the SageMaker Python SDK v2's order.

    ``group_type`` is the instance type of the distribution's group (heterogeneous jobs).
    """
    dist = settings.distribution
    if not dist or not isinstance(dist, dict) or settings.framework is None:
        return {}
    dist = {k: (v if isinstance(v, dict) or k == "instance_groups" else {}) for k, v in dist.items()}
    instance_type = settings.instance_type if settings.instance_type is not None else group_type
    out = {}
    if settings.framework == "pytorch" and "pytorchddp" in dist and "smdistributed" not in dist:
        dist["smdistributed"] = {"dataparallel": dist.pop("pytorchddp")}
    from sagemaker_hetero._settings import group_name

    named = dist.get("instance_groups")
    if not named and settings.is_hetero and len(settings.instance_groups or ()) == 1:
        named = settings.instance_groups  # one group: the distribution runs on it (as the SDK v2 writes)
    if isinstance(named, (list, tuple)) and named:
        out["sagemaker_distribution_instance_groups"] = [group_name(g) for g in named]
    if settings.framework == "pytorch" and "torch_distributed" in dist:
        torch_enabled = _enabled(dist["torch_distributed"])
        if torch_enabled:
            if "smdistributed" in dist:
                out.update(_generic(dist, instance_type))
            out["sagemaker_torch_distributed_enabled"] = True
            if settings.instance_type is not None:
                out["sagemaker_instance_type"] = settings.instance_type
            return out
    out.update(_generic(dist, instance_type))
    return out


def _generic(dist, instance_type):
    out = {}
    if "pytorchxla" in dist:
        out["sagemaker_pytorch_xla_multi_worker_enabled"] = _enabled(dist["pytorchxla"])
    if "parameter_server" in dist:
        out["sagemaker_parameter_server_enabled"] = _enabled(dist["parameter_server"])
    if "mpi" in dist:
        mpi = dist["mpi"] or {}
        out["sagemaker_mpi_enabled"] = _enabled(mpi)
        if mpi.get("processes_per_host"):
            out["sagemaker_mpi_num_of_processes_per_host"] = mpi["processes_per_host"]
        out["sagemaker_mpi_custom_mpi_options"] = mpi.get("custom_mpi_options", "")
    if "smdistributed" in dist:
        sm = dist["smdistributed"]
        mp = sm.get("modelparallel") if isinstance(sm.get("modelparallel"), dict) else {}
        if _enabled(mp):
            out["mp_parameters"] = mp.get("parameters", {})
        ddp = sm.get("dataparallel") if isinstance(sm.get("dataparallel"), dict) else {}
        out["sagemaker_distributed_dataparallel_enabled"] = _enabled(ddp)
        out["sagemaker_instance_type"] = instance_type
        if _enabled(ddp):
            out["sagemaker_distributed_dataparallel_custom_mpi_options"] = ddp.get("custom_mpi_options", "")
    if "multi_worker_mirrored_strategy" in dist:
        out["sagemaker_multi_worker_mirrored_strategy_enabled"] = _enabled(dist["multi_worker_mirrored_strategy"])
    return out


_BASE_KEYS = (
    "sagemaker_submit_directory",
    "sagemaker_program",
    "sagemaker_container_log_level",
    "sagemaker_job_name",
    "sagemaker_region",
)


def sdk_keys(settings):
    """The keys the SDK adds to the user's hyperparameters."""
    keys = []
    if settings.has_code:
        keys.extend(_BASE_KEYS)
    keys.extend(distribution_hyperparameters(settings))
    if settings.framework == "tensorflow" and settings.model_dir is not False:
        keys.append("model_dir")
    return keys
