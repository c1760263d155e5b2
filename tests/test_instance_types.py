"""Instance types are read in one module, ``_model/instance_types.py``: its parser and facts, table by
table, and a scan of the package that finds no other module reading a type's name."""
import ast
import os
import re

import pytest

from sagemaker_hetero._model import instance_types as T

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "sagemaker_hetero")
HOME = os.path.join("_model", "instance_types.py")

# name -> (stem, family, generation, capabilities, size, series)
PARSED = {
    "ml.p4de.24xlarge": ("p4de", "p", 4, "de", "24xlarge", "p4"),
    "ml.c5.xlarge": ("c5", "c", 5, "", "xlarge", "c5"),
    "ml.c5n.18xlarge": ("c5n", "c", 5, "n", "18xlarge", "c5"),
    "ml.g4dn.xlarge": ("g4dn", "g", 4, "dn", "xlarge", "g4"),
    "ml.trn1n.32xlarge": ("trn1n", "trn", 1, "n", "32xlarge", "trn1"),
    "ml.inf2.xlarge": ("inf2", "inf", 2, "", "xlarge", "inf2"),
    "ml.p10.96xlarge": ("p10", "p", 10, "", "96xlarge", "p10"),
}


@pytest.mark.parametrize("name", sorted(PARSED))
def test_a_type_parses_into_its_parts(name):
    parsed = T.parse(name)
    assert parsed.name == name
    assert (parsed.stem, parsed.family, parsed.generation, parsed.capabilities, parsed.size, parsed.series) == \
        PARSED[name]
    assert T.is_instance_type(name) and T.family(name) == PARSED[name][1] and T.series(name) == PARSED[name][5]


@pytest.mark.parametrize("value", ["local", "local_gpu", "x", "", None, 5, "ml.c5", "ML.C5.XLARGE", "ml..xlarge",
                                   "ml.c5.xlarge.more", "ml.c5.x large", "c5.xlarge", "ml.c5_n.xlarge", "ml.c5.xlarge\n"])
def test_what_is_not_a_type_parses_to_none(value):
    assert T.parse(value) is None
    assert T.is_instance_type(value) is False
    assert T.family(value) is None


def test_a_stem_that_is_not_family_and_generation_still_names_a_type():
    assert T.parse("ml.x.large") == ("ml.x.large", "x", None, None, "", "large")


# name -> (gpu, processor, Neuron cores per device, NVMe only (no EBS volume), smddp, smdistributed refused)
FACTS = {
    "ml.c5.xlarge": (False, "cpu", 0, False, False, False),
    "ml.m5.large": (False, "cpu", 0, False, False, False),
    "ml.c5d.2xlarge": (False, "cpu", 0, True, False, False),
    "ml.r5dn.24xlarge": (False, "cpu", 0, True, False, False),
    "ml.g4dn.xlarge": (True, "gpu", 0, True, False, False),
    "ml.g5.2xlarge": (True, "gpu", 0, True, False, False),
    "ml.g6e.xlarge": (True, "gpu", 0, True, False, False),
    "ml.g7.xlarge": (True, "gpu", 0, False, False, False),
    "ml.p3.2xlarge": (True, "gpu", 0, False, False, False),
    "ml.p3.16xlarge": (True, "gpu", 0, False, True, False),
    "ml.p3dn.24xlarge": (True, "gpu", 0, True, True, False),
    "ml.p4d.24xlarge": (True, "gpu", 0, True, True, False),
    "ml.p4de.24xlarge": (True, "gpu", 0, True, True, False),
    "ml.p5.48xlarge": (True, "gpu", 0, True, True, True),
    "ml.p5e.48xlarge": (True, "gpu", 0, True, True, False),
    "ml.p6.48xlarge": (True, "gpu", 0, False, True, False),
    "ml.inf1.xlarge": (False, "neuron", 4, False, False, False),
    "ml.inf2.xlarge": (False, "neuron", 2, False, False, False),
    "ml.trn1.32xlarge": (False, "neuron", 2, True, False, False),
    "ml.trn1n.32xlarge": (False, "neuron", 2, True, False, False),
    "ml.trn2.48xlarge": (False, "neuron", 4, False, False, False),
}


