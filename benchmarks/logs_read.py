"""Reading a job's CloudWatch logs (``TrainingJob.logs()``, no follow) against its floor, in one run.

A moto server runs in this process (``ThreadedMotoServer``, so its time is in both figures). Times are
CPU seconds of the process, best of a few runs (steadier than wall time on a shared machine). Printed,
each next to its floor measured here:

1. every line of a 210,000-line stream is printed (floor: the lines written);
2. 32 hosts x 10,000 lines (a marker line first, so every stream's group is known): ``logs()`` into
   ``os.devnull`` against a bare boto3 loop (DescribeLogStreams pages, then GetLogEvents pages from
   the head of every stream until the token repeats; no labelling, nothing printed), and the ratio;
3. one host's 80,000 lines that never say which group the host is in, read with a group filter
   (held back, then shown as ``?``) against the same read without the filter;
4. in memory, without moto: labelling, merging and rendering item 2's events against a bare loop
   over the same events (split into lines, each given a fixed label, sorted by time, joined).

Targets (issue 12): 1 prints all; 2 at most 1.3x; 3 close to 1x.
usage: python benchmarks/logs_read.py [runs] [cut|wide|quiet ...]   (best of ``runs``, default 3; all figures)
"""
import io
import logging
import os
import sys
import time

import _moto

from sagemaker_hetero._aws.log_labels import LOG_GROUP
ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
GROUPS = ("data_group", "dnn_group")
HOSTS, LINES = 32, 10000
UNMARKED_LINES = 80000
LONG_STREAM_LINES = 210000
PUT_BATCH = 10000  # PutLogEvents takes at most 10,000 events


