"""The write path: extract candidates from a turn, gate them, resolve them against memory."""

from __future__ import annotations
