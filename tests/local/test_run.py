"""Real local jobs: what every host sees, its command, the output, the artifacts, the job's life cycle."""
import json
import os
import tarfile

import pytest

from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero._request.describe import job_from_description as job_of
from sagemaker_hetero.local import _cluster
from sagemaker_hetero.training import parse_marker

from ._helpers import estimator_for, namespaces_work

REPORT = """
import json, os, socket, sys
from sagemaker_hetero.training import Environment

base = os.environ["SAGEMAKER_BASE_DIR"]
env = Environment()
config = {}
for name in ("resourceconfig", "hyperparameters", "inputdataconfig"):
    with open(os.path.join(base, "input", "config", name + ".json")) as f:
        config[name] = json.load(f)
data = {}
for channel in sorted(os.listdir(os.path.join(base, "input", "data"))):
    folder = os.path.join(base, "input", "data", channel)
    data[channel] = {"link": os.path.realpath(folder), "files": sorted(os.listdir(folder))}
report = {
    "argv": sys.argv,
    "cwd": os.getcwd(),
    "config": config,
    "data": data,
    "sm": {k: v for k, v in os.environ.items() if k.startswith("SM_")},
    "toolkit_env": env.to_env_vars(),
    "base": base,
    "job": os.environ.get("TRAINING_JOB_NAME"),
    "resolved": {h: socket.gethostbyname(h) for h in env.hosts},
    "group": env.current_instance_group,
    "channels": sorted(env.channel_input_dirs),
}
os.makedirs(env.output_data_dir, exist_ok=True)
with open(os.path.join(env.output_data_dir, env.current_host + ".json"), "w") as f:
    json.dump(report, f)
print("report written by", env.current_host)
print("to stderr too", file=sys.stderr)
"""


def members(path):
    with tarfile.open(path) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}


@pytest.fixture
def data_dirs(tmp_path):
    out = {}
    for name, files in (("train", ["a.csv", "b.csv"]), ("val", ["v.csv"]), ("both", ["c.txt"])):
        folder = tmp_path / "data" / name
        folder.mkdir(parents=True)
        for f in files:
            (folder / f).write_text(f + "\n")
        out[name] = str(folder)
    return out


