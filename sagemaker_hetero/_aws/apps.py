"""The URL of SageMaker Studio's TensorBoard app for a training job (``estimator.get_app_url``).

As the SageMaker Python SDK v2 builds it: inside Studio (its metadata file names the domain and user
profile), the app in that domain; outside, a presigned domain URL when asked for one with a domain
and user profile, else the TensorBoard landing page of the SageMaker console.
"""
import base64
import json

from sagemaker_hetero._request import names as _names
from sagemaker_hetero.exceptions import ConfigError

__all__ = ["TENSORBOARD", "STUDIO_METADATA_FILE", "studio_user", "tensorboard_url", "app_url"]

TENSORBOARD = "tensorboard"
#: Where a SageMaker Studio notebook finds its domain and user profile.
STUDIO_METADATA_FILE = "/opt/ml/metadata/resource-metadata.json"


def studio_user(path=None):
    """``(domain id, user profile name)`` when running inside SageMaker Studio, else None."""
    try:
        with open(path or STUDIO_METADATA_FILE, "rb") as handle:
            metadata = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    if not isinstance(metadata, dict) or "DomainId" not in metadata or "UserProfileName" not in metadata:
        return None
    return metadata["DomainId"], metadata["UserProfileName"]


def _add_job(job_name):
    return "/data/plugin/sagemaker_data_manager/add_folder_or_job?Redirect=True&Name=%s" % job_name


def tensorboard_url(region, job_name=None, studio=None, presign=None):
    """The TensorBoard app's URL, with ``job_name`` loaded in it when given.

    ``studio``: ``(domain, user profile)`` inside Studio. ``presign``: a function that returns a
    presigned domain URL (CreatePresignedDomainUrl), used outside Studio when given."""
    if studio is not None:
        url = "https://%s.studio.%s.sagemaker.aws/tensorboard/default" % (studio[0], region)
        return url + (_add_job(job_name) if job_name is not None else "/#sagemaker_data_manager")
    if presign is not None:
        url = presign() + "&redirect=TensorBoard"
        if job_name is not None:
            state = "/tensorboard/default" + _add_job(job_name)
            url += "&state=" + base64.b64encode(state.encode("utf-8")).decode("utf-8")
        return url
    url = "https://%s.console.aws.amazon.com/sagemaker/home?region=%s#/tensor-board-landing" % (region, region)
    return url + ("/%s" % job_name if job_name is not None else "")


def app_url(app_type, region, job_name, get_session, open_in_browser, create_presigned_domain_url, domain_id,
            user_profile_name, presigned_url_kwargs):
    """``estimator.get_app_url``: the app's URL (``""`` once opened in a browser). ``region``: the
    session's (None: not configured); ``get_session()``: the session that presigns a domain URL."""
    name = getattr(app_type, "name", app_type)
    if not isinstance(name, str) or name.lower() != TENSORBOARD:
        raise ValueError("%s does not support URL retrieval." % (name,))
    problems = _names.region_problems(region, "sagemaker_session", placeholder_ok=True)
    if problems:
        raise ConfigError(problems)
    studio = studio_user()
    presign = None
    if studio is None and create_presigned_domain_url and domain_id and user_profile_name:
        kwargs = dict(presigned_url_kwargs or {}, DomainId=domain_id, UserProfileName=user_profile_name)
        presign = lambda: get_session().create_presigned_domain_url(**kwargs)  # noqa: E731
    url = tensorboard_url(region, job_name, studio=studio, presign=presign)
    if open_in_browser:
        import webbrowser

        webbrowser.open(url)
        return ""
    return url
