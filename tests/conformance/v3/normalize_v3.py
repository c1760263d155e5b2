"""Normalise a CreateTrainingJob request of a ModelTrainer scenario so that SDK v3's and ours compare.

- The job name's timestamp (SDK v3: ``<base>-YYYYmmddHHMMSS``) becomes ``<base>-{timestamp}``, wherever
  the name appears (the code and driver channels' keys hold it).
- The S3 URIs of the SDK-managed channels ``code`` and ``sm_drivers`` become ``<code>`` and
  ``<sm_drivers>``: their keys and contents are each SDK's own (docs/v3.md).
"""
import json
import re

_TS = re.compile(r"-\d{14}(?=[/\"])")
MANAGED = ("code", "sm_drivers")


def normalize(request):
    text = _TS.sub("-{timestamp}", json.dumps(request, sort_keys=True))
    req = json.loads(text)
    for channel in req.get("InputDataConfig") or []:
        if channel.get("ChannelName") in MANAGED:
            source = channel.get("DataSource", {}).get("S3DataSource")
            if source is not None and "S3Uri" in source:
                source["S3Uri"] = "<%s>" % channel["ChannelName"]
    return req
