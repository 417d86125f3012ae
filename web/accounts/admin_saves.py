"""Admin saves that write only what the moderator changed."""


class ChangedColumnsOnly:
    """ModelAdmin mixin: a change writes only the fields its form changed against what the page
    showed, never putting back what another writer saved meanwhile."""

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        if obj is not None:
            for field in form.base_fields.values():
                field.show_hidden_initial = True
        return form

    def save_model(self, request, obj, form, change):
        if not change:
            return super().save_model(request, obj, form, change)
        columns = {field.name for field in obj._meta.concrete_fields}
        fields = [name for name in form.changed_data if name in columns]
        if fields:
            obj.save(update_fields=fields)

    def save_related(self, request, form, formsets, change):
        if change:  # form.save_m2m() writes the many-to-many fields left in cleaned_data
            for field in form.instance._meta.many_to_many:
                if field.name not in form.changed_data:
                    form.cleaned_data.pop(field.name, None)
        super().save_related(request, form, formsets, change)
