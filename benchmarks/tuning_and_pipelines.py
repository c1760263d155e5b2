"""What a tuning job and a pipeline cost: dry-run times and AWS calls, against a local moto server.

Prints, for a two-group PyTorch estimator: the median time of its CreateTrainingJob dry run, of the
tuner's CreateHyperParameterTuningJob dry run and of a one-step pipeline's definition (all pure,
no network), then the AWS calls (every HTTP request botocore sends, retries included) of the first
and of later tuning jobs and pipeline upserts of one session.
usage: python benchmarks/tuning_and_pipelines.py [repeats]
"""
import os
import statistics
import sys
import time

import _moto


def median_ms(function, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    server = _moto.start()

    from sagemaker_hetero import InstanceGroup, PyTorch, Session, TrainingInput
    from sagemaker_hetero.tuner import ContinuousParameter, HyperparameterTuner, IntegerParameter
    from sagemaker_hetero.workflow import ParameterInteger, Pipeline, TrainingStep

    work = _moto.bucket_and_code()
    boto_session, calls = _moto.counting_session()
    session = Session(boto_session=boto_session)
    count = ParameterInteger("GpuCount", default_value=1)

    def estimator(gpu_count=1):
        return PyTorch(entry_point=os.path.join(work, "train.py"), framework_version="2.2.0", py_version="py310",
                       role="arn:aws:iam::123456789012:role/SageMakerRole", output_path="s3://bucket/out",
                       instance_groups=[InstanceGroup("cpu", "ml.c5.18xlarge", 2),
                                        InstanceGroup("gpu", "ml.p4d.24xlarge", gpu_count)],
                       distribution={"torch_distributed": {"enabled": True}, "instance_groups": ["gpu"]},
                       sagemaker_session=session)

    inputs = {"train": TrainingInput("s3://bucket/train", instance_groups=["cpu"]),
              "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["gpu"])}
    est = estimator()
    tuner = HyperparameterTuner(est, "loss", {"lr": ContinuousParameter(0.001, 0.1), "layers": IntegerParameter(2, 8)},
                                metric_definitions=[{"Name": "loss", "Regex": "loss=([0-9.]+)"}], max_jobs=4)
    step = TrainingStep("Train", estimator=estimator(count), inputs=inputs)
    pipeline = Pipeline("bench", parameters=[count], steps=[step])
    print("dry run, median of %d (ms): CreateTrainingJob %.1f, CreateHyperParameterTuningJob %.1f, "
          "pipeline definition %.1f" % (repeats, median_ms(lambda: est.fit(inputs, dry_run=True), repeats),
                                        median_ms(lambda: tuner.fit(inputs, dry_run=True), repeats),
                                        median_ms(pipeline.definition, repeats)))
    for label, action in (("tuning job", lambda i: tuner.fit(inputs, job_name="bench-%d" % i, wait=False)),
                          ("pipeline upsert", lambda i: pipeline.upsert(role_arn="arn:aws:iam::123456789012:role/R"))):
        per = []
        for i in range(3):
            before = len(calls)
            action(i)
            per.append(calls[before:])
        print("%s: first %d calls (%s); then %s" % (label, len(per[0]), ", ".join(per[0]),
                                                    "; ".join("%d (%s)" % (len(p), ", ".join(p)) for p in per[1:])))
    server.stop()


if __name__ == "__main__":
    main()
