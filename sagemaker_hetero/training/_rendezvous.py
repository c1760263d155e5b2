"""Telling one instance group that another is done: a tiny TCP barrier between groups.

A job ends only when every host's process has exited, so a helper group (CPU hosts serving data)
must learn when the trainers are finished. On each host of the waiting group::

    wait_for_group(env, "dnn_group")        # returns once every dnn_group host signalled

and on each host of the finishing group, at the end::

    signal_done(env, to="data_group")

Every waiting host listens on ``port`` (all interfaces); each finishing host connects to every
waiting host by name (``algo-N``), sends one line and waits for ``OK``. The order does not matter:
a signal sent before its listener is up is retried with backoff until ``timeout``. Standard
library only (``socket`` is imported on first use); it works the same on SageMaker and on a
:class:`~sagemaker_hetero.local.LocalSession`.
"""
import time

__all__ = ["RENDEZVOUS_PORT", "SIGNAL_TIMEOUT", "signal_done", "wait_for_group"]

RENDEZVOUS_PORT = 29487
SIGNAL_TIMEOUT = 300.0
_MAGIC = "SAGEMAKER-HETERO-DONE"
_FIRST_DELAY = 0.05
_LONGEST_DELAY = 1.0
_IO_TIMEOUT = 5.0
_LINE_LIMIT = 1024


def _environment(env):
    if env is None:
        from .environment import Environment

        return Environment()
    return env


def _group_list(value, what):
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and value and all(isinstance(g, str) for g in value):
        return list(value)
    raise ValueError("%s must be an instance group name or a list of names (got %r)" % (what, value))


def _job(env):
    return getattr(env, "job_name", None) or "-"


def _read_line(conn):
    data = b""
    while not data.endswith(b"\n") and len(data) < _LINE_LIMIT:
        chunk = conn.recv(_LINE_LIMIT)
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", "replace").strip()


def _hosts_waited_for(env, groups):
    """The hosts of ``groups``, each once; a ValueError if this host is one of them."""
    expected = []
    for name in groups:
        expected.extend(h for h in env.instance_group_hosts(name) if h not in expected)
    if env.current_host in expected:
        raise ValueError(
            "wait_for_group: host %s is in %s, the group(s) it waits for; a host cannot wait for itself"
            % (env.current_host, ", ".join(groups))
        )
    return expected


def wait_for_group(env, group, port=RENDEZVOUS_PORT, timeout=None):
    """Block until every host of a group has called :func:`signal_done`; the hosts, in the order they did.

    Raises ``TimeoutError`` naming the hosts still missing, ``ValueError`` for an unknown group or one
    this host is in, ``OSError`` if the port cannot be listened on.

    Parameters
    ----------
    env : Environment
        This host's environment.
    group : str or list of str
        The group (or groups) waited for.
    port : int, default 29487
        The port listened on (all interfaces).
    timeout : float, optional
        Seconds to wait at most (default: as long as the job runs).
    """
    import socket

    env = _environment(env)
    groups = _group_list(group, "group")
    expected = _hosts_waited_for(env, groups)
    deadline = None if timeout is None else time.monotonic() + timeout
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind(("", port))
        except OSError as exc:
            raise OSError(exc.errno, "wait_for_group: cannot listen on port %d on %s: %s"
                          % (port, env.current_host, exc.strerror or exc))
        listener.listen(64)
        done = []
        while len(done) < len(expected):
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    missing = [h for h in expected if h not in done]
                    raise TimeoutError(
                        "wait_for_group: %s waited %.0f s on port %d for %s; no signal from %s"
                        % (env.current_host, timeout, port, ", ".join(groups), ", ".join(missing))
                    )
                listener.settimeout(min(left, 1.0))
            else:
                listener.settimeout(None)
            try:
                conn, _ = listener.accept()
            except socket.timeout:
                continue
            with conn:
                host = _answer(conn, env, expected)
            if host is not None and host not in done:
                done.append(host)
        return done
    finally:
        listener.close()


def _answer(conn, env, expected):
    """Read one signal and answer it; the signalling host's name if it counts, else ``None``."""
    conn.settimeout(_IO_TIMEOUT)
    try:
        parts = _read_line(conn).split()
        if len(parts) != 4 or parts[0] != _MAGIC:
            reply, host = "ERR not a sagemaker-hetero signal", None
        elif parts[1] != _job(env):
            reply, host = "ERR this is job %s, not %s" % (_job(env), parts[1]), None
        elif parts[3] not in expected:
            reply, host = "ERR %s is not a host this host waits for (%s)" % (parts[3], ", ".join(expected)), None
        else:
            reply, host = "OK", parts[3]
        conn.sendall((reply + "\n").encode("utf-8"))
        return host
    except OSError:
        return None


def _send(host, port, message, timeout):
    import socket

    with socket.create_connection((host, port), timeout=timeout) as conn:
        conn.settimeout(timeout)
        conn.sendall(message)
        return _read_line(conn)


def signal_done(env, to=None, port=RENDEZVOUS_PORT, timeout=SIGNAL_TIMEOUT):
    """Tell every host of the waiting group(s) that this host is done; returns those hosts.

    Each host is connected to by name, retried with backoff while it is not listening yet (or its
    name does not resolve yet). Raises ``TimeoutError`` naming the hosts that did not answer in
    time, and ``ConnectionRefusedError`` if a host refused the signal (another job, or a host it does
    not wait for).

    Parameters
    ----------
    env : Environment
        This host's environment.
    to : str or list of str, optional
        The group (or groups) to tell (default: every group but this host's).
    port : int, default 29487
        The port they listen on.
    timeout : float, default 300.0
        Seconds to keep trying at most.
    """
    env = _environment(env)
    if to is None:
        groups = [g for g in (env.instance_groups or []) if g != env.current_instance_group]
    else:
        groups = _group_list(to, "to")
    targets = []
    for name in groups:
        targets.extend(h for h in env.instance_group_hosts(name) if h not in targets and h != env.current_host)
    message = ("%s %s %s %s\n" % (_MAGIC, _job(env), env.current_instance_group, env.current_host)).encode("utf-8")
    deadline = time.monotonic() + timeout
    pending, errors, delay = list(targets), {}, _FIRST_DELAY
    while pending:
        for host in list(pending):
            left = deadline - time.monotonic()
            try:
                reply = _send(host, port, message, max(0.05, min(_IO_TIMEOUT, left)))
            except OSError as exc:  # not listening yet, name not resolvable yet, reset: try again
                errors[host] = exc
                continue
            if reply != "OK":
                raise ConnectionRefusedError(
                    "signal_done: %s refused the signal from %s on port %d: %s"
                    % (host, env.current_host, port, reply or "no answer")
                )
            pending.remove(host)
        if not pending:
            break
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(
                "signal_done: no answer from %s on port %d within %.0f s (last error: %s); "
                "is wait_for_group running there?"
                % (", ".join(pending), port, timeout, "; ".join("%s: %s" % (h, errors.get(h)) for h in pending))
            )
        time.sleep(min(delay, left))
        delay = min(delay * 2, _LONGEST_DELAY)
    return targets
