"""Systems and helpers of the side-by-side benchmark (``benchmarks/compare.py``)."""

from __future__ import annotations
