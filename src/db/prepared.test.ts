import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { prepared } from './prepared.js';

describe('prepared queries', () => {
  it('compile once to the SQL Kysely writes, with each value placed where its parameter went', () => {
    const q = prepared((k, p: { org: string; email: string }) =>
      k.selectFrom('follows').select('id').where('email', '=', p.email).where('status', '=', 'active').where('org_id', '=', p.org),
    );
    expect(q.sql).toBe('select "id" from "follows" where "email" = ? and "status" = ? and "org_id" = ?');
    const cases = [
      { values: { org: 'o1', email: 'a@example.org' }, parameters: ['a@example.org', 'active', 'o1'] },
      { values: { org: 'o2', email: 'b@example.org' }, parameters: ['b@example.org', 'active', 'o2'] },
    ];
    for (const c of cases) expect(q.bind(c.values).compile().parameters).toEqual(c.parameters);
  });

  it('places a parameter used twice in both places', () => {
    const q = prepared((k, p: { id: string }) => k.selectFrom('matches').select('id').where((eb) => eb.or([eb('home_team_id', '=', p.id), eb('away_team_id', '=', p.id)])));
    expect(q.bind({ id: 't1' }).compile().parameters).toEqual(['t1', 't1']);
  });

  it.each([
    ['a parameter altered on its way', () => prepared((k, p: { id: string }) => k.selectFrom('matches').select('id').where('id', '=', `club-${p.id}`)), /altered/],
    ['a parameter read but not a value of the query', () => prepared((k, p: { id: string }) => k.selectFrom('matches').select('id').where('id', '=', `x${p.id.length}`)), /not a value/],
  ])('refuses %s when it is built', (_name, build, message) => {
    expect(build).toThrow(message);
  });

  it('refuses to run without a value for a parameter', () => {
    const q = prepared((k, p: { id: string }) => k.selectFrom('matches').select('id').where('id', '=', p.id));
    expect(() => q.bind({} as { id: string })).toThrow(/no value for "id"/);
  });

  it('runs on a real database like the query built each time', async () => {
    const database = await openDatabase(':memory:');
    try {
      const { store } = database;
      store.sqlite.prepare(`insert into organizations (id, name) values ('o1', 'Org')`).run();
      const q = prepared((k, p: { id: string }) => k.selectFrom('organizations').select(['id', 'name']).where('id', '=', p.id));
      expect(store.first(q.bind({ id: 'o1' }))).toEqual(store.first(store.q.selectFrom('organizations').select(['id', 'name']).where('id', '=', 'o1')));
      expect(store.first(q.bind({ id: 'o1' }))).toEqual({ id: 'o1', name: 'Org' });
      expect(store.first(q.bind({ id: 'nobody' }))).toBeUndefined();
    } finally {
      await database.close();
    }
  });
});
