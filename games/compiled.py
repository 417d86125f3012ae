"""The statements of a move, with their SQL built once per process instead of once per call.

The ORM builds a statement's SQL anew every time it runs it: for the four statements of a move
that cost more CPU than the rest of the move together (2.8 ms against 0.45 ms for the same SQL
run directly, docs/performance.md, fourth sitting). Here the ORM still writes every statement
(a queryset, or a model's fields), once per database alias; each call after that only binds its
values, runs the SQL and builds the model instances the way a queryset does.

- :class:`Select`: a queryset whose values change from call to call (``filter(pk=...)``).
- :class:`Update`: a queryset's ``update(...)``, its filter and new values changing likewise.
- :func:`insert`: ``instance.save()`` of a new row, without reading back its primary key.
- :func:`update`: ``instance.save(update_fields=...)``.

No model signals are sent (no receiver listens to the rows written here), and ``auto_now``
fields are set as ``save`` sets them.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.db import DatabaseError, connections
from django.db.models import Value
from django.db.models.query import get_related_populators
from django.db.models.sql import UpdateQuery
from django.db.transaction import TransactionManagementError


@dataclass(frozen=True, slots=True)
class _Plan:
    sql: str
    params: tuple
    slots: tuple[int, ...]  # where each call's values go in params
    start: int  # the main model's columns: row[start:end]
    end: int
    init_list: list[str]
    converters: dict  # column -> (converters, expression), as the ORM applies them
    populators: list  # select_related models
    model: type
    for_update: bool


class Select:
    """A SELECT written by ``build(*values)`` (a queryset), compiled on first use on a database
    alias and run again with other values. ``build`` is called with one sentinel per value; the
    compiled SQL must hold each exactly once as a parameter (checked when compiling).

    >>> players = Select(lambda game_id: GamePlayer.objects.filter(game_id=game_id))
    >>> players.all(7)  # doctest: +SKIP
    """

    _SENTINELS = (-7_201_019_377, -7_201_019_378, -7_201_019_379, -7_201_019_380)

    def __init__(self, build: Callable):
        self.build = build
        self._plans: dict[str, _Plan] = {}

    def all(self, *values, using: str = "default") -> list:
        plan = self._plans.get(using) or self._compile(using, len(values))
        connection = connections[using]
        if plan.for_update and connection.get_autocommit():
            raise TransactionManagementError("a locking read runs inside a transaction")
        params = list(plan.params)
        for slot, value in zip(plan.slots, values, strict=True):
            params[slot] = value
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows = cursor.fetchall()
        objects = []
        for row in rows:
            if plan.converters:
                row = list(row)
                for pos, (functions, expression) in plan.converters.items():
                    value = row[pos]
                    for convert in functions:
                        value = convert(value, expression, connection)
                    row[pos] = value
            obj = plan.model.from_db(using, plan.init_list, row[plan.start : plan.end])
            for populator in plan.populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects

    def first(self, *values, using: str = "default"):
        rows = self.all(*values, using=using)
        return rows[0] if rows else None

    def _compile(self, using: str, count: int) -> _Plan:
        sentinels = self._SENTINELS[:count]
        queryset = self.build(*sentinels)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = tuple(params.index(s) for s in sentinels)
        if any(params.count(s) != 1 for s in sentinels):
            raise ValueError(f"each value must appear once in {sql!r}")
        klass_info, select = compiler.klass_info, compiler.select
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        if compiler.annotation_col_map or len(select) != compiler.col_count:
            raise ValueError("annotations and extra columns are not supported")
        plan = _Plan(
            sql=sql,
            params=tuple(params),
            slots=slots,
            start=start,
            end=end,
            init_list=[column[0].target.attname for column in select[start:end]],
            converters=compiler.get_converters([column[0] for column in select]),
            populators=get_related_populators(klass_info, select, using),
            model=klass_info["model"],
            for_update=queryset.query.select_for_update,
        )
        self._plans[using] = plan
        return plan


class Update:
    """An UPDATE written by ``build(*values)``, which returns a queryset (the rows) and the
    keyword arguments of its ``update()``, compiled on first use on a database alias and run
    again with other values. As in :class:`Select`, each value is a sentinel that must appear
    exactly once: in a filter, or as a new value of its own (``last_seen=value``), which is
    prepared for its field on every call as ``update()`` would (a datetime for SQLite, say).
    Expressions (``F("n") + value``) are compiled into the SQL; only the values change.

    >>> touch = Update(lambda pk, now: (GamePlayer.objects.filter(pk=pk), {"last_seen": now}))
    >>> touch.run(7, timezone.now())  # doctest: +SKIP
    1
    """

    def __init__(self, build: Callable):
        self.build = build
        self._plans: dict[str, tuple[str, tuple, tuple]] = {}

    def run(self, *values, using: str = "default") -> int:
        """Update the rows; returns how many there were."""
        sql, params, slots = self._plans.get(using) or self._compile(using, len(values))
        connection = connections[using]
        params = list(params)
        for (slot, prepare), value in zip(slots, values, strict=True):
            params[slot] = value if prepare is None else prepare(value, connection)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.rowcount

    def _compile(self, using: str, count: int) -> tuple[str, tuple, tuple]:
        sentinels = Select._SENTINELS[:count]
        queryset, changes = self.build(*sentinels)
        prepare = {}
        for name, value in list(changes.items()):
            if isinstance(value, int) and value in sentinels:  # a new value: a bare parameter
                prepare[value] = queryset.model._meta.get_field(name).get_db_prep_save
                changes[name] = Value(value)
        query = queryset.query.chain(UpdateQuery)
        query.add_update_values(changes)
        sql, params = query.get_compiler(using=using).as_sql()
        if any(params.count(s) != 1 for s in sentinels):
            raise ValueError(f"each value must appear once in {sql!r}")
        slots = tuple((params.index(s), prepare.get(s)) for s in sentinels)
        self._plans[using] = plan = (sql, tuple(params), slots)
        return plan


_inserts: dict[tuple, tuple[str, list]] = {}
_updates: dict[tuple, tuple[str, list]] = {}


def insert(instance, *, using: str = "default") -> None:
    """Write the new row ``instance`` (its primary key, an auto field, is left unset)."""
    model = type(instance)
    connection = connections[using]
    key = (model, using)
    if key not in _inserts:
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        quote = connection.ops.quote_name
        columns = ", ".join(quote(f.column) for f in fields)
        marks = ", ".join("%s" for _ in fields)
        _inserts[key] = (
            f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})",
            fields,
        )
    sql, fields = _inserts[key]
    params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    instance._state.adding = False
    instance._state.db = using


def update(instance, fields: list[str], *, using: str = "default") -> None:
    """Write ``fields`` of the saved row ``instance`` (one UPDATE by primary key)."""
    model = type(instance)
    connection = connections[using]
    key = (model, tuple(fields), using)
    if key not in _updates:
        meta, quote = model._meta, connection.ops.quote_name
        chosen = [meta.get_field(name) for name in fields]
        sets = ", ".join(f"{quote(f.column)} = %s" for f in chosen)
        where = f"{quote(meta.pk.column)} = %s"
        _updates[key] = (f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {where}", chosen)
    sql, chosen = _updates[key]
    params = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in chosen]
    params.append(instance.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:  # as save(update_fields=...) says
            raise DatabaseError(f"{model.__name__} {instance.pk} was not updated")
