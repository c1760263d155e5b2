"""Logs labelled by instance group: the pure labeller, then waiting on a job whose CloudWatch log
streams are written into the moto server (moto writes none itself; see tests/_aws.py, (e)).

DescribeTrainingJob answers are scripted through tests._aws.FaultProxy so the job looks InProgress
for a few polls; the ``sleep`` hook of ``wait`` writes new streams and events between polls.
"""
import gc
import io
import json
import time

import boto3
import pytest

from sagemaker_hetero import Estimator, InstanceGroup, Session
from sagemaker_hetero._aws import log_labels, log_tail
from sagemaker_hetero._aws.log_labels import GROUP, LOG_GROUP, MESSAGE, SEQ, LogLabeller, filter_problems, merge, parse_stream_name
from sagemaker_hetero.exceptions import ConfigError, UnexpectedStatusException
from sagemaker_hetero.training import format_marker

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
FAST = (0.01, 0.02)
GROUPS = ("data_group", "dnn_group")


def texts(lines):
    return [log_labels.text(line) for line in lines]


def training_env(host, group, hosts=("algo-1", "algo-2"), blank=True):
    """The lines a framework container prints at start (indent 4, as the training toolkit does);
    ``blank=False`` leaves out the empty line (CloudWatch has no empty events)."""
    env = {
        "additional_framework_parameters": {},
        "current_host": host,
        "current_instance_group": group,
        "current_instance_group_hosts": [host],
        "hosts": list(hosts),
        # the resource config nests its own host and group keys: they must not be taken
        "resource_config": {"current_host": "algo-9", "current_group_name": "other", "hosts": list(hosts)},
        "is_hetero": True,
    }
    head = ["2024-01-01 00:00:00,000 sagemaker-training-toolkit INFO     Invoking user script", "Training Env:"]
    return head + ([""] if blank else []) + json.dumps(env, indent=4).splitlines()


def events(lines, start=1000, step=1):
    return [(start + i * step, line) for i, line in enumerate(lines)]


# -- the pure part -----------------------------------------------------------------------------


def test_stream_names_are_taken_apart():
    name = parse_stream_name("my-job/algo-12-1700000000")
    assert (name.job, name.host, name.epoch) == ("my-job", "algo-12", 1700000000)
    assert parse_stream_name("my-job/odd").host == "odd"


def test_lines_before_the_marker_are_unknown_and_after_it_labelled():
    labeller = LogLabeller(GROUPS)
    marker = format_marker("algo-2", "dnn_group", "ml.p4d.24xlarge")
    out = labeller.feed("job/algo-2-1", events(["booting", marker, "epoch 1"]))
    assert texts(out) == ["[?/algo-2] booting", "[dnn_group/algo-2] " + marker, "[dnn_group/algo-2] epoch 1"]
    assert labeller.streams == {"job/algo-2-1": "dnn_group"}


def test_the_training_environment_over_several_events_labels_the_stream():
    labeller = LogLabeller(GROUPS)
    env = training_env("algo-1", "data_group")
    out = labeller.feed("job/algo-1-1", events(["pip install ..."] + env + ["Invoking script", "reading shards"]))
    shown = texts(out)
    assert shown[:2] == ["[?/algo-1] pip install ...", "[?/algo-1] " + env[0]]  # before "Training Env:"
    assert all(line.startswith("[data_group/algo-1] ") for line in shown[2:])
    assert shown[2] == "[data_group/algo-1] Training Env:"
    assert len(shown) == 1 + len(env) + 2
    assert labeller.streams["job/algo-1-1"] == "data_group"  # not the nested resource_config's "other"


def test_an_environment_split_across_polls_is_held_until_complete():
    labeller = LogLabeller(GROUPS)
    env = training_env("algo-1", "dnn_group")
    first = labeller.feed("job/algo-1-1", events(env[:8]))
    assert texts(first) == ["[?/algo-1] " + env[0]]  # the block is held, not labelled "?"
    rest = labeller.feed("job/algo-1-1", events(env[8:] + ["step 1"], start=2000))
    assert [line[GROUP] for line in rest] == ["dnn_group"] * len(env)  # the held block, then "step 1"
    assert [line[SEQ] for line in rest] == list(range(1, len(env) + 1))


def test_an_environment_of_another_host_or_an_unknown_group_is_not_believed():
    labeller = LogLabeller(GROUPS)
    other_host = labeller.feed("job/algo-1-1", events(training_env("algo-2", "dnn_group")))
    assert set(line[GROUP] for line in other_host) == {None}
    unknown = labeller.feed("job/algo-3-1", events([format_marker("algo-3", "gpu", "ml.p3.2xlarge")]))
    assert texts(unknown)[0].startswith("[?/algo-3]")


