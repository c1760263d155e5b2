import os
import tempfile

# An organisation's SageMaker defaults (the admin file): role, VPC, KMS keys, environment, tags,
# traffic encryption. The estimator gives no role and no VPC, one tag of a key the config has too.
folder = tempfile.mkdtemp()
with open(os.path.join(folder, "config.yaml"), "w") as f:
    f.write("""SchemaVersion: '1.0'
SageMaker:
  TrainingJob:
    RoleArn: arn:aws:iam::123456789012:role/OrgTrainingRole
    EnableInterContainerTrafficEncryption: true
    Environment:
      ORG_PROXY: http://proxy.internal:3128
    OutputDataConfig:
      KmsKeyId: arn:aws:kms:us-west-2:123456789012:key/output-key
    ResourceConfig:
      VolumeKmsKeyId: arn:aws:kms:us-west-2:123456789012:key/volume-key
    VpcConfig:
      SecurityGroupIds: [sg-0123456789abcdef0]
      Subnets: [subnet-0123456789abcdef0, subnet-0fedcba9876543210]
    Tags:
      - {Key: team, Value: org-default}
      - {Key: cost-center, Value: "4242"}
""")
os.environ["SAGEMAKER_ADMIN_CONFIG_OVERRIDE"] = folder

from sagemaker.pytorch import PyTorch
from sagemaker.instance_group import InstanceGroup
from sagemaker.inputs import TrainingInput

data = InstanceGroup("data", "ml.c5.xlarge", 2)
train = InstanceGroup("train", "ml.p3.2xlarge", 1)
est = PyTorch(entry_point="train.py", framework_version="2.0.1", py_version="py310",
              instance_groups=[data, train], tags=[{"Key": "team", "Value": "ml"}])
est.fit({"train": TrainingInput("s3://bucket/train", instance_groups=["data"]),
         "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["train"])}, job_name="config-job", wait=False)
