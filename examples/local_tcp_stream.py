"""Run ``local_tcp_stream/code/train.py`` on a local heterogeneous cluster: CPU hosts feed a GPU host over TCP.

Two ``data_group`` hosts each get half of ``local_tcp_stream/data`` (``ShardedByS3Key``) and serve
it on port 9100 (both on the same port: each host has its own loopback address); the
``dnn_group`` host connects to them by name, trains, saves the model and signals them to stop.
Host names are assigned in shuffled order, as SageMaker may do; the script does not care.

usage: python examples/local_tcp_stream.py [--seed N]
"""
import json
import os
import sys
import tarfile

from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.local import LocalSession
from sagemaker_hetero.pytorch import PyTorch

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "local_tcp_stream")


def main(argv):
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else None
    data_group = InstanceGroup("data_group", "ml.c5.2xlarge", 2)
    dnn_group = InstanceGroup("dnn_group", "ml.p3.2xlarge", 1)
    estimator = PyTorch(
        entry_point="train.py",
        source_dir=os.path.join(HERE, "code"),
        framework_version="1.12.1",
        py_version="py38",
        role="arn:aws:iam::123456789012:role/SageMakerRole",
        instance_groups=[data_group, dnn_group],
        hyperparameters={"data_group": "data_group", "train_group": "dnn_group", "epochs": 40},
        max_run=300,
        sagemaker_session=LocalSession(assignment="shuffled", seed=seed),
    )
    train = TrainingInput(
        "file://" + os.path.join(HERE, "data"), distribution="ShardedByS3Key", instance_groups=["data_group"]
    )
    estimator.fit({"train": train})
    uri = estimator.latest_training_job.describe()["ModelArtifacts"]["S3ModelArtifacts"]
    with tarfile.open(uri[len("file://"):]) as archive:
        model = json.load(archive.extractfile("model.json"))
    print("trained model: %s" % json.dumps(model, sort_keys=True))
    return model


if __name__ == "__main__":
    main(sys.argv[1:])
