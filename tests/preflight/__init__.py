"""Tests of sagemaker_hetero._preflight (the pure parts without AWS; the checks against the moto server in
tests/test_preflight.py)."""
