"""One path through (docs/architecture.md): a fit renders its CreateTrainingJob request once, dry run
or not, on AWS and locally; a tuner's fit renders its training request and its tuning request once
each; the estimator, the tuner and the session go through the runner's one executor; no module probes
a session with getattr or hasattr."""
import ast
import hashlib
import json
import os

import boto3
import pytest

from sagemaker_hetero import InstanceGroup, LocalSession, PyTorch, Session, TrainingInput
from sagemaker_hetero import _runner
from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero._request import render as training_render
from sagemaker_hetero._tuning import render as tuning_render
from sagemaker_hetero.tuner import ContinuousParameter, HyperparameterTuner

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
INPUTS = {"train": TrainingInput("s3://bucket/train", instance_groups=["data"]),
          "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["dnn"])}
PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "sagemaker_hetero")


@pytest.fixture
def renders(monkeypatch):
    """How many times each request was rendered: {"training": n, "tuning": n}."""
    counts = {"training": 0, "tuning": 0}

    def counting(kind, real):
        def wrapper(*args, **kwargs):
            counts[kind] += 1
            return real(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(training_render, "render", counting("training", training_render.render))
    monkeypatch.setattr(tuning_render, "render", counting("tuning", tuning_render.render))
    return counts


def pytorch(session=None, **overrides):
    kwargs = dict(entry_point="train.py", source_dir="src", framework_version="2.2.0", py_version="py310", role=ROLE,
                  instance_groups=[InstanceGroup("data", "ml.c5.xlarge", 1), InstanceGroup("dnn", "ml.g5.xlarge", 1)],
                  distribution={"torch_distributed": {"enabled": True}, "instance_groups": ["dnn"]},
                  sagemaker_session=session)
    kwargs.update(overrides)
    return PyTorch(**kwargs)


def tuner(estimator):
    return HyperparameterTuner(estimator, "loss", {"lr": ContinuousParameter(0.001, 0.1)},
                               metric_definitions=[{"Name": "loss", "Regex": "loss=([0-9.]+)"}], max_jobs=2,
                               max_parallel_jobs=1)


@pytest.mark.usefixtures("workdir")
def test_a_dry_run_renders_its_request_once(renders):
    est = pytorch()
    renders["training"] = 0  # the constructor's check is not the fit's
    est.fit(INPUTS, dry_run=True)
    assert renders == {"training": 1, "tuning": 0}


@pytest.mark.usefixtures("workdir")
def test_a_dry_run_without_a_session_renders_once_with_a_placeholder_account(renders):
    est = pytorch(role="SageMakerRole", output_path=None)
    renders["training"] = 0
    request = est.fit(INPUTS, dry_run=True)
    assert renders["training"] == 1
    assert request["RoleArn"] == "arn:aws:iam::<account-id>:role/SageMakerRole"  # no problem of the user's


@pytest.mark.usefixtures("workdir")
@pytest.mark.parametrize("preflight", [None, False])
def test_a_fit_on_aws_renders_its_request_once(aws, renders, preflight):
    boto3.client("s3").create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    est = pytorch(Session())
    renders["training"] = 0
    est.fit(INPUTS, wait=False, preflight=preflight)
    assert renders == {"training": 1, "tuning": 0}
    assert aws.operations()[-1] == "CreateTrainingJob"


@pytest.mark.usefixtures("workdir")
def test_a_preflight_renders_its_request_once_with_the_account_it_looked_up(aws, renders):
    # estimator.preflight checked the job (one render), then rendered it again for the preflight
    est = pytorch(Session(), output_path=None)
    renders["training"] = 0
    report = est.preflight(INPUTS)
    assert renders == {"training": 1, "tuning": 0}
    assert report.account == "123456789012" and "sagemaker-us-west-2-123456789012" in report.text()
    assert "<account-id>" not in report.text()
    assert aws.operations().count("GetCallerIdentity") == 1


@pytest.mark.usefixtures("workdir")
def test_a_tuners_dry_run_renders_each_request_once(renders):
    t = tuner(pytorch())
    renders.update(training=0, tuning=0)
    t.fit(INPUTS, dry_run=True)
    assert renders == {"training": 1, "tuning": 1}


@pytest.mark.usefixtures("workdir")
def test_a_tuners_fit_on_aws_renders_each_request_once(aws, renders):
    boto3.client("s3").create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    t = tuner(pytorch(Session()))
    renders.update(training=0, tuning=0)
    t.fit(INPUTS, wait=False)
    assert renders == {"training": 1, "tuning": 1}
    assert aws.operations()[-1] == "CreateHyperParameterTuningJob"


@pytest.mark.usefixtures("workdir")
def test_a_local_dry_run_renders_once(renders, tmp_path):
    est = pytorch(LocalSession(root=str(tmp_path / "root")))
    renders["training"] = 0
    est.fit({"train": TrainingInput("file://%s" % tmp_path, instance_groups=["data"])}, dry_run=True)
    assert renders["training"] == 1


def test_both_sessions_follow_the_protocol(aws, tmp_path):
    assert _runner.is_session(Session()) and _runner.is_session(LocalSession(root=str(tmp_path / "root")))
    assert not _runner.is_session(object())


def _probes(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr"):
            target = node.args[0] if node.args else None
            text = ast.dump(target) if target is not None else ""
            if "session" in text.lower():
                yield node.lineno


def test_no_module_probes_a_session_with_getattr():
    found = []
    for folder, _, files in os.walk(PACKAGE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                found.extend("%s:%d" % (os.path.relpath(path, PACKAGE), line)
                             for line in _probes(ast.parse(open(path).read(), path)))
    assert found == []


#: where a job model is built, and a request rendered: the runner (the planner, and the plans it makes of a
#: checked job, a renamed one, a description read back), the Plan's maker, and the tuning request's one render
#: over the training job's plan
RENDERERS = {"build": ("_runner.py",), "make_plan": ("_runner.py",), "render": ("_request/plan.py", "_tuning/checks.py")}


def _builds_and_renders(tree):
    """``(name, line)`` of each call of ``build.build``, ``make_plan`` or ``render.render`` (any module alias)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "make_plan":
            yield "make_plan", node.lineno
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            module = func.value.id.lstrip("_")
            if func.attr in ("build", "make_plan", "render") and module in ("build", "plan", "render"):
                yield func.attr, node.lineno


def test_only_the_runner_builds_a_job_and_makes_a_plan():
    # the preflight, the diff, the sessions' execute, a taken name's retry and a step's tokens job each built or
    # rendered on their own; every one now asks the runner
    found = []
    for folder, _, files in os.walk(PACKAGE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                where = os.path.relpath(path, PACKAGE).replace(os.sep, "/")
                found.extend("%s:%d %s" % (where, line, call) for call, line in _builds_and_renders(
                    ast.parse(open(path).read(), path)) if where not in RENDERERS[call])
    assert found == []


def test_the_clis_render_archive_builds_the_code_archive_once(monkeypatch, capsys, tmp_path):
    from sagemaker_hetero._model import archive
    from sagemaker_hetero.cli import main

    written = []
    real = archive.write

    def counting(entries, fileobj, read, each=None):
        written.append(1)
        return real(entries, fileobj, read, each)

    monkeypatch.setattr(archive, "write", counting)
    monkeypatch.setenv("AWS_REGION", "us-west-2")
    example = os.path.join(os.path.dirname(PACKAGE), "examples", "spec.yaml")
    path = str(tmp_path / "sourcedir.tar.gz")
    assert main(["render", example, "--account-id", "123456789012", "--archive", path]) == 0
    request = json.loads(capsys.readouterr().out)
    assert len(written) == 1
    with open(path, "rb") as f:  # the key the request names is the one archive's content address
        digest = hashlib.sha256(f.read()).hexdigest()
    assert digest in request["HyperParameters"]["sagemaker_submit_directory"]


@pytest.mark.usefixtures("workdir")
def test_a_request_problem_is_told_before_a_failed_look_up_of_its_facts(aws, monkeypatch):
    # the request's own problems (here the service's limit on an S3 URI, which only fit's inputs have) come
    # first, all at once, even when the facts a real fit looks up (the account, for the default bucket)
    # cannot be had
    est = pytorch(Session(), output_path=None)
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    long_uri = "s3://bucket/" + "k" * 1100
    with pytest.raises(ConfigError) as caught:
        est.fit(dict(INPUTS, train=TrainingInput(long_uri, instance_groups=["data"])), wait=False)
    assert [p.path for p in caught.value.problems] == ["inputs['train'].s3_data"], str(caught.value)
    assert aws.operations() == []


EXAMPLES = os.path.join(os.path.dirname(PACKAGE), "examples")


@pytest.mark.parametrize("argv, rendered", [
    (["render", "spec.yaml"], {"training": 1, "tuning": 0}),
    (["render", "spec.yaml", "--cost"], {"training": 1, "tuning": 0}),
    (["cost", "spec.yaml", "--offline", "--prices", "prices.csv"], {"training": 1, "tuning": 0}),
    (["tune", "render", "tune_spec.yaml"], {"training": 1, "tuning": 1}),
])
def test_the_clis_dry_commands_render_each_request_once(renders, monkeypatch, capsys, argv, rendered):
    # the plan rendered for the spec's checks is the one printed: no second render for the code key
    from sagemaker_hetero.cli import main

    monkeypatch.setenv("AWS_REGION", "us-west-2")
    argv = [os.path.join(EXAMPLES, a) if a.endswith((".yaml", ".csv")) else a for a in argv]
    assert main(argv) == 0, capsys.readouterr().err
    assert renders == rendered


def _pipeline(session):
    from sagemaker_hetero.workflow import ParameterInteger, ParameterString, Pipeline, TrainingStep

    gpu_type, count = ParameterString("GpuType", default_value="ml.g5.xlarge"), ParameterInteger("GpuCount", default_value=1)
    steps = [TrainingStep(name, estimator=pytorch(session, instance_groups=[InstanceGroup("data", "ml.c5.xlarge", 1),
                                                                             InstanceGroup("dnn", gpu_type, count)]),
                          inputs=INPUTS) for name in ("First", "Second")]
    return Pipeline("one-path", parameters=[gpu_type, count], steps=steps)


@pytest.mark.usefixtures("workdir")
def test_a_pipelines_upsert_renders_each_steps_request_once(aws, renders):
    # each step's plan: rendered once with its parameters' values, checked once, its definition written from it
    boto3.client("s3").create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    pipeline = _pipeline(Session())
    renders["training"] = 0  # the steps' constructors' checks are not the upsert's
    pipeline.upsert(role_arn=ROLE)
    assert renders == {"training": 2, "tuning": 0}
    assert aws.operations("sagemaker") == ["CreatePipeline"]
    renders["training"] = 0
    definition = json.loads(pipeline.definition())
    assert renders["training"] == 2
    assert definition["Steps"][1]["Arguments"]["ResourceConfig"]["InstanceGroups"][1]["InstanceType"] == \
        {"Get": "Parameters.GpuType"}


@pytest.mark.usefixtures("workdir")
def test_a_training_steps_jobs_report_every_problem_of_the_step():
    # the step's inputs changed after its check: jobs() used to drop the build's problems
    from sagemaker_hetero.workflow import TrainingStep

    step = TrainingStep("Train", estimator=pytorch(), inputs=INPUTS)
    step.inputs = {"train": TrainingInput("s3://bucket/train", instance_groups=["nowhere"]), "bad name!": "s3://b/x"}
    with pytest.raises(ConfigError) as caught:
        step.jobs()
    assert [p.path for p in caught.value.problems] == ["inputs['train'].instance_groups[0]", "inputs",
                                                      "inputs['bad name!']"], str(caught.value)


def _spec_file(folder, **overrides):
    (folder / "train.py").write_text("print('train')\n")
    spec = {"framework": "pytorch", "role": ROLE, "entry_point": "train.py", "framework_version": "2.2.0",
            "py_version": "py310", "job_name": "one-path",
            "instance_groups": [{"name": "data", "type": "ml.c5.xlarge", "count": 1},
                                {"name": "dnn", "type": "ml.g5.xlarge", "count": 1}],
            "inputs": {"train": {"s3_data": "s3://bucket/train", "instance_groups": ["data"]},
                       "dummy": {"s3_data": "s3://bucket/dummy", "instance_groups": ["dnn"]}},
            "distribution": {"torch_distributed": {"enabled": True}, "instance_groups": ["dnn"]}}
    spec.update(overrides)
    path = folder / "spec.json"
    path.write_text(json.dumps(spec))
    return str(path)


def _trainer_spec_file(folder):
    (folder / "src").mkdir(exist_ok=True)
    (folder / "src" / "train.py").write_text("print('train')\n")
    spec = {"framework": "model_trainer", "role": ROLE, "base_job_name": "one-path",
            "training_image": "763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-"
                              "ubuntu22.04",
            "source_code": {"source_dir": "src", "entry_script": "train.py"},
            "compute": {"instance_groups": [
                {"instance_group_name": "gpu", "instance_type": "ml.g5.xlarge", "instance_count": 1},
                {"instance_group_name": "cpu", "instance_type": "ml.c5.xlarge", "instance_count": 1}]},
            "input_data_config": [{"channel_name": "train", "data_source": {
                "s3_data_type": "S3Prefix", "s3_uri": "s3://bucket/train", "instance_group_names": ["gpu"]}}]}
    path = folder / "trainer.json"
    path.write_text(json.dumps(spec))
    return str(path)


@pytest.mark.parametrize("spec_file, command, options", [
    (_spec_file, "submit", ["--no-preflight"]), (_spec_file, "submit", []), (_spec_file, "preflight", []),
    (_trainer_spec_file, "preflight", []), (_trainer_spec_file, "validate", []), (_trainer_spec_file, "render", []),
    (_trainer_spec_file, "submit", ["--no-preflight"]), (_trainer_spec_file, "submit", []),
])
def test_each_cli_command_on_aws_renders_its_request_once(aws, renders, tmp_path, capsys, command, options,
                                                          spec_file):
    # submit, preflight and local checked the spec (one render), made the estimator (its constructor's check, a
    # second) and fit or preflight it (a third); a model_trainer spec's render, validate and preflight rendered
    # in the trainer's constructor too: the estimator's (the trainer's) one check is now the spec's; a
    # model_trainer spec's submit rendered again under the default bucket's name its code went to
    from sagemaker_hetero.cli import main

    s3 = boto3.client("s3")
    for bucket in ("bucket", "sagemaker-us-west-2-123456789012"):  # the trainer's code goes to the default bucket
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    for prefix in ("train", "dummy"):
        s3.put_object(Bucket="bucket", Key="%s/part-0" % prefix, Body=b"x")
    path = spec_file(tmp_path)
    code = main([command, path] + options)
    # 5: a preflight check moto cannot answer (iam:PassRole); a trainer's preflight finds no objects yet where its
    # code and driver channels are uploaded by its train (2)
    assert code in ((0, 2, 5) if command == "preflight" else (0, 5)), capsys.readouterr()
    # a model_trainer spec's submit is a session's first: checked before any AWS call, then rendered under the
    # default bucket's name its code and driver go to (no call before the job's own problems)
    first = 2 if spec_file is _trainer_spec_file and command == "submit" else 1
    assert renders == {"training": first, "tuning": 0}
    if command == "submit":
        assert aws.operations()[-1] == "CreateTrainingJob"


def test_the_clis_local_command_renders_its_request_once(renders, tmp_path, capsys, monkeypatch):
    from sagemaker_hetero.cli import main

    monkeypatch.setenv("AWS_REGION", "us-west-2")
    data = tmp_path / "data"
    data.mkdir()
    (data / "part-0").write_text("x\n")
    path = _spec_file(tmp_path, inputs={"train": {"s3_data": "file://%s" % data, "instance_groups": ["data", "dnn"]}},
                      distribution=None)
    assert main(["local", path, "--root", str(tmp_path / "jobs")]) == 0, capsys.readouterr()
    assert renders == {"training": 1, "tuning": 0}


def test_the_clis_tune_submit_renders_each_request_once(aws, renders, tmp_path, capsys):
    # the spec's check, the estimator's and the tuner's constructors and the tuner's fit each rendered
    from sagemaker_hetero.cli import main

    boto3.client("s3").create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    tuning = {"objective_metric_name": "loss", "metric_definitions": [{"Name": "loss", "Regex": "loss=(.*)"}],
              "hyperparameter_ranges": {"lr": {"type": "continuous", "min_value": 0.01, "max_value": 0.1}},
              "max_jobs": 2, "max_parallel_jobs": 1, "job_name": "one-path-hpo"}
    path = _spec_file(tmp_path, tuning=tuning, output_path="s3://bucket/out")
    assert main(["tune", "submit", path]) == 0, capsys.readouterr()
    assert renders == {"training": 1, "tuning": 1}
    assert aws.operations()[-1] == "CreateHyperParameterTuningJob"


@pytest.mark.usefixtures("workdir")
def test_a_model_trainers_later_train_on_aws_renders_its_request_once(aws, renders):
    # the first job is checked before any AWS call, then rendered under the default bucket's name; a later
    # job of the session knows the bucket and is rendered once
    from sagemaker_hetero.core.training.configs import Compute, InstanceGroup as Group, SourceCode
    from sagemaker_hetero.train.model_trainer import ModelTrainer

    trainer = ModelTrainer(training_image="763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-"
                                          "py311-cu124-ubuntu22.04", role=ROLE, sagemaker_session=Session(),
                           source_code=SourceCode(source_dir="src", entry_script="train.py"),
                           compute=Compute(instance_groups=[Group(instance_group_name="gpu", instance_type="ml.g5.xlarge",
                                                                  instance_count=1)]))
    renders["training"] = 0
    trainer.train(wait=False, preflight=False)  # checked before any call, then placed under the default bucket
    assert renders == {"training": 2, "tuning": 0}
    renders["training"] = 0
    trainer.train(wait=False, preflight=False)  # a later job of the session: its bucket known, rendered once
    assert renders == {"training": 1, "tuning": 0}
    assert aws.operations()[-1] == "CreateTrainingJob"
    channels = dict((c["ChannelName"], c["DataSource"]["S3DataSource"]["S3Uri"])
                    for c in aws.last_json("CreateTrainingJob")["InputDataConfig"])
    assert channels["code"].startswith("s3://sagemaker-us-west-2-123456789012/"), channels
    assert channels["sm_drivers"].startswith("s3://sagemaker-us-west-2-123456789012/"), channels
