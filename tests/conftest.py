"""Test-suite wide setup (kept minimal): make ``tests/contract`` importable as ``contract``.

The reusable backend contracts live in ``tests/contract/*_contract.py`` and are imported by
backend test modules (``from contract.record_store_contract import RecordStoreContract``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_TESTS = Path(__file__).resolve().parent
if str(_TESTS) not in sys.path:
    sys.path.insert(0, str(_TESTS))
if str(_TESTS.parent) not in sys.path:  # the repo root, for ``import shared_core``
    sys.path.append(str(_TESTS.parent))

pytest.register_assert_rewrite("contract")
