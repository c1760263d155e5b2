"""The TensorFlow estimator (``sagemaker_hetero.tensorflow.TensorFlow``)."""
from sagemaker_hetero.estimator import Framework

__all__ = ["TensorFlow"]


class TensorFlow(Framework):
    """Train with a TensorFlow deep learning container.

    ``TensorFlow(py_version, framework_version, model_dir, image_uri, distribution, entry_point=...,
    role=..., instance_groups=[...])``. Heterogeneous clusters need TensorFlow 2.6 or later.
    ``model_dir`` defaults to ``s3://{output path}/{job name}/model`` (``/opt/ml/model`` under MPI);
    ``model_dir=False`` leaves it out.
    """

    _framework = "tensorflow"
    _positional = ("py_version", "framework_version", "model_dir", "image_uri", "distribution")
    _own_fields = ("framework_version", "py_version", "distribution", "model_dir")
