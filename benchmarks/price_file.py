"""What reading a price file costs (``--prices FILE``, ``prices=``, ``SAGEMAKER_HETERO_PRICES``: docs/cost.md).

The cases: a JSON price file of about 1 MiB (the most a price file may be) holding some 62,000
prices, one line each; a CSV file of about 1 MiB of valid rows; a bad CSV file of about 800 KB whose
every row is a problem; and a CSV file of 400,000 one-character rows (more rows than a file may hold).
For each: the seconds ``_cost.table.load`` takes to read it (in a fresh process, the import apart),
next to a floor (``json.load`` or ``csv.reader`` of the same file, no checks), then the exit code,
seconds and bytes of error text of ``sagemaker-hetero cost examples/spec.yaml --prices FILE --offline``
as a subprocess.

``--code DIR`` runs another checkout's package (``PYTHONPATH=DIR``), e.g. the main branch, to compare;
``--timeout S`` (default 120) kills a run that takes longer.
usage: python benchmarks/price_file.py [--code DIR] [--timeout S]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "examples", "spec.yaml")
MIB = 1 << 20

# Reads the file with the package, then with the floor; prints "<load seconds> <floor seconds> <outcome>".
_TIMED = """
import csv, json, sys, time
from sagemaker_hetero._cost import table
from sagemaker_hetero.exceptions import ConfigError
path = sys.argv[1]
started = time.perf_counter()
try:
    outcome = "%d prices" % len(table.load(path))
except ConfigError as error:
    outcome = "refused, %d problems listed" % len(error.problems)
loaded = time.perf_counter() - started
started = time.perf_counter()
with open(path, encoding="utf-8") as f:
    json.load(f) if path.endswith(".json") else list(csv.reader(f))
print(loaded, time.perf_counter() - started, outcome)
"""


def json_file(limit=MIB - 64):
    """``{"ml.a<n>.b":1, ...}``, one price a line, as many as fit in ``limit`` bytes (some 62,000)."""
    lines, size, n = [], 2, 0
    while True:
        line = '"ml.a%d.b":%d' % (n, n % 9 + 1)
        if size + len(line) + 2 > limit:
            break
        lines.append(line)
        size += len(line) + 2
        n += 1
    return "{\n%s\n}\n" % ",\n".join(lines), n


def csv_file(limit=MIB - 64):
    rows, size, n = ["instance_type,usd_per_hour,region"], 34, 0
    while size + 40 < limit:
        rows.append("ml.f%d.xlarge,%s,us-west-2" % (n, "0.%03d" % (n % 1000 + 1)))
        size += len(rows[-1]) + 1
        n += 1
    return "\n".join(rows) + "\n", n


def bad_csv(limit=800 * 1000):
    """Every row a problem: a price that is no number."""
    rows = ["instance_type,usd_per_hour"] + ["ml.c5.xlarge,x"] * ((limit - 27) // 15)
    return "\n".join(rows) + "\n", len(rows) - 1


def cases():
    text, n = json_file()
    yield "JSON, %s prices" % format(n, ","), "prices.json", text
    text, n = csv_file()
    yield "CSV, %s prices" % format(n, ","), "prices.csv", text
    text, n = bad_csv()
    yield "bad CSV, %s bad rows" % format(n, ","), "bad.csv", text
    yield "CSV, 400,000 rows of 'x'", "rows.csv", "instance_type,usd_per_hour\n" + "x\n" * 400000


def run(argv, env, timeout, folder):
    started = time.monotonic()  # in a folder of its own: `-c` and `-m` put the working directory first on sys.path
    try:
        result = subprocess.run(argv, env=env, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, time.monotonic() - started, b"", b""
    return result.returncode, time.monotonic() - started, result.stdout, result.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", help="the checkout whose sagemaker_hetero to run (default: the installed one)")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    env = dict(os.environ, AWS_REGION="us-west-2", XDG_CACHE_HOME=tempfile.mkdtemp())
    if args.code:
        env["PYTHONPATH"] = os.path.abspath(args.code)
    print("%-28s %9s %9s %9s  %-30s %5s %9s %12s" % (
        "case", "bytes", "load s", "floor s", "load's outcome", "exit", "cost s", "stderr bytes"))
    with tempfile.TemporaryDirectory() as folder:
        for name, filename, text in cases():
            path = os.path.join(folder, filename)
            with open(path, "w") as f:
                f.write(text)
            code, _, out, err = run([sys.executable, "-c", _TIMED, path], env, args.timeout, folder)
            loaded, floor, outcome = out.decode().split(" ", 2) if code == 0 else ("nan", "nan", err.decode()[-30:])
            code, seconds, _, err = run([sys.executable, "-m", "sagemaker_hetero", "cost", SPEC, "--prices", path,
                                         "--offline"], env, args.timeout, folder)
            print("%-28s %9d %9.3f %9.3f  %-30s %5d %9.2f %12d" % (
                name, len(text.encode()), float(loaded), float(floor), outcome.strip()[:30], code, seconds, len(err)))


if __name__ == "__main__":
    main()
