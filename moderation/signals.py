"""A change of a user's groups, permissions, ``is_superuser``, ``is_active`` (or deletion)
closes their open sockets after the commit: they connect again and are checked anew."""

from django.contrib.auth.models import Group
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_save

from accounts.access import close_user_sockets
from accounts.models import User

ACCESS_FIELDS = ("is_superuser", "is_active")
# pre_clear: from the group's side, who loses it is known only before the rows go.
LINK_CHANGES = ("post_add", "post_remove", "pre_clear")


def connect() -> None:
    for through in (User.groups.through, User.user_permissions.through):
        m2m_changed.connect(
            on_user_links, sender=through, dispatch_uid=f"moderation.{through._meta.label}"
        )
    m2m_changed.connect(
        on_group_permissions, sender=Group.permissions.through, dispatch_uid="moderation.group"
    )
    pre_save.connect(note_access_change, sender=User, dispatch_uid="moderation.access")
    post_save.connect(close_on_access_change, sender=User, dispatch_uid="moderation.access")
    post_delete.connect(close_on_delete, sender=User, dispatch_uid="moderation.delete")


def on_user_links(sender, instance, action, reverse, pk_set, **kwargs) -> None:
    """``User.groups`` or ``User.user_permissions`` changed, from either side."""
    if _changed(action, pk_set):
        for user_id in _owner_ids(instance, action, reverse, pk_set, "user_set"):
            close_user_sockets(user_id)


def on_group_permissions(sender, instance, action, reverse, pk_set, **kwargs) -> None:
    """``Group.permissions`` changed: every member of the groups concerned."""
    if _changed(action, pk_set):
        group_ids = _owner_ids(instance, action, reverse, pk_set, "group_set")
        members = User.objects.filter(groups__in=group_ids).values_list("pk", flat=True)
        for user_id in members.distinct():
            close_user_sockets(user_id)


def _changed(action: str, pk_set) -> bool:
    # Django sends post_add with an empty pk_set when every row was there already.
    return action in LINK_CHANGES and (action == "pre_clear" or bool(pk_set))


def _owner_ids(instance, action, reverse, pk_set, owners: str):
    """The ids on the owning side (``owners``: the manager back to them) whose links changed."""
    if not reverse:
        return [instance.pk]
    if action == "pre_clear":
        return list(getattr(instance, owners).values_list("pk", flat=True))
    return pk_set


def note_access_change(sender, instance, raw=False, update_fields=None, **kwargs) -> None:
    """Before a save: whether it changes ``ACCESS_FIELDS`` of the stored row."""
    instance._access_changed = False
    if raw or instance._state.adding:
        return
    if update_fields is not None and not set(update_fields) & set(ACCESS_FIELDS):
        return
    stored = User.objects.filter(pk=instance.pk).values_list(*ACCESS_FIELDS).first()
    instance._access_changed = stored is not None and stored != tuple(
        getattr(instance, name) for name in ACCESS_FIELDS
    )


def close_on_access_change(sender, instance, created, raw=False, **kwargs) -> None:
    # After the write: outside a transaction on_commit runs at once.
    if getattr(instance, "_access_changed", False):
        instance._access_changed = False
        close_user_sockets(instance.pk)


def close_on_delete(sender, instance, **kwargs) -> None:
    close_user_sockets(instance.pk)