@pytest.mark.parametrize("isolation", ["auto", "none"])
def test_every_host_sees_its_group_its_channels_and_the_files_sagemaker_writes(session_factory, write_code, data_dirs,
                                                                                isolation):
    session = session_factory(keep=True, isolation=isolation)
    estimator = estimator_for(
        session,
        write_code(REPORT),
        hyperparameters={"epochs": 10, "lr": 0.1, "name": "x", "flag": True},
        job_name="report-job",
    )
    estimator.fit(
        {
            "train": TrainingInput("file://" + data_dirs["train"], instance_groups=["cpu"]),
            "val": TrainingInput(data_dirs["val"], instance_groups=["gpu"]),  # a plain path works too
            "both": TrainingInput(data_dirs["both"], instance_groups=["cpu", "gpu"]),
        }
    )
    desc = estimator.latest_training_job.describe()
    assert desc["TrainingJobStatus"] == "Completed" and desc["SecondaryStatus"] == "Completed"
    assert [t["Status"] for t in desc["SecondaryStatusTransitions"]] == [
        "Starting", "Downloading", "Training", "Uploading", "Completed"
    ]
    assert desc["InputDataConfig"][1]["DataSource"]["FileDataSource"]["FileUri"] == "file://" + data_dirs["val"]
    model_uri = desc["ModelArtifacts"]["S3ModelArtifacts"]
    assert model_uri == "file://%s/report-job/output/model.tar.gz" % session.root
    reports = {
        name[: -len(".json")]: json.loads(body)
        for name, body in members(model_uri[len("file://"):].replace("model.tar.gz", "output.tar.gz")).items()
    }
    assert sorted(reports) == ["algo-1", "algo-2", "algo-3"]
    hosts = {h["Host"]: h for h in desc["LocalRun"]["Hosts"]}
    for host, report in reports.items():
        assert hosts[host]["BaseDirectory"] == os.path.join(session.root, "report-job", host)
        assert hosts[host]["Namespaces"] is (isolation == "auto" and namespaces_work(session))
        base = "/opt/ml" if hosts[host]["Namespaces"] else hosts[host]["BaseDirectory"]
        group = "cpu" if host in ("algo-1", "algo-2") else "gpu"
        assert report["base"] == base
        assert report["job"] == "report-job"
        assert report["cwd"] == os.path.join(base, "code")
        assert report["argv"][1:] == ["--epochs", "10", "--flag", "True", "--lr", "0.1", "--name", "x"]
        assert report["config"]["resourceconfig"] == {
            "current_host": host,
            "current_instance_type": "ml.c5.xlarge" if group == "cpu" else "ml.p3.2xlarge",
            "current_group_name": group,
            "hosts": ["algo-1", "algo-2", "algo-3"],
            "instance_groups": [
                {"instance_group_name": "cpu", "instance_type": "ml.c5.xlarge", "hosts": ["algo-1", "algo-2"]},
                {"instance_group_name": "gpu", "instance_type": "ml.p3.2xlarge", "hosts": ["algo-3"]},
            ],
            "network_interface_name": "eth0",
        }
        assert report["config"]["hyperparameters"] == desc["HyperParameters"]
        own = ["both", "train"] if group == "cpu" else ["both", "val"]
        assert sorted(report["config"]["inputdataconfig"]) == own == sorted(report["data"]) == report["channels"]
        assert report["config"]["inputdataconfig"]["both"] == {
            "TrainingInputMode": "File", "S3DistributionType": "FullyReplicated", "RecordWrapperType": "None"
        }
        for channel in own:
            assert report["data"][channel]["link"] == data_dirs[channel]  # linked, not copied
        assert report["group"] == group
        assert report["sm"] == report["toolkit_env"]  # every SM_* variable, as the toolkit computes it
        assert report["sm"]["SM_CHANNEL_%s" % own[1].upper()] == os.path.join(base, "input", "data", own[1])
        assert report["sm"]["SM_CURRENT_INSTANCE_GROUP"] == group
        assert report["sm"]["SM_MODEL_DIR"] == os.path.join(base, "model")
        assert report["resolved"] == {h: hosts[h]["Address"] for h in hosts}
    assert len(set(h["Address"] for h in hosts.values())) in (1, 3)
    out = session.out.getvalue()
    for host, group in (("algo-1", "cpu"), ("algo-2", "cpu"), ("algo-3", "gpu")):
        assert "[%s/%s] report written by %s\n" % (group, host, host) in out
        assert "[%s/%s] to stderr too\n" % (group, host) in out
    for data in data_dirs.values():
        assert not os.path.islink(data) and os.listdir(data)  # the user's data is untouched


def test_artifacts_of_several_hosts_are_combined_losing_nothing(session_factory, write_code):
    session = session_factory()
    code = write_code(
        """
        import os
        host = os.environ["SM_CURRENT_HOST"]
        model = os.environ["SM_MODEL_DIR"]
        os.makedirs(os.path.join(model, "sub"), exist_ok=True)
        open(os.path.join(model, "common.txt"), "w").write("same everywhere")
        open(os.path.join(model, "sub", "own.txt"), "w").write("from " + host)
        open(os.path.join(model, host + ".txt"), "w").write(host)
        """
    )
    estimator = estimator_for(session, code, job_name="combine")
    estimator.fit()
    archive = os.path.join(session.root, "combine", "output", "model.tar.gz")
    assert members(archive) == {
        "common.txt": b"same everywhere",
        "sub/own.txt": b"from algo-1",
        "algo-2/sub/own.txt": b"from algo-2",
        "algo-3/sub/own.txt": b"from algo-3",
        "algo-1.txt": b"algo-1",
        "algo-2.txt": b"algo-2",
        "algo-3.txt": b"algo-3",
    }
    assert "model/sub/own.txt differs from an earlier host's copy: stored as algo-2/sub/own.txt" in session.out.getvalue()
    assert members(os.path.join(session.root, "combine", "output", "output.tar.gz")) == {}
    # completed without keep=True: host folders are removed, artifacts, code and usage samples stay
    assert sorted(os.listdir(os.path.join(session.root, "combine"))) == [".sagemaker-hetero-job", "output", "source",
                                                                             "usage"]


