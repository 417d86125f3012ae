"""Strong: placeholder that plays like Medium until the analytic strong bot lands."""

from .medium import MediumBot


class StrongBot(MediumBot):
    name = "strong"
