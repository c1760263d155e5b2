"""Fuzz the estimators: random but plausible configurations, dry-run, judged independently.

usage: python tools/fuzz_estimators.py [--seed 1] [--count 20000] [--examples 2] [--groups 40]
                                       [--refused-groups 15] [--no-shrink]
                                       [--sdk-v2 [--sdk-limit N] [--sdk-workers 2]]

Each configuration (tests/_fuzzcases.py: PyTorch / TensorFlow / generic Estimator, homogeneous or
1-5 instance groups, channels as URIs, TrainingInputs or dicts naming groups, every distribution
strategy and every estimator argument, mostly valid, a share hostile) is run as
``Estimator(...).fit(inputs, dry_run=True, ...)`` in a temporary working directory holding the
entry points the cases name, with AWS_REGION=us-west-2, no AWS files and no credentials. Each is
classified:

  ok                    accepted, and tests/_judge.py finds nothing wrong with the request
  FALSE ACCEPT          accepted, but the judge refuses the request (the service would)
  refused               ConfigError, every problem's path naming an argument
  refused (TypeError)   an unknown keyword argument, too many positional arguments, or one given twice
  CRASH                 any other exception (or a TypeError for anything else)
  BAD PATH              ConfigError with a problem whose path names no argument of the
                        estimator, of fit, or ``inputs``

Counts are printed, then per class the causes (the judge's path and message, our problem's path
and message, or the exception and where it was raised) with examples, each shrunk to a minimal
reproduction (``--no-shrink`` shows them as generated). The dry run shows an unknown account as
``<account-id>`` (docs/migrating.md); it is replaced by a 12-digit account before judging.

--sdk-v2 also runs every refused configuration through the real SageMaker Python SDK v2, in the
virtualenv .venv-sdk (``python3 -m venv .venv-sdk && .venv-sdk/bin/pip install -e . 'sagemaker<3'
moto[server] regex pyyaml``; not a project dependency). Worker processes there build the same
configuration with ``sagemaker`` classes, call ``fit(wait=False)`` against an in-process moto and
capture the CreateTrainingJob request (``_make_api_call`` is patched to stop there; GetRole
answers for names IAM allows; the SDK's config validation and telemetry are switched off). The
configuration is written as SDK v2 code would be: channels name groups by name, a distribution
holds the InstanceGroup objects, a constructor ``job_name`` goes to ``fit`` (D1). If the SDK v2
produces a request the judge accepts, our refusal is a possible FALSE REFUSAL, grouped by our
problem path and message, unless one of our problems has a reason docs/validation.md (or
docs/migrating.md) documents (instance_count >= 1, volume_size >= 1, max_run <= 28 days, ...):
those are listed as "documented".

Run it against the last commit instead of the work tree with
``git worktree add /tmp/fuzz-base HEAD`` and ``PYTHONPATH=/tmp/fuzz-base``.
"""
import argparse
import collections
import importlib.util
import os
import pickle
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SDK_PYTHON = os.path.join(ROOT, ".venv-sdk", "bin", "python")


