"""The ``Moderators`` group and exactly its permissions; each moderation service checks its own
(docs/moderation.md)."""

from django.db.models import Q

GROUP_NAME = "Moderators"

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


def is_moderator_or_superuser(user) -> bool:
    """Whether ``user`` is a superuser or a moderator (in the group, even inactive, or active
    and holding the queue's permission): one query, none for a superuser."""
    if user.is_superuser:
        return True
    app, codename = "moderation", "view_report"
    holds = Q(user_permissions__content_type__app_label=app, user_permissions__codename=codename)
    group_holds = Q(
        groups__permissions__content_type__app_label=app, groups__permissions__codename=codename
    )
    moderator = Q(groups__name=GROUP_NAME) | (Q(is_active=True) & (holds | group_holds))
    return type(user).objects.filter(pk=user.pk).filter(moderator).exists()


def may_sanction(moderator, player) -> bool:
    """Whether ``moderator`` may sanction ``player``: a superuser anyone, a moderator only
    players who are neither."""
    return moderator.is_superuser or not is_moderator_or_superuser(player)


def sees_private_games(user) -> bool:
    """Whether ``user`` may see every private game and figure: a superuser or a moderator,
    never ``is_staff`` alone."""
    return bool(user and user.is_authenticated and user.has_perm(perm("view_report")))
