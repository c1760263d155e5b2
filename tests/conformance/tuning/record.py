"""Record what the SageMaker Python SDK v2 asks of AWS for each scenario here (see README.md).

    /work/main/.venv-sdk/bin/python record.py /work/shared/conformance/harness.py [NAME ...]

Runs every scenario (or the NAMEs given) through the shared harness with the real SDK v2 and writes
``NAME.json``: whether it succeeded, its error (type and message), the AWS operations it called in
order, and its CreateHyperParameterTuningJob and CreatePipeline requests, normalised.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from normalize_tuning import normalize_pipeline, normalize_tuning  # noqa: E402

_NORMALISE = {"CreateHyperParameterTuningJob": normalize_tuning, "CreatePipeline": normalize_pipeline}


def record(harness, name):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        subprocess.run([sys.executable, harness, os.path.join(HERE, name + ".py"), "sagemaker", out], check=True)
        with open(out) as f:
            result = json.load(f)
    recorded = {
        "ok": result["ok"],
        "error": {"type": result["error"]["type"], "message": result["error"]["message"]} if result["error"] else None,
        "operations": [c["operation"] for c in result["calls"]],
    }
    for call in result["calls"]:
        if call["operation"] in _NORMALISE:
            recorded[call["operation"]] = _NORMALISE[call["operation"]](call["params"])
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(recorded, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    names = sys.argv[2:] or sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(HERE, "*_*.py"))
                                   if not os.path.basename(p).startswith(("normalize", "record")))
    for scenario in names:
        record(sys.argv[1], scenario)
        print("recorded", scenario)
