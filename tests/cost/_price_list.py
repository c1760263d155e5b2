"""The AWS Price List Query API's GetProducts, answered by the test server from a recorded answer.

moto has no Price List API (tests/_aws.py, note (j)): :class:`PriceListAnswers` answers GetProducts
in the service's shape from ``tests/data/pricing/get_products_sagemaker.json``, an answer built for
these tests (realistic prices, and the rows a training price is not: a hosting price, a training
plan's upfront fee, an Outposts price, a $0 row, a type with two prices). As the service does, it
keeps the products every TERM_MATCH filter matches and pages them (``MaxResults``, ``NextToken``).
"""
import json
import os
import threading

from tests._answers import json_answer

RECORDED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "pricing",
                        "get_products_sagemaker.json")

#: The us-west-2 training prices in the recorded answer (USD per hour), as the tests compute with them.
US_WEST_2 = {
    "ml.c5.xlarge": "0.204", "ml.c5.2xlarge": "0.408", "ml.c5.18xlarge": "3.672", "ml.m5.large": "0.115",
    "ml.m5.xlarge": "0.23", "ml.m5.2xlarge": "0.461", "ml.p3.2xlarge": "3.825", "ml.g5.2xlarge": "1.515",
    "ml.p4d.24xlarge": "37.688", "ml.p3dn.24xlarge": "31.212",
}


def recorded():
    """The recorded GetProducts answer: ``{"FormatVersion": "aws_v1", "PriceList": [JSON strings]}``."""
    with open(RECORDED) as f:
        return json.load(f)


def _matches(item, filters, service_code):
    document = json.loads(item)
    if document.get("serviceCode") != service_code:
        return False
    attributes = document["product"]["attributes"]
    return all(attributes.get(f["Field"]) == f["Value"] for f in filters if f.get("Type") == "TERM_MATCH")


class PriceListAnswers(object):
    """A handler of the server's answers (``tests._answers.Answers``) for pricing GetProducts; ``requests``
    are the parsed requests it answered."""

    def __init__(self, answer=None, page_size=None):
        self.items = (answer or recorded())["PriceList"]
        self.page_size = page_size
        self.requests = []
        self._lock = threading.Lock()

    def __call__(self, record):
        request = record.json or {}
        with self._lock:
            self.requests.append(request)
        found = [i for i in self.items if _matches(i, request.get("Filters") or (), request.get("ServiceCode"))]
        size = min(request.get("MaxResults") or 100, self.page_size or 100)
        start = int(request.get("NextToken") or 0)
        answer = {"FormatVersion": "aws_v1", "PriceList": found[start:start + size]}
        if start + size < len(found):
            answer["NextToken"] = str(start + size)
        return json_answer(answer)


def install(server, **kwargs):
    """Have the moto ``server`` (``tests._aws.MotoServer``) answer GetProducts from the recorded answer
    until its next reset; returns the handler."""
    answers = PriceListAnswers(**kwargs)
    server.answers.add("pricing", "GetProducts", answers)
    return answers
