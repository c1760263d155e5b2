"""Record what the SageMaker Python SDK v3 asks of AWS for each ModelTrainer scenario here (README.md).

    .venv-v3/bin/python tests/conformance/v3/record.py /work/shared/conformance/harness.py [NAME ...]

Runs every scenario (or the NAMEs given) through the shared harness (an in-process moto server, every
botocore call recorded) with the real SDK v3, installed in its own virtualenv (``.venv-v3``: ``pip
install 'sagemaker>=3,<4' 'moto[server]'``), and writes ``NAME.json``: whether it succeeded, its
error (type and message), the AWS operations it called in order, the SDK's version and its
CreateTrainingJob request, normalised by ``normalize_v3.py``. Never edit a recording to fit the code:
record again.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from normalize_v3 import normalize  # noqa: E402


def _version():
    from importlib import metadata

    return dict((name, metadata.version(name)) for name in ("sagemaker", "sagemaker-train", "sagemaker-core"))


def record(harness, name):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        env = dict(os.environ, SAGEMAKER_VALIDATE_ROLE="false")
        subprocess.run([sys.executable, harness, os.path.join(HERE, name + ".py"), "sagemaker", out], check=True,
                       env=env)
        with open(out) as f:
            result = json.load(f)
    recorded = {
        "ok": result["ok"],
        "error": {"type": result["error"]["type"], "message": result["error"]["message"]} if result["error"] else None,
        "operations": [c["operation"] for c in result["calls"]],
        "sdk": _version(),
        "CreateTrainingJob": normalize(result["request"]) if result["request"] else None,
    }
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(recorded, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    names = sys.argv[2:] or sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(HERE, "*_*.py"))
                                   if not os.path.basename(p).startswith(("normalize", "record")))
    for scenario in names:
        record(sys.argv[1], scenario)
        print("recorded", scenario)
