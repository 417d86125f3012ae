import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _no_language_left_behind():
    """A page asked in German leaves German active in the test's thread (LocaleMiddleware
    activates it and nothing deactivates it): later tests in the same process would read
    German messages."""
    yield
    translation.deactivate()
