"""SageMaker training instance types.

A snapshot of botocore's ``TrainingInstanceType`` enum ships as package data, so checking a type
costs no botocore import. A type missing from the snapshot is looked up in the installed
botocore's service model before it is refused, so a newer botocore never makes us refuse a type
the service accepts.
"""
import difflib
import json
import os

__all__ = ["is_training_type", "close_types"]

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "training_instance_types.json")
_cache = {}


def _snapshot():
    if "snapshot" not in _cache:
        with open(_DATA) as f:
            _cache["snapshot"] = frozenset(json.load(f)["instance_types"])
    return _cache["snapshot"]


def _from_botocore():
    if "botocore" not in _cache:
        try:
            import botocore.session

            model = botocore.session.get_session().get_service_model("sagemaker")
            _cache["botocore"] = frozenset(model.shape_for("TrainingInstanceType").enum)
        except Exception:  # noqa: BLE001 - no botocore or another model layout: keep the snapshot
            _cache["botocore"] = frozenset()
    return _cache["botocore"]


def known_types():
    return _snapshot() | _cache.get("botocore", frozenset())


def is_training_type(instance_type):
    if instance_type in _snapshot():
        return True
    return instance_type in _from_botocore()


def close_types(instance_type, n=3):
    """Known types closest to ``instance_type``, best first."""
    return difflib.get_close_matches(str(instance_type), sorted(known_types()), n=n, cutoff=0.6)
