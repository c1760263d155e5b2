"""SageMaker instance types: THE one parser of ``ml.<family><generation><capabilities>.<size>`` and the
facts the package keeps of a type (GPU, Neuron cores, NVMe storage, the smdistributed libraries; vCPUs,
accelerators and their memory, from tables of the documented sizes: a type they do not hold has none).

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
           "SMDDP_INSTANCE_TYPES", "V3_DEFAULT_TYPE", "V3_LOCAL_TYPES", "SMDDP_MIN_P_GENERATION", "SMDISTRIBUTED_EXCLUDED_TYPE", "InstanceType", "parse",
           "is_instance_type", "named_as_type", "named_in", "family", "series", "gpu", "processor", "processor_for",
           "neuron_cores_per_device", "neuron_cores_fixed", "takes_volume", "smddp", "smdistributed_refused",
           "CPU_SIZES", "ACCELERATED_SIZES", "ACCELERATOR_MEMORY_GIB", "vcpus", "gpus", "accelerators",
           "gpu_memory_gib"]

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

#: The vCPUs of each documented size of the CPU-only families SageMaker trains on (stem -> size -> vCPUs;
#: the EC2 figures: SageMaker's ``ml.`` types are those instances).
CPU_SIZES = {
    "c4": {"xlarge": 4, "2xlarge": 8, "4xlarge": 16, "8xlarge": 36},
    "c5": {"large": 2, "xlarge": 4, "2xlarge": 8, "4xlarge": 16, "9xlarge": 36, "18xlarge": 72},
    "c5n": {"large": 2, "xlarge": 4, "2xlarge": 8, "4xlarge": 16, "9xlarge": 36, "18xlarge": 72},
    "c6i": {"large": 2, "xlarge": 4, "2xlarge": 8, "4xlarge": 16, "8xlarge": 32, "12xlarge": 48, "16xlarge": 64,
            "24xlarge": 96, "32xlarge": 128},
    "c7i": {"large": 2, "xlarge": 4, "2xlarge": 8, "4xlarge": 16, "8xlarge": 32, "12xlarge": 48, "16xlarge": 64,
            "24xlarge": 96, "48xlarge": 192},
    "m4": {"xlarge": 4, "2xlarge": 8, "4xlarge": 16, "10xlarge": 40, "16xlarge": 64},
    "m5": {"large": 2, "xlarge": 4, "2xlarge": 8, "4xlarge": 16, "12xlarge": 48, "24xlarge": 96},
    "m6i": {"large": 2, "xlarge": 4, "2xlarge": 8, "4xlarge": 16, "8xlarge": 32, "12xlarge": 48, "16xlarge": 64,
            "24xlarge": 96, "32xlarge": 128},
    "m7i": {"large": 2, "xlarge": 4, "2xlarge": 8, "4xlarge": 16, "8xlarge": 32, "12xlarge": 48, "16xlarge": 64,
            "24xlarge": 96, "48xlarge": 192},
    "r5": {"large": 2, "xlarge": 4, "2xlarge": 8, "4xlarge": 16, "8xlarge": 32, "12xlarge": 48, "16xlarge": 64,
           "24xlarge": 96},
}
#: The vCPUs and accelerators (NVIDIA GPUs; Trainium or Inferentia2 devices) of each documented size of
#: the accelerated families (stem -> size -> (vCPUs, accelerators)).
ACCELERATED_SIZES = {
    "g4dn": {"xlarge": (4, 1), "2xlarge": (8, 1), "4xlarge": (16, 1), "8xlarge": (32, 1), "12xlarge": (48, 4),
             "16xlarge": (64, 1)},
    "g5": {"xlarge": (4, 1), "2xlarge": (8, 1), "4xlarge": (16, 1), "8xlarge": (32, 1), "12xlarge": (48, 4),
           "16xlarge": (64, 1), "24xlarge": (96, 4), "48xlarge": (192, 8)},
    "g6": {"xlarge": (4, 1), "2xlarge": (8, 1), "4xlarge": (16, 1), "8xlarge": (32, 1), "12xlarge": (48, 4),
           "16xlarge": (64, 1), "24xlarge": (96, 4), "48xlarge": (192, 8)},
    "g6e": {"xlarge": (4, 1), "2xlarge": (8, 1), "4xlarge": (16, 1), "8xlarge": (32, 1), "12xlarge": (48, 4),
            "16xlarge": (64, 1), "24xlarge": (96, 4), "48xlarge": (192, 8)},
    "p2": {"xlarge": (4, 1), "8xlarge": (32, 8), "16xlarge": (64, 16)},
    "p3": {"2xlarge": (8, 1), "8xlarge": (32, 4), "16xlarge": (64, 8)},
    "p3dn": {"24xlarge": (96, 8)},
    "p4d": {"24xlarge": (96, 8)},
    "p4de": {"24xlarge": (96, 8)},
    "p5": {"48xlarge": (192, 8)},
    "p5e": {"48xlarge": (192, 8)},
    "p5en": {"48xlarge": (192, 8)},
    "trn1": {"2xlarge": (8, 1), "32xlarge": (128, 16)},
    "trn1n": {"32xlarge": (128, 16)},
    "inf2": {"xlarge": (4, 1), "8xlarge": (32, 1), "24xlarge": (96, 6), "48xlarge": (192, 12)},
}
#: The H200's memory: the 1,128 GiB EC2 documents for the 8 GPUs of a p5e or p5en.
_H200_GIB = 1128 // 8
#: Memory of one accelerator, GiB (stem -> GiB): T4, A10G, L4, L40S, K80 (per GPU), V100, A100, H100, H200,
#: Trainium, Inferentia2.
ACCELERATOR_MEMORY_GIB = {"g4dn": 16, "g5": 24, "g6": 24, "g6e": 48, "p2": 12, "p3": 16, "p3dn": 32, "p4d": 40,
                          "p4de": 80, "p5": 80, "p5e": _H200_GIB, "p5en": _H200_GIB, "trn1": 32, "trn1n": 32,
                          "inf2": 32}

#: SDK v3's default type of a job given no Compute (its TrainDefaults).
V3_DEFAULT_TYPE = "ml.m5.xlarge"
#: SDK v3's local instance types (Mode.LOCAL_CONTAINER) -> the ML type a local run stands each in with.
V3_LOCAL_TYPES = {"local": "ml.m5.xlarge", "local_cpu": "ml.m5.xlarge", "local_gpu": "ml.g5.xlarge"}

# compiled when first used (re's cache), so importing the module costs no regex compile
_TYPE = r"^ml\.(?P<stem>[a-z0-9-]+)\.(?P<size>[a-z0-9-]+)\Z"  # \Z: no trailing newline, as $ allows
_STEM = r"^(?P<family>[a-z]+)(?P<generation>\d+)(?P<capabilities>[a-z0-9-]*)$"
_SERIES = r"^ml\.([a-z]+\d+)"
_NAMED = r"\bml\.[a-z0-9-]+\.[a-z0-9]+\b"
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
    def vcpus(self):
        """The type's vCPUs, or None for a type the tables do not hold (:func:`vcpus`)."""
        return vcpus(self.name)

    @property
    def gpus(self):
        """The type's NVIDIA GPUs, or None for a type the tables do not hold (:func:`gpus`)."""
        return gpus(self.name)

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


