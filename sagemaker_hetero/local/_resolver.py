"""Host names of a local job, resolved inside the Python processes of its simulated hosts.

:mod:`sagemaker_hetero.local` copies this file, unchanged, as ``sitecustomize.py`` into a folder it
puts first on every host's ``PYTHONPATH``, so Python imports it at start-up in every process a host
runs (the entry point and the Python processes it starts). With the job's table of host names in
``SAGEMAKER_HETERO_LOCAL_HOSTS`` (``algo-1=127.41.7.1,algo-2=127.41.7.2``) and this host's name in
``SAGEMAKER_HETERO_LOCAL_HOST``, it wraps the ``socket`` module so that:

- ``algo-N`` resolves to that host's loopback address (``getaddrinfo``, ``gethostbyname``,
  ``gethostbyname_ex``, and the address tuples given to ``connect``, ``connect_ex``, ``bind`` and
  ``sendto``); ``gethostbyaddr`` maps the addresses back to the names;
- a server bound to every interface (``""`` or ``0.0.0.0`` with a port, or a passive
  ``getaddrinfo`` for no host) listens on this host's own address, so hosts can use the same port;
- a connection to another host leaves from this host's address, so the peer sees who called.

The module is wrapped as it is first imported (a process that never uses sockets does not import
them). Without the table it does nothing. Standard library only, and small: every host process runs it.
It then runs the ``sitecustomize`` it shadows, if the interpreter has one.
"""
import os
import sys

HOSTS_ENV = "SAGEMAKER_HETERO_LOCAL_HOSTS"
CURRENT_ENV = "SAGEMAKER_HETERO_LOCAL_HOST"
_ANY = ("", "0.0.0.0")


def parse_hosts(text):
    """``{name: address}`` from ``name=address,name=address`` (names lower-cased)."""
    table = {}
    for item in (text or "").split(","):
        name, sep, address = item.partition("=")
        if sep and name and address:
            table[name.strip().lower()] = address.strip()
    return table


def format_hosts(table):
    """The inverse of :func:`parse_hosts`."""
    return ",".join("%s=%s" % (name, address) for name, address in table.items())


class _Names(object):
    """The job's table of host names as the wrapped ``socket`` functions read it: ``real`` holds the
    functions they wrap, ``own`` is this host's address (None: not in the table)."""

    def __init__(self, table, current, socket, real):
        self.table, self.socket, self.real = table, socket, real
        self.own = table.get((current or "").lower())
        self.shared = len(set(table.values())) < len(table)  # every host on 127.0.0.1: no own address
        self.addresses = frozenset(table.values())
        self.names = {}
        for name, address in table.items():
            self.names.setdefault(address, name)

    def lookup(self, host):
        if isinstance(host, bytes):
            host = host.decode("ascii", "replace")
        if isinstance(host, str):
            return self.table.get(host.lower())
        return None

    def getaddrinfo(self, host, port, family=0, type=0, proto=0, flags=0):
        socket = self.socket
        address = self.lookup(host)
        if address is None and self.own and host in (None,) + _ANY and flags & socket.AI_PASSIVE and port:
            if family in (0, socket.AF_INET) and str(port) != "0":
                address, family = self.own, socket.AF_INET
        return self.real["getaddrinfo"](host if address is None else address, port, family, type, proto, flags)

    def gethostbyname(self, name):
        address = self.lookup(name)
        return self.real["gethostbyname"](name) if address is None else address

    def gethostbyname_ex(self, name):
        address = self.lookup(name)
        return self.real["gethostbyname_ex"](name) if address is None else (name, [], [address])

    def gethostbyaddr(self, ip):
        name = self.names.get(ip) if not self.shared else None
        return self.real["gethostbyaddr"](ip) if name is None else (name, [], [ip])

    def target(self, sock, address, binding):
        """Where a socket's ``address`` really is: a host name's address, or (``binding`` to every
        interface) this host's own."""
        if sock.family != self.socket.AF_INET or not isinstance(address, tuple) or len(address) != 2:
            return address
        mapped = self.lookup(address[0])
        if mapped is not None:
            return (mapped, address[1])
        if binding and self.own and address[0] in _ANY and address[1]:
            return (self.own, address[1])
        return address

    def leave_from_own(self, sock, address):
        """Bind a socket about to connect to another host to this host's own address, so the peer
        sees who called."""
        if self.shared or not self.own or not isinstance(address, tuple) or address[0] not in self.addresses:
            return
        try:
            if sock.getsockname() == ("0.0.0.0", 0):
                self.real["bind"](sock, (self.own, 0))
        except OSError:
            pass


