# Published code, reproduced cell by cell in our own words (not copied): aws/amazon-sagemaker-examples,
# build_and_train_models/sm-heterogeneous_clusters_for_model_training/sm-heterogeneous_clusters_for_model_training.ipynb
# (commit 42aa574b6c47afdf2e49c70b13a5669cfe7aedd2), the PyTorch gRPC notebook as moved there: a session and the
# notebook's execution role; an output path printed from the session's default_bucket_prefix (None here, so the
# notebook prints "s3:///DEMO-MNIST", a path it never uses); IS_HETERO=True: a data group (ml.c5.9xlarge) and a
# dnn group (ml.p3.2xlarge), entry point launcher.py; PyTorch 1.11.0 / py38 with source_dir "code", volume 10 GB,
# max_run 4800, the profiler off and no Debugger hook; the four MNIST files downloaded from the public
# sagemaker-example-files-prod-REGION bucket, uploaded under DEMO-MNIST and fitted as channels training and
# testing under "pt-hetero-H-T-<UTC stamp>". The setup gives the process what a SageMaker notebook has: an
# execution role's credentials (assumed through STS, the role under /service-role/), the notebook's code/ folder
# and the public bucket's four objects (small stand-ins). Cells not run: the pip install and pip show cells. Named
# case "homogeneous": IS_HETERO=False (one ml.p3.2xlarge, entry point train.py).

# -- setup -----------------------------------------------------------------------------------------------------
import os as _os

import boto3 as _boto3

_region = _boto3.session.Session().region_name
_s3 = _boto3.client("s3")
_public = "sagemaker-example-files-prod-" + _region
_s3.create_bucket(Bucket=_public, CreateBucketConfiguration={"LocationConstraint": _region})
for _name in ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz",
              "t10k-labels-idx1-ubyte.gz"):
    _s3.put_object(Bucket=_public, Key="datasets/image/MNIST/" + _name, Body=b"stand-in " + _name.encode())
_TRUST = ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", '
          '"Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}]}')
_arn = _boto3.client("iam").create_role(RoleName="HeteroNotebookRole", Path="/service-role/",
                                        AssumeRolePolicyDocument=_TRUST)["Role"]["Arn"]
_creds = _boto3.client("sts").assume_role(RoleArn=_arn, RoleSessionName="SageMaker")["Credentials"]
_os.environ.update(AWS_ACCESS_KEY_ID=_creds["AccessKeyId"], AWS_SECRET_ACCESS_KEY=_creds["SecretAccessKey"],
                   AWS_SESSION_TOKEN=_creds["SessionToken"])
_boto3.DEFAULT_SESSION = None
_os.makedirs("code", exist_ok=True)
for _name in ("launcher.py", "train_data.py", "train_dnn.py", "train.py", "requirements.txt"):
    with open(_os.path.join("code", _name), "w") as _f:
        _f.write("# %s\n" % _name)

# -- the notebook's cells --------------------------------------------------------------------------------------
import datetime
import os

import boto3
import sagemaker
from sagemaker import get_execution_role
from sagemaker.instance_group import InstanceGroup
from sagemaker.pytorch import PyTorch

sess = sagemaker.Session()
role = get_execution_role()
prefix_of_bucket = sess.default_bucket_prefix
output_path = "s3://" + ("/" + prefix_of_bucket if prefix_of_bucket else "") + "/DEMO-MNIST"
if prefix_of_bucket:
    output_path = "s3://" + prefix_of_bucket + prefix_of_bucket + "/DEMO-MNIST"
print(role)
print(output_path)

IS_HETERO = True
data_group = InstanceGroup("data_group", "ml.c5.9xlarge", 1)
dnn_group = InstanceGroup("dnn_group", "ml.p3.2xlarge", 1)
settings = {"hyperparameters": {"batch-size": 8192, "num-data-workers": 4, "grpc-workers": 4, "num-dnn-workers": 4,
                                "pin-memory": True, "iterations": 100, "region": sess.boto_region_name}}
if IS_HETERO:
    settings["instance_groups"] = [data_group, dnn_group]
    entry_point = "launcher.py"
else:
    settings["instance_type"] = "ml.p3.2xlarge"
    settings["instance_count"] = 1
    entry_point = "train.py"

estimator = PyTorch(framework_version="1.11.0", py_version="py38", role=role, entry_point=entry_point,
                    source_dir="code", volume_size=10, max_run=4800, disable_profiler=True,
                    debugger_hook_config=False, **settings)

os.makedirs("./data", exist_ok=True)
for _train in (True, False):
    stem = "train" if _train else "t10k"
    for suffix in ("images-idx3-ubyte.gz", "labels-idx1-ubyte.gz"):
        target = os.path.join("./data", "%s-%s" % (stem, suffix))
        if not os.path.exists(target):
            boto3.client("s3").download_file("sagemaker-example-files-prod-%s" % sess.boto_region_name,
                                             os.path.join("datasets/image/MNIST", "%s-%s" % (stem, suffix)), target)

location = sess.upload_data(path="./data", bucket=sess.default_bucket(), key_prefix="DEMO-MNIST")
estimator.fit(inputs={"training": location, "testing": location},
              job_name="pt-hetero-H-" + str(IS_HETERO)[0] + "-" + datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ"))
