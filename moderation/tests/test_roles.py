"""core.access.is_moderator_or_superuser: who counts as a moderator or a superuser (only a
superuser may ban or silence them), and what the question costs: nothing for a superuser, one
query for anyone else, whatever Django has cached of their permissions."""

import pytest
from django.contrib.auth.models import Group, Permission

from core.access import GROUP_NAME, is_moderator_or_superuser

pytestmark = pytest.mark.django_db


def view_report() -> Permission:
    return Permission.objects.get(content_type__app_label="moderation", codename="view_report")


def holding_the_permission(user):
    user.user_permissions.add(view_report())
    return user


def deactivated(user):
    user.is_active = False
    user.save(update_fields=["is_active"])
    return user


def in_another_group_with_the_permission(user):
    helpers = Group.objects.create(name="Helpers")
    helpers.permissions.add(view_report())
    user.groups.add(helpers)
    return user


def in_the_group_without_the_permission(moderator):
    Group.objects.get(name=GROUP_NAME).permissions.remove(view_report())
    return moderator


# (case, the user it starts from, what makes them so, the answer, queries)
CASES = [
    ("superuser", "root", None, True, 0),
    ("moderator", "maud", None, True, 1),
    ("player", "bob", None, False, 1),
    ("holding the permission", "bob", holding_the_permission, True, 1),
    ("in another group with it", "bob", in_another_group_with_the_permission, True, 1),
    ("in the group without it", "maud", in_the_group_without_the_permission, True, 1),
    ("inactive moderator", "maud", deactivated, True, 1),
    ("inactive, holding it", "bob", lambda u: deactivated(holding_the_permission(u)), False, 1),
]


@pytest.mark.parametrize(
    "start, make, expected, queries", [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_who_is_a_moderator_or_a_superuser_and_what_it_costs(
    request, django_assert_num_queries, start, make, expected, queries
):
    user = request.getfixturevalue(start)
    if make is not None:
        make(user)
    user = type(user).objects.get(pk=user.pk)  # nothing cached
    with django_assert_num_queries(queries):
        assert is_moderator_or_superuser(user) is expected


def test_the_cost_stays_one_query_once_the_permissions_are_cached(
    bob, maud, django_assert_num_queries
):
    for user in (bob, maud):
        user.has_perm("moderation.view_report")
        with django_assert_num_queries(1):
            is_moderator_or_superuser(user)