def _load(name, relpath):
    """A module of tests/ by file (tests/ is not put on sys.path: PYTHONPATH picks the package)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, relpath))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


fc = _load("hetero_fuzzcases", "tests/_fuzzcases.py")

_AWS_ENV_TO_REMOVE = (
    "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AWS_ROLE_ARN",
    "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_ENDPOINT_URL", "AWS_CA_BUNDLE",
)


def hermetic_environment(workdir, credentials=False):
    for name in list(os.environ):
        if name in _AWS_ENV_TO_REMOVE or name.startswith("AWS_ENDPOINT_URL_"):
            del os.environ[name]
    os.environ.update(
        AWS_REGION="us-west-2",
        AWS_DEFAULT_REGION="us-west-2",
        AWS_CONFIG_FILE=os.path.join(workdir, "no-aws-config"),
        AWS_SHARED_CREDENTIALS_FILE=os.path.join(workdir, "no-aws-credentials"),
        AWS_EC2_METADATA_DISABLED="true",
    )
    if credentials:  # only the SDK v2 worker, for moto
        os.environ.update(AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing")


# -- refusals with a documented reason (docs/validation.md, docs/migrating.md) ---------------------

DOCUMENTED = [
    # (generic path regex, message regex, the row of docs/validation.md that gives the reason)
    (r"(instance_groups\[\*\]\.)?instance_count$", r"integer >= 1", "instance_count: not an integer >= 1"),
    (r"volume_size$", r">= 1", "volume_size: not an integer >= 1"),
    (r"max_run$", r"28 days", "max_run: outside 1 s - 28 days"),
    (r"framework_version$", r"heterogeneous clusters need", "framework_version: PyTorch < 1.10 / TensorFlow < 2.6 "
     "with instance groups"),
    (r"distribution\.instance_groups$", r"must name|exactly one|not an instance group|another type|no instance_groups",
     "distribution.instance_groups: none / several / unknown group named"),
    (r"distribution\.instance_groups\[\*\]$", r"not an instance group|another type|twice",
     "distribution.instance_groups: unknown group, same name other type/count"),
    (r"distribution$", r"enables no strategy|mpi and smdistributed dataparallel exclude",
     "distribution: names a group but enables no strategy; mpi with smdistributed dataparallel"),
    (r"distribution\.(parameter_server|multi_worker_mirrored_strategy)$", r"cannot be tied",
     "distribution.parameter_server / multi_worker_mirrored_strategy with instance groups"),
    (r"distribution\.[\w.]+$", r"is not a distribution strategy", "distribution.<key>: not a strategy"),
    (r"(distribution\.instance_groups|instance_type)$", r"smdistributed dataparallel",
     "smdistributed dataparallel on a non-GPU or unsupported GPU type"),
    (r"distribution\.mpi\.processes_per_host$", r"integer >= 1", "distribution.mpi.processes_per_host >= 1"),
    (r"inputs$", r"if any channel names instance groups", "inputs: some channels name groups and others do not"),
    (r"inputs\[\*\]\.instance_groups$", r"at least one|no instance_groups|at most",
     "inputs[...].instance_groups: empty, more than 5, or no groups in the estimator"),
    (r"inputs\[\*\]\.instance_groups\[\*\]$", r"not an instance group|twice|another type",
     "inputs[...].instance_groups[i]: not a group of the job, twice, other type/count"),
    (r"inputs\[\*\]\.target_attribute_name$", r".", "target_attribute_name: an AutoML field"),
    (r"entry_point$", r"is not a file", "entry_point: not a file"),
    (r"source_dir$", r"is not a directory|\.tar\.gz", "source_dir: not a directory (or an S3 .tar.gz)"),
    (r"dependencies\[\*\]$", r"is not a file or directory", "dependencies[i]: not a file or directory"),
    (r"max_wait$", r"only for managed spot|is required with use_spot|>= max_run",
     "max_wait: missing with spot, below max_run, given without spot"),
    (r"hyperparameters\[\*\]$", r"is set by the SDK itself", "hyperparameters: a key the SDK sets itself"),
    (r"logs$", r".", "logs: not True, False, All, None, Training, Rules"),
    (r"experiment_config\[\*\]$", r"is not one of", "experiment_config: an unknown key"),
    (r"(subnets|security_group_ids)$", r"is required with", "subnets / security_group_ids: one without the other"),
    (r"(instance_type|instance_count)$", r"together with instance_groups|is required with",
     "instance_type / instance_count: with instance_groups, or one without the other"),
    (r"environment\[\*\]$", r"at most 512", "environment: names and values at most 512 characters"),
    (r"checkpoint_local_path$", r"needs checkpoint_s3_uri", "checkpoint_local_path: given without checkpoint_s3_uri"),
    (r"container_log_level$", r"logging level", "container_log_level: not an integer"),
    (r"distribution\.mpi\.custom_mpi_options$", r"must be a string", "distribution.mpi.custom_mpi_options: not a string"),
    (r"distribution\.\w+$", r"is a (PyTorch|TensorFlow) strategy", "distribution.<key>: a strategy of the other framework"),
    (r"framework_version$", r"no \w+ training image for framework_version|must be a string",
     "framework_version: not a string, or no training image for it"),
    (r"entry_point$", r"is required", "entry_point: missing (framework estimators)"),
    (r"dependencies$", r"must be a list", "dependencies: not a list"),
    (r"job_name$", r".", "D1: the constructor's job_name is the job's name (docs/migrating.md)"),
    (r"image_uri$", r"must be an image URI|is required for the generic", "image_uri: missing or empty (generic)"),
]


def documented_reason(path, message, case=None):
    """The documented reason for refusing with ``message`` at (generic) ``path``, or None."""
    for path_re, message_re, reason in DOCUMENTED:
        if re.match(path_re, path) and re.search(message_re, message):
            return reason
    if (case is not None and case.cls == "Estimator" and case.kwargs.get("entry_point") is not None
            and path == "hyperparameters[*]" and re.search(r"JSON-serialisable|encoded value", message)):
        return "a generic Estimator with an entry_point JSON-encodes hyperparameters (docs/migrating.md)"
    return None


def undocumented(outcome, case):
    """Our problems without a documented reason, as grouping keys."""
    return [(fc.generic_path(p.path), fc.generic_message(p.message)) for p in outcome.problems
            if documented_reason(fc.generic_path(p.path), p.message, case) is None]


# -- the SDK v2 worker (runs in .venv-sdk) -------------------------------------------------------------


def _send(stream, obj):
    data = pickle.dumps(obj, protocol=4)
    stream.write(struct.pack(">I", len(data)) + data)
    stream.flush()


def _receive(stream):
    head = stream.read(4)
    if len(head) < 4:
        return None
    (size,) = struct.unpack(">I", head)
    return pickle.loads(stream.read(size))


class _Captured(Exception):
    pass


def sdk_worker():
    """Serve cases on stdin/stdout: build each with the SDK v2, return the request it would send."""
    proto_out = os.fdopen(os.dup(1), "wb")
    proto_in = os.fdopen(os.dup(0), "rb")
    os.dup2(2, 1)  # whatever the SDK prints goes to stderr
    import atexit

    workdir = fc.prepare_workdir(tempfile.mkdtemp(prefix="fuzz-sdk-"))
    atexit.register(shutil.rmtree, workdir, True)
    os.chdir(workdir)
    hermetic_environment(workdir, credentials=True)
    config = os.path.join(workdir, "sagemaker-config.yaml")
    with open(config, "w") as f:
        f.write("SchemaVersion: '1.0'\nSageMaker:\n  PythonSDK:\n    Modules:\n      TelemetryOptOut: true\n")
    os.environ.update(SAGEMAKER_USER_CONFIG_OVERRIDE=config, SAGEMAKER_SUPPRESS_V2_WARNING="1")
    import logging
    import warnings

    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    import botocore.client

    original = botocore.client.BaseClient._make_api_call

    def make_api_call(client, operation, params):
        if operation == "CreateTrainingJob":
            raise _Captured(params)
        if operation == "GetRole":  # a plain role name: the ARN IAM would answer, if IAM allows the name
            name = params.get("RoleName")
            if not isinstance(name, str) or not re.match(r"^[a-zA-Z0-9_+=,.@-]{1,64}$", name):
                from botocore.exceptions import ClientError

                raise ClientError({"Error": {"Code": "ValidationError", "Message": "bad role name"}}, operation)
            return {"Role": {"Arn": "arn:aws:iam::%s:role/%s" % (fc.ACCOUNT, name), "RoleName": name}}
        return original(client, operation, params)

    botocore.client.BaseClient._make_api_call = make_api_call
    from moto import mock_aws

    mock_aws().start()
    import boto3
    import sagemaker
    import sagemaker.config
    import sagemaker.config.config
    import sagemaker.session
    import sagemaker.utils

    # The SDK validates its (empty) config with jsonschema on every look-up: 0.3 s a call.
    for module in (sagemaker.config, sagemaker.config.config, sagemaker.session, sagemaker.utils):
        module.validate_sagemaker_config = lambda *a, **k: None
    try:
        import sagemaker.telemetry.telemetry_logging as telemetry

        telemetry._send_telemetry_request = lambda *a, **k: None
    except ImportError:
        pass
    s3 = boto3.client("s3", region_name="us-west-2")
    for bucket in ("my-bucket", "my-out", "bucket"):
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    from sagemaker.estimator import Estimator
    from sagemaker.inputs import ShuffleConfig, TrainingInput
    from sagemaker.instance_group import InstanceGroup
    from sagemaker.pytorch import PyTorch
    from sagemaker.tensorflow import TensorFlow

    shared = sagemaker.session.Session()
    sessions = {}

    def session(region, default_bucket=None):
        key = (region, default_bucket)
        if key not in sessions:
            sessions[key] = sagemaker.session.Session(boto_session=boto3.Session(region_name=region),
                                                      default_bucket=default_bucket)
        return sessions[key]

    ns = {"Estimator": Estimator, "PyTorch": PyTorch, "TensorFlow": TensorFlow, "InstanceGroup": InstanceGroup,
          "TrainingInput": TrainingInput, "ShuffleConfig": ShuffleConfig, "Session": session}
    _send(proto_out, {"ready": sagemaker.__version__})
    while True:
        case = _receive(proto_in)
        if case is None:
            return
        _send(proto_out, _sdk_run(case, ns, shared))


def _sdk_run(case, ns, shared):
    case = case.copy()
    # D1: our constructor's job_name names the job; the SDK v2 takes it in fit.
    if "job_name" in case.kwargs:
        name = case.kwargs.pop("job_name")
        case.fit_kwargs.setdefault("job_name", name)
    case.fit_kwargs.pop("logs", None)
    memo = {}
    try:
        _sdk_group_references(case)
        args = fc.build(case.args, ns, memo)
        kwargs = fc.build(case.kwargs, ns, memo)
        kwargs.setdefault("sagemaker_session", shared)
        inputs = fc.build(case.inputs, ns, memo)
        fit = fc.build(case.fit_kwargs, ns, memo)
        estimator = ns[case.cls](*args, **kwargs)
        if inputs is fc.NOT_GIVEN:
            estimator.fit(wait=False, **fit)
        else:
            estimator.fit(inputs, wait=False, **fit)
    except _Captured as e:
        request = e.args[0]
        try:
            pickle.dumps(request, protocol=4)
        except Exception as error:  # noqa: BLE001 - report, do not die
            return {"error": "the request cannot be pickled: %r" % (error,)}
        return {"request": request}
    except BaseException as e:  # noqa: BLE001 - the SDK refused (or failed on) the configuration
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        import traceback

        frames = [f for f in traceback.extract_tb(sys.exc_info()[2]) if "/sagemaker/" in f.filename]
        where = " (%s:%d)" % (frames[-1].filename.split("/sagemaker/")[-1], frames[-1].lineno) if frames else ""
        return {"error": "%s%s: %s" % (type(e).__name__, where, str(e).strip().split("\n")[0][:300])}
    return {"error": "fit returned without calling CreateTrainingJob"}


def _sdk_group_references(case):
    """Group references as the SDK v2 takes them: channels name groups (strings), a distribution
    holds the InstanceGroup objects of the estimator (sagemaker_hetero takes either form)."""
    groups = case.kwargs.get("instance_groups")
    by_name = {}
    if isinstance(groups, list):
        for g in groups:
            if isinstance(g, fc.Obj) and g.cls == "InstanceGroup" and isinstance(fc.group_name(g), str):
                by_name.setdefault(fc.group_name(g), g)
    channels = case.inputs.values() if isinstance(case.inputs, dict) else [case.inputs]
    for ch in channels:
        if isinstance(ch, fc.Obj) and isinstance(ch.kwargs.get("instance_groups"), list):
            ch.kwargs["instance_groups"] = [fc.group_name(r) if isinstance(r, fc.Obj) else r
                                            for r in ch.kwargs["instance_groups"]]
    dist = case.kwargs.get("distribution")
    if isinstance(dist, dict) and isinstance(dist.get("instance_groups"), list):
        dist["instance_groups"] = [by_name.get(r, r) if isinstance(r, str) else r for r in dist["instance_groups"]]


class SdkPool(object):
    """Worker processes in .venv-sdk, one case at a time each, restarted after a timeout."""

    LOG = os.path.join(tempfile.gettempdir(), "fuzz-sdk-worker.log")

    def __init__(self, workers, timeout=90):
        self.timeout = timeout
        self.lock = threading.Lock()
        self.version = None
        self.free = []
        open(self.LOG, "wb").close()
        for _ in range(workers):
            self.free.append(self._start())

    def _start(self):
        with open(self.LOG, "ab") as log:
            proc = subprocess.Popen([SDK_PYTHON, os.path.abspath(__file__), "--sdk-worker"], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=log)
        hello = self._read(proc, 180)
        if not hello or "ready" not in hello:
            proc.kill()
            with open(self.LOG, "rb") as log:
                tail = log.read().decode("utf-8", "replace")[-3000:]
            raise SystemExit("the SDK v2 worker did not start:\n%s" % tail)
        self.version = hello["ready"]
        return proc

    @staticmethod
    def _read(proc, timeout):
        box = []
        reader = threading.Thread(target=lambda: box.append(_receive(proc.stdout)))
        reader.daemon = True
        reader.start()
        reader.join(timeout)
        return box[0] if box else None

    def run(self, case):
        with self.lock:
            proc = self.free.pop()
        result = {"error": "worker failed"}
        try:
            _send(proc.stdin, case)
            answer = self._read(proc, self.timeout)
            if answer is not None:
                result = answer
            else:
                result = {"error": "SDK v2 worker timed out or died"}
                proc.kill()
                proc.wait()
                proc = self._start()
        except (BrokenPipeError, OSError):
            proc.kill()
            proc.wait()
            proc = self._start()
        finally:
            with self.lock:
                self.free.append(proc)
        return result

    def close(self):
        for proc in self.free:
            try:
                proc.stdin.close()
                proc.wait(10)
            except Exception:  # noqa: BLE001
                proc.kill()


# -- the run -------------------------------------------------------------------------------------------


class Tally(object):
    """Counts per class, and per class per key, with a few example cases each."""

    def __init__(self, examples):
        self.examples = examples
        self.kinds = collections.Counter()
        self.keys = collections.defaultdict(collections.Counter)
        self.samples = collections.defaultdict(dict)

    def add(self, kind, keys, case, outcome):
        self.kinds[kind] += 1
        for key in sorted(set(keys)):
            self.keys[kind][key] += 1
            samples = self.samples[kind].setdefault(key, [])
            entry = (len(set(keys)), case, outcome)
            if len(samples) < self.examples:
                samples.append(entry)
            else:  # prefer cases with fewer other problems
                worst = max(range(len(samples)), key=lambda i: samples[i][0])
                if samples[worst][0] > entry[0]:
                    samples[worst] = entry


def _printable(text):
    """``text`` with control characters (and lone surrogates) escaped, as they come from exceptions."""
    return "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape", "backslashreplace").decode("ascii")
                   for c in str(text))


def _indent(text, prefix="      "):
    return "\n".join(prefix + _printable(line) for line in str(text).splitlines())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--examples", type=int, default=2, help="examples shown per group")
    parser.add_argument("--groups", type=int, default=40, help="causes shown per class of failure")
    parser.add_argument("--refused-groups", type=int, default=15, help="causes shown per class of refusal")
    parser.add_argument("--no-shrink", action="store_true", help="show examples as generated")
    parser.add_argument("--sdk-v2", action="store_true", help="run refused configurations through the SDK v2")
    parser.add_argument("--sdk-limit", type=int, default=None, help="at most this many SDK v2 runs")
    parser.add_argument("--sdk-workers", type=int, default=2)
    parser.add_argument("--sdk-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.sdk_worker:
        return sdk_worker()
    if hasattr(sys.stdout, "reconfigure"):  # odd text in examples must not stop the report
        sys.stdout.reconfigure(errors="backslashreplace")

    workdir = fc.prepare_workdir(tempfile.mkdtemp(prefix="fuzz-estimators-"))
    os.chdir(workdir)
    hermetic_environment(workdir)
    import logging
    import random

    logging.disable(logging.CRITICAL)
    judge = _load("hetero_judge", "tests/_judge.py")
    import sagemaker_hetero

    ns = fc.hetero_namespace()
    judge.input_shape()  # load the service model before timing
    print("sagemaker_hetero from %s" % os.path.dirname(sagemaker_hetero.__file__))
    print("seed %d, %d configurations, working directory %s (holds %s)"
          % (args.seed, args.count, workdir, ", ".join(fc.WORKDIR_FILES)))
    pool = None
    if args.sdk_v2:
        if not os.path.exists(SDK_PYTHON):
            sys.exit("--sdk-v2 needs %s: python3 -m venv .venv-sdk && .venv-sdk/bin/pip install -e . "
                     "'sagemaker<3' 'moto[server]' regex pyyaml" % SDK_PYTHON)
        pool = SdkPool(args.sdk_workers)

    rnd = random.Random(args.seed)
    tally = Tally(args.examples)
    sdk_tally = Tally(args.examples)
    slow = []
    refused_cases = []
    start = time.time()
    for index in range(args.count):
        case = fc.make_case(fc.RandomChooser(rnd))
        t0 = time.time()
        outcome = fc.run_case(case, judge, ns)
        elapsed = time.time() - t0
        if elapsed > 1.0:
            slow.append((elapsed, index, case))
        tally.add(outcome.kind, outcome.keys, case, outcome)
        if outcome.kind == fc.REFUSED and pool is not None:
            refused_cases.append((case, outcome))
    hetero_seconds = time.time() - start

    sdk_seconds = 0.0
    if pool is not None:
        todo = refused_cases[: args.sdk_limit] if args.sdk_limit is not None else refused_cases
        t0 = time.time()
        results = [None] * len(todo)
        lock = threading.Lock()
        position = [0]

        def work():
            while True:
                with lock:
                    i = position[0]
                    position[0] += 1
                if i >= len(todo):
                    return
                results[i] = pool.run(todo[i][0])

        threads = [threading.Thread(target=work) for _ in range(args.sdk_workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        args.sdk_version = pool.version
        for (case, outcome), result in zip(todo, results):
            _classify_sdk(case, outcome, result, judge, sdk_tally)
        sdk_seconds = time.time() - t0

    _report(args, tally, sdk_tally, slow, hetero_seconds, sdk_seconds, judge, ns, pool)
    if pool is not None:
        pool.close()
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


def _classify_sdk(case, outcome, result, judge, sdk_tally):
    if "request" not in result:
        sdk_tally.add("SDK v2 refuses too", [("SDK v2", fc.generic_message(result.get("error", "?"))[:160])],
                      case, outcome)
        return
    request = result["request"]
    found = judge.findings(request)
    if found:
        sdk_tally.add("SDK v2 request refused by the judge", [(f.generic, f.message) for f in found], case, outcome)
        return
    reasons = sorted({documented_reason(fc.generic_path(p.path), p.message, case) for p in outcome.problems} - {None})
    if reasons:  # a documented reason is enough to refuse
        sdk_tally.add("documented", [(r, "") for r in reasons], case, (outcome, request))
    else:
        sdk_tally.add("possible FALSE REFUSAL", undocumented(outcome, case), case, (outcome, request))


def _still(kind, key, judge, ns, most):
    """Whether a smaller case still shows ``key`` (of ``kind``) with at most ``most`` causes."""
    def check(case):
        try:
            outcome = fc.run_case(case, judge, ns)
        except Exception:  # noqa: BLE001
            return False
        return outcome.kind == kind and key in outcome.keys and len(set(outcome.keys)) <= most
    return check


_ORDER = (fc.OK, fc.FALSE_ACCEPT, fc.REFUSED, fc.TYPE_ERROR, fc.CRASH, fc.BAD_PATH)


def _still_false_refusal(key, judge, ns, pool, most):
    """Whether a smaller case is still refused for ``key`` while the SDK v2 makes a valid request."""
    def check(case):
        try:
            outcome = fc.run_case(case, judge, ns)
        except Exception:  # noqa: BLE001
            return False
        if outcome.kind != fc.REFUSED or len(set(outcome.keys)) > most:
            return False
        keys = undocumented(outcome, case)
        if key not in keys or len(keys) != len(outcome.problems):  # no documented reason either
            return False
        result = pool.run(case)
        return "request" in result and not judge.findings(result["request"])
    return check


def _report(args, tally, sdk_tally, slow, seconds, sdk_seconds, judge, ns, pool=None):
    total = sum(tally.kinds.values())
    print()
    print("== %d configurations in %.1f s (%.0f per minute) ==" % (total, seconds, total / max(seconds, 1e-9) * 60))
    for kind in _ORDER:
        n = tally.kinds.get(kind, 0)
        print("  %-22s %6d  %5.1f%%" % (kind, n, 100.0 * n / max(total, 1)))
    if slow:
        print("  slow (> 1 s)           %6d  (slowest %.1f s, configuration #%d)"
              % (len(slow), max(slow, key=lambda s: s[0])[0], max(slow, key=lambda s: s[0])[1]))
    for kind in (fc.FALSE_ACCEPT, fc.CRASH, fc.BAD_PATH, fc.REFUSED, fc.TYPE_ERROR):
        keys = tally.keys.get(kind)
        if not keys:
            continue
        print()
        failure = kind in (fc.FALSE_ACCEPT, fc.CRASH, fc.BAD_PATH)
        shown = args.groups if failure else args.refused_groups
        print("== %s: %d configurations, %d distinct causes (top %d) ==" % (kind, tally.kinds[kind], len(keys),
                                                                           shown))
        show_examples = args.examples if failure else min(1, args.examples)
        for key, count in keys.most_common(shown):
            print()
            print("  [%d] %s: %s" % (count, _printable(key[0]), _printable(key[1])))
            for _, case, outcome in tally.samples[kind][key][:show_examples]:
                if not args.no_shrink:
                    case = fc.shrink(case, _still(kind, key, judge, ns, len(set(outcome.keys))))
                    outcome = fc.run_case(case, judge, ns)
                print("    reproduction:")
                print(_indent(fc.case_code(case)))
                print("    got:")
                print(_indent(outcome.detail if kind != fc.CRASH else outcome.detail.strip().splitlines()[-1]))
    if sdk_tally.kinds:
        sdk_total = sum(sdk_tally.kinds.values())
        print()
        print("== SDK v2 (sagemaker %s) on %d refused configurations in %.1f s ==" % (args.sdk_version, sdk_total,
                                                                                    sdk_seconds))
        kinds = ("possible FALSE REFUSAL", "documented", "SDK v2 request refused by the judge", "SDK v2 refuses too")
        for kind in kinds:
            print("  %-38s %6d" % (kind, sdk_tally.kinds.get(kind, 0)))
        for kind in kinds:
            keys = sdk_tally.keys.get(kind)
            if not keys:
                continue
            print()
            shown = args.groups if kind == "possible FALSE REFUSAL" else args.refused_groups
            print("== %s: %d configurations, %d distinct causes (top %d) ==" % (kind, sdk_tally.kinds[kind],
                                                                               len(keys), shown))
            for key, count in keys.most_common(shown):
                print()
                print("  [%d] %s%s" % (count, _printable(key[0]), ": " + _printable(key[1]) if key[1] else ""))
                if kind != "possible FALSE REFUSAL":
                    continue
                for _, case, (outcome, request) in sdk_tally.samples[kind][key][:args.examples]:
                    if not args.no_shrink:
                        case = fc.shrink(case, _still_false_refusal(key, judge, ns, pool, len(set(outcome.keys))),
                                         budget=80)
                        outcome = fc.run_case(case, judge, ns)
                    print("    reproduction (sagemaker_hetero refuses; sagemaker makes a valid request):")
                    print(_indent(fc.case_code(case)))
                    print("    our problems:")
                    print(_indent(outcome.detail))


if __name__ == "__main__":
    sys.exit(main())
