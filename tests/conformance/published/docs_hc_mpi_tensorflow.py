# Published code, reproduced in our own words (not copied): the Amazon SageMaker Developer Guide's page "Train
# Using a Heterogeneous Cluster" as written for the SageMaker Python SDK v2 (stored copy id 13047576930; its
# sections are now the pages train-heterogeneous-cluster-configure and -configure-distributed), section
# "Distributed Training with a Heterogeneous Cluster", "With MPI", the TensorFlow tab. The snippet leaves the
# estimator's other arguments as "..."; the setup fills them with what the page's configuration section gives
# (entry_point "my-training-script.py", job_name "my-training-job-with-heterogeneous-cluster") and what a user
# must give (a role, framework and Python versions the page allows: TensorFlow 2.9.2, py39), and fits the page's
# two channels (S3 prefixes of the bucket "your-training-data-storage"), routed to the two groups.

# -- setup: the user's script, bucket and role ----------------------------------------------------------------
with open("my-training-script.py", "w") as _f:
    _f.write("print('training')\n")
ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"

from sagemaker.instance_group import InstanceGroup

instance_group_1 = InstanceGroup("instance_group_1", "ml.c5.18xlarge", 1)
instance_group_2 = InstanceGroup("instance_group_2", "ml.p3dn.24xlarge", 2)

from sagemaker.inputs import TrainingInput

channel_1 = TrainingInput(s3_data_type="S3Prefix", s3_data="s3://your-training-data-storage/folder1",
                          distribution="FullyReplicated", input_mode="File", instance_groups=["instance_group_1"])
channel_2 = TrainingInput(s3_data_type="S3Prefix", s3_data="s3://your-training-data-storage/folder2",
                          distribution="FullyReplicated", input_mode="File", instance_groups=["instance_group_2"])

from sagemaker.tensorflow import TensorFlow

estimator = TensorFlow(
    role=ROLE,
    entry_point="my-training-script.py",
    framework_version="2.9.2",
    py_version="py39",
    job_name="my-training-job-with-heterogeneous-cluster",
    instance_groups=[instance_group_1, instance_group_2],
    distribution={"mpi": {"enabled": True, "processes_per_host": 8}, "instance_groups": [instance_group_2]},
)
estimator.fit(inputs={"training": channel_1, "dummy-input-channel": channel_2})
