"""The conformance scenarios of tests/conformance/requests as settings made directly (no estimator): each
``name -> (framework, estimator arguments, fit's inputs, fit's job_name)``, the arguments of
tests/conformance/requests/<name>.py written out, so the pure stages can be held to the SDK v2's recorded
request (<name>.json) without a session, a server or the scenario's own ``fit``."""
from sagemaker_hetero.inputs import ShuffleConfig, TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from tests._pure import ROLE

_IG1, _IG2 = InstanceGroup("instance_group_1", "ml.c5.18xlarge", 2), InstanceGroup("instance_group_2", "ml.p3dn.24xlarge", 1)
_SEED_INPUTS = {
    "training": TrainingInput(s3_data_type="S3Prefix", s3_data="s3://your-training-data-storage/folder1",
                              distribution="FullyReplicated", input_mode="File", instance_groups=["instance_group_1"]),
    "dummy-input-channel": TrainingInput(s3_data_type="S3Prefix", s3_data="s3://your-training-data-storage/folder2",
                                         distribution="FullyReplicated", input_mode="File", instance_groups=["instance_group_2"]),
}


def _routed(first, second, a="s3://bucket/train", b="s3://bucket/dummy", names=("train", "dummy")):
    return {names[0]: TrainingInput(a, instance_groups=[first]), names[1]: TrainingInput(b, instance_groups=[second])}


_CODE = dict(entry_point="train.py", source_dir="src", role=ROLE)
SCENARIOS = {
    "seed_pytorch": ("pytorch", dict(_CODE, framework_version="1.10.0", py_version="py38", instance_groups=[_IG1, _IG2]),
                     _SEED_INPUTS, "my-training-job-with-heterogeneous-cluster"),
    "seed_exact": ("pytorch", dict(_CODE, framework_version="1.10.0", py_version="py38", instance_groups=[_IG1, _IG2],
                                   job_name="my-training-job-with-heterogeneous-cluster"), _SEED_INPUTS, None),
    "seed_tensorflow": ("tensorflow", dict(entry_point="train.py", role=ROLE, framework_version="2.6.0", py_version="py38",
                                           instance_groups=[_IG1, _IG2]),
                        {"training": TrainingInput(s3_data="s3://your-training-data-storage/folder1",
                                                   instance_groups=["instance_group_1"]),
                         "dummy-input-channel": TrainingInput(s3_data="s3://your-training-data-storage/folder2",
                                                              instance_groups=["instance_group_2"])}, "tf-hetero-seed"),
    "pytorch_mpi_group": ("pytorch", dict(_CODE, framework_version="1.13.1", py_version="py39",
                                          instance_groups=[InstanceGroup("instance_group_1", "ml.c5.18xlarge", 1),
                                                           InstanceGroup("instance_group_2", "ml.p3dn.24xlarge", 2)],
                                          distribution={"mpi": {"enabled": True, "processes_per_host": 8,
                                                                "custom_mpi_options": "-verbose -x NCCL_DEBUG=INFO"},
                                                        "instance_groups": ["instance_group_2"]}),
                          _routed("instance_group_1", "instance_group_2"), "mpi-hetero"),
    "pytorch_smddp_group": ("pytorch", dict(_CODE, framework_version="1.12.1", py_version="py38",
                                            instance_groups=[InstanceGroup("data_group", "ml.c5.18xlarge", 1),
                                                             InstanceGroup("dnn_group", "ml.p4d.24xlarge", 2)],
                                            distribution={"smdistributed": {"dataparallel": {"enabled": True}},
                                                          "instance_groups": [InstanceGroup("dnn_group", "ml.p4d.24xlarge", 2)]}),
                            _routed("data_group", "dnn_group"), "smddp-hetero"),
    "torch_distributed_group": ("pytorch", dict(_CODE, framework_version="2.2.0", py_version="py310",
                                                instance_groups=[InstanceGroup("cpu_group", "ml.c5.18xlarge", 2),
                                                                 InstanceGroup("gpu_group", "ml.p4d.24xlarge", 2)],
                                                distribution={"torch_distributed": {"enabled": True},
                                                              "instance_groups": ["gpu_group"]}),
                                _routed("cpu_group", "gpu_group"), "torchrun-hetero"),
    "tf_horovod_group": ("tensorflow", dict(_CODE, framework_version="2.9", py_version="py39",
                                            instance_groups=[InstanceGroup("data_group", "ml.c5.18xlarge", 2),
                                                             InstanceGroup("dnn_group", "ml.p4d.24xlarge", 1)],
                                            hyperparameters={"epochs": 10, "tf_data_mode": "service", "steps_per_epoch": 500,
                                                             "batch_size": 1024, "num_of_data_workers": 1},
                                            distribution={"mpi": {"enabled": True, "processes_per_host": 8,
                                                                  "custom_mpi_options": "--NCCL_DEBUG WARN"},
                                                          "instance_groups": ["dnn_group"]}), None, "tf-horovod"),
    "generic_estimator": (None, dict(image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/my-trainer:latest", role=ROLE,
                                     instance_groups=[InstanceGroup("cpu", "ml.m5.2xlarge", 3), InstanceGroup("gpu", "ml.p3.2xlarge", 1)],
                                     hyperparameters={"epochs": 3, "name": "x"}, output_path="s3://my-out/generic", max_run=3600),
                          {"a": TrainingInput("s3://bucket/a", instance_groups=["cpu"]),
                           "b": TrainingInput("s3://bucket/b", instance_groups=["gpu", "cpu"])}, "generic-hetero"),
    "channel_options": ("pytorch", dict(_CODE, framework_version="2.0.1", py_version="py310",
                                        instance_groups=[InstanceGroup("a", "ml.m5.4xlarge", 1), InstanceGroup("b", "ml.g5.12xlarge", 2)]),
                        {"manifest": TrainingInput("s3://bucket/m.manifest", s3_data_type="ManifestFile", input_mode="FastFile",
                                                   instance_groups=["a"]),
                         "piped": TrainingInput("s3://bucket/rec", input_mode="Pipe", compression="Gzip",
                                                content_type="application/x-recordio", record_wrapping="RecordIO",
                                                shuffle_config=ShuffleConfig(42), instance_groups=["b"]),
                         "both": TrainingInput("s3://bucket/shared", instance_groups=["a", "b"]),
                         "plain": TrainingInput("s3://bucket/plain", instance_groups=["b"])}, "channel-options"),
    "network_isolation": ("pytorch", dict(_CODE, framework_version="2.0.1", py_version="py310",
                                          instance_groups=[InstanceGroup("a", "ml.c5.2xlarge", 1), InstanceGroup("b", "ml.g5.xlarge", 1)],
                                          enable_network_isolation=True), _routed("a", "b"), "isolated"),
}
