"""The ``Moderators`` group and exactly its permissions.

A moderator is a player in this group with ``is_staff`` (the admin shows them reports and the
audit log, read-only), never a superuser; every action is a service of moderation.services,
which checks the permission itself. ``manage.py moderators`` re-syncs the group.
"""

from django.db.models import Q

GROUP_NAME = "Moderators"

# (app label, codename): what a moderator may do, each checked by its service and view.
PERMISSIONS = (
    ("moderation", "view_report"),  # the moderation queue, a player's or a game's file
    ("moderation", "view_auditentry"),  # the audit log
    ("moderation", "dismiss_report"),
    ("moderation", "hide_message"),
    ("moderation", "silence_player"),
    ("moderation", "ban_player"),  # ban and unban
    ("moderation", "close_lobby"),
    ("moderation", "stop_game"),
)


def perm(codename: str) -> str:
    """The ``user.has_perm`` name of one of ``PERMISSIONS``."""
    return f"moderation.{codename}"


def sync_group(apps=None):
    """Create the group if needed and give it exactly ``PERMISSIONS``; returns the group."""
    if apps is None:
        from django.apps import apps as global_apps

        apps = global_apps
    from django.contrib.auth.management import create_permissions

    config = apps.get_app_config("moderation")
    historical = getattr(config, "models_module", None) is None  # create_permissions skips it
    if historical:
        config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    if historical:
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP_NAME)
    wanted = [
        Permission.objects.get(content_type__app_label=app, codename=codename)
        for app, codename in PERMISSIONS
    ]
    group.permissions.set(wanted)
    return group


def is_moderator(user) -> bool:
    """Whether ``user`` may open the moderation pages (the queue)."""
    return bool(user and user.is_authenticated and user.has_perm(perm("view_report")))


def is_moderator_or_superuser(user) -> bool:
    """Whether ``user`` is a superuser or a moderator (in the group, or holding the queue's
    permission): only a superuser may ban or silence them, or lift their ban or silence. One
    query, none for a superuser: ``user.has_perm`` reads the permissions in two, and misses the
    group of an inactive account."""
    if user.is_superuser:
        return True
    return type(user).objects.filter(pk=user.pk).filter(_moderator()).exists()


def _moderator():
    """In the group, or holding the queue's permission itself or through any group. The
    permission counts only for an active account, as ``has_perm`` has it (Django grants an
    inactive one none); the group counts all the same."""
    app, codename = "moderation", "view_report"
    holds = Q(user_permissions__content_type__app_label=app, user_permissions__codename=codename)
    group_holds = Q(
        groups__permissions__content_type__app_label=app, groups__permissions__codename=codename
    )
    return Q(groups__name=GROUP_NAME) | (Q(is_active=True) & (holds | group_holds))


def may_sanction(moderator, player) -> bool:
    """Whether ``moderator`` may ban or silence ``player`` (or lift it): a superuser anyone, a
    moderator only players who are neither superusers nor moderators."""
    return moderator.is_superuser or not is_moderator_or_superuser(player)


def sees_private_games(user) -> bool:
    """Whether ``user`` may see every private game and every figure of a profile, as if they
    had played in each game: the superuser and moderators (``moderation.view_report``), never
    ``is_staff`` alone. Django keeps the permissions on the user object: the first call costs
    two queries (the page's menu asks the same), later ones none. Imports no app's module, so
    that any app may call it."""
    return is_moderator(user)