def test_a_header_without_json_is_released_and_a_later_marker_still_counts():
    labeller = LogLabeller(GROUPS)
    out = labeller.feed(
        "job/algo-1-1", events(["Training Env:", "not json", format_marker("algo-1", "data_group", "ml.c5.xlarge")])
    )
    assert [line[GROUP] for line in out] == [None, None, "data_group"]


def test_one_group_or_a_homogeneous_cluster_is_known_up_front():
    one = LogLabeller(["only_group"]).feed("job/algo-4-1", events(["hello"]))
    assert texts(one) == ["[only_group/algo-4] hello"]
    homogeneous = LogLabeller(["homogeneousCluster"]).feed("job/algo-1-1", events(["hi"]))
    assert texts(homogeneous) == ["[homogeneousCluster/algo-1] hi"]


def test_a_multi_line_event_becomes_several_lines():
    out = LogLabeller(["g"]).feed("job/algo-1-1", [(5, "Traceback:\n  File x\nError\n")])
    assert texts(out) == ["[g/algo-1] Traceback:", "[g/algo-1]   File x", "[g/algo-1] Error"]


def test_a_group_filter_holds_unknown_lines_until_the_group_is_known():
    labeller = LogLabeller(GROUPS, only=["dnn_group"])
    assert labeller.feed("job/algo-1-1", events(["boot 1"])) == []
    assert labeller.feed("job/algo-2-1", events(["boot 2"])) == []
    data = labeller.feed("job/algo-1-1", events([format_marker("algo-1", "data_group", "t"), "x"], start=2000))
    assert data == []  # held lines of the other group are dropped with it
    dnn = labeller.feed("job/algo-2-1", events([format_marker("algo-2", "dnn_group", "t")], start=2000))
    assert texts(dnn)[0] == "[dnn_group/algo-2] boot 2"
    assert labeller.feed("job/algo-3-1", events(["never says who"])) == []
    assert texts(labeller.finish()) == ["[?/algo-3] never says who"]  # it might be a dnn host


def test_a_group_filter_holding_many_unknown_lines_shows_the_oldest_beyond_the_limit():
    # 25,000 lines before the marker: the first 15,000 are shown as "?" as the 10,000 held overflow,
    # the last 10,000 come out with the group once it is known; each line once, in order
    labeller = LogLabeller(GROUPS, only=["dnn_group"])
    lines = ["boot %d" % i for i in range(25000)]
    out = []
    for start in range(0, len(lines), 1000):
        out.extend(labeller.feed("job/algo-1-1", events(lines[start:start + 1000], start=start)))
    assert len(out) == 25000 - log_labels.MAX_HELD_LINES
    marker = format_marker("algo-1", "dnn_group", "t")
    out.extend(labeller.feed("job/algo-1-1", events([marker, "epoch 1"], start=25000)))
    assert labeller.finish() == []
    assert texts(out) == (["[?/algo-1] " + line for line in lines[:15000]]
                          + ["[dnn_group/algo-1] " + line for line in lines[15000:] + [marker, "epoch 1"]])
    assert [line[SEQ] for line in out] == list(range(25002))


def test_held_lines_of_a_group_not_shown_are_dropped_with_it():
    labeller = LogLabeller(GROUPS, only=["dnn_group"])
    shown = labeller.feed("job/algo-1-1", events(["boot %d" % i for i in range(12000)]))
    assert texts(shown) == ["[?/algo-1] boot %d" % i for i in range(2000)]
    later = labeller.feed("job/algo-1-1", events([format_marker("algo-1", "data_group", "t"), "x"], start=20000))
    assert later == [] and labeller.finish() == []


def test_a_line_is_a_plain_tuple_the_garbage_collector_stops_tracking():
    # a long read holds a line per log line; a tracked object per line makes every collection
    # walk them all (the read then costs about twice a bare boto3 loop: benchmarks/logs_read.py)
    labeller = LogLabeller(GROUPS)
    out = labeller.feed("job/algo-1-1", events(["boot", format_marker("algo-1", "dnn_group", "t"), "a\nb"]))
    gc.collect()
    assert [type(line) for line in out] == [tuple] * 4
    assert not any(gc.is_tracked(line) for line in out)
    expected = ["[?/algo-1] boot", "[dnn_group/algo-1] " + format_marker("algo-1", "dnn_group", "t"),
                "[dnn_group/algo-1] a", "[dnn_group/algo-1] b"]
    assert texts(out) == expected
    assert log_labels.render(out) == "".join(line + "\n" for line in expected)


