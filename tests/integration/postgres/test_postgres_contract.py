"""The shared RecordStore / VectorIndex contracts on the PostgreSQL backends."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest
from contract.record_store_contract import RecordStoreContract
from contract.vector_index_contract import VectorIndexContract
from psycopg import sql

from shared_core.storage.pgvector import PgVectorIndex
from shared_core.storage.postgres import PostgresRecordStore

pytestmark = pytest.mark.integration


def _drop_schema(url: str, schema: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture(scope="module")
def shared_pg_store(pg_url: str) -> Iterator[PostgresRecordStore]:
    # Contract tests use fresh random user ids, so one schema serves the module.
    schema = f"c_{uuid.uuid4().hex[:12]}"
    store = PostgresRecordStore(pg_url, schema=schema, max_size=4)
    yield store
    store.close()
    _drop_schema(pg_url, schema)


class TestPostgresRecordStoreContract(RecordStoreContract):
    @pytest.fixture
    def store(self, shared_pg_store: PostgresRecordStore) -> PostgresRecordStore:
        return shared_pg_store


@pytest.fixture(scope="module")
def shared_pgvector(pgvector_url: str) -> Iterator[PgVectorIndex]:
    schema = f"c_{uuid.uuid4().hex[:12]}"
    index = PgVectorIndex(pgvector_url, schema=schema, dimension=8, max_size=4)
    yield index
    index.close()
    _drop_schema(pgvector_url, schema)


class TestPgVectorIndexContract(VectorIndexContract):
    @pytest.fixture
    def index(self, shared_pgvector: PgVectorIndex) -> PgVectorIndex:
        return shared_pgvector


@pytest.fixture(scope="module")
def shared_pg16_store(pgvector_url: str) -> Iterator[PostgresRecordStore]:
    schema = f"c_{uuid.uuid4().hex[:12]}"
    store = PostgresRecordStore(pgvector_url, schema=schema, max_size=4)
    yield store
    store.close()
    _drop_schema(pgvector_url, schema)


class TestPostgres16RecordStoreContract(RecordStoreContract):
    """The same contract on PostgreSQL 16 (pgserver), the pgvector deployment."""

    @pytest.fixture
    def store(self, shared_pg16_store: PostgresRecordStore) -> PostgresRecordStore:
        return shared_pg16_store
