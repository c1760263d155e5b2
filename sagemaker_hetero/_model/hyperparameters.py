"""Hyperparameters as SageMaker receives them: user values encoded, plus the SDK's own keys. Pure.

:func:`sdk_entries` is the one list of the keys the SDK adds (the renderer writes them, the checks
refuse a user key that would clash with one); values only known when the request is rendered
(the job's name, the region, where the code archive lives) are :class:`Ref` placeholders.
"""
import json

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model.job import enabled as _enabled
from sagemaker_hetero._model.strategies import FLAG

__all__ = ["Ref", "JOB_NAME", "REGION", "CODE_URI", "MODEL_DIR", "encode", "sdk_entries", "distribution_hyperparameters",
           "decode"]


class Ref(object):
    """A value the renderer fills in from its context."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "<%s>" % self.name


JOB_NAME = Ref("job name")
REGION = Ref("region")
CODE_URI = Ref("code archive URI")
MODEL_DIR = Ref("TensorFlow model_dir: <output path>/<job name>/model")

def encode(value, as_json=True):
    """``value`` as the job receives it: JSON text (framework code), or ``str(value)`` (a bare image).

    Raises ``ValueError`` if it cannot be encoded."""
    try:
        return json.dumps(value) if as_json else str(value)
    except Exception as exc:  # noqa: BLE001 - whatever a user's object raises, it cannot be sent
        raise ValueError("%s: %s" % (type(exc).__name__, exc))


def sdk_entries(job):
    """``[(key, value, argument)]``: the hyperparameters the SDK adds, in the SDK v2's order.

    ``value`` is unencoded (the renderer JSON-encodes it) or a :class:`Ref`; ``argument`` is the
    user's argument it comes from (for problems)."""
    out = []
    if job.code is not None:
        # where the code is: a value of the user's, or made of the code's place and the job's name
        if job.network_isolation:
            submit, where = D.NETWORK_ISOLATION_SUBMIT_DIR, "source_dir"
        else:
            submit = CODE_URI
            where = "source_dir" if job.code.in_s3 else "code_location" if job.code.location is not None else "job_name"
        out.append(("sagemaker_submit_directory", submit, where))
        out.append(("sagemaker_program", job.code.program, "entry_point"))
        out.append(("sagemaker_container_log_level", job.code.log_level, "container_log_level"))
        out.append(("sagemaker_job_name", JOB_NAME, "job_name"))
        out.append(("sagemaker_region", REGION, "sagemaker_session"))
    dist = distribution_hyperparameters(job)
    out.extend((key, value, "distribution") for key, value in dist.items())
    if job.framework == "tensorflow" and job.model_dir is not False:
        model_dir, where = job.model_dir, "model_dir"
        if model_dir is None:  # the default: a constant, or made of the output path and the job's name
            model_dir = D.TF_MPI_MODEL_DIR if dist.get(FLAG["mpi"]) else MODEL_DIR
            where = "job_name"
        out.append(("model_dir", model_dir, where))
    return out


def distribution_hyperparameters(job):
    """The distribution's hyperparameters (unencoded), in the SageMaker Python SDK v2's order."""
    distribution = job.distribution
    if distribution is None or job.framework is None:
        return {}
    dist = {k: (v if isinstance(v, dict) else {}) for k, v in distribution.options.items()}
    group = job.group(distribution.group) if distribution.group is not None else None
    own_type = None if job.heterogeneous or not job.groups else job.groups[0].instance_type
    # D5: a heterogeneous job's sagemaker_instance_type is its distribution group's type.
    instance_type = own_type if own_type is not None else getattr(group, "instance_type", None)
    out = {}
    if job.framework == "pytorch" and "pytorchddp" in dist and "smdistributed" not in dist:
        dist["smdistributed"] = {"dataparallel": dist.pop("pytorchddp")}
    if job.heterogeneous and group is not None:
        out["sagemaker_distribution_instance_groups"] = [group.name]
    if job.framework == "pytorch" and _enabled(dist.get("torch_distributed")):
        if "smdistributed" in dist:
            out.update(_generic(dist, instance_type))
        out[FLAG["torch_distributed"]] = True
        if own_type is not None:
            out["sagemaker_instance_type"] = own_type
        return out
    out.update(_generic(dist, instance_type))
    return out


def _generic(dist, instance_type):
    out = {}
    if "pytorchxla" in dist:
        out[FLAG["pytorchxla"]] = _enabled(dist["pytorchxla"])
    if "parameter_server" in dist:
        out[FLAG["parameter_server"]] = _enabled(dist["parameter_server"])
    if "mpi" in dist:
        mpi = dist["mpi"]
        out[FLAG["mpi"]] = _enabled(mpi)
        if mpi.get("processes_per_host"):
            out["sagemaker_mpi_num_of_processes_per_host"] = mpi["processes_per_host"]
        out["sagemaker_mpi_custom_mpi_options"] = mpi.get("custom_mpi_options", "")
    if "smdistributed" in dist:
        sm = dist["smdistributed"]
        mp = sm.get("modelparallel") if isinstance(sm.get("modelparallel"), dict) else {}
        if _enabled(mp):
            out["mp_parameters"] = mp.get("parameters", {})
        ddp = sm.get("dataparallel") if isinstance(sm.get("dataparallel"), dict) else {}
        out[FLAG["smdistributed"]] = _enabled(ddp)
        out["sagemaker_instance_type"] = instance_type
        if _enabled(ddp):
            out["sagemaker_distributed_dataparallel_custom_mpi_options"] = ddp.get("custom_mpi_options", "")
    if "multi_worker_mirrored_strategy" in dist:
        out[FLAG["multi_worker_mirrored_strategy"]] = _enabled(dist["multi_worker_mirrored_strategy"])
    return out


def decode(value):
    """A hyperparameter as the SDK encoded it, decoded: JSON back into its value (else as it is)."""
    try:
        return json.loads(value)
    except (TypeError, ValueError):
        return value