def hostile_blocks():
    """``(name, lines after the "Training Env:" header)``: blocks no labeller may choke on."""
    deep = '{"current_host": "algo-1", "current_instance_group": "dnn_group", "x": %s}' % ("[" * 50000 + "]" * 50000)
    env = {"current_host": "algo-1", "current_instance_group": "dnn_group"}
    return [
        ("50,000 [ in one object", [deep]),
        ("50,000 [ left open", ['{"x": ' + "[" * 50000]),
        ("a 10 MB line", ['{"current_host": "algo-1", "pad": "' + "x" * (10 << 20) + '", "current_instance_group": "dnn_group"}']),
        ("a list", ["[1, 2]"]),
        ("an object then more", ['{"current_host": "algo-1"} [1]']),
        ("closed too often", ["{}}}]]"]),
        ("a list for the host", [json.dumps(dict(env, current_host=["algo-1"]))]),
        ("a mapping for the group", [json.dumps(dict(env, current_instance_group={"dnn_group": 1}))]),
        ("a list for the group", [json.dumps(dict(env, current_instance_group=["dnn_group"]))]),
        ("a number for the group", [json.dumps(dict(env, current_instance_group=7))]),
        ("not UTF-16 safe", ['{"current_host": "\\ud800", "current_instance_group": "dnn_group"}']),
    ]


def test_a_hostile_training_env_block_never_raises_and_leaves_its_lines_unlabelled():
    for name, block in hostile_blocks():
        labeller = LogLabeller(GROUPS)
        lines = ["Training Env:"] + block + ["after", format_marker("algo-1", "data_group", "t"), "labelled"]
        out = labeller.feed("job/algo-1-1", events(lines)) + labeller.finish()
        assert [line[MESSAGE] for line in out] == lines, name  # every line shown, none lost
        # unlabelled, and the marker that follows still counts
        assert [line[GROUP] for line in out] == [None] * (len(block) + 2) + ["data_group"] * 2, name


def test_a_deep_but_well_formed_environment_is_not_parsed():
    env = '{"current_host": "algo-1", "current_instance_group": "dnn_group", "x": %s}' % (
        "[" * (log_labels.MAX_ENV_DEPTH + 1) + "]" * (log_labels.MAX_ENV_DEPTH + 1))
    out = LogLabeller(GROUPS).feed("job/algo-1-1", events(["Training Env:", env]))
    assert [line[GROUP] for line in out] == [None, None]  # told apart before json.loads sees it


@pytest.mark.parametrize("filler", ["", '"k": "%s",' % ("v" * 10000)])
def test_a_block_that_never_ends_is_not_held_beyond_its_limits(filler):
    # blank lines after the header, or an object left open: either way the labeller lets the block
    # go once it is longer than a training environment can be, and holds no more of it
    labeller = LogLabeller(GROUPS)
    start = ["Training Env:"] + (["{"] if filler else [])
    count = log_labels.MAX_ENV_LINES + 10 if not filler else 2 * log_labels.MAX_ENV_CHARS // len(filler)
    out = labeller.feed("job/algo-1-1", events(start + [filler] * count))
    assert len(out) == len(start) + count  # all shown (unlabelled) as they come
    assert labeller._streams["job/algo-1-1"].block == [] and labeller.finish() == []


def test_a_group_filter_holds_at_most_its_limit_in_characters():
    labeller = LogLabeller(GROUPS, only=["dnn_group"])
    big = "x" * (log_labels.MAX_HELD_CHARS // 4)
    out = labeller.feed("job/algo-1-1", events([big] * 6))
    assert len(out) == 2  # the oldest, shown as "?" once more than MAX_HELD_CHARS would be held
    assert len(labeller.finish()) == 4


def test_merge_orders_streams_by_time():
    labeller = LogLabeller(["g"])
    a = labeller.feed("job/algo-1-1", [(10, "a1"), (30, "a2")])
    b = labeller.feed("job/algo-2-1", [(20, "b1"), (30, "b2")])
    assert [line[MESSAGE] for line in merge(a + b)] == ["a1", "b1", "a2", "b2"]


def test_a_filter_naming_no_group_of_the_job_is_a_problem():
    problems = filter_problems(["dnn_group", "gpu"], GROUPS, "my-job")
    assert [(p.path, p.value) for p in problems] == [("instance_groups[1]", "gpu")]
    assert "'data_group', 'dnn_group'" in problems[0].message


# -- against the moto server -------------------------------------------------------------------


def estimator(**overrides):
    kwargs = dict(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/my-trainer:latest",
        role=ROLE,
        instance_groups=[InstanceGroup("data_group", "ml.c5.xlarge", 1), InstanceGroup("dnn_group", "ml.p3.2xlarge", 1)],
        output_path="s3://out-bucket/",
    )
    kwargs.update(overrides)
    return Estimator(**kwargs)


class CloudWatch(object):
    """Writes a job's log streams straight into the moto server (bypassing the fault proxy)."""

    def __init__(self, moto_url, job):
        self.client = boto3.client("logs", endpoint_url=moto_url)
        self.job = job
        self.base = int(time.time() * 1000) - 60000  # moto drops events older than 14 days
        try:
            self.client.create_log_group(logGroupName=LOG_GROUP)
        except self.client.exceptions.ResourceAlreadyExistsException:
            pass

    def stream(self, host):
        name = "%s/%s-1700000000" % (self.job, host)
        self.client.create_log_stream(logGroupName=LOG_GROUP, logStreamName=name)
        return name

    def put(self, host, pairs):
        """``pairs``: ``(ms after base, message)``."""
        self.client.put_log_events(
            logGroupName=LOG_GROUP,
            logStreamName="%s/%s-1700000000" % (self.job, host),
            logEvents=[{"timestamp": self.base + t, "message": m} for t, m in pairs],
        )


def describe(status, secondary, message=""):
    return {
        "TrainingJobName": "logs-job",
        "TrainingJobStatus": status,
        "SecondaryStatus": secondary,
        "ResourceConfig": {
            "InstanceGroups": [
                {"InstanceGroupName": "data_group", "InstanceType": "ml.c5.xlarge", "InstanceCount": 1},
                {"InstanceGroupName": "dnn_group", "InstanceType": "ml.p3.2xlarge", "InstanceCount": 1},
            ]
        },
        "SecondaryStatusTransitions": [{"Status": secondary, "StatusMessage": message}],
    }


def script(proxy, *answers):
    for answer in answers:
        proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=answer, times=1)


