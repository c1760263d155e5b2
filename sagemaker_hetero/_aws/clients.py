"""New boto3 sessions that share botocore's data loader within the process (edge: imports boto3).

Every ``boto3.Session()`` builds a botocore session with a loader of its own, so its first clients
read and parse the service models again (SageMaker's is several MB of JSON): about 0.3 s per new
session with four clients on a small machine. The sessions the SDK builds itself (``Session()``
without ``boto_session``, the CLI's, the local runner's for ``s3://`` data) share one loader per
data path (``AWS_DATA_PATH`` or the profile's ``data_path``) for the whole process instead; each
session still reads its own credentials, region, profile and configuration.
"""

import threading
from typing import Any, Dict, Optional

import boto3
import botocore.session

_LOADERS = {}  # type: Dict[Optional[str], Any]
_LOCK = threading.Lock()


def new_boto_session(region_name=None, profile_name=None):
    # type: (Optional[str], Optional[str]) -> boto3.Session
    """``boto3.Session(region_name=..., profile_name=...)`` whose botocore loader is the process's."""
    core = botocore.session.Session()
    if profile_name is not None:
        core.set_config_variable("profile", profile_name)
    data_path = core.get_config_variable("data_path")
    with _LOCK:
        loader = _LOADERS.get(data_path)
        if loader is None:
            loader = _LOADERS[data_path] = core.get_component("data_loader")
        else:
            core.register_component("data_loader", loader)
        session = boto3.Session(botocore_session=core, region_name=region_name, profile_name=profile_name)
        # boto3 appends its own data folder to the loader's search paths for every new session: keep one.
        paths = loader.search_paths
        while len(paths) > 1 and paths[-1] in paths[:-1]:
            paths.pop()
    return session
