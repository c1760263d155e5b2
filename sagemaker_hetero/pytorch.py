"""The PyTorch estimator (``sagemaker_hetero.pytorch.PyTorch``)."""
from typing import Any, Dict, List, Optional, Union

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model.docstrings import documented
from sagemaker_hetero._model.keywords import keywords_checked
from sagemaker_hetero.estimator import Framework
from sagemaker_hetero.instance_group import InstanceGroup

__all__ = ["PyTorch"]


@documented
class PyTorch(Framework):
    """Train with a PyTorch Deep Learning Container: every host runs ``entry_point``.

    Heterogeneous clusters (``instance_groups``) need PyTorch 1.10 or later. A ``distribution`` (mpi,
    smdistributed, torch_distributed or pytorchddp) runs on one instance group, the one its
    ``"instance_groups"`` names; the hosts of the other groups run the entry point on its own.
    ``fit(inputs)`` starts the job; ``fit(inputs, dry_run=True)`` returns its request unsent.
    """

    framework = "pytorch"

    @keywords_checked
    def __init__(
        self,
        entry_point: Optional[str] = None,
        framework_version: Optional[str] = None,
        py_version: Optional[str] = None,
        source_dir: Optional[str] = None,
        hyperparameters: Optional[Dict[str, Any]] = None,
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
        container_log_level: int = D.CONTAINER_LOG_LEVEL,
        code_location: Optional[str] = None,
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
