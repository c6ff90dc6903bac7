"""A check that a value has the shape of a TypedDict (``engine.viewtypes.GameView``), for the tests
of the engine's view and of the views the picture tests make up."""

from __future__ import annotations

from types import UnionType
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict


def assert_shape(value: object, kind: object, where: str = "view") -> None:
    """``value`` is of the type ``kind`` (a TypedDict of engine.viewtypes, or what they are made of):
    every key a TypedDict requires present, no key it does not declare."""
    if kind is Any:
        return
    if is_typeddict(kind):
        assert isinstance(value, dict), f"{where}: {value!r} is not a dict"
        required, optional = kind.__required_keys__, kind.__optional_keys__
        assert required <= value.keys(), f"{where}: missing {required - value.keys()}"
        assert value.keys() <= required | optional, f"{where}: undeclared {value.keys() - required - optional}"
        hints = get_type_hints(kind)
        for key, item in value.items():
            assert_shape(item, hints[key], f"{where}[{key!r}]")
        return
    origin, args = get_origin(kind), get_args(kind)
    if origin is NotRequired:
        assert_shape(value, args[0], where)
    elif origin in (Union, UnionType):
        for option in args:
            try:
                assert_shape(value, option, where)
                return
            except AssertionError:
                continue
        raise AssertionError(f"{where}: {value!r} is none of {kind}")
    elif origin is Literal:
        assert value in args, f"{where}: {value!r} is not one of {args}"
    elif origin is list:
        assert isinstance(value, list), f"{where}: {value!r} is not a list"
        for i, item in enumerate(value):
            assert_shape(item, args[0], f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), f"{where}: {value!r} is not a dict"
        for key, item in value.items():
            assert_shape(key, args[0], f"{where} key")
            assert_shape(item, args[1], f"{where}[{key!r}]")
    elif kind is type(None):
        assert value is None, f"{where}: {value!r} is not None"
    else:
        assert isinstance(value, kind) and (kind is bool) == isinstance(value, bool), (
            f"{where}: {value!r} is not a {kind}"
        )
