"""`Frozen`: the base of the immutable records that every command loads (Hand, Table, Ruleset, ...).

Why not `@dataclass(frozen=True)`: a dataclass writes and compiles its methods (exec) when its
module loads, ~1 ms per class on every run of every command, and `dataclasses` itself costs
another ~0.7 ms. Here the methods are written once, in this class; a record names its `_fields`
and writes its own `__init__` (fast to call: a replay makes one Hand per hand). Behaves as the
frozen dataclass did: equal only to a record of the same class with equal fields, hashable,
`Name(field=value, ...)` as repr, and assigning a field raises AttributeError.
"""

from __future__ import annotations

from typing import Any, ClassVar

_set = object.__setattr__  # how an __init__ sets its fields past the frozen __setattr__


class Frozen:
    __slots__ = ()
    _fields: tuple[str, ...] = ()  # the record's fields, in order (as a NamedTuple's)
    _hidden: tuple[str, ...] = ()  # fields left out of the repr (bulky)

    _defaults: ClassVar[dict[str, Any]] = {}  # for the generic __init__: field -> its default

    def __init__(self, *args: Any, **kw: Any) -> None:
        """The generic form (a record on a hot path writes its own): positional or keyword, as a dataclass's."""
        fields = self._fields
        if len(args) > len(fields):
            raise TypeError(f"{type(self).__name__}() takes {len(fields)} arguments, got {len(args)}")
        values = dict(zip(fields, args, strict=False))
        for k, v in kw.items():
            if k not in fields or k in values:
                raise TypeError(f"{type(self).__name__}() got an unexpected or repeated argument {k!r}")
            values[k] = v
        for f in fields:
            if f in values:
                _set(self, f, values[f])
            elif f in self._defaults:
                _set(self, f, self._defaults[f])
            else:
                raise TypeError(f"{type(self).__name__}() is missing the argument {f!r}")

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, f) for f in self._fields])

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields if f not in self._hidden)
        return f"{type(self).__qualname__}({shown})"

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy: rebuilt through __init__
        return (type(self), self._values())

    def _replace(self, **changes: Any) -> Any:
        """A copy with some fields changed (as dataclasses.replace)."""
        values = {f: getattr(self, f) for f in self._fields}
        values.update(changes)
        return type(self)(**values)
