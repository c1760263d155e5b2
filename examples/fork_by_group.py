"""One entry point for every host of a heterogeneous job, forked by instance group.

The seed job has a CPU group (``instance_group_1``; ``data_group`` in the AWS TensorFlow sample)
that prepares the data and a GPU group (``instance_group_2`` / ``dnn_group``) that trains. SageMaker
starts this same script on every host; :func:`run_by_group` looks up the host's group, prints one
marker line (``[sagemaker-hetero] host=... group=... instance_type=...``) and runs that group's part.

Name the groups through hyperparameters if they are not the seed's::

    PyTorch(entry_point="fork_by_group.py", source_dir="examples", instance_groups=[cpu, gpu],
            hyperparameters={"data_group": "data_group", "train_group": "dnn_group"}, ...)

(``sagemaker-hetero`` must be installed in the container, e.g. via ``requirements.txt``.)
Try it without SageMaker::

    python examples/fork_by_group.py

Run outside a job (no ``resourceconfig.json`` under ``$SAGEMAKER_BASE_DIR``, default ``/opt/ml``), it
starts itself as the entry point of a two-group job on this machine (``LocalSession``: two CPU hosts
reading ``seed_data/folder1``, one GPU host), so every host runs this file as it would on SageMaker
and each line it prints is labelled ``[<group>/<host>]``.
"""
import argparse
import json
import os
import sys

from sagemaker_hetero.training import Environment, run_by_group


def preprocess(env):
    """CPU group: read every channel this host received and write a summary per host.

    In a real job this group would keep feeding the trainers (e.g. a tf.data service worker) until
    they say stop: the job only ends when every host's process has exited.
    """
    summary = {"host": env.current_host, "channels": {}}
    for channel, directory in sorted(env.channel_input_dirs.items()):
        files = []
        if os.path.isdir(directory):
            for folder, _, names in os.walk(directory):
                files.extend(os.path.join(folder, name) for name in names)
        summary["channels"][channel] = {"files": len(files), "bytes": sum(os.path.getsize(f) for f in files)}
        print("preprocess: %s has %d file(s) in channel %r" % (env.current_host, len(files), channel))
    os.makedirs(env.output_data_dir, exist_ok=True)
    path = os.path.join(env.output_data_dir, "preprocess-%s.json" % env.current_host)
    with open(path, "w") as handle:
        json.dump(summary, handle, sort_keys=True)
    return summary


def train(env):
    """GPU group: the trainers (the distribution hosts, else this group) train; the first saves the model.

    Without a distribution group ``env.master_hostname`` is simply the job's first host, which may
    be a CPU host, so the saving host is chosen among the trainers.
    """
    trainers = env.distribution_hosts
    if env.current_host not in trainers:
        trainers = env.instance_group_hosts(env.current_instance_group)
    print(
        "train: %s is trainer %d of %d; hyperparameters %s"
        % (env.current_host, trainers.index(env.current_host) + 1, len(trainers),
           json.dumps(env.hyperparameters, sort_keys=True))
    )
    if env.current_host != trainers[0]:
        return None
    os.makedirs(env.model_dir, exist_ok=True)
    path = os.path.join(env.model_dir, "model.json")
    with open(path, "w") as handle:
        json.dump({"trainers": trainers, "hyperparameters": env.hyperparameters}, handle, sort_keys=True)
    print("train: saved %s" % path)
    return path


def main(argv=None):
    # SageMaker passes the hyperparameters as --name value; the other ones are not ours.
    parser = argparse.ArgumentParser(allow_abbrev=False)
    parser.add_argument("--data_group", default="instance_group_1", help="the CPU group that prepares data")
    parser.add_argument("--train_group", default="instance_group_2", help="the GPU group that trains")
    args, _ = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    env = Environment()
    return run_by_group({args.data_group: preprocess, args.train_group: train}, env)


def in_a_job():
    """Whether this process runs as a host of a job: SageMaker (or a local run) wrote its cluster's file."""
    base = os.environ.get("SAGEMAKER_BASE_DIR", "/opt/ml")
    return os.path.isfile(os.path.join(base, "input", "config", "resourceconfig.json"))


def run_locally():
    """Run this file as the entry point of every host of a two-group job on this machine."""
    from sagemaker_hetero import InstanceGroup, PyTorch, TrainingInput
    from sagemaker_hetero.local import LocalSession

    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seed_data", "folder1")
    estimator = PyTorch(
        entry_point=os.path.abspath(__file__), framework_version="1.12.1", py_version="py38",
        role="arn:aws:iam::123456789012:role/SageMakerRole", job_name="fork-by-group",
        instance_groups=[InstanceGroup("instance_group_1", "ml.c5.18xlarge", 2),
                         InstanceGroup("instance_group_2", "ml.p3dn.24xlarge", 1)],
        sagemaker_session=LocalSession(),
    )
    estimator.fit({"training": TrainingInput("file://" + data, instance_groups=["instance_group_1"])})
    print("model: %s" % estimator.latest_training_job.describe()["ModelArtifacts"]["S3ModelArtifacts"])


if __name__ == "__main__":
    if in_a_job():
        main()
    else:
        print("Not inside a training job: running this file on every host of a local two-group job "
              "(LocalSession).")
        sys.stdout.flush()
        run_locally()
