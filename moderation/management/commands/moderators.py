"""``manage.py moderators [--add NAME ...] [--remove NAME ...]``: re-sync the Moderators group,
add or remove moderators (in the group, and staff), and list them."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.access import GROUP_NAME, sync_group


class Command(BaseCommand):
    help = "Create or re-sync the Moderators group; add or remove moderators."

    def add_arguments(self, parser):
        parser.add_argument("--add", nargs="+", default=[], metavar="NAME")
        parser.add_argument("--remove", nargs="+", default=[], metavar="NAME")

    def handle(self, *args, add, remove, **options):
        group = sync_group()
        User = get_user_model()
        for name in add + remove:
            if not User.objects.filter(username=name).exists():
                raise CommandError(f"There is no user named {name!r}.")
        for name in add + remove:
            user = User.objects.get(username=name)
            if name in add:
                user.groups.add(group)
            else:
                user.groups.remove(group)
            if name in add or not user.is_superuser:
                user.is_staff = name in add
                user.save(update_fields=["is_staff"])
        names = sorted(group.user_set.values_list("username", flat=True))
        self.stdout.write(
            f"{GROUP_NAME}: {group.permissions.count()} permissions; "
            f"members: {', '.join(names) or 'none'}"
        )
