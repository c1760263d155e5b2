"""Python 3.8 can install and import the package: vermin finds nothing newer in any module."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_vermin_finds_nothing_newer_than_python_3_8():
    pytest.importorskip("vermin")
    result = subprocess.run(
        [sys.executable, "-c", "import sys, vermin; sys.exit(vermin.main())", "-t=3.8-", "--no-tips", "--violations", "--eval-annotations",
         "sagemaker_hetero", "examples"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        universal_newlines=True,
    )
    assert result.returncode == 0, result.stdout
