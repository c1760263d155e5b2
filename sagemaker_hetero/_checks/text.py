"""A spec or configuration file's text as data, within limits: at most ``MAX_SPEC_BYTES`` of UTF-8
read (:func:`read_bounded`, :func:`text_of`: nothing past the limit is read; the bytes come from the
edge, ``_model.outside.file_head``), JSON or YAML, at most
``MAX_SPEC_DEPTH`` levels deep and ``MAX_SPEC_VALUES`` values / ``MAX_SPEC_CHARS`` characters with every
YAML alias expanded, measured before anything is built, so a small hostile file (an alias bomb, deep
nesting) is refused at once instead of taking minutes and gigabytes. Used for the CLI's specs
(``_cli.spec``) and the SageMaker defaults configuration (``_aws.sdk_config``).
"""
import json

from sagemaker_hetero._model import outside
from sagemaker_hetero.exceptions import ConfigError, Problem

__all__ = ["loads", "read_bounded", "text_of", "read_json_object", "MAX_SPEC_BYTES", "MAX_SPEC_DEPTH", "MAX_SPEC_VALUES", "MAX_SPEC_CHARS",
           "SPEC"]

#: The largest spec file read, in bytes (1 MiB; a real spec is a few kilobytes).
MAX_SPEC_BYTES = 1 << 20
#: How deep a spec may nest: the spec's mapping is level 1, ``distribution``'s mapping level 2, ...
MAX_SPEC_DEPTH = 32
#: How many values (each mapping, list and scalar, keys included) a spec may hold, and how many
#: characters of text, with every YAML alias expanded. CreateTrainingJob's own limits (100
#: hyperparameters, 50 tags, 100 environment variables, 20 channels, 5 instance groups, ...) keep
#: a real spec to at most a couple of thousand values, usually a few dozen; PyYAML, pure Python,
#: reads some 20,000 to 50,000 values a second, so a refusal comes within a second.
MAX_SPEC_VALUES = 10000
MAX_SPEC_CHARS = MAX_SPEC_BYTES
#: The problem path of the file as a whole.
SPEC = "SPEC"


def read_bounded(path, regular_only=False):
    """The first ``MAX_SPEC_BYTES + 1`` bytes of the file at ``path`` (enough for :func:`text_of` to
    tell a file over the limit, without reading the rest); raises ``OSError``. ``regular_only``: a
    FIFO, device or folder there is refused at once (opened without blocking), for files found by
    their place rather than named by the user (a spec may well come through a pipe)."""
    return outside.file_head(path, MAX_SPEC_BYTES + 1, regular_only)


def text_of(raw, name, noun="spec"):
    """The text of a file whose first bytes (read as :func:`read_bounded` reads them) are ``raw``;
    ``name`` is shown in problems. Raises :class:`ConfigError` (path :data:`SPEC`): longer than
    ``MAX_SPEC_BYTES``, or not UTF-8 (a byte-order mark is dropped)."""
    if len(raw) > MAX_SPEC_BYTES:
        raise ConfigError([Problem(SPEC, "is larger than {:,} bytes, the most a {} may be".format(MAX_SPEC_BYTES, noun),
                                   name)])
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError([Problem(SPEC, "is not UTF-8 text (%s); save the %s as UTF-8" % (exc, noun), name)])


def loads(text, name, kind=None, noun="spec"):
    """The data of a spec file's ``text`` (``kind`` ``"json"``, ``"yaml"``, or None: JSON if it
    parses as JSON, else YAML); ``name`` is shown in problems. Raises :class:`ConfigError`: not
    valid, PyYAML missing for YAML, or beyond the limits (``MAX_SPEC_DEPTH``, ``MAX_SPEC_VALUES``,
    ``MAX_SPEC_CHARS``; the caller caps the text at ``MAX_SPEC_BYTES``). ``noun`` names the kind of
    file in problems ("spec", "configuration")."""
    if kind == "yaml":
        return _load_yaml(text, name, noun)
    try:
        data = json.loads(text)
    except RecursionError:  # json's decoder recurses; it stops cleanly at Python's recursion limit
        raise ConfigError([Problem(SPEC, "nests too deep to read: a %s may nest at most %d levels" % (noun, MAX_SPEC_DEPTH),
                                   name)])
    except ValueError as exc:
        if kind == "json":
            raise ConfigError([Problem(SPEC, "is not valid JSON: %s" % exc, name)])
        return _load_yaml(text, name, noun)
    problems = _size_problems(_top_pairs(data), _data_children, _data_chars, "", noun)
    if problems:
        raise ConfigError(problems)
    return data


def read_json_object(path, argument, noun):
    """The JSON object in the file at ``path`` (a ``noun``: a saved request, say), read as a spec is:
    at most ``MAX_SPEC_BYTES``, within the limits. Raises :class:`ConfigError` under ``argument``."""
    try:
        data = loads(text_of(read_bounded(path), path, noun), path, "json", noun)
    except OSError as exc:
        raise ConfigError([Problem(argument, "cannot be read: %s" % (exc.strerror or exc), path)])
    except ConfigError as exc:
        raise ConfigError([p.renamed(argument) for p in exc.problems])
    if not isinstance(data, dict):
        raise ConfigError([Problem(argument, "is not a JSON object (a %s)" % noun, path)])
    return data


def _load_yaml(text, name, noun):
    try:
        import yaml
    except ImportError:
        raise ConfigError(
            [
                Problem(
                    SPEC,
                    "is YAML, which needs PyYAML: pip install 'sagemaker-hetero[yaml]' (or pyyaml), "
                    "or write the %s as JSON" % noun,
                    name,
                )
            ]
        )
    loader = _bounded_loader(yaml, noun)(text)
    loader.name = name  # PyYAML's error marks name the file, not "<unicode string>"
    try:
        return loader.get_single_data()
    except ConfigError:
        raise
    except (yaml.YAMLError, ValueError) as exc:  # ValueError: an integer too long for int() (Python 3.11)
        raise ConfigError([Problem(SPEC, "is not valid YAML: %s" % exc, name)])
    finally:
        loader.dispose()


