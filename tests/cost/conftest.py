import pytest

from tests.cost import _price_list


@pytest.fixture
def price_list(aws):
    """The moto server answers GetProducts from the recorded Price List answer (tests/cost/_price_list.py)."""
    return _price_list.install(aws)
