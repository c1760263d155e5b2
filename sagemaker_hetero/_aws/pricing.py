"""Prices looked up, and the estimates and bills made with them (:func:`estimate_of`, :func:`bill_of`:
what the estimators, the dry-run view, ``TrainingJob`` and the CLI ask for).

Where a price comes from, first found first: the user's table (``prices=``, ``--prices FILE``,
``SAGEMAKER_HETERO_PRICES``), the on-disk cache (``_cost.cache``), then, only when the caller allows
a call (``fetch``), the AWS Price List Query API. The edge: the one place that calls it. With no
region known (None, or a dry run's placeholder ``<region>``) only the table's prices for every region
are had: prices differ by region. A price out of the sane range (``_cost.prices.usd``) is never
used, nor cached.

GetProducts goes to the Price List's endpoint in us-east-1 (eu-central-1, then ap-south-1, when
that one cannot be reached), each call through the one error translator (``_aws.errors.call``),
with short timeouts and few retries (unless ``AWS_MAX_ATTEMPTS`` or ``AWS_RETRY_MODE`` say
otherwise): a price is a nicety, never worth a long wait. Whatever keeps a price from being read
(no ``pricing:GetProducts`` permission, no credentials, no endpoint, no single price in the
answer) makes that type's price :class:`Unknown`, with the reason, never an error; a permission,
credential or endpoint failure is not tried again for the other types. ``boto3`` is imported only
when a call is made: a dry run never imports it.
"""
import os
import time

from sagemaker_hetero._cost import billed, estimate
from sagemaker_hetero._defaults import REGION_PLACEHOLDER
from sagemaker_hetero._cost import cache as C
from sagemaker_hetero._cost.prices import PERMISSION, SERVICE_CODE, Price, Unknown, filters, hourly_price, is_region
from sagemaker_hetero._model.instance_types import is_instance_type

__all__ = ["PriceSource", "lookup", "estimate_of", "bill_of", "ENDPOINT_REGIONS", "PRICE_LIST"]

#: The regions whose endpoint serves the Price List Query API, in the order they are tried.
ENDPOINT_REGIONS = ("us-east-1", "eu-central-1", "ap-south-1")
#: How a price read from the Price List now names where it came from.
PRICE_LIST = "AWS Price List"
_MAX_PAGES = 5
_TIMEOUTS = {"connect_timeout": 5, "read_timeout": 20}
_RETRIES = {"mode": "standard", "max_attempts": 3}
_NOT_GIVEN = ("no price in %s is given (prices=, --prices or SAGEMAKER_HETERO_PRICES) or cached from the AWS Price "
              "List this week (estimate_cost(), TrainingJob.cost() and sagemaker-hetero cost read and cache it)")


def estimate_of(request, region, prices=None, fetch=False, boto_session=None, argument="prices", alternatives=()):
    """The ``Estimate`` of a CreateTrainingJob request in ``region``: ``prices`` (a price file's path or a
    mapping; None: ``SAGEMAKER_HETERO_PRICES``'s file) first, the cache, and the Price List if ``fetch``.
    A price file that cannot be read or is malformed is a ``ConfigError``; a price that cannot be had is
    unknown. ``alternatives``: the groups' other choices, ``[(group, type, count)]``, priced too."""
    types = estimate.instance_types(request)
    types = types + [t for t in sorted(set(t for _, t, _ in alternatives if isinstance(t, str))) if t not in types]
    found = lookup(types, region, prices, fetch=fetch, boto_session=boto_session, argument=argument)
    return estimate.estimate(request, found, region, alternatives)


def bill_of(desc, region, prices=None, fetch=False, boto_session=None, argument="prices"):
    """The ``Bill`` of a DescribeTrainingJob answer, its prices looked up as :func:`estimate_of` looks them up."""
    found = lookup(estimate.instance_types(desc), region, prices, fetch=fetch, boto_session=boto_session,
                   argument=argument)
    return billed.bill(desc, found, region)


def lookup(instance_types, region, prices=None, fetch=False, boto_session=None, argument="prices"):
    """``{instance_type: Price or Unknown}`` of ``instance_types`` in ``region``: from ``prices`` (a
    ``prices=`` value: a file's path, a mapping, a table; None: ``SAGEMAKER_HETERO_PRICES``'s file, if
    set), the cache, and the Price List only when ``fetch``. Raises :class:`ConfigError` for a price
    table that cannot be read or is malformed."""
    from sagemaker_hetero._cost.table import table_of

    source = PriceSource(region, table_of(prices, argument), fetch=fetch, boto_session=boto_session)
    return source.prices(instance_types)


