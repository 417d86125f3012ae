"""Admin saves that write only what the moderator changed."""


class ChangedColumnsOnly:
    """ModelAdmin mixin: saving a change writes only the columns its form changed. Django's
    admin saves the whole row as it was read when the page opened, and would put back what was
    written meanwhile (a rating at the end of a game, a ban by another moderator)."""

    def save_model(self, request, obj, form, change):
        if not change:
            return super().save_model(request, obj, form, change)
        columns = {field.name for field in obj._meta.concrete_fields}
        fields = [name for name in form.changed_data if name in columns]
        if fields:
            obj.save(update_fields=fields)
