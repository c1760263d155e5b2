"""The TensorFlow estimator (``sagemaker_hetero.tensorflow.TensorFlow``)."""
from typing import Any, Dict, List, Optional, Union

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model import hyperparameters as _hyperparameters
from sagemaker_hetero._model.docstrings import documented
from sagemaker_hetero._model.keywords import keywords_checked
from sagemaker_hetero.estimator import Framework
from sagemaker_hetero.instance_group import InstanceGroup

__all__ = ["TensorFlow"]


@documented
class TensorFlow(Framework):
    """Train with a TensorFlow Deep Learning Container: every host runs ``entry_point``.

    Heterogeneous clusters (``instance_groups``) need TensorFlow 2.6 or later; a ``distribution`` (mpi
    or smdistributed) runs on the one instance group its ``"instance_groups"`` names. The script gets
    ``--model_dir``: ``s3://{output path}/{job name}/model`` unless given (``/opt/ml/model`` under MPI;
    ``model_dir=False`` leaves it out), and after ``fit`` the attribute holds the value sent.
    ``fit(inputs)`` starts the job; ``fit(inputs, dry_run=True)`` returns its request unsent.
    """

    framework = "tensorflow"

    @keywords_checked
    def __init__(
        self,
        py_version: Optional[str] = None,
        framework_version: Optional[str] = None,
        model_dir: Optional[Union[str, bool]] = None,
        image_uri: Optional[str] = None,
        distribution: Optional[Dict[str, Any]] = None,
        *,
        role: Optional[str] = None,
        instance_count: Optional[int] = None,
        instance_type: Optional[str] = None,
        keep_alive_period_in_seconds: Optional[int] = None,
        volume_size: int = D.VOLUME_SIZE_GB,
        volume_kms_key: Optional[str] = None,
        max_run: int = D.MAX_RUN_SECONDS,
        input_mode: str = D.INPUT_MODE,
        output_path: Optional[str] = None,
        output_kms_key: Optional[str] = None,
        base_job_name: Optional[str] = None,
        sagemaker_session: Optional[Any] = None,
        hyperparameters: Optional[Dict[str, Any]] = None,
        tags: Optional[Union[List[Dict[str, str]], Dict[str, str]]] = None,
        subnets: Optional[List[str]] = None,
        security_group_ids: Optional[List[str]] = None,
        model_uri: Optional[str] = None,
        model_channel_name: str = D.MODEL_CHANNEL,
        metric_definitions: Optional[List[Dict[str, str]]] = None,
        encrypt_inter_container_traffic: Optional[bool] = None,
        use_spot_instances: bool = False,
        max_wait: Optional[int] = None,
        checkpoint_s3_uri: Optional[str] = None,
        checkpoint_local_path: Optional[str] = None,
        enable_network_isolation: Optional[bool] = None,
        debugger_hook_config: Optional[Union[bool, Dict[str, Any]]] = None,
        enable_sagemaker_metrics: Optional[bool] = None,
        profiler_config: Optional[Dict[str, Any]] = None,
        disable_profiler: Optional[bool] = None,
        environment: Optional[Dict[str, str]] = None,
        max_retry_attempts: Optional[int] = None,
        source_dir: Optional[str] = None,
        container_log_level: int = D.CONTAINER_LOG_LEVEL,
        code_location: Optional[str] = None,
        entry_point: Optional[str] = None,
        dependencies: Optional[List[str]] = None,
        instance_groups: Optional[List[InstanceGroup]] = None,
        training_repository_access_mode: Optional[str] = None,
        training_repository_credentials_provider_arn: Optional[str] = None,
        container_entry_point: Optional[List[str]] = None,
        container_arguments: Optional[List[str]] = None,
        disable_output_compression: bool = False,
        enable_infra_check: Optional[bool] = None,
        enable_remote_debug: Optional[bool] = None,
        enable_session_tag_chaining: Optional[bool] = None,
        training_plan: Optional[str] = None,
        instance_placement_config: Optional[Dict[str, Any]] = None,
        job_name: Optional[str] = None,
        capacity_wait: float = 0,
        capacity_attempts: Optional[int] = None,
    ) -> None:
        self._setup(locals())

    def _started(self, job):
        """``model_dir`` becomes the value the request sent, as the SDK v2 sets it when it starts a job (so a
        later ``fit`` sends it again, as the SDK v2's does)."""
        sent = ((getattr(job, "request", None) or {}).get("HyperParameters") or {}).get("model_dir")
        if sent is not None:
            self.model_dir = _hyperparameters.decode(sent)
