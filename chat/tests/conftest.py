import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english():
    """Messages read in English (a page load of another language may leave it active)."""
    with translation.override("en"):
        yield