def test_wait_false_runs_in_the_background_and_wait_joins(session_factory, write_code, tmp_path):
    session = session_factory()
    go = tmp_path / "go"  # the hosts end only once the test has seen the job running
    code = write_code(
        "import os, sys, time\ndeadline = time.monotonic() + 60\n"
        "while not os.path.exists(%r):\n"
        "    if time.monotonic() > deadline:\n        sys.exit('never released')\n"
        "    time.sleep(0.01)\nprint('done')\n" % str(go)
    )
    estimator = estimator_for(session, code, groups=None, instance_count=2, job_name="background")
    estimator.fit(wait=False)  # returns while the hosts wait: were it to wait for them, it would fail
    job = estimator.latest_training_job
    assert job.describe()["TrainingJobStatus"] == "InProgress"
    assert session.describe_training_job("background")["SecondaryStatus"] == "Training"
    go.write_text("")
    desc = job.wait()
    assert desc["TrainingJobStatus"] == "Completed"
    assert [(h["Host"], h["InstanceGroupName"], h["ExitCode"]) for h in desc["LocalRun"]["Hosts"]] == [
        ("algo-1", "homogeneousCluster", 0),
        ("algo-2", "homogeneousCluster", 0),
    ]
    assert "[homogeneousCluster/algo-2] done" in session.out.getvalue()


def _seed_that_scatters_groups():
    request = {"ResourceConfig": {"InstanceGroups": [
        {"InstanceGroupName": "cpu", "InstanceType": "ml.c5.xlarge", "InstanceCount": 2},
        {"InstanceGroupName": "gpu", "InstanceType": "ml.p3.2xlarge", "InstanceCount": 1},
    ]}}
    ordered = _cluster.assign_hosts(job_of(request))
    for seed in range(100):
        shuffled = _cluster.assign_hosts(job_of(request), "shuffled", seed)
        if shuffled.groups != ordered.groups and list(shuffled.groups[0][2]) != sorted(shuffled.groups[0][2]):
            return seed, shuffled
    raise AssertionError("no seed scatters the groups")


def test_shuffled_assignment_with_a_seed_is_what_the_hosts_see(session_factory, write_code):
    seed, expected = _seed_that_scatters_groups()
    session = session_factory(assignment="shuffled", seed=seed)
    code = write_code(
        """
        from sagemaker_hetero.training import Environment, run_by_group
        env = Environment()
        run_by_group({"cpu": lambda e: print("cpu hosts", e.current_instance_group_hosts),
                      "gpu": lambda e: print("gpu hosts", e.current_instance_group_hosts)}, env)
        """
    )
    estimator_for(session, code).fit()
    out = session.out.getvalue()
    markers = {}
    for line in out.splitlines():
        found = parse_marker(line)
        if found:
            markers[found["host"]] = found["group"]
            assert line.startswith("[%s/%s] " % (found["group"], found["host"]))
    assert markers == {h.name: h.group for h in expected.hosts}
    cpu_hosts = list(expected.groups[0][2])
    assert "cpu hosts %r" % (cpu_hosts,) in out
    assert "shuffled, seed %d" % seed in out


