"""The seed's training script: every host runs it and forks by its instance group."""
import json
import os

config_path = os.path.join(os.environ.get("SAGEMAKER_BASE_DIR", "/opt/ml"), "input", "config", "resourceconfig.json")
with open(config_path) as f:
    config = json.load(f)
group = config.get("current_group_name") or config.get("current_instance_group") or "homogeneousCluster"
if group == "instance_group_1":
    print("%s: preprocessing data on the CPU group" % config["current_host"])
else:
    print("%s: training on the GPU group" % config["current_host"])
