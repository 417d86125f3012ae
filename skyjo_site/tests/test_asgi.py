import subprocess
import sys

import pytest
from channels.testing import HttpCommunicator

from skyjo_site.asgi import application


@pytest.mark.django_db(transaction=True)
async def test_http_goes_through_the_asgi_application():
    communicator = HttpCommunicator(
        application, "GET", "/rules/", headers=[(b"host", b"127.0.0.1")]
    )
    response = await communicator.get_response()
    assert response["status"] == 200
    assert b"How to play Skyjo" in response["body"]


def test_static_files_are_served_by_the_app(client):
    response = client.get("/static/vendor/htmx.min.js")
    assert response.status_code == 200
    response = client.get("/static/css/site.css")
    assert response.status_code == 200


@pytest.mark.django_db
def test_pages_load_htmx_and_send_the_csrf_token(client):
    page = client.get("/").content.decode()
    assert "vendor/htmx.min.js" in page
    assert "vendor/htmx-ext-ws.js" in page
    assert 'hx-headers=\'{"X-CSRFToken": "' in page


def test_a_server_process_keeps_what_it_loaded_out_of_the_collectors_sight():
    """Loading the ASGI application freezes what it loaded (gc.freeze): a fresh interpreter,
    so that what this test process froze already does not count."""
    code = (
        "import gc; assert gc.get_freeze_count() == 0; "
        "import skyjo_site.asgi; print(gc.get_freeze_count(), gc.isenabled())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    frozen, enabled = out.stdout.split()[-2:]
    assert int(frozen) > 10_000
    assert enabled == "True"  # frozen, not switched off
