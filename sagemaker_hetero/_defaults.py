"""Defaults and service limits, in one place.

Limits come from the SageMaker CreateTrainingJob API (botocore's service model and the AWS
documentation); see docs/validation.md.
"""

VOLUME_SIZE_GB = 30
MAX_RUN_SECONDS = 24 * 60 * 60
MAX_RUN_LIMIT_SECONDS = 28 * 24 * 60 * 60
INPUT_MODE = "File"
S3_DATA_TYPE = "S3Prefix"
S3_DISTRIBUTION = "FullyReplicated"
CONTAINER_LOG_LEVEL = 20  # logging.INFO
DEFAULT_CHANNEL = "training"
CODE_CHANNEL = "code"
MODEL_CHANNEL = "model"
MODEL_CONTENT_TYPE = "application/x-sagemaker-model"
CODE_ARCHIVE = "sourcedir.tar.gz"
NETWORK_ISOLATION_SUBMIT_DIR = "/opt/ml/input/data/code/sourcedir.tar.gz"
TF_MPI_MODEL_DIR = "/opt/ml/model"
ACCOUNT_PLACEHOLDER = "<account-id>"

MAX_INSTANCE_GROUPS = 5
MAX_GROUP_NAME = 64
MAX_CHANNELS = 20
MAX_CHANNEL_NAME = 64
CHANNEL_NAME_PATTERN = r"[A-Za-z0-9.\-_]+"
MAX_GROUPS_PER_CHANNEL = 5
MAX_S3_URI = 1024
S3_URI_PATTERN = r"(https|s3)://([^/]+)/?(.*)"
MAX_JOB_NAME = 63
JOB_NAME_PATTERN = r"[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}"
MAX_HYPERPARAMETERS = 100
MAX_HYPERPARAMETER_KEY = 256
MAX_HYPERPARAMETER_VALUE = 2500
MAX_ENVIRONMENT = 100
MAX_ENVIRONMENT_KEY = 512
MAX_ENVIRONMENT_VALUE = 512
ENVIRONMENT_KEY_PATTERN = r"[a-zA-Z_][a-zA-Z0-9_]*"
MAX_TAGS = 50
MAX_TAG_KEY = 128
MAX_TAG_VALUE = 256
KEEP_ALIVE_RANGE = (0, 21600)
RETRY_ATTEMPTS_RANGE = (1, 30)
MAX_SUBNETS = 16
MAX_SECURITY_GROUPS = 5
MAX_METRIC_DEFINITIONS = 40
MAX_ATTRIBUTE_NAMES = 16
ROLE_ARN_PATTERN = r"arn:aws[a-z\-]*:iam::\d{12}:role/?[a-zA-Z_0-9+=,.@\-_/]+"
ROLE_NAME_PATTERN = r"[\w+=,.@-]{1,64}"

S3_DATA_TYPES = ("ManifestFile", "S3Prefix", "AugmentedManifestFile", "Converse")
S3_DISTRIBUTIONS = ("FullyReplicated", "ShardedByS3Key")
INPUT_MODES = ("Pipe", "File", "FastFile")
COMPRESSIONS = ("None", "Gzip")
RECORD_WRAPPERS = ("None", "RecordIO")

# Heterogeneous clusters need these framework versions (AWS developer guide).
HETERO_MIN_VERSION = {"pytorch": (1, 10), "tensorflow": (2, 6)}

# Types documented for the SageMaker distributed data parallel library; newer p-family
# types (p5 and later) are accepted too.
SMDDP_INSTANCE_TYPES = ("ml.p3.16xlarge", "ml.p3dn.24xlarge", "ml.p4d.24xlarge", "ml.p4de.24xlarge")
