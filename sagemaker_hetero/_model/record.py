"""Frozen records: the part of ``attrs`` the dry run's classes use, made without importing attrs.

Importing attrs costs a dry run more than all of the package's own modules do (it imports ``inspect``,
``typing``, ``platform``, ... and compiles several methods per class), and the classes a dry run
makes need little of it. :func:`frozen` makes a class whose ``__init__`` takes its :func:`field` values
in order (generated, so ``help()``, ``inspect.signature`` and the keyword checks see the real
signature), immutable, with ``__eq__``, ``__hash__`` and ``__repr__`` unless asked not to, slotted
unless asked not to. The classes keep attrs' interface: ``__attrs_attrs__`` holds one
:class:`Attribute` (``name``, ``alias``, ``default``, ``init``, ...) per field, so ``attrs.fields``,
``attrs.has`` and ``attrs.evolve`` work on them as on attrs classes, and :func:`fields`, :func:`has`
and :func:`evolve` here work on both. Static checkers are shown attrs itself (the ``TYPE_CHECKING``
branch), whose plugin knows what the decorator generates. Pure: standard library only.
"""
TYPE_CHECKING = False  # mypy takes this name as true; importing typing for it would cost the import

__all__ = ["NOTHING", "Attribute", "Factory", "FrozenInstanceError", "evolve", "field", "fields", "fields_dict",
           "frozen", "has"]

if TYPE_CHECKING:  # static checkers see attrs: its plugin knows what the decorator generates
    from attrs import NOTHING, Attribute, Factory, evolve, field, fields, fields_dict, frozen, has
    from attrs.exceptions import FrozenInstanceError
