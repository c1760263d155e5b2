"""The seed's training script: every host runs it and forks by its instance group.

Standard library only, so it runs unchanged in any training image and on a local host. It reads
what SageMaker writes on every host (``$SAGEMAKER_BASE_DIR``, default ``/opt/ml``): the CPU group
(``instance_group_1``) summarises the data of its channels into ``output/data``; the GPU group
(``instance_group_2``) writes the model into ``model/``.
"""
import json
import os

base = os.environ.get("SAGEMAKER_BASE_DIR", "/opt/ml")
with open(os.path.join(base, "input", "config", "resourceconfig.json")) as f:
    config = json.load(f)
host = config["current_host"]
group = config.get("current_group_name") or config.get("current_instance_group") or "homogeneousCluster"
data_dir = os.path.join(base, "input", "data")
channels = sorted(os.listdir(data_dir)) if os.path.isdir(data_dir) else []


def files_of(channel):
    found = []
    for folder, _, names in os.walk(os.path.join(data_dir, channel), followlinks=True):
        found.extend(os.path.join(folder, name) for name in sorted(names))
    return found


if group == "instance_group_1":
    print("%s: preprocessing data on the CPU group; channels %s" % (host, channels))
    summary = {"host": host, "rows": 0}
    for channel in channels:
        for path in files_of(channel):
            with open(path) as handle:
                summary["rows"] += sum(1 for line in handle if line.strip() and line[0].isdigit())
    os.makedirs(os.path.join(base, "output", "data"), exist_ok=True)
    with open(os.path.join(base, "output", "data", "summary-%s.json" % host), "w") as handle:
        json.dump(summary, handle)
    print("%s: %d rows preprocessed" % (host, summary["rows"]))
else:
    print("%s: training on the GPU group; channels %s" % (host, channels))
    os.makedirs(os.path.join(base, "model"), exist_ok=True)
    with open(os.path.join(base, "model", "model.json"), "w") as handle:
        json.dump({"trained_on": host, "group": group}, handle)
    print("%s: model saved" % host)