def test_fit_streams_every_hosts_logs_labelled_in_time_order(aws, capsys):
    cw = CloudWatch(aws.url, "logs-job")
    cw.stream("algo-1")
    cw.stream("algo-2")
    cw.put("algo-1", [(0, "booting")] + [(1 + i, line) for i, line in enumerate(training_env("algo-1", "data_group", blank=False))]
           + [(100, "serving batch 1"), (300, "serving batch 2")])
    cw.put("algo-2", [(50, format_marker("algo-2", "dnn_group", "ml.p3.2xlarge")), (200, "loss 0.5")])
    session = Session()
    session.poll_interval = FAST
    estimator(sagemaker_session=session).fit(job_name="logs-job", logs="All")
    printed = capsys.readouterr().out.splitlines()
    logs = [line for line in printed if "/algo-" in line.split(" ")[0]]
    invoking, env = training_env("algo-1", "data_group", blank=False)[0], training_env("algo-1", "data_group", blank=False)[1:]
    assert logs == ["[?/algo-1] booting", "[?/algo-1] " + invoking] + ["[data_group/algo-1] " + line for line in env] + [
        "[dnn_group/algo-2] " + format_marker("algo-2", "dnn_group", "ml.p3.2xlarge"),
        "[data_group/algo-1] serving batch 1",
        "[dnn_group/algo-2] loss 0.5",
        "[data_group/algo-1] serving batch 2",
    ]
    assert "logs-job: Completed" in printed[-2]  # the final status line comes after the last logs
    assert printed[-1] == "Model artifacts: s3://out-bucket/logs-job/output/model.tar.gz"  # moto's model


def test_waiting_picks_up_late_streams_and_interleaves_status_lines(fault_proxy):
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    training = describe("InProgress", "Training", "Training in progress")
    script(fault_proxy, describe("InProgress", "Starting", "Launching instances"), training, training, training)
    cw.stream("algo-2")
    cw.put("algo-2", [(0, "algo-2 up")])
    steps = iter(
        [
            lambda: (cw.stream("algo-1"), cw.put("algo-1", [(5, format_marker("algo-1", "dnn_group", "ml.p3.2xlarge"))])),
            lambda: (cw.put("algo-2", [(10, format_marker("algo-2", "data_group", "ml.c5.xlarge")), (20, "shard 1")]),
                     cw.put("algo-1", [(15, "epoch 1")])),
            lambda: cw.put("algo-1", [(30, "epoch 2")]),
        ]
    )
    sleeps = []

    def sleep(seconds):
        sleeps.append(seconds)
        step = next(steps, None)
        if step:
            step()

    out = io.StringIO()
    est.latest_training_job.wait(poll=FAST, out=out, sleep=sleep)
    lines = out.getvalue().splitlines()
    assert lines[0].endswith("logs-job: InProgress/Starting - Launching instances")
    assert lines[1] == "[?/algo-2] algo-2 up"
    assert lines[2].endswith("logs-job: InProgress/Training - Training in progress")
    assert lines[3] == "[dnn_group/algo-1] " + format_marker("algo-1", "dnn_group", "ml.p3.2xlarge")  # a late stream
    assert lines[4:8] == [
        "[data_group/algo-2] " + format_marker("algo-2", "data_group", "ml.c5.xlarge"),
        "[dnn_group/algo-1] epoch 1",
        "[data_group/algo-2] shard 1",
        "[dnn_group/algo-1] epoch 2",
    ]
    assert "logs-job: Completed" in lines[8]
    assert lines[9:] == ["Model artifacts: s3://out-bucket/logs-job/output/model.tar.gz"]  # moto's model