def _bounded_loader(yaml, noun):
    """PyYAML's safe loader, refusing (:class:`ConfigError`) a document beyond the spec's limits:
    nesting and the values written out are counted while composing (PyYAML composes recursively, and
    a long file takes long to read), the expansion of aliases once the document is composed and
    before anything is constructed."""

    class BoundedLoader(yaml.SafeLoader):
        _depth = 0
        _values = 0
        _top = None  # the top-level key being composed, for the problem's path

        def compose_node(self, parent, index):
            if self._depth == 1 and isinstance(index, yaml.ScalarNode):
                self._top = index.value
            if not self.check_event(yaml.AliasEvent):
                self._values += 1
                if self._depth >= MAX_SPEC_DEPTH:
                    raise ConfigError([Problem(self._top or SPEC, "nests deeper than %d levels, the most a %s may"
                                               % (MAX_SPEC_DEPTH, noun))])
                if self._values > MAX_SPEC_VALUES:
                    raise ConfigError([Problem(self._top or SPEC, "holds more than {:,} values, the most a {} "
                                               "may".format(MAX_SPEC_VALUES, noun))])
            self._depth += 1
            try:
                return super(BoundedLoader, self).compose_node(parent, index)
            finally:
                self._depth -= 1

        def compose_document(self):
            node = super(BoundedLoader, self).compose_document()
            problems = _size_problems(_node_pairs(yaml, node), _node_children(yaml), _node_chars,
                                      " once its YAML aliases are expanded", noun)
            if problems:
                raise ConfigError(problems)
            return node

    return BoundedLoader


def _top_pairs(data):
    """``[(path, parts)]``: the spec's top-level keys and what each holds (key and value)."""
    if isinstance(data, dict):
        return [(str(key), (key, value)) for key, value in data.items()]
    return [(SPEC, (data,))]


def _data_children(value):
    if isinstance(value, dict):
        return list(value) + list(value.values())
    if isinstance(value, list):
        return value
    return None


def _data_chars(value):
    return len(value) if isinstance(value, str) else 0


def _node_pairs(yaml, node):
    if isinstance(node, yaml.MappingNode):
        return [(key.value if isinstance(key, yaml.ScalarNode) else SPEC, (key, value)) for key, value in node.value]
    return [(SPEC, (node,))]


def _node_children(yaml):
    def children(node):
        if isinstance(node, yaml.MappingNode):
            return [key for key, _ in node.value] + [value for _, value in node.value]
        if isinstance(node, yaml.SequenceNode):
            return node.value
        return None

    return children


def _node_chars(node):
    return len(node.value)


def _size_problems(pairs, children, chars, expanded, noun):
    """Problems with the spec's size: each top-level key's (its ``(path, parts)`` in ``pairs``),
    then the whole spec's."""
    problems = []
    total_values, total_chars = 1, 0  # the spec's mapping
    for path, parts in pairs:
        values = text = depth = 0
        for part in parts:
            size = _expanded_size(part, children, chars)
            if size is None:
                problems.append(Problem(path, "contains itself: a YAML alias inside its own anchor"))
                break
            values, text, depth = values + size[0], text + size[1], max(depth, size[2])
        else:
            if depth + 1 > MAX_SPEC_DEPTH:
                problems.append(Problem(path, "nests %d levels deep%s; a %s may nest at most %d"
                                        % (depth + 1, expanded, noun, MAX_SPEC_DEPTH)))
            if values > MAX_SPEC_VALUES:
                problems.append(Problem(path, "holds {:,} values{}; a {} may hold at most {:,}".format(
                    values, expanded, noun, MAX_SPEC_VALUES)))
            if text > MAX_SPEC_CHARS:
                problems.append(Problem(path, "holds {:,} characters of text{}; a {} may hold at most {:,}".format(
                    text, expanded, noun, MAX_SPEC_CHARS)))
            total_values += values
            total_chars += text
    if not problems and (total_values > MAX_SPEC_VALUES or total_chars > MAX_SPEC_CHARS):
        problems.append(Problem(SPEC, "holds {:,} values and {:,} characters of text{}; a {} may hold at most "
                                "{:,} values and {:,} characters".format(total_values, total_chars, expanded, noun,
                                                                         MAX_SPEC_VALUES, MAX_SPEC_CHARS)))
    return problems


def _expanded_size(root, children, chars):
    """``(values, characters, depth)`` of ``root`` with every shared part counted wherever it occurs,
    or None if ``root`` contains itself. ``children(part)`` is a container's parts (None: a scalar),
    ``chars(scalar)`` its length. Iterative, and each distinct part is measured once, so the work
    grows with the parts, not with the expansion."""
    done = {}  # id(part) -> its (values, characters, depth)
    open_parts = set()  # the containers being measured: the path from root to the current part
    stack = [(root, False)]
    while stack:
        part, measured = stack.pop()
        key = id(part)
        if measured:  # every child is done
            open_parts.discard(key)
            values, text, depth = 1, 0, 0
            for child in children(part):
                size = done[id(child)]
                values, text, depth = values + size[0], text + size[1], max(depth, size[2])
            done[key] = (values, text, depth + 1)
        elif key not in done:
            if key in open_parts:  # pushed by one of its own descendants
                return None
            parts = children(part)
            if parts is None:
                done[key] = (1, chars(part), 1)
                continue
            open_parts.add(key)
            stack.append((part, True))
            stack.extend((child, False) for child in parts)
    return done[id(root)]
