import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteConnection } from './database';
import { PreparedQueries, WORKSPACE } from './prepared';

function projectsDb() {
  const sqlite = new BetterSqlite3(':memory:');
  sqlite.exec(`CREATE TABLE projects (project TEXT PRIMARY KEY, project_search TEXT NOT NULL, reports INTEGER NOT NULL, created_at TEXT NOT NULL);
    INSERT INTO projects VALUES ('a.example', 'a.example', 3, '2026-01-01'), ('b.example', 'b.example', 5, '2026-01-02'), ('c.example', 'c.example', 7, '2026-01-03');`);
  return sqliteConnection(sqlite).db;
}

describe('PreparedQueries', () => {
  it('runs the query of a shape again with each call’s values, and another shape with its own SQL', async () => {
    const db = projectsDb();
    const prepared = new PreparedQueries(1);
    const over = (min: number) =>
      prepared.rows(db, 'over', (bind) => db.selectFrom('projects').select('project').where('reports', '>', bind<number>(0)).orderBy('project'), [min]);
    expect(await over(4)).toEqual([{ project: 'b.example' }, { project: 'c.example' }]);
    expect(await over(6)).toEqual([{ project: 'c.example' }]);
    const named = (project: string) =>
      prepared.rows(db, 'named', (bind) => db.selectFrom('projects').select('reports').where('project', '=', bind<string>(0)), [project]);
    expect(await named('a.example')).toEqual([{ reports: 3 }]);
    expect(await over(0)).toHaveLength(3);
    // Two values, bound in the order the SQL has them whatever the order of the slots.
    const between = (low: number, high: number) =>
      prepared.rows(db, 'between', (bind) => db.selectFrom('projects').select('project').where('reports', '<', bind<number>(1)).where('reports', '>', bind<number>(0)), [low, high]);
    expect(await between(4, 6)).toEqual([{ project: 'b.example' }]);
    expect(await between(2, 4)).toEqual([{ project: 'a.example' }]);
  });

  it('refuses a value taken from the closure instead of its slot, which would stay the first call’s', async () => {
    const db = projectsDb();
    const prepared = new PreparedQueries(1);
    const fromClosure = (min: number) =>
      prepared.rows(db, 'closure', () => db.selectFrom('projects').select('project').where('reports', '>', min), []);
    await expect(fromClosure(4)).rejects.toThrow('The prepared query "closure" binds a value that is not one of its slots.');
  });

  it('binds the WORKSPACE slot to its own workspace, so one shape serves each workspace with its own', async () => {
    const db = projectsDb();
    const shape = (prepared: PreparedQueries) =>
      prepared.rows(db, 'workspace', (bind) => db.selectFrom('projects').select('project').where('reports', '=', bind<number>(WORKSPACE)), []);
    expect(await shape(new PreparedQueries(3))).toEqual([{ project: 'a.example' }]);
    expect(await shape(new PreparedQueries(5))).toEqual([{ project: 'b.example' }]);
  });
});
