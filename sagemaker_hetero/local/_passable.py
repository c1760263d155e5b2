"""What a local run cannot hand to a host's process, found in the job model before anything runs. Pure.

Every host is a real process. The request's hyperparameters become its ``SM_HP_<KEY>`` variables,
its command-line arguments and its ``SM_HPS``, ``SM_USER_ARGS`` and ``SM_TRAINING_ENV`` (made here
by the same functions the host's view uses, ``training._codec``, so they cannot disagree); its
``Environment`` becomes variables of its process, its group's name ``SM_CURRENT_INSTANCE_GROUP``,
each channel the folder ``input/data/<name>``, and a local output path or code location a folder.
A variable's name cannot hold ``=``; no variable, argument or path can hold a NUL character, nor a
character the file-system encoding cannot encode (a lone surrogate); Linux passes at most
:data:`MAX_ARG_STRLEN` bytes in one variable; ``.`` and ``..`` are no folders of their own.
SageMaker's limits accept all of these, so they are refused for a LocalSession only
(:func:`problems`), each naming the argument, its value and why.
"""
import os
import sys

from sagemaker_hetero._model import hyperparameters as H
from sagemaker_hetero._model.job import CODE
from sagemaker_hetero.exceptions import Problem
from sagemaker_hetero.local._storage import escapes_root
from sagemaker_hetero.training._codec import decode_value, env_value, split_hyperparameters, to_cmd_args, to_json

__all__ = ["problems", "unpassable", "training_env_reserve", "MAX_ARG_STRLEN"]

#: The most bytes Linux passes in one variable or argument of a new process (``MAX_ARG_STRLEN``,
#: 32 pages); a longer one fails the host's start with "Argument list too long".
MAX_ARG_STRLEN = 32 * 4096
_NO_FOLDERS = (".", "..")
#: Why a local-bucket URI with a ".." in its key is refused.
ESCAPES = ("has a '..' in its key of the local bucket: on S3 that is a name like any other, but a local run maps "
           "s3://sagemaker-hetero-local/KEY to <root>/KEY and would leave the root; name the key without '..'")
_AS_HP = "a local host gets each hyperparameter as the variable SM_HP_<KEY> and as command-line arguments"


def unpassable(text):
    """Why ``text`` cannot be a variable, argument or path of a process here, or None."""
    if "\x00" in text:
        return "holds a NUL character, which no variable, argument or path can hold"
    try:
        os.fsencode(text)
    except UnicodeEncodeError as exc:
        return "holds %r, which the file-system encoding (%s) cannot encode" % (
            exc.object[exc.start:exc.end], sys.getfilesystemencoding())
    return None


def training_env_reserve(job, root):
    """At least the bytes ``SM_TRAINING_ENV`` holds besides the hyperparameters (paths under the base
    folder ``<root>/<job name>/<host>``, hosts, groups, channels), known exactly only once the hosts
    are laid out. Measured: 2.4 KiB for 3 hosts and no channel under a 100-character root; each
    host adds some 55 bytes, each channel some 350 more than its folder's path, the base folder's
    path appears about 12 times."""
    base = len(root) + 64 + len("/algo-254")
    return 4096 + 64 * (job.host_count or 1) + len(job.channels) * (base + 400) + 16 * base


def problems(job, local_path, root):
    """Problems with what ``job`` (checked by a LocalSession whose jobs run under ``root``) hands its
    hosts' processes; ``local_path(uri)`` is the local path an output or code location stands for,
    or None."""
    out = _hyperparameter_problems(job, root) + _environment_problems(job)
    for group in job.groups:
        reason = unpassable(group.name) if isinstance(group.name, str) else None
        if reason is not None:
            where = "%s.instance_group_name" % group.arg if group.arg else "instance_groups"
            out.append(Problem(where, "%s: a local host gets its group's name as the variable "
                               "SM_CURRENT_INSTANCE_GROUP" % reason, group.name))
    for channel in job.channels:
        if channel.kind != CODE and channel.name in _NO_FOLDERS:
            out.append(Problem(channel.arg, "is named %r, which is no folder of its own: a local host gets each "
                               "channel as the folder input/data/<name>; choose another name" % channel.name,
                               channel.name))
    locations = [("output_path", job.output_path)]
    if job.code is not None:
        locations.append(("code_location", job.code.location))
    for where, uri in locations:
        if escapes_root(uri):
            out.append(Problem(where, ESCAPES, uri))
            continue
        path = local_path(uri) if isinstance(uri, str) else None
        reason = unpassable(path) if path is not None else None
        if reason is not None:
            out.append(Problem(where, "%s: a local run writes there" % reason, uri))
    return out


def _hyperparameter_entries(job):
    """``[(key, value as a host decodes it, the user's argument)]`` of the hyperparameters the
    toolkit gives the entry point (not the ``sagemaker_*`` ones, which stay inside JSON)."""
    entries = [(key, decode_value(value), "hyperparameters[%r]" % (key,)) for key, value in job.hyperparameters
               if isinstance(key, str) and isinstance(value, str)]
    for key, value, arg in H.sdk_entries(job):
        if not isinstance(value, H.Ref):
            try:
                entries.append((key, decode_value(H.encode(value)), arg))
            except ValueError:
                continue  # reported by the checks
    return [entry for entry in entries if split_hyperparameters({entry[0]: entry[1]})[0]]


def _hyperparameter_problems(job, root):
    out, user = [], {}
    for key, value, arg in _hyperparameter_entries(job):
        user[key] = value
        name = "SM_HP_" + key.upper()
        if "=" in name:
            out.append(Problem(arg, "holds '=', which no variable name can hold: %s" % _AS_HP, key))
            continue
        texts = [(name, key)] + [(text, value) for text in [env_value(value)] + to_cmd_args({key: value})]
        for text, shown in texts:
            reason = unpassable(text)
            if reason is not None:
                out.append(Problem(arg, "%s: %s" % (reason, _AS_HP), shown))
                break
    return out or _size_problems(job, user, training_env_reserve(job, root))


def _size_problems(job, user, reserve):
    """The hyperparameters' share of the largest variables a host gets (``reserve``: the rest of
    ``SM_TRAINING_ENV``), against :data:`MAX_ARG_STRLEN`."""
    framework = dict((key, decode_value(value)) for key, value in job.hyperparameters
                     if isinstance(key, str) and isinstance(value, str) and key not in user)
    sizes = (("SM_TRAINING_ENV", len(to_json(user)) + len(to_json(framework)), reserve),
             ("SM_USER_ARGS", len(to_json(to_cmd_args(user))), 0))
    for variable, size, reserve in sizes:
        if size + reserve > MAX_ARG_STRLEN:
            kept = " and up to {:,} for the rest of it".format(reserve) if reserve else ""
            return [Problem("hyperparameters", "take {:,} bytes in a local host's variable {}{}, where a process's "
                            "variable holds at most {:,} bytes on Linux (the training toolkit exports them the same "
                            "way on SageMaker): shorten them".format(size, variable, kept, MAX_ARG_STRLEN))]
    return []


def _environment_problems(job):
    out = []
    for name, value in job.environment or ():
        if isinstance(name, str) and isinstance(value, str):
            reason = unpassable(name) or unpassable(value)
            if reason is not None:
                out.append(Problem("environment[%r]" % (name,), "%s: a local host gets it as a variable of its "
                                   "process" % reason, value))
    return out