@pytest.mark.parametrize("name", sorted(FACTS))
def test_the_facts_of_a_type(name):
    parsed = T.parse(name)
    got = (parsed.gpu, parsed.processor, parsed.neuron_cores_per_device, parsed.nvme, parsed.smddp,
           T.smdistributed_refused(name))
    assert got == FACTS[name]
    assert (T.gpu(name), T.processor(name), T.takes_volume(name), T.smddp(name)) == \
        (got[0], got[1], not got[3], got[4])


@pytest.mark.parametrize("value", [None, 5, "", "local", "local_gpu", object()])
def test_a_value_that_is_no_type_has_no_facts(value):
    assert (T.gpu(value), T.processor(value), T.neuron_cores_per_device(value), T.neuron_cores_fixed(value),
            T.takes_volume(value), T.smddp(value), T.smdistributed_refused(value), T.named_as_type(value)) == \
        (False, "cpu", 0, None, False, False, False, False)


@pytest.mark.parametrize("types, processor", [
    ([], "cpu"),
    (["ml.c5.xlarge"], "cpu"),
    (["ml.c5.xlarge", "ml.p4d.24xlarge"], "gpu"),
    (["ml.trn1.32xlarge"], "cpu"),  # no Neuron training image of ours: the cpu one, as before
    ([None, object(), "ml.g5.xlarge"], "gpu"),
])
def test_the_training_images_processor_of_a_jobs_types(types, processor):
    assert T.processor_for(types) == processor


def test_the_toolkits_fixed_neuron_cores():
    assert [T.neuron_cores_fixed(t) for t in ("ml.trn2.48xlarge", "ml.trn2.3xlarge", "ml.c5.xlarge")] == \
        [64, None, None]


def test_a_price_tables_region_key_is_told_from_a_type_by_its_prefix():
    assert [T.named_as_type(k) for k in ("ml.c5.xlarge", "us-east-1", "ml.", "ML.c5.xlarge")] == \
        [True, False, True, False]


# -- no other module reads an instance type's name ---------------------------------------------------

#: A string of the code (no docstring) that reads a type's name: the prefix (``ml.``, ``^ml\.``), a
#: size (``p5.48xlarge``); or ``ml`` compared with (a split name's first part).
_READS_A_TYPE = re.compile(r"^(\^?ml(\\)?\.|[\w.-]*xlarge$)")
#: The families this module holds facts of, named bare (``("g5", "p5", "trn1")``).
_FAMILY = re.compile(r"^(g|p|trn|inf)\d+[a-z]*\.?$")


def _docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                yield id(first.value)


def _type_readings(source):
    tree = ast.parse(source)
    docs = set(_docstrings(tree))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if _READS_A_TYPE.match(node.value):
                yield node.lineno, node.value
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) and _FAMILY.match(e.value) for e in node.elts):
            yield node.lineno, tuple(e.value for e in node.elts)
        elif isinstance(node, ast.Compare) and any(isinstance(e, ast.Constant) and e.value == "ml"
                                                   for e in [node.left] + node.comparators):
            yield node.lineno, "ml"


def test_no_module_but_instance_types_reads_a_types_name():
    found = []
    for folder, _, files in os.walk(PACKAGE):
        for name in sorted(files):
            path = os.path.join(folder, name)
            where = os.path.relpath(path, PACKAGE)
            if name.endswith(".py") and where != HOME:
                with open(path) as handle:
                    found.extend("%s:%d %r" % (where, line, text) for line, text in _type_readings(handle.read()))
    assert found == []


# what the six modules read before (issue 29), and code that only looks alike
@pytest.mark.parametrize("source, found", [
    ('GPU_FAMILY = re.compile(r"^ml\\.[gp]")', True),
    ('_FAMILY = re.compile(r"^ml\\.([a-z]+\\d+)")', True),
    ('m = re.match(r"ml\\.p(\\d+)", itype)', True),
    ('_INSTANCE_TYPE = re.compile(r"^ml\\.[a-z0-9-]+\\.[a-z0-9-]+$")', True),
    ('ok = name.endswith(suffix) and name.startswith("ml.")', True),
    ('family = parts[1] if len(parts) == 3 and parts[0] == "ml" else None', True),
    ('p5 = [t for t in types if isinstance(t, str) and "p5.48xlarge" in t]', True),
    ('NO_VOLUME_FAMILIES = ("g5", "g6", "p5", "trn1")', True),
    ('_CORES_PER_NEURON_DEVICE = (("ml.inf1.", 4), ("ml.trn2", 4))', True),
    ('SMDDP = ("ml.p3.16xlarge", "ml.p4d.24xlarge")', True),
    ('def f():\n    """The type, e.g. ``ml.c5.xlarge``."""', False),
    ('os.makedirs(os.path.join(upper, "ml"))', False),
    ('problem(at, "is not a SageMaker instance type (ml.<family>.<size>)", value)', False),
    ('PY_VERSIONS = ("py38", "py39")', False),
])
def test_the_scan_finds_what_it_looks_for(source, found):
    assert bool(list(_type_readings(source))) is found