def test_throttled_log_reads_are_retried(fault_proxy, monkeypatch):
    # standard retries: adaptive mode's client-side rate limiter would only make the test slow
    monkeypatch.setenv("AWS_RETRY_MODE", "standard")
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    cw.put("algo-1", [(0, "hello")])
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    fault_proxy.add_fault(operation="DescribeLogStreams", kind="throttle", times=1)
    fault_proxy.add_fault(operation="GetLogEvents", kind="throttle", times=1)
    out = io.StringIO()
    est.latest_training_job.wait(poll=FAST, out=out, sleep=lambda s: None)
    assert "[?/algo-1] hello" in out.getvalue().splitlines()
    assert fault_proxy.hits == 2  # both answered on botocore's retry


def test_throttling_that_outlasts_botocores_retries_backs_the_poll_off(fault_proxy, monkeypatch):
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")  # botocore gives up at once; our loop backs off
    monkeypatch.setenv("AWS_RETRY_MODE", "standard")
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    cw.put("algo-1", [(0, "hello")])
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    training = describe("InProgress", "Training")
    script(fault_proxy, training, training, training)
    fault_proxy.add_fault(operation="DescribeLogStreams", kind="throttle", times=2)
    delays = []
    out = io.StringIO()
    est.latest_training_job.wait(poll=(1, 8), out=out, sleep=delays.append)
    assert delays[:3] == [2, 8, 1]  # doubled on each throttled poll, back to the first with new lines
    assert "[?/algo-1] hello" in out.getvalue()


def test_a_group_filter_shows_only_that_group(fault_proxy):
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    for host, group in (("algo-1", "dnn_group"), ("algo-2", "data_group")):
        cw.stream(host)
        cw.put(host, [(0, "start"), (1, format_marker(host, group, "t")), (2, "work of " + host)])
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    out = io.StringIO()
    est.latest_training_job.wait(poll=FAST, out=out, sleep=lambda s: None, instance_groups=["dnn_group"])
    lines = out.getvalue().splitlines()
    assert lines[:3] == [
        "[dnn_group/algo-1] start",
        "[dnn_group/algo-1] " + format_marker("algo-1", "dnn_group", "t"),
        "[dnn_group/algo-1] work of algo-1",
    ]
    assert not any("algo-2" in line for line in lines)
    with pytest.raises(ConfigError) as info:
        est.latest_training_job.wait(poll=FAST, out=out, instance_groups=["gpu_group"])
    assert info.value.problems[0].path == "instance_groups[0]"


def test_logs_none_reads_no_cloudwatch(fault_proxy):
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    for logs in (False, "None", "Rules"):
        est.latest_training_job.wait(logs=logs, poll=FAST, out=io.StringIO())
    assert not [op for op in fault_proxy.operations() if op in ("DescribeLogStreams", "GetLogEvents")]


def test_logs_of_a_finished_job_and_of_a_failed_one(fault_proxy):
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    cw.put("algo-1", [(0, format_marker("algo-1", "data_group", "t")), (1, "done")])
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    out = io.StringIO()
    desc = est.latest_training_job.logs(out=out)
    assert desc["TrainingJobStatus"] == "Completed"
    assert out.getvalue().splitlines()[-1] == "[data_group/algo-1] done"
    failed = dict(describe("Failed", "Failed"), FailureReason="AlgorithmError: boom")
    script(fault_proxy, failed)
    with pytest.raises(UnexpectedStatusException):
        Session().logs_for_job("logs-job", wait=True, out=io.StringIO(), poll=FAST)


def test_no_permission_to_read_logs_prints_a_note_and_the_waiting_goes_on(fault_proxy):
    denied = {"__type": "AccessDeniedException", "message": "not allowed to logs:DescribeLogStreams"}
    fault_proxy.add_fault(operation="DescribeLogStreams", kind="status", status=400, body=denied, times=1)
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    script(fault_proxy, describe("InProgress", "Training"))
    out = io.StringIO()
    assert est.latest_training_job.wait(poll=FAST, out=out, sleep=lambda s: None)["TrainingJobStatus"] == "Completed"
    lines = out.getvalue().splitlines()
    assert lines[1] == "[logs not shown: not allowed to logs:DescribeLogStreams]"
    assert "logs-job: Completed" in lines[2]
    assert fault_proxy.operations().count("DescribeLogStreams") == 1  # not asked again


def put_many(cw, host, pairs):
    """PutLogEvents takes at most 10,000 events a call."""
    for start in range(0, len(pairs), 10000):
        cw.put(host, pairs[start:start + 10000])


class Recorder(io.StringIO):
    """An ``out`` that notes, at each write, how many GetLogEvents requests the server had had."""

    def __init__(self, server):
        io.StringIO.__init__(self)
        self.server = server
        self.reads_at_write = []

    def write(self, text):
        self.reads_at_write.append(len(self.server.calls(operation="GetLogEvents")))
        return io.StringIO.write(self, text)