def named_in(text):
    """The instance types ``text`` names (``ml.<stem>.<size>`` as whole words, in order, each once): a
    capacity failure's message names the type it could not provision, or none."""
    found = []
    for name in re.findall(_NAMED, text if isinstance(text, str) else ""):
        if name not in found:
            found.append(name)
    return found


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


def _sizes(value):
    """``(vCPUs, accelerators)`` of a type of the tables, or None (not a type, or one they do not hold)."""
    parsed = parse(value)
    if parsed is None:
        return None
    if parsed.size in CPU_SIZES.get(parsed.stem, {}):
        return CPU_SIZES[parsed.stem][parsed.size], 0
    return ACCELERATED_SIZES.get(parsed.stem, {}).get(parsed.size)


def vcpus(value):
    """The type's vCPUs (``ml.c5.18xlarge`` -> 72), or None for a type the tables do not hold: never a guess."""
    sizes = _sizes(value)
    return sizes[0] if sizes else None


def accelerators(value):
    """The type's accelerators: NVIDIA GPUs, Trainium or Inferentia2 devices (0 for a CPU type; None for
    a type the tables do not hold)."""
    sizes = _sizes(value)
    return sizes[1] if sizes else None


def gpus(value):
    """The type's NVIDIA GPUs (``ml.p4d.24xlarge`` -> 8; 0 for a CPU or Neuron type; None for a type the
    tables do not hold): what SageMaker's ``GPUUtilization`` metric is summed over."""
    sizes = _sizes(value)
    if sizes is None:
        return None
    return sizes[1] if gpu(value) else 0


def gpu_memory_gib(value):
    """Memory of one of the type's accelerators in GiB (``ml.p4de.24xlarge`` -> 80), or None (no
    accelerator, or a type the tables do not hold)."""
    parsed = parse(value)
    if not accelerators(value):
        return None
    return ACCELERATOR_MEMORY_GIB.get(parsed.stem)
