"""A ModelTrainer job read back from its description (``ModelTrainer.attach``). Pure but for ``read``.

Each request field goes back to the SDK v3 argument it came from; the SDK-managed ``code`` and
``sm_drivers`` channels become ``source_code`` and ``distributed`` again, read from the driver's
``sourcecode.json`` and ``distributed.json`` (``read(uri) -> bytes``: the session's S3 read), with
the code channel's S3 URI as ``source_dir`` (SDK v3 takes an S3 folder there).
"""
import json
import re

from sagemaker_hetero._defaults import HOMOGENEOUS_GROUP
from sagemaker_hetero._request import read_back
from sagemaker_hetero.core.training import configs as C
from sagemaker_hetero.train import distributed as _distributed
from sagemaker_hetero.train._settings import DRIVERS_CHANNEL, MANAGED

__all__ = ["arguments"]

_STAMP = re.compile(r"-\d{14}$")


def _group_names(desc):
    """A heterogeneous job's group names (None: a homogeneous one), as ``read_back`` reads them."""
    names = read_back.group_names(desc)
    return None if names == [HOMOGENEOUS_GROUP] else names


def _compute(desc):
    config = desc.get("ResourceConfig") or {}
    groups = [C.InstanceGroup(instance_type=t, instance_count=c, instance_group_name=n)
              for n, t, c in read_back.groups_of(desc)] if _group_names(desc) else []
    return C.Compute(instance_type=None if groups else config.get("InstanceType"),
                     instance_count=None if groups else config.get("InstanceCount"),
                     volume_size_in_gb=config.get("VolumeSizeInGB"), volume_kms_key_id=config.get("VolumeKmsKeyId"),
                     keep_alive_period_in_seconds=config.get("KeepAlivePeriodInSeconds"),
                     instance_groups=groups or None, training_plan_arn=config.get("TrainingPlanArn"),
                     enable_managed_spot_training=desc.get("EnableManagedSpotTraining") or None)


def _networking(desc):
    vpc = desc.get("VpcConfig") or {}
    isolation, encryption = desc.get("EnableNetworkIsolation"), desc.get("EnableInterContainerTrafficEncryption")
    if not (vpc or isolation or encryption):
        return None
    return C.Networking(subnets=vpc.get("Subnets"), security_group_ids=vpc.get("SecurityGroupIds"),
                        enable_network_isolation=isolation or None,
                        enable_inter_container_traffic_encryption=encryption or None)


def _channel(channel, every_group):
    source = channel["DataSource"]["S3DataSource"]
    groups = source.get("InstanceGroupNames")
    plain = (channel.get("InputMode") == "File" and source.get("S3DataType") == "S3Prefix"
             and source.get("S3DataDistributionType") == "FullyReplicated" and groups in (None, every_group)
             and set(source) <= {"S3DataType", "S3Uri", "S3DataDistributionType", "InstanceGroupNames"})
    if plain:
        data = source["S3Uri"]
    else:
        data = C.S3DataSource(s3_data_type=source["S3DataType"], s3_uri=source["S3Uri"],
                              s3_data_distribution_type=source.get("S3DataDistributionType"),
                              attribute_names=source.get("AttributeNames"), instance_group_names=groups)
    return C.InputData(channel_name=channel["ChannelName"], data_source=data, content_type=channel.get("ContentType"))


def _driven(uris, read):
    """``(source_code, distributed)`` from the driver's files, or ``(None, None)`` when unreadable."""
    try:
        source = json.loads(read(uris[DRIVERS_CHANNEL].rstrip("/") + "/sourcecode.json"))
        dist = json.loads(read(uris[DRIVERS_CHANNEL].rstrip("/") + "/distributed.json"))
    except Exception:  # noqa: BLE001 - no driver of ours there: the channels stay channels
        return None, None
    fields = ("requirements", "entry_script", "command", "args", "ignore_patterns")
    source_code = C.SourceCode(source_dir=uris.get(MANAGED[0]), **dict((k, source.get(k)) for k in fields))
    if not isinstance(dist, dict):
        return source_code, None
    launcher = {"torchrun": _distributed.Torchrun, "mpi": _distributed.MPI}.get(dist.get("type"))
    if launcher is None:
        return source_code, None
    names = [n for n in ("process_count_per_node", "mpi_additional_options", "instance_group_names") if n in dist
             and (launcher is _distributed.MPI or n != "mpi_additional_options")]
    return source_code, launcher(**dict((n, dist[n]) for n in names))


def arguments(desc, read):
    """The ModelTrainer keyword arguments that describe the job ``desc`` again."""
    spec = desc.get("AlgorithmSpecification") or {}
    groups = _group_names(desc)
    channels = [c for c in desc.get("InputDataConfig") or [] if "S3DataSource" in c.get("DataSource", {})]
    uris = dict((c["ChannelName"], c["DataSource"]["S3DataSource"]["S3Uri"]) for c in channels)
    source_code, distributed = _driven(uris, read) if DRIVERS_CHANNEL in uris else (None, None)
    if source_code is not None:
        channels = [c for c in channels if c["ChannelName"] not in MANAGED]
    stopping = desc.get("StoppingCondition") or {}
    output = desc.get("OutputDataConfig") or {}
    checkpoint = desc.get("CheckpointConfig")
    return dict(
        training_image=read_back.image_of(desc), training_input_mode=spec.get("TrainingInputMode") or "File",
        role=desc.get("RoleArn"), base_job_name=_STAMP.sub("", desc.get("TrainingJobName") or "") or None,
        source_code=source_code, distributed=distributed, compute=_compute(desc), networking=_networking(desc),
        stopping_condition=C.StoppingCondition(max_runtime_in_seconds=stopping.get("MaxRuntimeInSeconds"),
                                               max_wait_time_in_seconds=stopping.get("MaxWaitTimeInSeconds"),
                                               max_pending_time_in_seconds=stopping.get("MaxPendingTimeInSeconds")),
        output_data_config=C.OutputDataConfig(s3_output_path=output.get("S3OutputPath"),
                                              kms_key_id=output.get("KmsKeyId"),
                                              compression_type=output.get("CompressionType")),
        checkpoint_config=C.CheckpointConfig(s3_uri=checkpoint.get("S3Uri"), local_path=checkpoint.get("LocalPath"))
        if checkpoint else None,
        input_data_config=[_channel(c, groups) for c in channels] or None,
        environment=desc.get("Environment") or None, hyperparameters=desc.get("HyperParameters") or None)
