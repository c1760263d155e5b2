"""The sitecustomize of simulated hosts: algo-N names, own addresses, same ports, callers' addresses."""
import json
import os
import random
import subprocess
import sys
import textwrap

import pytest

from sagemaker_hetero.local import _hosts, _resolver

from ._helpers import loopback_network_routed


def _network():
    if not loopback_network_routed():
        pytest.skip("only 127.0.0.1 is routed to loopback here")
    return random.randint(0, 255)


def run_child(tmp_path, code, hosts=None, current=None, extra_path=()):
    site = _hosts.write_site(str(tmp_path))
    env = {k: v for k, v in os.environ.items() if not k.startswith("SAGEMAKER_HETERO")}
    env["PYTHONPATH"] = os.pathsep.join([site] + list(extra_path))
    if hosts is not None:
        env[_resolver.HOSTS_ENV] = _resolver.format_hosts(hosts)
    if current is not None:
        env[_resolver.CURRENT_ENV] = current
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        universal_newlines=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_parse_and_format_are_inverse():
    table = {"algo-1": "127.1.2.1", "algo-2": "127.1.2.2"}
    assert _resolver.parse_hosts(_resolver.format_hosts(table)) == table
    assert _resolver.parse_hosts("ALGO-1=127.0.0.1,,junk") == {"algo-1": "127.0.0.1"}
    assert _resolver.parse_hosts(None) == {}


def test_names_resolve_and_addresses_map_back(tmp_path):
    b = _network()
    hosts = {"algo-1": "127.77.%d.1" % b, "algo-2": "127.77.%d.2" % b}
    out = run_child(
        tmp_path,
        """
        import json, socket
        print(json.dumps({
            "byname": socket.gethostbyname("algo-2"),
            "ex": socket.gethostbyname_ex("ALGO-1"),
            "addrinfo": sorted(set(i[4][0] for i in socket.getaddrinfo("algo-2", 80))),
            "byaddr": socket.gethostbyaddr("%s"),
            "localhost": socket.gethostbyname("localhost"),
        }))
        """ % hosts["algo-2"],
        hosts,
        "algo-1",
    )
    seen = json.loads(out)
    assert seen["byname"] == hosts["algo-2"]
    assert seen["ex"] == ["ALGO-1", [], [hosts["algo-1"]]]
    assert seen["addrinfo"] == [hosts["algo-2"]]
    assert seen["byaddr"] == ["algo-2", [], [hosts["algo-2"]]]
    assert seen["localhost"] == "127.0.0.1"


def test_servers_on_every_interface_listen_on_the_hosts_own_address_and_callers_show_theirs(tmp_path):
    b = _network()
    hosts = {"algo-1": "127.77.%d.1" % b, "algo-2": "127.77.%d.2" % b}
    out = run_child(
        tmp_path,
        """
        import json, socket
        server = socket.socket()
        server.bind(("", 0))                      # port 0: left alone
        any_port = server.getsockname()
        server.close()
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("", any_port[1]))            # a real port on every interface: own address
        server.listen(1)
        client = socket.socket()
        client.connect(("algo-1", any_port[1]))   # raw connect by name
        conn, peer = server.accept()
        passive = socket.getaddrinfo(None, 8080, 0, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)
        print(json.dumps({"any": any_port[0], "bound": server.getsockname()[0], "peer": peer[0],
                          "passive": sorted(set((i[0] == socket.AF_INET, i[4][0]) for i in passive))}))
        """,
        hosts,
        "algo-1",
    )
    seen = json.loads(out)
    assert seen["any"] == "0.0.0.0"
    assert seen["bound"] == hosts["algo-1"]
    assert seen["peer"] == hosts["algo-1"]
    assert seen["passive"] == [[True, hosts["algo-1"]]]


def test_two_hosts_listen_on_the_same_port_and_reach_each_other_by_name(tmp_path):
    b = _network()
    hosts = {"algo-1": "127.77.%d.1" % b, "algo-2": "127.77.%d.2" % b}
    port = random.randint(20000, 30000)
    code = """
        import socket, sys
        me, other = sys.argv[1], sys.argv[2]
        server = socket.create_server(("", %d))
        print("listening", server.getsockname()[0], flush=True)
        sys.stdin.readline()
        with socket.create_connection((other, %d), timeout=5) as c:
            c.sendall(me.encode())
        conn, peer = server.accept()
        print("from", conn.recv(100).decode(), peer[0], socket.gethostbyaddr(peer[0])[0])
        """ % (port, port)
    site = _hosts.write_site(str(tmp_path))
    procs = []
    for me, other in (("algo-1", "algo-2"), ("algo-2", "algo-1")):
        env = dict(os.environ, PYTHONPATH=site)
        env[_resolver.HOSTS_ENV] = _resolver.format_hosts(hosts)
        env[_resolver.CURRENT_ENV] = me
        procs.append(subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(code), me, other], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
        ))
    try:
        firsts = [p.stdout.readline().split() for p in procs]
        assert firsts == [["listening", hosts["algo-1"]], ["listening", hosts["algo-2"]]]
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        outs = [p.communicate(timeout=20) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    assert outs[0][0].split() == ["from", "algo-2", hosts["algo-2"], "algo-2"], outs[0][1]
    assert outs[1][0].split() == ["from", "algo-1", hosts["algo-1"], "algo-1"], outs[1][1]


def test_without_a_table_nothing_is_wrapped_and_a_shadowed_sitecustomize_still_runs(tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "sitecustomize.py").write_text("import builtins\nbuiltins.CHAINED = True\n")
    out = run_child(
        tmp_path,
        """
        import builtins, socket
        print(socket.getaddrinfo.__module__, getattr(builtins, "CHAINED", False))
        """,
        extra_path=[str(other)],
    )
    assert out.split() == ["socket", "True"]


def test_socket_is_wrapped_when_first_imported_and_then_looks_as_ever(tmp_path):
    """A host process that never imports socket does not import it for the resolver; one that does
    gets the wrapped module, whose spec and loader are the standard ones (source, reload, import)."""
    hosts = {"algo-1": "127.0.0.1", "algo-2": "127.0.0.2"}
    out = run_child(
        tmp_path,
        """
        import importlib, inspect, json, sys
        before = "socket" in sys.modules
        import socket
        from socket import gethostbyname
        print(json.dumps({
            "before": before,
            "wrapped": socket.getaddrinfo.__module__ != "socket",
            "resolves": gethostbyname("algo-2"),
            "loader": type(socket.__spec__.loader).__name__, "same": socket.__loader__ is socket.__spec__.loader,
            "source": "def getaddrinfo" in inspect.getsource(socket),
            "finders": [type(f).__name__ for f in sys.meta_path],
            "again": importlib.import_module("socket") is socket,
        }))
        """,
        hosts,
        "algo-1",
    )
    seen = json.loads(out)
    assert seen == {"before": False, "wrapped": True, "resolves": "127.0.0.2", "loader": "SourceFileLoader",
                    "same": True, "source": True, "finders": [f for f in seen["finders"] if f != "_WrapOnImport"],
                    "again": True}
