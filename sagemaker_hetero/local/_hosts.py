"""One simulated host on disk: its base folder as SageMaker lays out ``/opt/ml``, its environment and command.

::

    <job folder>/<algo-N>/input/config/{resourceconfig,hyperparameters,inputdataconfig}.json
                         /input/data/<channel>     only the channels of the host's group
                         /code/                    the job's unpacked code: an overlay, or hard links (prepare_host)
                         /model/  /output/data/  /output/intermediate/  /checkpoints/

With per-host namespaces (``_isolation``) the host sees that folder as ``/opt/ml``, and its
``SM_*`` variables, ``SAGEMAKER_BASE_DIR`` and ``PYTHONPATH`` say ``/opt/ml`` as on SageMaker.
"""
import importlib.util
import json
import os
import py_compile
import re
import shlex
import shutil
import sys
import tempfile

import attrs

from sagemaker_hetero.local import _cluster, _isolation, _launchers, _private, _resolver, _trees
from sagemaker_hetero.training.environment import Environment

__all__ = ["HostPlan", "prepare_host", "host_environ", "host_command", "container_command", "python_path_dir",
           "write_site", "SITE_DIR"]

SITE_DIR = ".site"
# Variables of the machine that must not leak into a host: a host gets its own.
_DROPPED_PREFIXES = ("SM_", "SAGEMAKER_")
_DROPPED = ("TRAINING_JOB_NAME",)


@attrs.frozen
class HostPlan(object):
    """What starting one host needs: the host, its base folder, the command, its folder and environment.

    ``prefix``: the command line that runs the rest (the watchdog's grace period, then ``argv``) in the
    host's namespaces (empty: none; see ``_lifeline.guarded``).
    """

    host = attrs.field()
    base_dir = attrs.field()
    argv = attrs.field()
    cwd = attrs.field()
    env = attrs.field(repr=False)
    prefix = attrs.field(default=(), converter=tuple)


def _write_json(dir_fd, name, value):
    """``value`` as the new file ``name`` in ``dir_fd`` (never through a link a running host put there)."""
    _private.write_new(dir_fd, name, json.dumps(value).encode("utf-8"), mode=0o644)


def write_site(folder):
    """The name resolver as ``<folder>/.site/sitecustomize.py``, with its bytecode; returns ``<folder>/.site``.

    That folder goes first on each host's ``PYTHONPATH``, so it holds only what is written here: it
    must not exist yet (a job writes it into its own new folder), it is made mode 0700 and its files
    are written without following links (``_private``). The bytecode, for this interpreter (the
    hosts' by default), is compiled once per process and marked valid whatever the source's time
    (PEP 552's unchecked hash: the source is written with it), so a host does not compile it again,
    even with ``PYTHONDONTWRITEBYTECODE`` (common in images).
    """
    with open(_resolver.__file__, "rb") as source:
        code = source.read()
    parent = _private.open_dir(folder)
    try:
        site = _private.new_folder(parent, SITE_DIR)
    finally:
        os.close(parent)
    try:
        _private.write_new(site, "sitecustomize.py", code)
        compiled = _bytecode(code)
        if compiled is not None:
            cached = importlib.util.cache_from_source("sitecustomize.py")  # __pycache__/sitecustomize.<tag>.pyc
            os.mkdir(os.path.dirname(cached), 0o700, dir_fd=site)
            _private.write_new(site, cached, compiled)
    finally:
        os.close(site)
    return os.path.join(folder, SITE_DIR)


_compiled = {}  # the resolver's source -> its bytecode for this interpreter (None: cannot be compiled)


