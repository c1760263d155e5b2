"""Time the seed example's dry run against `import boto3`, each in fresh processes.

Target (issue 24): the whole dry run takes at most 0.40 of the time importing boto3 takes (issue 2 set
0.50). Both processes pay the interpreter's start and end: `python -c pass` shows that share.
usage: python benchmarks/dry_run_vs_boto3.py [runs]

Both sides run from bytecode, as installed packages do: pip compiled boto3's, and this script
compiles the package's first (an editable install under PYTHONDONTWRITEBYTECODE=1 never writes
any, which would time the compiler instead of the dry run).
"""
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = os.path.join(HERE, "..", "examples", "seed_dry_run.py")
PACKAGE = os.path.join(HERE, "..", "sagemaker_hetero")


def timed(commands, runs):
    """Median and minimum seconds of each command, the commands taking turns (so a change in the
    machine's load falls on all of them alike)."""
    samples = [[] for _ in commands]
    for _ in range(runs):
        for argv, times in zip(commands, samples):
            start = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
    return [(statistics.median(times), min(times)) for times in samples]


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    env_python = sys.executable
    subprocess.run([env_python, "-m", "compileall", "-q", PACKAGE], check=True, stdout=subprocess.DEVNULL)
    baseline, boto, dry = timed([[env_python, "-c", "pass"], [env_python, "-c", "import boto3"],
                                 [env_python, SEED]], runs)
    print("runs per command:            %d, in turns (median, min in seconds)" % runs)
    print("python -c pass:              %.3f  %.3f" % baseline)
    print("python -c 'import boto3':    %.3f  %.3f" % boto)
    print("seed example dry run:        %.3f  %.3f" % dry)
    print("dry run / import boto3:      %.2f (target <= 0.40)" % (dry[0] / boto[0]))


if __name__ == "__main__":
    main()
