"""``_model.record``: the dry run's classes without attrs, behaving as attrs' frozen classes do (and read by
attrs' own ``fields``, ``has`` and ``evolve``)."""
import copy
import inspect
import pickle

import attrs
import pytest

from sagemaker_hetero._model import record
from sagemaker_hetero._model.job import Job
from sagemaker_hetero.inputs import ShuffleConfig, TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup


@record.frozen
class Point(object):
    """A slotted record with a mandatory field, a default, a factory, a converter and a private name."""

    x: int = record.field()
    y: int = record.field(default=0)
    tags = record.field(factory=list, eq=False)
    label = record.field(default="a", converter=str.upper, repr=False)
    _secret = record.field(default=None)


@record.frozen(eq=False, repr=False, slots=False, these={"a": record.field(), "b": record.field(default=2)})
class Plain(object):
    """A record whose fields are given apart from its body."""


def test_init_takes_the_fields_in_order_with_defaults_factories_converters_and_aliases():
    p = Point(1, label="b", secret=3)
    assert (p.x, p.y, p.tags, p.label, p._secret) == (1, 0, [], "B", 3)
    assert Point(1).tags is not Point(1).tags  # a factory makes each instance its own
    assert str(inspect.signature(Point)) == "(x: int, y: int = 0, tags=NOTHING, label='a', secret=None) -> None"
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'x'"):
        Point()
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        Point(1, z=2)


def test_eq_hash_and_repr_as_attrs_makes_them():
    assert Point(1, tags=[1]) == Point(1, tags=[2]) and Point(1) != Point(2) and hash(Point(1)) == hash(Point(1))
    assert Point(1).__eq__(1) is NotImplemented
    assert repr(Point(1, secret=2)) == "Point(x=1, y=0, tags=[], _secret=2)"
    plain = Plain(1)
    assert plain != Plain(1) and plain == plain and (plain.a, plain.b) == (1, 2)


def test_frozen_slotted_picklable_and_copyable():
    p = Point(1)
    for change in (lambda: setattr(p, "x", 2), lambda: delattr(p, "x"), lambda: setattr(p, "other", 1),
                   lambda: setattr(Plain(1), "a", 2)):
        with pytest.raises(AttributeError, match="can't set attribute"):
            change()
    assert not hasattr(p, "__dict__") and Point.__slots__ == ("x", "y", "tags", "label", "_secret", "__weakref__")
    assert pickle.loads(pickle.dumps(p)) == p and copy.deepcopy(p) == p and copy.copy(p) == p


def test_a_mandatory_field_after_a_default_is_refused():
    with pytest.raises(ValueError, match="No mandatory attributes allowed after an attribute with a default"):
        record.frozen(type("Bad", (object,), {"a": record.field(default=1), "b": record.field()}))


def test_attrs_reads_records_and_record_reads_attrs_classes():
    assert attrs.has(Point) and [a.name for a in attrs.fields(Point)] == ["x", "y", "tags", "label", "_secret"]
    assert attrs.fields_dict(Point)["tags"].default == record.Factory(list)
    assert attrs.evolve(Point(1, secret=5), y=2) == Point(1, 2, secret=5)
    assert record.evolve(Point(1), secret=4)._secret == 4
    made = attrs.make_class("Made", {"a": attrs.field(default=1)})
    assert record.has(made) and record.evolve(made(), a=2).a == 2 and list(record.fields_dict(made)) == ["a"]
    assert not record.has(int)
    with pytest.raises(ValueError, match="is not an attrs-decorated class"):
        record.fields(int)


def test_the_users_classes_and_the_job_are_records():
    for cls in (InstanceGroup, TrainingInput, ShuffleConfig, Job):
        assert not any(base.__module__.startswith("attr") for base in type.mro(cls)), cls
        assert inspect.unwrap(cls.__init__).__code__.co_filename.startswith("<record "), cls
    group = InstanceGroup("a", "ml.c5.xlarge", 1)
    assert repr(group) == "InstanceGroup(instance_group_name='a', instance_type='ml.c5.xlarge', instance_count=1)"
    assert {group: 1}[InstanceGroup("a", "ml.c5.xlarge", 1)] == 1
