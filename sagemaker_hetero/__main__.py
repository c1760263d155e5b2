"""``python -m sagemaker_hetero``: the ``sagemaker-hetero`` command line (see docs/cli.md)."""
import sys

from sagemaker_hetero.cli import main

if __name__ == "__main__":
    sys.exit(main())
