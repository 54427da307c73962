"""Behaviour every :class:`~shared_core.storage.protocols.ProfileCache` must have.

Subclass :class:`ProfileCacheContract` in a ``Test*`` class and provide a ``profile_cache``
fixture yielding a fresh, empty cache.
"""

from __future__ import annotations

from shared_core.entities import new_id
from shared_core.storage.protocols import ProfileCache


def uid(prefix: str = "u") -> str:
    return f"{prefix}-{new_id()[:12]}"


class ProfileCacheContract:
    """The ProfileCache contract; subclasses provide the ``profile_cache`` fixture."""

    def test_is_a_profile_cache(self, profile_cache: ProfileCache) -> None:
        assert isinstance(profile_cache, ProfileCache)

    def test_round_trip_per_context_and_scope(self, profile_cache: ProfileCache) -> None:
        u = uid()
        assert profile_cache.get(u, "default") is None
        profile_cache.set(u, "default", {"diet": "vegetarian", "城市": "上海"})
        profile_cache.set(u, "default", {"diet": "vegan"}, scope_key="device:phone")
        profile_cache.set(u, "work", {"title": "engineer"})
        assert profile_cache.get(u, "default") == {"diet": "vegetarian", "城市": "上海"}
        assert profile_cache.get(u, "default", "device:phone") == {"diet": "vegan"}
        assert profile_cache.get(u, "work") == {"title": "engineer"}
        assert profile_cache.get(u, "other") is None

    def test_returned_profile_is_a_copy(self, profile_cache: ProfileCache) -> None:
        u = uid()
        given = {"diet": "vegan"}
        profile_cache.set(u, "default", given)
        given["diet"] = "changed"
        got = profile_cache.get(u, "default")
        assert got == {"diet": "vegan"}
        assert got is not None
        got["diet"] = "mutated"
        assert profile_cache.get(u, "default") == {"diet": "vegan"}

    def test_invalidate_drops_only_that_user(self, profile_cache: ProfileCache) -> None:
        a, b = uid("a"), uid("b")
        profile_cache.set(a, "default", {"k": "1"})
        profile_cache.set(a, "work", {"k": "2"}, scope_key="device:x")
        profile_cache.set(b, "default", {"k": "3"})
        profile_cache.invalidate(a)
        assert profile_cache.get(a, "default") is None
        assert profile_cache.get(a, "work", "device:x") is None
        assert profile_cache.get(b, "default") == {"k": "3"}
        assert profile_cache.get(a, "default") is None  # a miss after invalidate ...
        profile_cache.set(a, "default", {"k": "fresh"})  # ... then a fill is kept
        assert profile_cache.get(a, "default") == {"k": "fresh"}

    def test_delete_user_forgets_the_user(self, profile_cache: ProfileCache) -> None:
        a, b = uid("a"), uid("b")
        profile_cache.set(a, "default", {"k": "1"})
        profile_cache.set(b, "default", {"k": "2"})
        assert profile_cache.delete_user(a) >= 1
        assert profile_cache.get(a, "default") is None
        assert profile_cache.get(b, "default") == {"k": "2"}
        assert profile_cache.delete_user(uid("nobody")) == 0