def test_a_read_without_follow_prints_every_page_of_every_stream_in_time_order(aws, monkeypatch):
    # the cap of a follow's poll must not cut a one-off read: with one page per poll, the old read
    # printed moto's first page (10,000 events) of each stream and nothing more
    monkeypatch.setattr(log_tail, "MAX_PAGES_PER_POLL", 1)
    cw = CloudWatch(aws.url, "logs-job")
    expected = []
    for host, group, first in (("algo-1", "data_group", 0), ("algo-2", "dnn_group", 1)):
        cw.stream(host)
        lines = [format_marker(host, group, "t")] + ["%s line %d" % (host, i) for i in range(1, 12500)]
        put_many(cw, host, [(first + 2 * i, line) for i, line in enumerate(lines)])
        expected.append(["[%s/%s] %s" % (group, host, line) for line in lines])
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    aws.clear_requests()
    out = Recorder(aws)
    est.latest_training_job.logs(out=out)
    interleaved = [line for pair in zip(*expected) for line in pair]  # algo-1 at even times, algo-2 at odd
    assert out.getvalue().splitlines() == interleaved
    reads = aws.calls(operation="GetLogEvents")
    # moto's page is 10,000 events: two pages of each stream, then the page that gives its token back
    assert len(reads) == 6 and sum(1 for r in reads if "nextToken" in r.json) == 4
    assert len(out.reads_at_write) > 1 and out.reads_at_write[0] < len(reads)  # printed while read


def test_a_follow_reads_a_capped_number_of_pages_per_poll_and_the_rest_once_the_job_ended(fault_proxy, monkeypatch):
    monkeypatch.setattr(log_tail, "MAX_PAGES_PER_POLL", 1)
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    lines = [format_marker("algo-1", "data_group", "t")] + ["step %d" % i for i in range(1, 45000)]
    put_many(cw, "algo-1", list(enumerate(lines)))
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    training = describe("InProgress", "Training")
    script(fault_proxy, training, training)
    out = io.StringIO()
    printed = []

    def sleep(seconds):
        printed.append(sum(1 for line in out.getvalue().splitlines() if line.startswith("[data_group/")))

    est.latest_training_job.wait(poll=FAST, out=out, sleep=sleep)
    assert printed[:2] == [10000, 20000]  # one page a poll while the job runs
    assert printed[2:] == [45000]  # the job ended: all the rest (3 pages), then once more after a pause
    logs = [line for line in out.getvalue().splitlines() if "/algo-" in line.split(" ")[0]]
    assert logs == ["[data_group/algo-1] " + line for line in lines]


def test_every_stream_is_read_when_the_streams_take_several_describe_pages(aws):
    cw = CloudWatch(aws.url, "logs-job")
    expected = []
    for n in range(1, 61):  # moto lists 50 streams a DescribeLogStreams page
        host, group = "algo-%d" % n, GROUPS[n % 2]
        cw.stream(host)
        cw.put(host, [(10 * n, format_marker(host, group, "t")), (10 * n + 1, "work of " + host)])
        expected += ["[%s/%s] %s" % (group, host, format_marker(host, group, "t")), "[%s/%s] work of %s" % (group, host, host)]
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    aws.clear_requests()
    out = io.StringIO()
    est.latest_training_job.logs(out=out)
    assert out.getvalue().splitlines() == expected
    listings = aws.calls(operation="DescribeLogStreams")
    assert len(listings) >= 2 and "nextToken" in listings[1].json


def test_a_read_to_the_end_throttled_half_way_goes_on_from_where_it_stopped(fault_proxy, monkeypatch):
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")  # botocore gives up at once; the read is tried again
    monkeypatch.setenv("AWS_RETRY_MODE", "standard")
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    lines = [format_marker("algo-1", "data_group", "t")] + ["step %d" % i for i in range(1, 25000)]
    put_many(cw, "algo-1", list(enumerate(lines)))
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    fault_proxy.add_fault(operation="GetLogEvents", kind="throttle", match=lambda r: "nextToken" in (r.json or {}))
    out, sleeps = io.StringIO(), []
    est.latest_training_job.logs(out=out, poll=1, sleep=sleeps.append)
    assert fault_proxy.hits == 1 and sleeps == [1]  # the second page throttled; tried again after 1 s
    assert out.getvalue().splitlines() == ["[data_group/algo-1] " + line for line in lines]


