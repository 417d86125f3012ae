"""Settings for benchmarks/relay.py: the site's own, on the benchmark's SQLite file if no
DATABASE_URL is set (``SKYJO_BENCH_SQLITE``), so that a run never touches db.sqlite3."""

import os

from skyjo_site.settings import *  # noqa: F403
from skyjo_site.settings import DATABASE_URL, DATABASES

if not DATABASE_URL:
    DATABASES["default"]["NAME"] = os.environ["SKYJO_BENCH_SQLITE"]
