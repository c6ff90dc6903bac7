"""Locks for acknowledging first (bot/tables/locking.py)."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables.locking import KeyedLock, held_after


async def test_keyed_lock_serialises_one_key_only():
    lock = KeyedLock()
    order: list[str] = []
    gate = asyncio.Event()

    async def hold(key: int, name: str, wait: bool) -> None:
        async with lock.hold(key):
            order.append(name + " in")
            if wait:
                await gate.wait()
            order.append(name + " out")

    a = asyncio.create_task(hold(1, "a", True))
    b = asyncio.create_task(hold(1, "b", False))
    c = asyncio.create_task(hold(2, "c", False))
    await asyncio.wait_for(c, 1)  # another key: not held up by the first
    assert order == ["a in", "c in", "c out"] and len(lock) == 1
    gate.set()
    await asyncio.gather(a, b)
    assert order[3:] == ["a out", "b in", "b out"]
    assert len(lock) == 0  # nothing kept once everyone is done


async def test_held_after_keeps_the_click_order_whatever_order_the_acks_come_back_in():
    lock = asyncio.Lock()
    applied: list[str] = []
    answered = {name: asyncio.Event() for name in ("ai1", "ai2", "start")}
    acked: list[str] = []

    async def click(name: str) -> None:
        async def acknowledge() -> None:
            await answered[name].wait()  # the acknowledgement's HTTP answer
            acked.append(name)

        async with held_after(lock, acknowledge):
            applied.append(name)
            await asyncio.sleep(0)

    tasks = [asyncio.create_task(click(n)) for n in ("ai1", "ai2", "start")]
    await asyncio.sleep(0)
    for name in ("start", "ai2", "ai1"):  # answered in the reverse order
        answered[name].set()
        await asyncio.sleep(0.01)
    await asyncio.gather(*tasks)
    assert acked == ["start", "ai2", "ai1"] and applied == ["ai1", "ai2", "start"]
    assert not lock.locked()


async def test_held_after_a_failed_acknowledgement_gives_the_lock_up():
    lock = asyncio.Lock()

    async def failing() -> None:
        await asyncio.sleep(0.01)
        raise ConnectionError("the acknowledgement failed")

    with pytest.raises(ConnectionError):
        async with held_after(lock, failing):
            raise AssertionError("not reached")
    assert not lock.locked()
    async with held_after(lock, None):
        assert lock.locked()
    assert not lock.locked()
