"""Submit jobs with large code archives against a local moto server and count the calls and seconds.

For each size (MiB of incompressible bytes in the source), three submissions of a job:
``first``: nothing at the key; its CreateTrainingJob is then refused (as a service limit would refuse
it: raised in botocore's provide-client-params event, so it is refused before it is sent and not
counted). ``resubmit``: the same code under the same name: the archive at the key has the same ETag
(whole, or the multipart ETag of the same parts), so no byte is sent again. ``edited``: after another
job name's create was refused, the code is edited and submitted again: DescribeTrainingJob finds no
job, and the leftover archive is replaced with If-Match. The whole/parts threshold is lowered from
256 MiB to 8 MiB (8 MiB parts) so moto holds little. Seconds include building the archive (gzip).
usage: python benchmarks/code_upload.py [MiB ...]      (default: 4 32 96)
"""
import collections
import os
import sys
import time

import _moto


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [4, 32, 96]
    server = _moto.start()
    import botocore.exceptions

    from sagemaker_hetero import InstanceGroup, PyTorch, Session
    from sagemaker_hetero import exceptions as E

    boto_session, calls = _moto.counting_session()
    # A create that fails once per job name, as a service limit would (moto creates anything).
    refused = set()

    def refuse_first_create(params=None, **kw):
        if params["TrainingJobName"] not in refused:
            refused.add(params["TrainingJobName"])
            raise botocore.exceptions.ClientError(
                {"Error": {"Code": "ResourceLimitExceeded", "Message": "limit"}}, "CreateTrainingJob")

    boto_session.events.register("provide-client-params.sagemaker.CreateTrainingJob", refuse_first_create)
    session = Session(boto_session=boto_session)
    session.multipart_threshold = 8 * 1024 * 1024
    session.multipart_chunksize = 8 * 1024 * 1024
    print("%6s  %-9s %7s  %s" % ("MiB", "submit", "seconds", "calls"))
    for mib in sizes:
        work = _moto.code_folder()
        with open(os.path.join(work, "weights.bin"), "wb") as f:
            f.write(os.urandom(mib * 1024 * 1024))
        est = PyTorch(entry_point="train.py", source_dir=work, framework_version="1.10.0", py_version="py38",
                      role="arn:aws:iam::123456789012:role/SageMakerRole",
                      instance_groups=[InstanceGroup("cpu", "ml.c5.18xlarge", 2),
                                       InstanceGroup("gpu", "ml.p3dn.24xlarge", 1)],
                      sagemaker_session=session)
        for round_, name in (("first", "j%d" % mib), ("resubmit", "j%d" % mib), ("edited", "k%d" % mib)):
            if round_ == "edited":
                refused.discard(name)
                try:
                    est.fit(wait=False, job_name=name, preflight=False)
                except E.AWSError:
                    pass
                with open(os.path.join(work, "train.py"), "a") as f:
                    f.write("# edited\n")
            del calls[:]
            start = time.perf_counter()
            try:
                est.fit(wait=False, job_name=name, preflight=False)  # the upload alone
            except E.AWSError as exc:
                if exc.code != "ResourceLimitExceeded":
                    raise
            elapsed = time.perf_counter() - start
            operations = (c.rsplit(".", 1)[-1] for c in calls)
            counted = collections.Counter(o for o in operations if o not in ("HeadBucket", "CreateBucket", "GetCallerIdentity"))
            print("%6d  %-9s %7.2f  %s" % (mib, round_, elapsed, dict(counted)))
    server.stop()


if __name__ == "__main__":
    main()