def _socket_methods(names):
    """``connect``, ``connect_ex``, ``bind`` and ``sendto`` for ``socket.socket``, over ``names``."""
    real = names.real

    def connect(self, address):
        address = names.target(self, address, False)
        names.leave_from_own(self, address)
        return real["connect"](self, address)

    def connect_ex(self, address):
        address = names.target(self, address, False)
        names.leave_from_own(self, address)
        return real["connect_ex"](self, address)

    def bind(self, address):
        return real["bind"](self, names.target(self, address, True))

    def sendto(self, data, *args):
        if args:
            args = args[:-1] + (names.target(self, args[-1], False),)
        return real["sendto"](self, data, *args)

    return connect, connect_ex, bind, sendto


def install(table, current=None, socket=None):
    """Wrap the ``socket`` module (or the module given) for the host names in ``table``; ``current``
    is this host's name. Returns the functions it wrapped, by name."""
    if socket is None:
        import socket

    real = {
        "getaddrinfo": socket.getaddrinfo,
        "gethostbyname": socket.gethostbyname,
        "gethostbyname_ex": socket.gethostbyname_ex,
        "gethostbyaddr": socket.gethostbyaddr,
        "connect": socket.socket.connect,
        "connect_ex": socket.socket.connect_ex,
        "bind": socket.socket.bind,
        "sendto": socket.socket.sendto,
    }
    names = _Names(table, current, socket, real)
    socket.getaddrinfo = names.getaddrinfo
    socket.gethostbyname = names.gethostbyname
    socket.gethostbyname_ex = names.gethostbyname_ex
    socket.gethostbyaddr = names.gethostbyaddr
    socket.socket.connect, socket.socket.connect_ex, socket.socket.bind, socket.socket.sendto = _socket_methods(names)
    return real


def _run_shadowed_sitecustomize():
    """Run the ``sitecustomize`` module this file hides from the interpreter, if there is one."""
    from importlib.machinery import PathFinder

    here = os.path.dirname(os.path.abspath(__file__))
    path = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    import importlib.util

    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


class _WrapOnImport(object):
    """A finder first on ``sys.meta_path`` that wraps ``socket`` as it is first imported (by the
    finder that would have found it, then :func:`install`), and leaves: a process that never uses
    sockets does not pay for importing them (a few milliseconds at each start)."""

    def __init__(self, table, current):
        self.table, self.current = table, current

    def find_spec(self, name, path=None, target=None):  # asked for every import: the test comes first
        if name != "socket" or self not in sys.meta_path:
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None and spec.loader is not None:
                spec.loader = _Wrapping(spec, self)
                return spec
        return None


class _Wrapping(object):
    """The loader of ``socket``'s spec while it loads: the real loader's work, then :func:`install`;
    the spec keeps the real loader afterwards."""

    def __init__(self, spec, hook):
        self.real, self.spec, self.hook = spec.loader, spec, hook

    def __getattr__(self, name):
        return getattr(self.real, name)

    def create_module(self, spec):
        create = getattr(self.real, "create_module", None)
        return create(spec) if create is not None else None

    def exec_module(self, module):
        self.spec.loader = module.__loader__ = self.real
        self.real.exec_module(module)
        install(self.hook.table, self.hook.current, module)


if __name__ == "sitecustomize":
    _table = parse_hosts(os.environ.get(HOSTS_ENV))
    if _table:
        if "socket" in sys.modules:
            install(_table, os.environ.get(CURRENT_ENV))
        else:
            sys.meta_path.insert(0, _WrapOnImport(_table, os.environ.get(CURRENT_ENV)))
    _run_shadowed_sitecustomize()
