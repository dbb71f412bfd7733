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

/** Something a committed transaction tells the rest of the process, e.g. that an email was queued. */
export type CommitSignal = 'email-queued';

export class SyncDb {
  /** For building queries: `store.q.selectFrom(...)`. Never executed through Kysely's async driver. */
  readonly q: Kysely<DB>;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly raised = new Set<CommitSignal>();
  private readonly listeners = new Map<CommitSignal, Set<() => void>>();

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

  /**
   * Runs fn in one IMMEDIATE transaction; it commits (durably, synchronous=FULL) before this returns. Signals
   * raised inside reach their listeners once the outermost transaction has committed, never on a rollback.
   */
  transaction<T>(fn: () => T): T {
    let result: T;
    const before = this.sqlite.inTransaction ? new Set(this.raised) : null;
    try {
      result = this.sqlite.transaction(fn).immediate();
    } catch (error) {
      if (!this.sqlite.inTransaction) this.raised.clear();
      // A nested transaction rolled back to its savepoint: what it raised goes with it, what came before stays.
      else for (const name of this.raised) if (!before?.has(name)) this.raised.delete(name);
      throw error;
    }
    if (!this.sqlite.inTransaction) this.deliver();
    return result;
  }

  /** Raises a signal: delivered after the commit of the transaction in progress (at once outside one). */
  signal(name: CommitSignal): void {
    this.raised.add(name);
    if (!this.sqlite.inTransaction) this.deliver();
  }

  /** Listens for a signal; returns the function that stops listening. */
  on(name: CommitSignal, listener: () => void): () => void {
    const set = this.listeners.get(name) ?? new Set();
    this.listeners.set(name, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  private deliver(): void {
    const names = [...this.raised];
    this.raised.clear();
    for (const name of names) for (const listener of this.listeners.get(name) ?? []) listener();
  }
}
