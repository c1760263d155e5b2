"""What refusing hostile spec files costs: ``sagemaker-hetero validate`` on each, as a subprocess.

The cases: YAML alias bombs ("billion laughs": nine levels of nine aliases, 9**9 strings once
expanded) in ``hyperparameters`` and in ``tags``, deep nesting in YAML and JSON, and the largest
alias-free YAML and JSON the limits let through (10,000 values) and one value more. For each: the
file's size, the exit code (2: refused with a problem; 124: killed at the timeout), the wall time and
the peak memory of the process.

``--code DIR`` runs another checkout's package (``PYTHONPATH=DIR``), e.g. the main branch before the
limits, to compare; ``--timeout S`` (default 60) kills a run that takes longer.
usage: python benchmarks/hostile_specs.py [--code DIR] [--timeout S]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

HEAD = """framework: pytorch
role: arn:aws:iam::123456789012:role/SageMakerRole
entry_point: train.py
framework_version: "2.2.0"
py_version: py310
instance_type: ml.c5.xlarge
instance_count: 1
job_name: hostile
"""
HEAD_JSON = {"framework": "pytorch", "role": "arn:aws:iam::123456789012:role/SageMakerRole",
             "entry_point": "train.py", "framework_version": "2.2.0", "py_version": "py310",
             "instance_type": "ml.c5.xlarge", "instance_count": 1, "job_name": "hostile"}


def bomb(key):
    levels = ["&a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        levels.append("&%s [%s]" % (name, ", ".join(["*" + prev] * 9)))
    if key == "tags":
        return HEAD + "tags: [%s]\n" % ", ".join(levels)
    return HEAD + "%s:\n%s" % (key, "".join("  %s: %s\n" % (n, level) for n, level in zip("abcdefghi", levels)))


def cases():
    head_values = 2 * len(HEAD_JSON) + 1  # the spec's mapping, each key and its scalar
    # hyperparameters: its key, its mapping, the key "k", its list and the list's items
    fits = 10000 - head_values - 4
    yield "YAML alias bomb in hyperparameters", "bomb.yaml", bomb("hyperparameters")
    yield "YAML alias bomb in tags", "bomb.yaml", bomb("tags")
    yield "YAML nested 5,000 deep", "deep.yaml", HEAD + "hyperparameters: {a: %s}\n" % ("[" * 5000 + "]" * 5000)
    yield "JSON nested 100,000 deep", "deep.json", json.dumps(HEAD_JSON)[:-1] + ', "hyperparameters": {"a": %s}}' % (
        "[" * 100000 + "]" * 100000)
    for kind in ("yaml", "json"):
        for items, what in ((fits, "10,000 values (the most)"), (fits + 1, "10,001 values")):
            spec = dict(HEAD_JSON, hyperparameters={"k": [0] * items})
            yield "%s, %s" % (kind.upper(), what), "spec." + kind, json.dumps(spec)  # JSON is YAML too


def run(argv, env, timeout, folder):
    started = time.monotonic()  # in the spec's folder: `-m` puts the working directory first on sys.path
    process = subprocess.Popen(argv, env=env, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    try:
        _, status, usage = os.wait4(process.pid, 0)
    finally:
        timer.cancel()
    seconds = time.monotonic() - started
    process.returncode = 0  # reaped above; keep Popen from waiting again
    error = process.stderr.read().decode("utf-8", "replace")
    process.stderr.close()
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 124
    return code, seconds, usage.ru_maxrss / 1024.0, error


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", help="the checkout whose sagemaker_hetero to run (default: the installed one)")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    env = dict(os.environ, AWS_REGION="us-west-2")
    if args.code:
        env["PYTHONPATH"] = os.path.abspath(args.code)
    print("%-36s %9s %5s %9s %10s  %s" % ("case", "bytes", "exit", "seconds", "peak MB", "first problem"))
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "train.py"), "w") as f:
            f.write("print('train')\n")
        for name, filename, text in cases():
            path = os.path.join(folder, filename)
            with open(path, "w") as f:
                f.write(text)
            code, seconds, peak, error = run([sys.executable, "-m", "sagemaker_hetero", "validate", path], env,
                                             args.timeout, folder)
            lines = [line.strip() for line in error.splitlines() if line.strip().startswith("- ")]
            print("%-36s %9d %5d %9.2f %10.1f  %s" % (name, len(text.encode()), code, seconds, peak,
                                                      lines[0][2:90] if lines else error.strip()[-90:]))


if __name__ == "__main__":
    main()
