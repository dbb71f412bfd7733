// Write use cases run as synchronous better-sqlite3 transactions with BEGIN IMMEDIATE: the write lock is
// taken up front (no SQLITE_BUSY on a read-to-write upgrade while an import or another process writes),
// nothing else in this process can interleave, and there is no async hop per query. Queries are still
// built and typed with Kysely; only their execution is synchronous.
import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import type { DB } from './schema.js';

interface Compilable<O> {
  compile(): CompiledQuery<O>;
}

export class SyncDb {
  /** For building queries: `store.q.selectFrom(...)`. Never executed through Kysely's async driver. */
  readonly q: Kysely<DB>;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(readonly sqlite: Database.Database) {
    this.q = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  }

  private statement(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.sqlite.prepare(sql);
      // Bounded: queries are a fixed set of shapes, but IN-lists could vary.
      if (this.statements.size > 500) this.statements.clear();
      this.statements.set(sql, s);
    }
    return s;
  }

  all<O>(query: Compilable<O>): O[] {
    const { sql, parameters } = query.compile();
    return this.statement(sql).all(...(parameters as unknown[])) as O[];
  }

  first<O>(query: Compilable<O>): O | undefined {
    const { sql, parameters } = query.compile();
    return this.statement(sql).get(...(parameters as unknown[])) as O | undefined;
  }

  /** Runs an INSERT/UPDATE/DELETE without RETURNING; answers the number of rows changed. */
  run(query: Compilable<unknown>): number {
    const { sql, parameters } = query.compile();
    return this.statement(sql).run(...(parameters as unknown[])).changes;
  }

  /** Runs fn in one IMMEDIATE transaction; it commits (durably, synchronous=FULL) before this returns. */
  transaction<T>(fn: () => T): T {
    return this.sqlite.transaction(fn).immediate();
  }
}