# -- vCPUs and accelerators: the documented figures, None for a type the tables do not hold ---------

# name -> (vCPUs, accelerators, NVIDIA GPUs, GiB per accelerator)
SIZES = {
    "ml.c5.xlarge": (4, 0, 0, None),
    "ml.c5.18xlarge": (72, 0, 0, None),
    "ml.c5n.9xlarge": (36, 0, 0, None),
    "ml.c6i.32xlarge": (128, 0, 0, None),
    "ml.c7i.48xlarge": (192, 0, 0, None),
    "ml.m5.large": (2, 0, 0, None),
    "ml.m5.2xlarge": (8, 0, 0, None),
    "ml.m6i.24xlarge": (96, 0, 0, None),
    "ml.r5.16xlarge": (64, 0, 0, None),
    "ml.g4dn.12xlarge": (48, 4, 4, 16),
    "ml.g5.2xlarge": (8, 1, 1, 24),
    "ml.g5.48xlarge": (192, 8, 8, 24),
    "ml.g6.12xlarge": (48, 4, 4, 24),
    "ml.g6e.xlarge": (4, 1, 1, 48),
    "ml.p3.2xlarge": (8, 1, 1, 16),
    "ml.p3.16xlarge": (64, 8, 8, 16),
    "ml.p3dn.24xlarge": (96, 8, 8, 32),
    "ml.p4d.24xlarge": (96, 8, 8, 40),
    "ml.p4de.24xlarge": (96, 8, 8, 80),
    "ml.p5.48xlarge": (192, 8, 8, 80),
    "ml.p5e.48xlarge": (192, 8, 8, 141),
    "ml.trn1.32xlarge": (128, 16, 0, 32),
    "ml.trn1n.32xlarge": (128, 16, 0, 32),
    "ml.inf2.48xlarge": (192, 12, 0, 32),
}


@pytest.mark.parametrize("name", sorted(SIZES))
def test_the_vcpus_and_accelerators_of_a_type(name):
    got = (T.vcpus(name), T.accelerators(name), T.gpus(name), T.gpu_memory_gib(name))
    assert got == SIZES[name]
    assert (T.parse(name).vcpus, T.parse(name).gpus) == (got[0], got[2])


@pytest.mark.parametrize("value", ["ml.c5.3xlarge", "ml.p9.48xlarge", "ml.x.large", "ml.g7.xlarge", "local", None, 5])
def test_a_type_the_tables_do_not_hold_has_no_figures_never_a_guess(value):
    assert (T.vcpus(value), T.accelerators(value), T.gpus(value), T.gpu_memory_gib(value)) == (None,) * 4


def test_every_documented_size_is_a_type_and_no_stem_is_in_both_tables():
    assert not set(T.CPU_SIZES) & set(T.ACCELERATED_SIZES)
    for table in (T.CPU_SIZES, T.ACCELERATED_SIZES):
        for stem, sizes in table.items():
            assert all(T.is_instance_type("ml.%s.%s" % (stem, size)) for size in sizes)
    assert set(T.ACCELERATOR_MEMORY_GIB) == set(T.ACCELERATED_SIZES)


@pytest.mark.parametrize("text, named", [
    ("CapacityError: Unable to provision requested ML compute capacity for ml.p4d.24xlarge.", ["ml.p4d.24xlarge"]),
    ("ml.g5.2xlarge then ml.p5.48xlarge, and ml.g5.2xlarge again", ["ml.g5.2xlarge", "ml.p5.48xlarge"]),
    ("Please retry using a different ML instance type.", []),
    (None, []),
])
def test_the_types_a_message_names_are_read_by_the_one_parser(text, named):
    assert T.named_in(text) == named