def test_a_stream_sparse_in_time_is_not_read_far_ahead_of_a_dense_one(aws):
    # algo-1 logs a line a millisecond, algo-2 one every 100 ms: both 30,000 lines (3 pages each)
    cw = CloudWatch(aws.url, "logs-job")
    timed = []
    for n, step in ((1, 1), (2, 100)):
        host = "algo-%d" % n
        cw.stream(host)
        lines = [format_marker(host, "data_group", "t")] + ["%s line %d" % (host, i) for i in range(1, 30000)]
        put_many(cw, host, [(step * i, line) for i, line in enumerate(lines)])
        timed += [(step * i, n, "[data_group/%s] %s" % (host, line)) for i, line in enumerate(lines)]
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    aws.clear_requests()
    out = io.StringIO()
    est.latest_training_job.logs(out=out)
    assert out.getvalue().splitlines() == [line for _, _, line in sorted(timed)]
    hosts = [parse_stream_name(r.json["logStreamName"]).host for r in aws.calls(operation="GetLogEvents")]
    assert hosts.count("algo-1") == hosts.count("algo-2") == 4  # 3 pages, and the token given back
    sparse_third_page = [i for i, host in enumerate(hosts) if host == "algo-2"][2]
    assert sparse_third_page > max(i for i, host in enumerate(hosts) if host == "algo-1")  # it waited


def ever_new_token(proxy, operation, body, token_key, events=()):
    """Every ``operation`` from now on answers ``body`` with a token it never gave before (a rule
    whose ``match`` gives it the next one): an endpoint whose listing never ends."""
    rule = proxy.add_fault(operation=operation, kind="status", status=200, body=None, times=None)
    count = [0]

    def next_page(record):
        count[0] += 1
        rule.body = dict(body, **{token_key: "token-%d" % count[0]})
        return True

    rule.match = next_page
    return rule


def logs_cli(capsys, caplog, *argv):
    from tests.test_cli import run

    with caplog.at_level("WARNING", logger="sagemaker_hetero"):
        code, out, err = run(capsys, "logs", *argv)
    return code, out, [r.getMessage() for r in caplog.records if r.name == "sagemaker_hetero"]


def test_logs_of_a_stream_whose_pages_never_end_stop_at_the_cap_and_say_so(fault_proxy, monkeypatch, capsys, caplog):
    monkeypatch.setattr(log_tail, "MAX_PAGES_TO_END", 7)
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    estimator().fit(wait=False, job_name="logs-job")
    line = {"timestamp": 1000, "message": "again", "ingestionTime": 1000}
    ever_new_token(fault_proxy, "GetLogEvents", {"events": [line], "nextBackwardToken": "b"}, "nextForwardToken")
    code, out, warnings = logs_cli(capsys, caplog, "logs-job")
    # exit 0: what was read is shown, and the cut is said once (on stderr, outside pytest)
    assert code == 0 and out == "[?/algo-1] again\n" * 7
    assert len(warnings) == 1 and warnings[0].startswith(
        "The logs of logs-job are cut: CloudWatch Logs kept giving a next page (GetLogEvents) after 7 pages (7 "
        "events) of 'logs-job/algo-1-1700000000'; the lines read are shown, the rest is not")
    assert len(fault_proxy.calls(operation="GetLogEvents")) == 7  # not read to the end again by the drain


def test_empty_pages_without_end_stop_at_their_own_cap(fault_proxy, monkeypatch, capsys, caplog):
    monkeypatch.setattr(log_tail, "MAX_EMPTY_PAGES", 5)
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    estimator().fit(wait=False, job_name="logs-job")
    ever_new_token(fault_proxy, "GetLogEvents", {"events": [], "nextBackwardToken": "b"}, "nextForwardToken")
    code, _, warnings = logs_cli(capsys, caplog, "logs-job")
    assert code == 0 and len(warnings) == 1 and "after 5 pages (0 events) of 'logs-job/algo-1-1700000000'" in warnings[0]
    assert len(fault_proxy.calls(operation="GetLogEvents")) == 5


def test_a_listing_of_streams_that_never_ends_stops_at_the_cap_and_says_so(fault_proxy, monkeypatch, capsys, caplog):
    monkeypatch.setattr(log_tail, "MAX_LISTING_PAGES", 4)
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    cw.put("algo-1", [(0, "hello")])
    estimator().fit(wait=False, job_name="logs-job")
    stream = {"logStreamName": "logs-job/algo-1-1700000000"}
    ever_new_token(fault_proxy, "DescribeLogStreams", {"logStreams": [stream]}, "nextToken")
    code, out, warnings = logs_cli(capsys, caplog, "logs-job")
    assert code == 0 and out == "[?/algo-1] hello\n"
    assert warnings == ["The log streams of logs-job are listed in part: CloudWatch Logs kept giving a next page "
                        "(DescribeLogStreams) after 4 pages (1 streams); the logs of those streams are shown, any "
                        "streams past them are not."]
    assert len(fault_proxy.calls(operation="DescribeLogStreams")) == 4


