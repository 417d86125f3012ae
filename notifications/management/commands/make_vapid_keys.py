"""``manage.py make_vapid_keys``: a new VAPID key pair for Web Push (notifications.push)."""

from django.core.management.base import BaseCommand

from notifications.push import make_keys


class Command(BaseCommand):
    help = "Print a new VAPID key pair as the SKYJO_VAPID_* environment variables take them."

    def handle(self, *args, **options):
        public, private = make_keys()
        self.stdout.write(f"SKYJO_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"SKYJO_VAPID_PRIVATE_KEY={private}")
