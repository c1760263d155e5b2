"""SageMaker instance types: THE one parser of ``ml.<family><generation><capabilities>.<size>`` and the
facts the package keeps of a type (GPU, Neuron cores, NVMe storage, the smdistributed libraries).

``ml.p4de.24xlarge`` reads as family ``p``, generation 4, capabilities ``de``, size ``24xlarge``; its
stem is ``p4de`` (what sits between ``ml.`` and the size) and its series ``p4`` (family and generation:
the types a capacity failure offers instead). :func:`parse` gives all of it as an :class:`InstanceType`.
The predicates take any value (a pipeline variable, None, a malformed string) and answer False or None
for what is not a type, each as the SageMaker Python SDK v2 reads types where it has a rule.

Standard library only, no I/O: the in-job toolkit (``training/``) imports it too, so the smallest copy
of the package for an image holds it (docs/runtime.md). No other module of the package reads an
instance type's name (tests/test_instance_types.py greps for it).
"""
import collections
import re

__all__ = ["PREFIX", "GPU_FAMILIES", "NEURON_CORES_PER_DEVICE", "NEURON_CORES_FIXED", "NO_VOLUME_FAMILIES",
           "SMDDP_INSTANCE_TYPES", "SMDDP_MIN_P_GENERATION", "SMDISTRIBUTED_EXCLUDED_TYPE", "InstanceType", "parse",
           "is_instance_type", "named_as_type", "family", "series", "gpu", "processor", "processor_for",
           "neuron_cores_per_device", "neuron_cores_fixed", "takes_volume", "smddp", "smdistributed_refused"]

#: What every SageMaker instance type's name starts with (a key without it in a price table is a region).
PREFIX = "ml."
#: The families of GPU instances (``ml.g*``, ``ml.p*``): their training images are the ``gpu`` ones.
GPU_FAMILIES = ("g", "p")
#: Neuron cores per Neuron device, by the start of the stem (first match), when the driver does not
#: say; ``trn2`` covers the trn2 stems (``trn2u``) too.
NEURON_CORES_PER_DEVICE = (
    ("inf1.", 4),
    ("inf2.", 2),
    ("trn1n.", 2),
    ("trn1.", 2),
    ("trn2", 4),
)
#: Types whose Neuron cores the SDK's toolkit reports without asking the driver (any type whose name
#: holds the text).
NEURON_CORES_FIXED = (("trn2.48xlarge", 64),)
#: Stems that take no EBS volume, only local NVMe storage (the SDK v2's ``volume_size_supported``: these,
#: and any stem with a ``d``): the defaults configuration's volume KMS key is not applied to them.
NO_VOLUME_FAMILIES = ("g5", "g6", "p5", "trn1")
#: Types documented for the SageMaker distributed data parallel library; newer p-family types are
#: accepted too (:data:`SMDDP_MIN_P_GENERATION` and later).
SMDDP_INSTANCE_TYPES = ("ml.p3.16xlarge", "ml.p3dn.24xlarge", "ml.p4d.24xlarge", "ml.p4de.24xlarge")
SMDDP_MIN_P_GENERATION = 5
#: As the SDK v2: smdistributed (data or model parallel) does not run on a type whose name holds this
#: unless torch_distributed launches it.
SMDISTRIBUTED_EXCLUDED_TYPE = "p5.48xlarge"

# compiled when first used (re's cache), so importing the module costs no regex compile
_TYPE = r"^ml\.(?P<stem>[a-z0-9-]+)\.(?P<size>[a-z0-9-]+)\Z"  # \Z: no trailing newline, as $ allows
_STEM = r"^(?P<family>[a-z]+)(?P<generation>\d+)(?P<capabilities>[a-z0-9-]*)$"
_SERIES = r"^ml\.([a-z]+\d+)"
_P_GENERATION = r"ml\.p(\d+)"


class InstanceType(collections.namedtuple("InstanceType", "name stem family generation capabilities size")):
    """A parsed instance type: ``name`` (``ml.p4de.24xlarge``), ``stem`` (``p4de``), ``family`` (``p``;
    None when the stem does not read as family and generation), ``generation`` (4, or None),
    ``capabilities`` (``de``), ``size`` (``24xlarge``); the facts follow from the name."""

    __slots__ = ()

    @property
    def series(self):
        """Family and generation (``p4``): the types a capacity failure offers instead share it."""
        return series(self.name)

    @property
    def gpu(self):
        """Whether the type has NVIDIA GPUs (a ``g`` or ``p`` family)."""
        return gpu(self.name)

    @property
    def processor(self):
        """``gpu``, ``neuron`` or ``cpu``."""
        return processor(self.name)

    @property
    def neuron_cores_per_device(self):
        """Neuron cores per Neuron device (0: not a Neuron type)."""
        return neuron_cores_per_device(self.name)

    @property
    def nvme(self):
        """Whether the type has local NVMe storage only, and no EBS volume."""
        return not takes_volume(self.name)

    @property
    def smddp(self):
        """Whether the SageMaker distributed data parallel library runs on it."""
        return smddp(self.name)


