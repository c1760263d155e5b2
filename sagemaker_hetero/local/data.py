"""Data sources by URI, with the SageMaker Python SDK v2's names (``sagemaker.local.data``).

``get_data_source_instance("s3://bucket/job/output/model.tar.gz", session)`` gives an
:class:`S3DataSource`, which downloads what is under the URI into a new temporary folder (under
``local.container_root`` of the session's ``config`` if it has one); a ``file://`` URI gives a
:class:`LocalFileDataSource` of that file or folder. ``get_file_list()`` lists the files at the top
of the data (not below), ``get_root_dir()`` the folder holding them: what code written for the SDK
v2 reads after a job, e.g. to check that the model artifacts exist. Importing this module imports
no boto3: an ``S3DataSource`` downloads through the session (``Session.download_data``). The SDK
v2's splitters and batch strategies (for batch transform) are not here.
"""
import os
import tempfile
from urllib.parse import urlparse

__all__ = ["DataSource", "LocalFileDataSource", "S3DataSource", "get_data_source_instance"]


def get_data_source_instance(data_source, sagemaker_session):
    """The data source of a URI: ``file://`` a :class:`LocalFileDataSource`, ``s3://`` an :class:`S3DataSource`.

    Parameters
    ----------
    data_source : str
        A ``file://`` or ``s3://`` URI.
    sagemaker_session : Session
        The session an S3 source downloads with.

    Raises
    ------
    ValueError
        For a URI of another scheme.
    """
    parsed = urlparse(data_source)
    if parsed.scheme == "file":
        return LocalFileDataSource(parsed.netloc + parsed.path)
    if parsed.scheme == "s3":
        return S3DataSource(parsed.netloc, parsed.path, sagemaker_session)
    raise ValueError("data_source must be a file:// or s3:// URI (got %r, of scheme %r)" % (data_source, parsed.scheme))


class DataSource(object):
    """What a data source answers: its files and the folder holding them. Use a subclass."""

    def get_file_list(self):
        """The absolute paths of the data's files (a folder's own files, not those of its subfolders)."""
        raise NotImplementedError

    def get_root_dir(self):
        """The absolute path of the folder holding the data's files."""
        raise NotImplementedError


class LocalFileDataSource(DataSource):
    """A file or a folder of this machine.

    Parameters
    ----------
    root_path : str
        The file or folder; a RuntimeError if it does not exist.
    """

    def __init__(self, root_path):
        """Make the source; the parameters are the class's."""
        self.root_path = os.path.abspath(root_path)
        if not os.path.exists(self.root_path):
            raise RuntimeError("Invalid data source: %s does not exist." % self.root_path)

    def get_file_list(self):
        """The file itself, or the folder's files (not those of its subfolders), as absolute paths."""
        if not os.path.isdir(self.root_path):
            return [self.root_path]
        paths = (os.path.join(self.root_path, name) for name in sorted(os.listdir(self.root_path)))
        return [path for path in paths if os.path.isfile(path)]

    def get_root_dir(self):
        """The folder itself, or the file's folder."""
        return self.root_path if os.path.isdir(self.root_path) else os.path.dirname(self.root_path)


class S3DataSource(DataSource):
    """What is under an S3 prefix (or one object), downloaded into a new temporary folder when made.

    Parameters
    ----------
    bucket : str
        The bucket.
    prefix : str
        The key prefix, or an object's key (a leading ``/`` is dropped, as in a URI's path).
    sagemaker_session : Session
        The session that downloads it (``download_data``).
    """

    def __init__(self, bucket, prefix, sagemaker_session):
        """Download the data; the parameters are the class's."""
        config = sagemaker_session.config
        root = ((config or {}).get("local") or {}).get("container_root") if isinstance(config, dict) else None
        working_dir = tempfile.mkdtemp(dir=os.path.abspath(root) if root else None)
        sagemaker_session.download_data(path=working_dir, bucket=bucket, key_prefix=prefix.lstrip("/"))
        self.files = LocalFileDataSource(working_dir)

    def get_file_list(self):
        """The downloaded files at the top of the temporary folder, as absolute paths."""
        return self.files.get_file_list()

    def get_root_dir(self):
        """The temporary folder the data was downloaded into."""
        return self.files.get_root_dir()
