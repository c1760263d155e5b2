"""Our defaults and names, in one place (stdlib-free: the in-job package imports it too).

The service's own field limits (lengths, ranges, patterns, enums) are NOT here: they are read from
botocore's service model (``_checks.service``, ``data/service_model.json``). What is here is ours: the
SageMaker Python SDK v2's defaults, the names of the SDK's own channels and files, and the few
documented rules the service model does not carry (see docs/validation.md).
"""

# -- the SageMaker Python SDK v2's defaults ------------------------------------------------------
VOLUME_SIZE_GB = 30
MAX_RUN_SECONDS = 24 * 60 * 60
INPUT_MODE = "File"
S3_DATA_TYPE = "S3Prefix"
S3_DISTRIBUTION = "FullyReplicated"
CONTAINER_LOG_LEVEL = 20  # logging.INFO
DEFAULT_CHANNEL = "training"
CODE_CHANNEL = "code"
MODEL_CHANNEL = "model"
MODEL_CONTENT_TYPE = "application/x-sagemaker-model"
CODE_ARCHIVE = "sourcedir.tar.gz"
#: Names left out of the code archive wherever they are in the tree (``fnmatch`` patterns); a session's
#: ``code_ignore`` changes the list (docs/submitting.md).
CODE_IGNORE = (".git", ".venv", "__pycache__", ".ipynb_checkpoints")
#: The code archive's gzip level (zlib's default, as ``gzip -6``; 9 costs twice the time for ~1% less).
CODE_ARCHIVE_LEVEL = 6
#: The folder of content-addressed code archives: ``{prefix}/code/{sha256}/sourcedir.tar.gz``.
CODE_FOLDER = "code"
NETWORK_ISOLATION_SUBMIT_DIR = "/opt/ml/input/data/code/sourcedir.tar.gz"
TF_MPI_MODEL_DIR = "/opt/ml/model"
#: the job-name timestamp is ``-YYYY-MM-DD-HH-MM-SS-mmm`` (24 characters) after a base of at most this
MAX_JOB_NAME = 63

# -- names ---------------------------------------------------------------------------------------
#: The project's name: the command's, and its folder in the user's cache folder.
PROJECT = "sagemaker-hetero"
#: The one group of a cluster without instance groups (as the training toolkit names it).
HOMOGENEOUS_GROUP = "homogeneousCluster"
#: The account id shown where it is not known (dry runs).
ACCOUNT_PLACEHOLDER = "<account-id>"
#: The region shown where no region is configured (dry runs: the bucket, the image, ``sagemaker_region``);
#: a submission needs a real one.
REGION_PLACEHOLDER = "<region>"
#: The Deep Learning Containers' registry account in an image URI whose region is the placeholder (the
#: account differs by region).
REGISTRY_PLACEHOLDER = "<registry-account>"
#: Every placeholder a dry run's request may hold (a request holding one cannot be sent as it is).
PLACEHOLDERS = (ACCOUNT_PLACEHOLDER, REGION_PLACEHOLDER, REGISTRY_PLACEHOLDER)
#: An account id that fits the service's patterns: a local run's account, and the stand-in for an
#: unknown account while a request is checked.
ZERO_ACCOUNT_ID = "000000000000"
#: How the estimators of each framework are named in messages.
FRAMEWORK_LABELS = {"pytorch": "PyTorch", "tensorflow": "TensorFlow", None: "Estimator"}
#: A training job's (and a tuning job's) statuses from which it does not move on.
TERMINAL_STATUSES = ("Completed", "Failed", "Stopped")

# -- cost (docs/cost.md) ---------------------------------------------------------------------------
#: How long a price read from the AWS Price List is used from the on-disk cache (a week).
PRICE_CACHE_SECONDS = 7 * 24 * 60 * 60
#: How long the preflight's quota name -> code map of a region is used from the on-disk cache (a day).
QUOTA_CODES_CACHE_SECONDS = 24 * 60 * 60
#: Our folder under the user's cache folder (``$XDG_CACHE_HOME``, else ``~/.cache``): the price and
#: quota-name caches (``_cost.cache``).
CACHE_FOLDER = PROJECT
#: Set to a price file (JSON or CSV), it is the ``prices=`` of every estimate and bill not given one.
PRICES_VARIABLE = "SAGEMAKER_HETERO_PRICES"
#: The sane range of an on-demand price, in USD per hour: a price (from the AWS Price List, the cache
#: or a price file) below the least or above the most is no price (SageMaker's cheapest training
#: instance is some $0.05 an hour, its dearest some $100), and so is one written in more characters.
MIN_USD_PER_HOUR = "0.000001"
MAX_USD_PER_HOUR = 1000000
MAX_PRICE_CHARS = 40
#: The most prices (rows, entries) a price file or ``prices=`` mapping may hold (the types of every
#: region are some 10,000), and the most of its problems listed (the count says how many more).
MAX_PRICE_ENTRIES = 100000
MAX_PRICE_PROBLEMS = 20

# -- documented rules of ours that the service model does not carry --------------------------------
#: AWS documents 28 days as the longest a training job may run.
MAX_RUN_LIMIT_SECONDS = 28 * 24 * 60 * 60
#: The SDK v2 turns SageMaker metrics on for these framework versions and later.
METRICS_MIN_VERSION = {"pytorch": (1, 3), "tensorflow": (1, 15)}
#: Heterogeneous clusters need these framework versions (AWS developer guide).
HETERO_MIN_VERSION = {"pytorch": (1, 10), "tensorflow": (2, 6)}

# -- tuning jobs: the SageMaker Python SDK v2's HyperparameterTuner defaults ----------------------
TUNING_STRATEGY = "Bayesian"
#: The strategy that enumerates its categorical ranges (its number of jobs follows from them).
GRID_STRATEGY = "Grid"
#: The strategy a ``strategy_config`` configures.
HYPERBAND_STRATEGY = "Hyperband"
OBJECTIVE_TYPE = "Maximize"
#: The number of training jobs of a tuning job with another strategy than Grid, when none is given.
MAX_TUNING_JOBS = 1
MAX_PARALLEL_TUNING_JOBS = 1
EARLY_STOPPING_TYPE = "Off"
#: Where SageMaker puts a training job's hosts' log streams (the CloudWatch Logs group) and their
#: utilization metrics (the CloudWatch namespace): one name for both.
TRAINING_JOBS_NAMESPACE = "/aws/sagemaker/TrainingJobs"