class PriceSource(object):
    """The prices of instance types in ``region``: from ``table`` (a ``_cost.table.PriceTable`` or
    None), the ``cache`` (default: the user's), and the Price List when ``fetch`` (with
    ``boto_session``, default a new one). Each type is looked up once per source."""

    def __init__(self, region, table=None, fetch=False, boto_session=None, cache=None, clock=time.time):
        self.region = region
        self.table = table
        self.fetch = fetch
        self.cache = cache if cache is not None else C.PriceCache(clock=clock)
        self.clock = clock
        self._boto_session = boto_session
        self._clients = {}
        self._endpoint = ENDPOINT_REGIONS[0]
        self._failure = None  # why no further call is worth making
        self._found = {}

    def prices(self, instance_types):
        """``{instance_type: Price or Unknown}`` for each of ``instance_types``."""
        return dict((t, self.price(t)) for t in instance_types)

    def price(self, instance_type):
        """The :class:`Price` of ``instance_type``, or :class:`Unknown` with the reason."""
        if instance_type not in self._found:
            self._found[instance_type] = self._look_up(instance_type)
        return self._found[instance_type]

    def _look_up(self, instance_type):
        if not is_instance_type(instance_type):
            return Unknown(instance_type, "not a SageMaker instance type")
        if self.region in (None, REGION_PLACEHOLDER):
            return self._without_region(instance_type)
        found = self.table.price(self.region, instance_type) if self.table is not None else None
        found = found or self.cache.get(self.region, instance_type)
        if found is not None:
            return found
        if not self.fetch:
            return Unknown(instance_type, _NOT_GIVEN % self.region)
        if not is_region(self.region):
            return Unknown(instance_type, "%r is not a region the AWS Price List knows" % (self.region,))
        if self._failure is not None:
            return Unknown(instance_type, self._failure)
        return self._fetch(instance_type)

    def _without_region(self, instance_type):
        """With no region known: the table's price for every region, else why there is none."""
        found = self.table.price(None, instance_type) if self.table is not None else None
        if found is not None:
            return found
        regions = self.table.regions(instance_type) if self.table is not None else ()
        if regions:
            return Unknown(instance_type, "no region is known (set AWS_REGION, or a profile's region), and %s "
                                          "prices it only in %s" % (self.table.source, ", ".join(regions)))
        return Unknown(instance_type, "no region is known, and prices differ by region")

    def _fetch(self, instance_type):
        from sagemaker_hetero import exceptions as E

        items, token = [], None
        try:
            for _ in range(_MAX_PAGES):
                params = dict(ServiceCode=SERVICE_CODE, Filters=filters(self.region, instance_type),
                              FormatVersion="aws_v1", MaxResults=100)
                if token:
                    params["NextToken"] = token
                answer = self._call(params)
                items.extend(answer.get("PriceList") or ())
                token = answer.get("NextToken")
                if not token:
                    break
            else:  # a price from part of the answer could be the wrong one: none, and said why
                return Unknown(instance_type, "the AWS Price List was still paging after %d pages; not read further"
                               % _MAX_PAGES)
            amount, reason = hourly_price(items, self.region, instance_type)
        except E.AWSError as exc:
            reason = _failure_words(exc)
            if isinstance(exc, (E.AccessDeniedError, E.NoCredentialsError)) or exc.code == "ConnectionError":
                self._failure = reason
            return Unknown(instance_type, reason)
        except Exception as exc:  # a stub, a test double or an odd answer: unknown, never a failed estimate
            self._failure = "the AWS Price List could not be asked (%s)" % type(exc).__name__
            return Unknown(instance_type, self._failure)
        if amount is None:
            return Unknown(instance_type, reason)
        today = time.strftime("%Y-%m-%d", time.gmtime(self.clock()))
        price = Price(instance_type, self.region, amount, PRICE_LIST, today)
        self.cache.put(price)
        return price

    def _call(self, params):
        """GetProducts at the first endpoint that can be reached (the last one that could, first)."""
        from sagemaker_hetero import exceptions as E
        from sagemaker_hetero._aws import errors

        order = (self._endpoint,) + tuple(r for r in ENDPOINT_REGIONS if r != self._endpoint)
        for i, endpoint in enumerate(order):
            try:
                answer = errors.call(self._client(endpoint), "GetProducts", **params)
            except E.AWSError as exc:
                if exc.code != "ConnectionError" or i == len(order) - 1:
                    raise
                continue
            self._endpoint = endpoint
            return answer
        raise AssertionError("unreachable")

    def _client(self, endpoint):
        if endpoint not in self._clients:
            import botocore.config

            from sagemaker_hetero._aws import clients

            if self._boto_session is None:
                self._boto_session = clients.new_boto_session()
            configured = os.environ.get("AWS_MAX_ATTEMPTS") or os.environ.get("AWS_RETRY_MODE")
            config = botocore.config.Config(retries=None if configured else dict(_RETRIES), **_TIMEOUTS)
            self._clients[endpoint] = self._boto_session.client("pricing", region_name=endpoint, config=config)
        return self._clients[endpoint]


def _failure_words(exc):
    """Why the Price List could not be read, naming the permission it takes."""
    from sagemaker_hetero import exceptions as E

    message = exc.aws_message if getattr(exc, "aws_message", None) else str(exc)
    if isinstance(exc, E.AccessDeniedError):
        return "the caller may not read the AWS Price List (%s is not allowed: %s)" % (PERMISSION, message)
    if isinstance(exc, E.NoCredentialsError):
        return "no AWS credentials to read the AWS Price List (%s)" % PERMISSION
    if exc.code == "ConnectionError":
        return "the AWS Price List API (%s) could not be reached at %s: %s" % (
            PERMISSION, ", ".join(ENDPOINT_REGIONS), message)
    return "the AWS Price List answered %s (%s): %s" % (exc.code, PERMISSION, message)
