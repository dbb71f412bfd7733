// Commit signals of the synchronous store: delivered after the outermost commit, never on a rollback.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb } from '../../test/support/db.js';
import { SyncDb } from './sync.js';

let t: TestDb;
let store: SyncDb;
let heard: number;
beforeEach(async () => {
  t = await migratedDb();
  store = new SyncDb(t.sqlite);
  heard = 0;
  store.on('email-queued', () => heard++);
});
afterEach(async () => t.close());

describe('commit signals', () => {
  it('reach listeners once the transaction has committed, once however often they were raised', () => {
    store.transaction(() => {
      store.signal('email-queued');
      store.signal('email-queued');
      expect(heard).toBe(0);
    });
    expect(heard).toBe(1);
  });

  it('are dropped when the transaction rolls back', () => {
    expect(() =>
      store.transaction(() => {
        store.signal('email-queued');
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(heard).toBe(0);
    store.transaction(() => undefined);
    expect(heard).toBe(0);
  });

  it('wait for the outermost transaction when nested, and fire at once outside one', () => {
    store.transaction(() => {
      store.transaction(() => store.signal('email-queued'));
      expect(heard).toBe(0);
    });
    expect(heard).toBe(1);
    store.signal('email-queued');
    expect(heard).toBe(2);
  });

  it('stop when the listener is removed', () => {
    const off = store.on('email-queued', () => heard++);
    off();
    store.signal('email-queued');
    expect(heard).toBe(1);
  });
});