def _bytecode(code):
    """The bytecode of the resolver's source ``code`` (bytes) with an unchecked hash, or None."""
    if sys.implementation.cache_tag is None:
        return None
    if code not in _compiled:
        scratch = tempfile.mkdtemp(prefix="sagemaker-hetero-site-")
        try:
            source = os.path.join(scratch, "sitecustomize.py")
            with open(source, "wb") as handle:
                handle.write(code)
            target = os.path.join(scratch, "sitecustomize.pyc")
            py_compile.compile(source, cfile=target, doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            with open(target, "rb") as handle:
                _compiled.clear()
                _compiled[code] = handle.read()
        except (OSError, py_compile.PyCompileError):
            _compiled[code] = None  # the hosts compile it themselves
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return _compiled[code]


def list_channel(path, on_loop=None):
    """``(files, base)`` of a channel's local source, listed once per job (link loops skipped)."""
    if os.path.isfile(path):
        return [os.path.basename(path)], os.path.dirname(path)
    return [os.path.join(*rel.split("/")) for rel in _trees.walk_files(path, on_loop)], path


def _place_channel(channel, source, dest, cluster, host, listing=None):
    """Make ``dest`` (``input/data/<channel>``) show ``source``: linked, or the host's share of files."""
    if channel.distribution == "ShardedByS3Key":
        files, base = listing or list_channel(source)
        readers = cluster.hosts_of(channel.groups)
        os.makedirs(dest, exist_ok=True)
        _trees.link_files(base, _cluster.shard(files, readers, host.name), dest)
    elif os.path.isdir(source):
        _trees.link_or_copy(source, dest)
    else:
        os.makedirs(dest, exist_ok=True)
        _trees.link_or_copy(source, os.path.join(dest, os.path.basename(source)))


def python_path_dir(python):
    """The folder of the ``python`` interpreter (a name is looked up on ``PATH``), or ``None``."""
    found = python if os.sep in python else shutil.which(python)
    return os.path.dirname(os.path.abspath(found)) if found else None


def host_environ(base_env, request_env, job_name, base_dir, code_dir, site_dir, hosts_spec, host_name, python=None):
    """``(variables, Environment)``: the environment a host's entry point runs with, and the host's view.

    The machine's variables minus ``SM_*``, ``SAGEMAKER_*`` and ``TRAINING_JOB_NAME``; the request's
    ``Environment``; ``SAGEMAKER_BASE_DIR``, ``TRAINING_JOB_NAME`` and every ``SM_*`` variable the
    toolkit exports, computed from this host's files; ``PYTHONPATH`` = resolver, code, then the
    machine's; ``PYTHONUNBUFFERED`` (as the framework images set it); the host-name table; ``PATH``
    with the folder of ``python`` first, so ``python``, ``pip`` and the launchers a script starts by
    name are that interpreter's (as the image's interpreter is on SageMaker).
    """
    env = {
        k: v
        for k, v in base_env.items()
        if not k.startswith(_DROPPED_PREFIXES) and k not in _DROPPED
    }
    env.update(request_env or {})
    folder = python_path_dir(python) if python else None
    if folder:
        rest = [p for p in env.get("PATH", os.defpath).split(os.pathsep) if p and p != folder]
        env["PATH"] = os.pathsep.join([folder] + rest)
    env["SAGEMAKER_BASE_DIR"] = base_dir
    env["TRAINING_JOB_NAME"] = job_name
    view = Environment(base_dir=base_dir, environ=env)
    env.update(view.to_env_vars())
    paths = [site_dir, code_dir] + [p for p in [base_env.get("PYTHONPATH")] if p]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["PYTHONUNBUFFERED"] = "TRUE"
    env[_resolver.HOSTS_ENV] = hosts_spec
    env[_resolver.CURRENT_ENV] = host_name
    return env, view


def seen_at(env, base_dir, seen_base):
    """``env`` with ``base_dir`` written as ``seen_base`` in ``SM_*``, ``SAGEMAKER_BASE_DIR``, ``PYTHONPATH``."""
    pattern = re.compile(re.escape(base_dir) + r'(?=$|/|"|%s)' % re.escape(os.pathsep))
    out = dict(env)
    for key, value in env.items():
        if (key.startswith("SM_") or key in ("SAGEMAKER_BASE_DIR", "PYTHONPATH")) and base_dir in value:
            out[key] = pattern.sub(seen_base, value)
    return out


def host_command(program, python, args, code_dir):
    """The command the toolkit would start for ``program`` (relative to ``code_dir``).

    ``*.sh`` and other non-Python programs run through ``/bin/sh -c ./program args``; with a
    ``setup.py`` in the code the entry point runs as a module (``python -m``, not pip-installed);
    otherwise ``python program args``.
    """
    if program.endswith(".sh") or (not program.endswith(".py") and not _is_package(code_dir)):
        path = os.path.join(code_dir, program)
        if os.path.isfile(path):
            os.chmod(path, os.stat(path).st_mode | 0o111)
        line = "./%s %s" % (shlex.quote(program), " ".join(shlex.quote(a) for a in args))
        return ["/bin/sh", "-c", line.rstrip()]
    if _is_package(code_dir):
        module = program[: -len(".py")] if program.endswith(".py") else program
        return [python, "-m", module.replace("/", ".")] + list(args)
    return [python, program] + list(args)


def container_command(spec, base):
    """The request's ``ContainerEntrypoint`` and ``ContainerArguments`` (``spec``: its AlgorithmSpecification)
    as a host runs them: ``/opt/ml`` in them is ``base``, the host's folder (``None``: the host sees its
    folder as ``/opt/ml``, in its namespaces). This is how a v3 job's driver starts (``sm_train.sh``)."""
    argv = list(spec.get("ContainerEntrypoint") or []) + list(spec.get("ContainerArguments") or [])
    if base is None:
        return argv
    pattern = re.compile(re.escape(_isolation.SEEN_BASE) + r"(?=$|/|\s|[;&|'\"])")
    return [pattern.sub(lambda _: base, arg) for arg in argv]


def _entry_point_command(view, env, python, program_dir, launcher, isolate, hosts_spec):
    """The toolkit's command for the entry point, under the distribution's launcher on its hosts."""
    argv = host_command(view.user_entry_point, python, view.to_cmd_args(), program_dir)
    if launcher is not None and launcher[0] == _launchers.MPI:
        _, per_host, mpirun, agent, fifo_dir = launcher
        env[_launchers.MPI_DIR_ENV] = fifo_dir
        return _launchers.wrap_mpi(argv, python, view, env, mpirun, agent, fifo_dir, per_host)
    if launcher is not None:
        master = view.master_hostname  # a name only where every resolver knows it
        address = master if isolate is not None else _resolver.parse_hosts(hosts_spec).get(master, master)
        return _launchers.wrap(launcher, argv, python, view, address, view.num_gpus)
    return argv


def _is_package(code_dir):
    return os.path.isfile(os.path.join(code_dir, "setup.py"))


def prepare_host(job_dir, cluster, host, request, channels, sources, code, python, base_env, site_dir, hosts_spec,
                 listings=None, isolate=None, launcher=None):
    """Create ``host``'s base folder and return its :class:`HostPlan`.

    ``sources``: ``{channel: local file or folder}``; ``code``: the job's unpacked code (a
    :class:`~sagemaker_hetero.local._trees.Tree`). In namespaces that can mount overlays the host's
    ``code`` is an overlay of it, whose writes land in the host's ``code`` folder on disk; otherwise
    the driver makes ``code`` a tree of hard links (copies across file systems): files the host
    creates, deletes, renames or replaces there are its own, but a file it rewrites in place is
    shared with the other hosts. ``listings``: ``{channel: (files, base)}`` of the sharded channels;
    ``isolate``: an :class:`~sagemaker_hetero.local._isolation.Isolation` to run it in namespaces;
    ``launcher``: the distribution's launcher (:func:`_launchers.launcher_of`), or ``None``.
    """
    base = os.path.join(job_dir, host.name)
    data_dir = os.path.join(base, "input", "data")
    code_dir = os.path.join(base, "code")
    # Made without following a link: the hosts started already run as this user (as root for a root driver)
    # and could have put one where this host's folders go.
    for parts in (("input", "data"), ("code",), ("model",), ("output", "data"), ("output", "intermediate"),
                  ("checkpoints",)):
        os.close(_private.open_below(job_dir, (host.name,) + parts, make=True))
    config = _private.open_below(job_dir, (host.name, "input", "config"), make=True)
    try:
        _write_json(config, "resourceconfig.json", cluster.resource_config(host.name))
        _write_json(config, "hyperparameters.json", dict(request.get("HyperParameters") or {}))
        _write_json(config, "inputdataconfig.json", _cluster.input_data_config(channels, host))
    finally:
        os.close(config)
    for channel in channels:
        if _cluster.receives(channel, host):
            _place_channel(channel, sources[channel.name], os.path.join(data_dir, channel.name), cluster, host,
                           (listings or {}).get(channel.name))
    overlay = (code is not None and isolate is not None and isolate.overlay
               and _isolation.overlay_ok(code.folder, base, isolate.folder))
    if code is not None and not overlay:
        code.link_into(code_dir)
    env, view = host_environ(
        base_env, request.get("Environment"), request["TrainingJobName"], base, code_dir, site_dir, hosts_spec,
        host.name, python=python,
    )
    spec = request.get("AlgorithmSpecification") or {}
    if spec.get("ContainerEntrypoint"):
        argv = container_command(spec, base if isolate is None else None)
        if launcher is not None:  # mpirun's way to the hosts, should the command start it
            env[_launchers.MPI_AGENT_ENV], env[_launchers.MPI_DIR_ENV] = launcher[1:]
    else:
        program_dir = code.folder if code is not None else code_dir  # the code as unpacked: where to look
        argv = _entry_point_command(view, env, python, program_dir, launcher, isolate, hosts_spec)
    if isolate is None:
        return HostPlan(host=host, base_dir=base, argv=argv, cwd=code_dir, env=env)
    env = seen_at(env, base, _isolation.SEEN_BASE)
    prefix = _isolation.host_prefix(isolate, base, host.name, code.folder if overlay else None)
    return HostPlan(host=host, base_dir=base, argv=argv, cwd=code_dir, env=env, prefix=prefix)