def create_job(sm, name):
    sm.create_training_job(
        TrainingJobName=name,
        RoleArn=ROLE,
        AlgorithmSpecification={"TrainingImage": "123456789012.dkr.ecr.us-west-2.amazonaws.com/t:1",
                                "TrainingInputMode": "File"},
        OutputDataConfig={"S3OutputPath": "s3://out-bucket/"},
        ResourceConfig={"InstanceGroups": [{"InstanceGroupName": g, "InstanceType": "ml.c5.xlarge",
                                            "InstanceCount": HOSTS // 2} for g in GROUPS],
                        "VolumeSizeInGB": 30},
        StoppingCondition={"MaxRuntimeInSeconds": 3600},
    )


def write_stream(logs, name, messages, base, step):
    logs.create_log_stream(logGroupName=LOG_GROUP, logStreamName=name)
    for start in range(0, len(messages), PUT_BATCH):
        batch = messages[start:start + PUT_BATCH]
        logs.put_log_events(logGroupName=LOG_GROUP, logStreamName=name, logEvents=[
            {"timestamp": base + (start + i) * step, "message": m} for i, m in enumerate(batch)])


def host_lines(host, group, count):
    from sagemaker_hetero.training import format_marker

    lines = [format_marker(host, group, "ml.c5.xlarge")]
    lines += ["step %d/%d loss=%.4f lr=3.0e-04 throughput=1234.5 samples/s on %s" % (i, count, 1.0 / (i + 1), host)
              for i in range(1, count)]
    return lines


def bare_read(logs, prefix):
    """The floor: every page of every stream, nothing done with the events but counting them."""
    names, params = [], {"logGroupName": LOG_GROUP, "logStreamNamePrefix": prefix}
    while True:
        response = logs.describe_log_streams(**params)
        names.extend(s["logStreamName"] for s in response["logStreams"])
        if not response.get("nextToken"):
            break
        params["nextToken"] = response["nextToken"]
    count = 0
    for name in names:
        params = {"logGroupName": LOG_GROUP, "logStreamName": name, "startFromHead": True}
        while True:
            response = logs.get_log_events(**params)
            count += len(response["events"])
            token = response["nextForwardToken"]
            if token == params.get("nextToken"):
                break
            params["nextToken"] = token
    return count


def ours(session, job, instance_groups=None):
    from sagemaker_hetero._aws.training_job import TrainingJob

    with open(os.devnull, "w") as sink:
        TrainingJob(session, job).logs(out=sink, instance_groups=instance_groups, sleep=lambda s: None)


def printed_lines(session, job):
    from sagemaker_hetero._aws.training_job import TrainingJob

    out = io.StringIO()
    TrainingJob(session, job).logs(out=out, sleep=lambda s: None)
    return out.getvalue().count("\n")


def best(runs, fn, *args):
    """The least CPU seconds of this process (the moto server's thread included) of ``runs`` calls:
    steadier than wall time on a machine other work shares."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn(*args)
        times.append(time.process_time() - start)
    return min(times)


def in_memory(streams, runs):
    """(ours, floor) seconds for the labeller, merge and text against a bare loop, no AWS."""
    from sagemaker_hetero._aws.log_labels import LogLabeller, merge, render

    def labelled():
        labeller = LogLabeller(GROUPS)
        lines = []
        for name, events in streams:
            lines.extend(labeller.feed(name, events))
        return render(merge(lines + labeller.finish()))

    def bare():
        lines = []
        for name, events in streams:
            label = "[%s/%s]" % (GROUPS[0], name.rsplit("/", 1)[1].rsplit("-", 1)[0])
            for seq, (timestamp, message) in enumerate(events):
                for part in message.split("\n"):
                    lines.append((timestamp, name, seq, label, part))
        lines.sort()
        return "".join(["%s %s\n" % (line[3], line[4]) for line in lines])

    assert labelled().count("\n") == bare().count("\n")
    return best(runs, labelled), best(runs, bare)


def cut(sm, logs, session, base, runs):
    create_job(sm, "long-job")
    write_stream(logs, "long-job/algo-1-1700000000", host_lines("algo-1", "data_group", LONG_STREAM_LINES), base, 1)
    print("1. lines printed of a %d-line stream: %d (floor: %d written)"
          % (LONG_STREAM_LINES, printed_lines(session, "long-job"), LONG_STREAM_LINES))


def wide(sm, logs, session, base, runs):
    create_job(sm, "wide-job")
    streams = []
    for h in range(1, HOSTS + 1):
        name = "wide-job/algo-%d-1700000000" % h
        lines = host_lines("algo-%d" % h, GROUPS[h % 2], LINES)
        write_stream(logs, name, lines, base + h, HOSTS)
        streams.append((name, [(base + h + i * HOSTS, m) for i, m in enumerate(lines)]))
    assert bare_read(logs, "wide-job/") == HOSTS * LINES
    ours(session, "wide-job")  # warm-up: clients made, code imported
    mine, floor = best(runs, ours, session, "wide-job"), best(runs, bare_read, logs, "wide-job/")
    print("2. %d hosts x %d lines: logs() %.2f s, bare boto3 loop %.2f s (floor): %.2fx"
          % (HOSTS, LINES, mine, floor, mine / floor))
    mine, floor = in_memory(streams, runs)
    print("4. in memory, %d x %d lines: labeller+merge+text %.2f s, bare loop %.2f s (floor): %.2fx"
          % (HOSTS, LINES, mine, floor, mine / floor))


def quiet(sm, logs, session, base, runs):
    create_job(sm, "quiet-job")
    write_stream(logs, "quiet-job/algo-1-1700000000",
                 ["line %d of a host that never says its group" % i for i in range(UNMARKED_LINES)], base, 1)
    filtered = best(runs, ours, session, "quiet-job", ["dnn_group"])
    unfiltered = best(runs, ours, session, "quiet-job")
    print("3. %d unmarked lines: with a group filter %.2f s, without %.2f s (floor): %.2fx"
          % (UNMARKED_LINES, filtered, unfiltered, filtered / unfiltered))


FIGURES = {"cut": cut, "wide": wide, "quiet": quiet}


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    figures = sys.argv[2:] or list(FIGURES)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    server = _moto.start()
    import boto3

    from sagemaker_hetero import Session

    sm, logs = boto3.client("sagemaker"), boto3.client("logs")
    logs.create_log_group(logGroupName=LOG_GROUP)
    base = int(time.time() * 1000) - 3600 * 1000  # moto drops events older than 14 days
    session = Session()
    for figure in figures:
        FIGURES[figure](sm, logs, session, base, runs)
    server.stop()


if __name__ == "__main__":
    main()