def parse(value):
    """The :class:`InstanceType` of ``value`` (``ml.<stem>.<size>``, lower-case letters, digits and
    ``-``), or None when it is not one (:func:`is_instance_type`)."""
    match = re.match(_TYPE, value) if isinstance(value, str) else None
    if match is None:
        return None
    parts = re.match(_STEM, match.group("stem"))
    if parts is None:
        return InstanceType(value, match.group("stem"), None, None, "", match.group("size"))
    return InstanceType(value, match.group("stem"), parts.group("family"), int(parts.group("generation")),
                        parts.group("capabilities"), match.group("size"))


def is_instance_type(value):
    """Whether ``value`` reads as a SageMaker instance type (``ml.<family>.<size>``)."""
    return parse(value) is not None


def named_as_type(value):
    """Whether ``value`` is a string that starts as an instance type's name does (``ml.``)."""
    return isinstance(value, str) and value.startswith(PREFIX)


def family(value):
    """The family of an instance type (``ml.p4de.24xlarge`` -> ``p``), or None."""
    parsed = parse(value)
    return parsed.family if parsed is not None else None


def series(value):
    """Family and generation of an instance type: ``ml.p4de.24xlarge`` -> ``p4``, ``ml.c5n.xlarge`` ->
    ``c5``; None when ``value`` does not start so."""
    match = re.match(_SERIES, value) if isinstance(value, str) else None
    return match.group(1) if match else None


def gpu(value):
    """Whether ``value`` is a type of a GPU family (``ml.g*``, ``ml.p*``)."""
    return named_as_type(value) and value[len(PREFIX):len(PREFIX) + 1] in GPU_FAMILIES


def neuron_cores_per_device(value):
    """Neuron cores per Neuron device of the type (0: not a Neuron type: no Inferentia, no Trainium)."""
    if named_as_type(value):
        for start, cores in NEURON_CORES_PER_DEVICE:
            if value.startswith(PREFIX + start):
                return cores
    return 0


def neuron_cores_fixed(value):
    """The Neuron cores the toolkit reports for the type without asking the driver, or None."""
    for text, cores in NEURON_CORES_FIXED:
        if isinstance(value, str) and text in value:
            return cores
    return None


def processor(value):
    """``gpu`` (NVIDIA GPUs), ``neuron`` (Inferentia or Trainium) or ``cpu``."""
    if gpu(value):
        return "gpu"
    return "neuron" if neuron_cores_per_device(value) else "cpu"


def processor_for(instance_types):
    """The training image's processor for a job of these types: ``gpu`` if any is of a GPU family,
    else ``cpu`` (the deep learning containers have no Neuron training images of ours)."""
    return "gpu" if any(gpu(t) for t in instance_types) else "cpu"


def takes_volume(value):
    """Whether the type takes an EBS volume: ``ml.<stem>.<size>`` whose stem holds no ``d`` and does not
    start as one of :data:`NO_VOLUME_FAMILIES` (those have local NVMe storage alone)."""
    parts = value.split(".") if isinstance(value, str) else []
    stem = parts[1] if len(parts) == 3 and parts[0] == PREFIX[:-1] else None
    return bool(stem) and "d" not in stem and not stem.startswith(NO_VOLUME_FAMILIES)


def smddp(value):
    """Whether the SageMaker distributed data parallel library supports the type: a documented one, or
    a p type of generation :data:`SMDDP_MIN_P_GENERATION` or later."""
    if not isinstance(value, str):
        return False
    if value in SMDDP_INSTANCE_TYPES:
        return True
    match = re.match(_P_GENERATION, value)
    return bool(match) and int(match.group(1)) >= SMDDP_MIN_P_GENERATION


def smdistributed_refused(value):
    """Whether smdistributed (data or model parallel) refuses the type unless torch_distributed
    launches it."""
    return isinstance(value, str) and SMDISTRIBUTED_EXCLUDED_TYPE in value
