"""The jobs whose utilization the tests compute by hand: their descriptions (answered through the proxy:
moto's hold no start and end times nor billable seconds), their metrics (put into the moto server as
SageMaker would publish them: CPU summed over vCPUs, GPU over GPUs) and their log streams (a marker line
each, naming the host's group: SageMaker assigns the algo-N names at random)."""
import datetime
import time

import boto3

from sagemaker_hetero._aws.log_labels import LOG_GROUP
from sagemaker_hetero._usage.queries import NAMESPACE
from sagemaker_hetero.training import format_marker

START = 1700000040  # a whole minute
NAMES = {"cpu": "CPUUtilization", "memory": "MemoryUtilization", "disk": "DiskUtilization", "gpu": "GPUUtilization",
         "gpu_memory": "GPUMemoryUtilization"}


def described(name, groups, billable=3600, status="Completed", minutes=3):
    """A DescribeTrainingJob answer of a job of ``groups`` (``[(name, type, count)]``)."""
    return {"TrainingJobName": name, "TrainingJobArn": "arn:aws:sagemaker:us-west-2:123456789012:training-job/" + name,
            "TrainingJobStatus": status, "SecondaryStatus": status, "CreationTime": START - 300,
            "TrainingStartTime": START, "TrainingEndTime": START + 60 * minutes,
            "ResourceConfig": {"InstanceGroups": [{"InstanceGroupName": g, "InstanceType": t, "InstanceCount": c}
                                                  for g, t, c in groups], "VolumeSizeInGB": 30},
            "TrainingTimeInSeconds": billable, "BillableTimeInSeconds": billable,
            "StoppingCondition": {"MaxRuntimeInSeconds": 7200}}


def answer_describe(proxy, desc):
    proxy.add_fault(operation="DescribeTrainingJob", kind="status", status=200, body=desc, times=None)


def put_metrics(job, host, series):
    """``series``: ``{metric key: [raw value per minute from START]}``."""
    client = boto3.client("cloudwatch")
    data = []
    for key, values in series.items():
        for i, value in enumerate(values):
            data.append({"MetricName": NAMES[key], "Dimensions": [{"Name": "Host", "Value": "%s/%s" % (job, host)}],
                         "Timestamp": datetime.datetime.fromtimestamp(START + 60 * i, datetime.timezone.utc),
                         "Value": float(value), "Unit": "Percent"})
    for i in range(0, len(data), 20):
        client.put_metric_data(Namespace=NAMESPACE, MetricData=data[i:i + 20])


def put_logs(job, hosts):
    """A log stream per host (``{host: group or None}``): a marker line naming its group (None: no marker)."""
    logs = boto3.client("logs")
    try:
        logs.create_log_group(logGroupName=LOG_GROUP)
    except logs.exceptions.ResourceAlreadyExistsException:
        pass
    for host, group in hosts.items():
        stream = "%s/%s-%d" % (job, host, START)
        logs.create_log_stream(logGroupName=LOG_GROUP, logStreamName=stream)
        lines = ["booting"] + ([format_marker(host, group, "ml.x")] if group else []) + ["epoch 1"]
        now = int(time.time() * 1000)  # CloudWatch Logs (and moto) refuse events older than 14 days
        logs.put_log_events(logGroupName=LOG_GROUP, logStreamName=stream, logEvents=[
            {"timestamp": now + i, "message": line} for i, line in enumerate(lines)])
