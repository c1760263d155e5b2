"""Time the seed example's dry run against `import boto3`, each in fresh processes.

Target (issue 29): the whole dry run takes at most 0.35 of the time importing boto3 takes (issue 2 set
0.50, issue 24 0.40): the median of the per-turn ratios, printed with their spread (min, quartiles, max),
since the machine's load moves both sides. Both processes pay the interpreter's start and end:
`python -c pass` shows that share.
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


TARGET = 0.35


def timed(commands, runs):
    """Seconds of each run of each command, the commands taking turns (so a change in the machine's
    load falls on all of them alike): one list per command, in turn order."""
    samples = [[] for _ in commands]
    for _ in range(runs):
        for argv, times in zip(commands, samples):
            start = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
    return samples


def spread(values):
    """``(min, first quartile, median, third quartile, max)`` of ``values``."""
    ordered = sorted(values)
    quartiles = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else ordered * 3
    return (ordered[0], quartiles[0], statistics.median(ordered), quartiles[2], ordered[-1])


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    env_python = sys.executable
    subprocess.run([env_python, "-m", "compileall", "-q", PACKAGE], check=True, stdout=subprocess.DEVNULL)
    baseline, boto, dry = timed([[env_python, "-c", "pass"], [env_python, "-c", "import boto3"],
                                 [env_python, SEED]], runs)
    print("runs per command: %d, in turns     min     q1  median     q3     max (seconds)" % runs)
    for label, times in (("python -c pass", baseline), ("python -c 'import boto3'", boto),
                         ("seed example dry run", dry)):
        print("%-35s %s" % (label, "  ".join("%.3f" % v for v in spread(times))))
    ratios = spread([d / b for d, b in zip(dry, boto)])  # each turn's dry run over the same turn's import
    print("%-35s %s" % ("dry run / import boto3, per turn", "  ".join("%5.2f" % v for v in ratios)))
    print("median ratio %.2f (target <= %.2f); ratio of the medians %.2f"
          % (ratios[2], TARGET, statistics.median(dry) / statistics.median(boto)))


if __name__ == "__main__":
    main()