else:
    class _Nothing(object):
        """The value of a field not given (a default made by a :class:`Factory`, or none)."""

        def __repr__(self):
            return "NOTHING"

        def __bool__(self):
            return False

    NOTHING = _Nothing()

    class FrozenInstanceError(AttributeError):
        """A field of a frozen record was set or deleted (as attrs' error of that name, and namedtuple's)."""

        def __init__(self):
            super(FrozenInstanceError, self).__init__("can't set attribute")
            self.msg = "can't set attribute"

    class Factory(object):
        """A default made anew for each instance: ``field(default=Factory(dict))``."""

        __slots__ = ("factory", "takes_self")

        def __init__(self, factory, takes_self=False):
            self.factory = factory
            self.takes_self = takes_self

        def __eq__(self, other):
            return type(other) is type(self) and (other.factory, other.takes_self) == (self.factory, self.takes_self)

        def __hash__(self):
            return hash((self.factory, self.takes_self))

        def __repr__(self):
            return "Factory(factory=%r, takes_self=%r)" % (self.factory, self.takes_self)

    _NAMES = ("name", "default", "validator", "repr", "eq", "order", "hash", "init", "metadata", "type",
              "converter", "kw_only", "inherited", "on_setattr", "alias")

    class Attribute(object):
        """One field of a record, read as ``attrs.Attribute`` is: ``name``, ``alias`` (its ``__init__``
        argument), ``default`` (:data:`NOTHING` or a :class:`Factory` if made anew), ``init``, ``eq``,
        ``repr``, ``converter``, ``type`` (the annotation), ..."""

        __slots__ = _NAMES

        def __init__(self, **values):
            for name in _NAMES:
                object.__setattr__(self, name, values.get(name))

        def __setattr__(self, name, value):
            raise FrozenInstanceError()

        def __repr__(self):
            return "Attribute(%s)" % ", ".join("%s=%r" % (n, getattr(self, n)) for n in _NAMES)

    class _Field(object):
        """What :func:`field` puts in a class body (or ``these``) until :func:`frozen` reads it."""

        __slots__ = ("default", "repr", "eq", "converter", "alias")

        def __init__(self, default, repr, eq, converter, alias):
            self.default, self.repr, self.eq, self.converter, self.alias = default, repr, eq, converter, alias

    def field(default=NOTHING, factory=None, repr=True, eq=True, converter=None, alias=None):
        """A field of a :func:`frozen` class: its ``default`` (or a ``factory`` called for each
        instance), whether ``repr`` and ``eq`` include it, a ``converter`` of the given value, the
        ``alias`` its ``__init__`` takes it as (default: the name without its leading underscores)."""
        if factory is not None:
            if default is not NOTHING:
                raise ValueError("The `default` and `factory` arguments are mutually exclusive.")
            default = Factory(factory)
        return _Field(default, repr, eq, converter, alias)

    def _own_fields(cls, these):
        """``(name, _Field)`` of the fields ``cls`` adds, in their order."""
        body = these if these is not None else cls.__dict__
        return [(name, value) for name, value in body.items() if isinstance(value, _Field)]

    def _attributes(cls, these):
        """The record's :class:`Attribute` tuple: the nearest base record's fields, then its own."""
        own = _own_fields(cls, these)
        annotations = cls.__dict__.get("__annotations__", {})
        names = set(name for name, _ in own)
        inherited = tuple(Attribute(**dict(((n, getattr(a, n)) for n in _NAMES), inherited=True))
                          for a in getattr(cls, "__attrs_attrs__", ()) if a.name not in names)
        made = tuple(Attribute(name=name, default=f.default, repr=f.repr, eq=f.eq, hash=None, order=False,
                               init=True, metadata={}, type=annotations.get(name), converter=f.converter,
                               kw_only=False, inherited=False, alias=f.alias or name.lstrip("_"))
                     for name, f in own)
        attributes = inherited + made
        seen_default = None
        for a in attributes:
            if a.default is NOTHING and seen_default is not None:
                raise ValueError("No mandatory attributes allowed after an attribute with a default value or "
                                 "factory.  Attribute in question: %r" % (a,))
            if a.default is not NOTHING:
                seen_default = a
        return attributes

    def _init(cls, attributes, frozen):
        """The generated ``__init__``: the fields as arguments in order, set (converted, or made by a
        factory when not given) on the new instance."""
        args, body, globs = [], [], {"NOTHING": NOTHING, "_setattr": object.__setattr__}
        for i, a in enumerate(attributes):
            value = a.alias
            if isinstance(a.default, Factory):
                args.append("%s=NOTHING" % a.alias)
                globs["_factory_%d" % i] = a.default.factory
                body.append("    if %s is NOTHING:" % a.alias)
                body.append("        %s = _factory_%d(%s)" % (a.alias, i, "self" if a.default.takes_self else ""))
            elif a.default is not NOTHING:
                args.append("%s=_default_%d" % (a.alias, i))
                globs["_default_%d" % i] = a.default
            else:
                args.append(a.alias)
            if a.converter is not None:
                globs["_convert_%d" % i] = a.converter
                value = "_convert_%d(%s)" % (i, value)
            body.append(("    _setattr(self, %r, %s)" if frozen else "    self.%s = %s") % (a.name, value))
        source = "def __init__(self, %s):\n%s\n" % (", ".join(args), "\n".join(body or ["    pass"]))
        globs["__name__"] = cls.__module__
        exec(compile(source, "<record %s.__init__>" % cls.__qualname__, "exec"), globs)
        init = globs["__init__"]
        init.__qualname__ = cls.__qualname__ + ".__init__"
        init.__doc__ = "Method generated for class %s." % (cls.__qualname__,)
        init.__annotations__ = dict([(a.alias, a.type) for a in attributes if a.type is not None] + [("return", None)])
        return init

    def _methods(cls, attributes, eq, repr):
        """``__eq__``, ``__ne__`` and ``__hash__`` over the fields that ``eq`` includes, and ``__repr__``
        (as attrs writes it) over those ``repr`` includes, as asked."""
        methods = {}
        if eq:
            compared = tuple(a.name for a in attributes if a.eq)
            seed = hash("record %s.%s" % (cls.__module__, cls.__qualname__))

            def __eq__(self, other):
                if other.__class__ is not self.__class__:
                    return NotImplemented
                return all(getattr(self, n) == getattr(other, n) for n in compared)

            def __ne__(self, other):
                result = __eq__(self, other)
                return result if result is NotImplemented else not result

            def __hash__(self):
                return hash((seed,) + tuple(getattr(self, n) for n in compared))

            methods.update(__eq__=__eq__, __ne__=__ne__, __hash__=__hash__)
        if repr:
            shown = tuple(a.name for a in attributes if a.repr)

            def __repr__(self):
                return "%s(%s)" % (self.__class__.__qualname__.rsplit(">.", 1)[-1],
                                   ", ".join("%s=%r" % (n, getattr(self, n)) for n in shown))

            methods["__repr__"] = __repr__
        return methods

    def _frozen_methods(names):
        def __setattr__(self, name, value):
            raise FrozenInstanceError()

        def __delattr__(self, name):
            raise FrozenInstanceError()

        def __getstate__(self):  # slotted: no __dict__ to pickle or copy
            return dict((n, getattr(self, n)) for n in names)

        def __setstate__(self, state):
            for name, value in state.items():
                object.__setattr__(self, name, value)

        return dict(__setattr__=__setattr__, __delattr__=__delattr__, __getstate__=__getstate__,
                    __setstate__=__setstate__)

    def frozen(maybe_cls=None, these=None, eq=True, repr=True, slots=True):
        """Class decorator (``@frozen`` or ``@frozen(eq=False, ...)``): ``cls`` as an immutable record
        of its :func:`field` attributes (or of ``these``, ``{name: field(...)}``), as ``attrs.frozen``
        makes it: ``eq`` adds ``__eq__``/``__ne__``/``__hash__`` over the fields, ``repr`` a
        ``__repr__`` naming each, ``slots`` makes the class slotted (a new class, as attrs does)."""

        def wrap(cls):
            attributes = _attributes(cls, these)
            names = tuple(a.name for a in attributes)
            body = dict(cls.__dict__)
            if these is None:
                for name, _ in _own_fields(cls, None):
                    del body[name]
            body.update(_methods(cls, attributes, eq, repr))
            body.update(_frozen_methods(names))
            body["__init__"] = _init(cls, attributes, frozen=True)
            body["__attrs_attrs__"] = attributes
            body["__match_args__"] = tuple(a.name for a in attributes)
            if slots:
                body.pop("__dict__", None)
                body.pop("__weakref__", None)
                taken = set(n for base in cls.__mro__[1:] for n in getattr(base, "__slots__", ()))
                weakref = () if any(hasattr(b, "__weakref__") for b in cls.__bases__) else ("__weakref__",)
                body["__slots__"] = tuple(n for n in names if n not in taken) + weakref
                made = type(cls)(cls.__name__, cls.__bases__, body)
                made.__qualname__ = cls.__qualname__
                return made
            for name, value in body.items():
                if name not in ("__dict__", "__weakref__") and cls.__dict__.get(name, NOTHING) is not value:
                    setattr(cls, name, value)
            for name, _ in _own_fields(cls, None) if these is None else ():
                delattr(cls, name)
            return cls

        return wrap if maybe_cls is None else wrap(maybe_cls)

    def has(cls):
        """Whether ``cls`` is a record (or an attrs class)."""
        return getattr(cls, "__attrs_attrs__", None) is not None

    def fields(cls):
        """The :class:`Attribute` tuple of a record (or attrs) class, or of an instance's class."""
        found = getattr(cls if isinstance(cls, type) else type(cls), "__attrs_attrs__", None)
        if found is None:
            raise ValueError("%r is not an attrs-decorated class." % (cls,))
        return found

    def fields_dict(cls):
        """``{name: Attribute}`` of a record (or attrs) class, in order."""
        return dict((a.name, a) for a in fields(cls))

    def evolve(inst, **changes):
        """A copy of the record (or attrs instance) ``inst`` with ``changes`` (by ``__init__`` argument)."""
        for a in fields(type(inst)):
            if a.init and a.alias not in changes:
                changes[a.alias] = getattr(inst, a.name)
        return type(inst)(**changes)
