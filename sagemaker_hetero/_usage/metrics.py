"""The five utilization metrics SageMaker publishes per host, as this package names and shows them."""

__all__ = ["METRICS", "METRIC_NAMES", "LABELS"]

#: ``(key, CloudWatch metric name, label)`` of the five figures, in the order they are shown.
METRICS = (
    ("cpu", "CPUUtilization", "CPU"),
    ("memory", "MemoryUtilization", "memory"),
    ("disk", "DiskUtilization", "disk"),
    ("gpu", "GPUUtilization", "GPU"),
    ("gpu_memory", "GPUMemoryUtilization", "GPU memory"),
)
METRIC_NAMES = dict((key, name) for key, name, _ in METRICS)
LABELS = dict((key, label) for key, _, label in METRICS)
