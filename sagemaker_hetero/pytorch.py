"""The PyTorch estimator (``sagemaker_hetero.pytorch.PyTorch``)."""
from sagemaker_hetero.estimator import Framework

__all__ = ["PyTorch"]


class PyTorch(Framework):
    """Train with a PyTorch deep learning container.

    ``PyTorch(entry_point, framework_version, py_version, source_dir, hyperparameters, image_uri,
    distribution, role=..., instance_groups=[...])``. Heterogeneous clusters need PyTorch 1.10 or
    later; a ``distribution`` (mpi, smdistributed, torch_distributed, pytorchddp) runs on the one
    instance group its ``"instance_groups"`` names.
    """

    _framework = "pytorch"
    _positional = ("entry_point", "framework_version", "py_version", "source_dir", "hyperparameters", "image_uri",
                   "distribution")
