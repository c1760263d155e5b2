"""The quota-name file: SageMaker's quota name -> quota code map of one region, kept a day on disk.

Building the map takes one ListServiceQuotas call per page (a few dozen); the codes do not change,
so the map is kept on our on-disk cache (``_cost.cache.Shelf``: ``$XDG_CACHE_HOME/sagemaker-hetero``,
else ``~/.cache/sagemaker-hetero``) as ``quota-codes-<region>.json`` for :data:`LIFETIME` seconds.
The shelf keeps it private and never reads or writes through a link; anything wrong with the folder
or the file only means the map is built again: the preflight never fails for its cache.
"""
import os

from sagemaker_hetero._cost.cache import Shelf, cache_root
from sagemaker_hetero._cost.prices import is_region
from sagemaker_hetero._defaults import QUOTA_CODES_CACHE_SECONDS

__all__ = ["LIFETIME", "MAX_BYTES", "path", "read", "write"]

#: How long a map is used, in seconds.
LIFETIME = QUOTA_CODES_CACHE_SECONDS
#: A larger file is not read (the map of every SageMaker quota is about 100 KB).
MAX_BYTES = 4 * 1024 * 1024


def _name(region):
    return "quota-codes-%s.json" % region if is_region(region) else None


def path(region, environ=None):
    """The file of ``region``'s map, or None for a name that is no region (it names a file)."""
    name = _name(region)
    return os.path.join(cache_root(environ), name) if name is not None else None


def read(region, now, environ=None):
    """``{quota name: code}`` of ``region`` written less than :data:`LIFETIME` seconds before ``now``
    (seconds since the epoch), or None."""
    name = _name(region)
    found = Shelf(LIFETIME, MAX_BYTES, cache_root(environ)).get((name,), now) if name is not None else None
    if found is None or found.get("region") != region:
        return None
    codes = found.get("codes")
    if not isinstance(codes, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in codes.items()):
        return None
    return codes


def write(region, codes, now, environ=None):
    """Keep ``codes`` as ``region``'s map, written at ``now``; False if it could not be written."""
    name = _name(region)
    return name is not None and Shelf(LIFETIME, MAX_BYTES, cache_root(environ)).put(
        (name,), {"region": region, "codes": codes}, now)