def test_a_follow_still_follows_past_the_caps_of_a_read_to_the_end(fault_proxy, monkeypatch):
    # bounded per poll, not overall: a stream longer than a read to the end may read goes on printing
    monkeypatch.setattr(log_tail, "MAX_PAGES_TO_END", 2)
    monkeypatch.setattr(log_tail, "MAX_PAGES_PER_POLL", 1)
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    lines = [format_marker("algo-1", "data_group", "t")] + ["step %d" % i for i in range(1, 25000)]
    put_many(cw, "algo-1", list(enumerate(lines)))
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    training = describe("InProgress", "Training")
    script(fault_proxy, training, training, training)
    out = io.StringIO()
    est.latest_training_job.wait(poll=FAST, out=out, sleep=lambda seconds: None)
    logs = [line for line in out.getvalue().splitlines() if "/algo-" in line.split(" ")[0]]
    assert logs == ["[data_group/algo-1] " + line for line in lines]



def test_streams_and_pages_that_never_end_stop_at_the_cap_of_a_read_in_all(fault_proxy, monkeypatch, capsys, caplog):
    # a new stream on every listing page and a new page of every stream: the read ends within its budget
    monkeypatch.setattr(log_tail, "MAX_PAGES_PER_READ", 9)
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    estimator().fit(wait=False, job_name="logs-job")
    listing = ever_new_token(fault_proxy, "DescribeLogStreams", {"logStreams": []}, "nextToken")
    count = [0]

    def new_stream(record):
        count[0] += 1
        listing.body = {"logStreams": [{"logStreamName": "logs-job/algo-%d-1700000000" % count[0]}],
                        "nextToken": "token-%d" % count[0]}
        return True

    listing.match = new_stream
    line = {"timestamp": 1000, "message": "again", "ingestionTime": 1000}
    ever_new_token(fault_proxy, "GetLogEvents", {"events": [line], "nextBackwardToken": "b"}, "nextForwardToken")
    code, out, warnings = logs_cli(capsys, caplog, "logs-job")
    assert code == 0 and out.count("again\n") == 9
    assert len(fault_proxy.calls(operation="GetLogEvents")) == 9
    assert any(w.startswith("The logs of logs-job are cut") and "9 pages in all" in w for w in warnings)


def test_log_events_and_streams_of_odd_types_are_shown_as_text(fault_proxy, capsys, caplog):
    # a hostile endpoint's events: a number or a structure for a message, no time or a string for one,
    # a stream without a name, a token that is no string; shown, never an unexpected error
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    estimator().fit(wait=False, job_name="logs-job")
    streams = [{"logStreamName": 5}, {"arn": "x"}, {"logStreamName": "other-job/algo-1-1"},
               {"logStreamName": "logs-job/algo-1-1700000000"}]
    fault_proxy.add_fault(operation="DescribeLogStreams", kind="status", status=200, body={"logStreams": streams})
    events = [{"timestamp": None, "message": 5}, {"timestamp": "x", "message": None}, {"message": ["a"]},
              {"timestamp": 1e300, "message": {"k": 1}}, {"timestamp": 3, "message": "\x1b[2Jtext"}]
    fault_proxy.add_fault(operation="GetLogEvents", kind="status", status=200,
                          body={"events": events, "nextForwardToken": 7})
    code, out, _ = logs_cli(capsys, caplog, "logs-job")
    assert code == 0
    assert sorted(out.splitlines()) == sorted(["[?/algo-1] 5", "[?/algo-1] ", '[?/algo-1] ["a"]', "[?/algo-1] \\x1b[2Jtext",
                                               '[?/algo-1] {"k": 1}'])


def test_an_answer_of_another_shape_is_an_aws_error_not_an_unexpected_one(fault_proxy, capsys, caplog):
    # botocore's parser raises a plain AttributeError for a string where a structure is
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    estimator().fit(wait=False, job_name="logs-job")
    fault_proxy.add_fault(operation="GetLogEvents", kind="status", status=200, body={"events": ["a string"]})
    from tests.test_cli import run

    code, out, err = run(capsys, "logs", "logs-job")
    assert code == 3 and "unexpected" not in err
    assert "GetLogEvents failed with ResponseParserError: botocore could not read the answer, its fields are not " \
           "of the shape AWS answers (events[0]: " in err


def test_log_answers_that_cannot_be_read_print_a_note_and_the_waiting_goes_on(fault_proxy):
    cw = CloudWatch(fault_proxy.upstream_url, "logs-job")
    cw.stream("algo-1")
    fault_proxy.add_fault(operation="GetLogEvents", kind="status", status=200, body={"events": ["a string"]})
    est = estimator()
    est.fit(wait=False, job_name="logs-job")
    script(fault_proxy, describe("InProgress", "Training"))
    out = io.StringIO()
    assert est.latest_training_job.wait(poll=FAST, out=out, sleep=lambda s: None)["TrainingJobStatus"] == "Completed"
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("[logs not shown: botocore could not read the answer, its fields are not of the shape")
    assert "logs-job: Completed" in lines[2]
    assert fault_proxy.operations().count("GetLogEvents") == 1  # not asked again
