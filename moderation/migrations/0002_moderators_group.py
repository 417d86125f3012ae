"""The Moderators group with exactly its permissions (core.access)."""

from django.db import migrations


def create_group(apps, schema_editor):
    from core.access import sync_group

    sync_group(apps)


def remove_group(apps, schema_editor):
    from core.access import GROUP_NAME

    apps.get_model("auth", "Group").objects.filter(name=GROUP_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
