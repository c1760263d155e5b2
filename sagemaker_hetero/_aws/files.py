"""The edge the pure stages read the world through (``_model.outside``): package data files, a file's
first bytes within a bound, the AWS config file, the installed botocore's service model.

``sagemaker_hetero/__init__`` hands these in (:func:`hand_in`) when the package is first imported;
nothing here is imported but ``os``, ``errno`` and ``stat`` (botocore only when its model is asked for).
"""
import errno
import os
import stat

from sagemaker_hetero._model import outside

__all__ = ["DATA", "data_path", "data_text", "file_head", "aws_config", "live_service_model", "hand_in"]

#: The package's data folder.
DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


def data_path(name):
    """The path of the package data file ``name``."""
    return os.path.join(DATA, name)


def data_text(name):
    """The text of the package data file ``name``."""
    with open(data_path(name), encoding="utf-8") as f:
        return f.read()


def file_head(path, size, regular_only=False):
    """At most the first ``size`` bytes of the file at ``path`` (nothing past them is read); raises
    ``OSError``. ``regular_only``: a FIFO, device or folder there is refused at once (opened without
    blocking), for files found by their place rather than named by the user (a spec may well come
    through a pipe)."""
    fd = os.open(path, os.O_RDONLY | (os.O_NONBLOCK if regular_only else 0))
    try:
        if regular_only and not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        chunks, left = [], size
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def aws_config(path=None):
    """The text of the AWS config file at ``path`` (None: ``~/.aws/config``), or None when it cannot be
    read (as ``configparser`` skips a file it cannot open)."""
    try:
        with open(path or os.path.join(os.path.expanduser("~"), ".aws", "config")) as f:
            return f.read()
    except OSError:
        return None


def live_service_model():
    """The installed botocore's SageMaker service model, or None (no botocore, or no model in it)."""
    try:
        import botocore.session

        return botocore.session.get_session().get_service_model("sagemaker")
    except Exception:  # noqa: BLE001 - no botocore, or no model in it: the snapshot answers alone
        return None


def region_from_environment(environ=None):
    """The region the AWS configuration names (``environ``: default ``os.environ``): see
    ``_request.names.configured_region``; or None."""
    from sagemaker_hetero._request import names

    return names.configured_region(os.environ if environ is None else environ)


def hand_in():
    """Hand these readers in to the pure stages (``_model.outside``)."""
    outside.hand_in(data_text=data_text, file_head=file_head, aws_config=aws_config,
                    live_service_model=live_service_model)
