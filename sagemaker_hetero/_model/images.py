"""Training image URIs for the PyTorch and TensorFlow deep learning containers.

The facts (versions, Python versions, repositories, registry accounts) ship as package data in
``data/dlc_training_images.json``.
"""
import json
import re

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model.instance_types import processor_for
from sagemaker_hetero._model import outside

__all__ = ["image_facts", "resolve_version", "image_uri", "processor_for", "training_image", "ImageLookupError", "LOOK_UP",
           "image_or_none"]

_FACTS_FILE = "dlc_training_images.json"  # package data, read by the edge (``_model.outside``)
_cache = {}


class ImageLookupError(LookupError):
    """No training image fits; ``message`` says why and what is available."""


def image_facts():
    if "facts" not in _cache:
        _cache["facts"] = json.loads(outside.data_text(_FACTS_FILE))
    return _cache["facts"]


def version_tuple(version):
    parts = []
    for piece in str(version).split("."):
        m = re.match(r"\d+", piece)
        if not m:
            break
        parts.append(int(m.group()))
    return tuple(parts)


def resolve_version(framework, version):
    """The full version an alias stands for (``"2.9"`` -> ``"2.9.2"``); raises ImageLookupError."""
    facts = image_facts()[framework]
    version = str(version)
    full = facts["version_aliases"].get(version, version)
    if full not in facts["versions"]:
        known = sorted(facts["versions"], key=version_tuple)
        line = facts["version_aliases"].get(".".join(version.split(".")[:2]))
        hint = ("; the %s line's image is %s now: framework_version=%r" % (".".join(version.split(".")[:2]), line, line)
                if line and line != version else "")
        raise ImageLookupError(
            "no %s training image for framework_version %s%s (available: %s, or the aliases %s)"
            % (framework, version, hint, ", ".join(known),
               ", ".join(sorted(facts["version_aliases"], key=version_tuple)))
        )
    return full


def py_versions(framework, version):
    facts = image_facts()[framework]
    return list(facts["versions"][resolve_version(framework, version)]["py_versions"])


def image_uri(framework, version, py_version, processor, region):
    """The image URI; the tag keeps ``version`` as written (an alias stays an alias). For the region
    placeholder (``<region>``) the registry's account is a placeholder too."""
    facts = image_facts()[framework]
    entry = facts["versions"][resolve_version(framework, version)]
    if py_version not in entry["py_versions"]:
        raise ImageLookupError(
            "no %s %s training image for py_version %s (available: %s)"
            % (framework, version, py_version, ", ".join(entry["py_versions"]))
        )
    if processor not in entry["processors"]:
        raise ImageLookupError("no %s %s training image for %s instances" % (framework, version, processor))
    registries = facts["registry_maps"][entry["registries"]]
    account = registries.get(region) if isinstance(region, str) else None
    if region == D.REGION_PLACEHOLDER:  # a dry run without a region: the registry's account goes with it
        account = D.REGISTRY_PLACEHOLDER
    if account is None:
        raise ImageLookupError("no %s %s training image in region %s" % (framework, version, region))
    domain = "amazonaws.com.cn" if region.startswith("cn-") else "amazonaws.com"
    return "%s.dkr.ecr.%s.%s/%s:%s-%s-%s" % (account, region, domain, entry["repository"], version, processor, py_version)


def training_image(job, region):
    """The image a job runs: its ``image_uri``, else its framework's training image for the types of
    its groups (one image serves every group: ``gpu`` if any group has GPUs) in ``region``.

    Raises :class:`ImageLookupError` if there is none."""
    if job.image_uri is not None:
        return job.image_uri
    if job.framework is None:
        raise ImageLookupError("the generic Estimator needs an image_uri")
    return image_uri(job.framework, job.framework_version, job.py_version, processor_for(job.instance_types), region)


#: an image not resolved yet (a render's ``Context.image``, a default job name's ``image``): looked up where needed
LOOK_UP = object()


def image_or_none(job, region):
    """:func:`training_image`, or None when there is none (the checks tell why: ``_checks.rules``)."""
    try:
        return training_image(job, region)
    except ImageLookupError:
        return None