def test_a_job_name_runs_again_in_a_fresh_folder_but_foreign_folders_are_left_alone(session_factory, write_code):
    session = session_factory()
    code = write_code("import os\nopen(os.path.join(os.environ['SM_MODEL_DIR'], 'm'), 'w').write('1')\n")
    estimator_for(session, code, groups=None, job_name="again").fit()
    estimator_for(session, code, groups=None, job_name="again").fit()
    assert os.path.isfile(os.path.join(session.root, "again", "output", "model.tar.gz"))
    os.makedirs(os.path.join(session.root, "mine"))
    from sagemaker_hetero.exceptions import ConfigError

    with pytest.raises(ConfigError, match="is not a local job's folder"):
        estimator_for(session, code, groups=None, job_name="mine").fit()


def test_a_file_output_path_receives_the_archives_as_sagemaker_lays_them_out(session_factory, write_code, tmp_path):
    session = session_factory()
    code = write_code("import os\nopen(os.path.join(os.environ['SM_MODEL_DIR'], 'm.bin'), 'w').write('w')\n")
    estimator = estimator_for(session, code, groups=None, job_name="to-file", output_path="file://%s/out" % tmp_path)
    estimator.fit()
    desc = estimator.latest_training_job.describe()
    assert desc["OutputDataConfig"]["S3OutputPath"] == "file://%s/out" % tmp_path
    assert desc["ModelArtifacts"]["S3ModelArtifacts"] == "file://%s/out/to-file/output/model.tar.gz" % tmp_path
    assert members(str(tmp_path / "out" / "to-file" / "output" / "model.tar.gz")) == {"m.bin": b"w"}
    assert os.path.isfile(str(tmp_path / "out" / "to-file" / "output" / "output.tar.gz"))


def test_sharded_channels_split_files_between_the_groups_hosts(session_factory, write_code, tmp_path):
    folder = tmp_path / "shards"
    folder.mkdir()
    for i in range(5):
        (folder / ("part-%d" % i)).write_text(str(i))
    session = session_factory()
    code = write_code(
        "import os\nprint('files', sorted(os.listdir(os.environ['SM_CHANNEL_TRAIN'])))\n"
    )
    estimator_for(session, code, groups=(("cpu", "ml.c5.xlarge", 2),)).fit(
        {"train": TrainingInput(str(folder), distribution="ShardedByS3Key")}
    )
    out = session.out.getvalue()
    assert "[cpu/algo-1] files ['part-0', 'part-2', 'part-4']" in out
    assert "[cpu/algo-2] files ['part-1', 'part-3']" in out


def test_logs_false_keeps_the_hosts_output_out_of_the_stream_but_in_the_error(session_factory, write_code):
    from sagemaker_hetero.exceptions import LocalJobError

    session = session_factory()
    code = write_code("import sys\nprint('quiet please')\nsys.exit(1)\n")
    with pytest.raises(LocalJobError) as info:
        estimator_for(session, code, groups=None).fit(logs=False)
    assert "quiet please" not in session.out.getvalue()
    assert info.value.last_lines == ["quiet please"]
    assert info.value.allowed_statuses == ("Completed",) and info.value.status == "Failed"


def test_wait_can_show_one_groups_lines_only(session_factory, write_code, tmp_path):
    session = session_factory()
    go = tmp_path / "go"  # the hosts print only once the test is about to wait
    code = write_code(
        "import os, sys, time\ndeadline = time.monotonic() + 60\n"
        "while not os.path.exists(%r):\n"
        "    if time.monotonic() > deadline:\n        sys.exit('never released')\n"
        "    time.sleep(0.01)\nprint('hello from', os.environ['SM_CURRENT_HOST'])\n" % str(go)
    )
    estimator = estimator_for(session, code)
    estimator.fit(wait=False)
    with pytest.raises(ValueError, match="'tpu' not a group of job .* \\(groups: cpu, gpu\\)"):
        estimator.latest_training_job.wait(instance_groups=["tpu"])
    go.write_text("")
    estimator.latest_training_job.wait(instance_groups=["gpu"])
    out = session.out.getvalue()
    assert "[gpu/algo-3] hello from algo-3" in out and "[cpu/" not in out
