// The clients and the projects' labels on every engine: SQLite always, PostgreSQL when the tests
// have a server.
import { afterEach, describe, expect, it } from 'vitest';
import { GOOD } from '../../../test/server/test-app';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import { projectFromUrl } from '../net/host-name';
import { CLIENTS_MIGRATION } from './migrations';
import type { Storage } from './types';

describe.each(STORAGE_ENGINES)('clients and labels on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);
  const T0 = new Date('2026-11-20T10:00:00Z');

  const addReport = (storage: Storage, url: string) =>
    storage.createReport({
      url,
      project: projectFromUrl(url),
      privacy: 0,
      passwordHash: null,
      ...GOOD,
      now: T0,
    });
  const addClient = async (storage: Storage, name: string) => {
    const client = await storage.clients.addClient(name, T0);
    if (client === 'taken') throw new Error(`${name} is taken`);
    return client;
  };
  const clients = async (storage: Storage, page = { limit: 10, offset: 0 }) =>
    (await storage.clients.listClients(page)).items.map((client) => [client.name, client.projects]);

  it('adds, lists by name whatever its case, renames and deletes clients; a name is unique whatever its case', async () => {
    const storage = await (await fresh()).open();
    expect(await storage.clients.addClient('beta', T0)).toEqual({
      id: expect.any(Number) as number,
      name: 'beta',
      projects: 0,
      createdAt: '2026-11-20T10:00:00.000000Z',
    });
    const acme = await addClient(storage, 'Acme');
    await addClient(storage, 'Ärzte');
    await addClient(storage, 'zeta');
    expect(await clients(storage)).toEqual([
      ['Acme', 0],
      ['beta', 0],
      ['zeta', 0],
      ['Ärzte', 0],
    ]);
    const page = await storage.clients.listClients({ limit: 2, offset: 2 });
    expect([page.items.map((client) => client.name), page.total]).toEqual([['zeta', 'Ärzte'], 4]);
    expect(await storage.clients.listClients({ limit: 10, offset: 4 })).toEqual({ items: [], total: 4 });

    for (const taken of ['ACME', 'acme', 'ärzte'])
      expect(await storage.clients.addClient(taken, T0)).toBe('taken');
    expect(await storage.clients.renameClient(acme.id, 'BETA')).toBe('taken');
    // Its own name in another case is no other client's.
    expect(await storage.clients.renameClient(acme.id, 'ACME Corp')).toMatchObject({
      id: acme.id,
      name: 'ACME Corp',
    });
    expect(await storage.clients.renameClient(acme.id, 'acme corp')).toMatchObject({ name: 'acme corp' });
    expect(await storage.clients.renameClient(999, 'Nobody')).toBeNull();

    expect(await storage.clients.deleteClient(acme.id)).toBe(true);
    expect(await storage.clients.deleteClient(acme.id)).toBe(false);
    // Its name is free again.
    expect(await addClient(storage, 'Acme Corp')).toMatchObject({ name: 'Acme Corp' });
  });

  it('settles two adds or renames to one name at once: one has it, the other is told it is taken', async () => {
    const database = await fresh();
    const [one, two] = [await database.open(), await database.open()];
    const added = await Promise.all([one.clients.addClient('Acme', T0), two.clients.addClient('ACME', T0)]);
    expect(added.filter((outcome) => outcome === 'taken')).toHaveLength(1);
    const [beta, gamma] = [await addClient(one, 'Beta'), await addClient(two, 'Gamma')];
    const renamed = await Promise.all([
      one.clients.renameClient(beta.id, 'Delta'),
      two.clients.renameClient(gamma.id, 'delta'),
    ]);
    expect(renamed.filter((outcome) => outcome === 'taken')).toHaveLength(1);
    const names = (await clients(one)).map(([name]) => String(name).toLowerCase());
    expect([names.length, names.filter((name) => name === 'delta').length]).toEqual([3, 1]);
  });

  it('keeps a project’s label and client, counts each client’s projects, and refuses an unknown client', async () => {
    const storage = await (await fresh()).open();
    await addReport(storage, 'https://shop.example/a');
    await addReport(storage, 'https://shop.example/b');
    await addReport(storage, 'https://blog.example/');
    const acme = await addClient(storage, 'Acme');
    await addClient(storage, 'Beta');

    expect(await storage.clients.getProject('shop.example')).toEqual({
      project: 'shop.example',
      reports: 2,
      createdAt: '2026-11-20T10:00:00.000000Z',
      label: null,
      client: null,
    });
    expect(await storage.clients.setLabel('shop.example', 'Main shop')).toMatchObject({
      label: 'Main shop',
      client: null,
    });
    expect(await storage.clients.setClient('shop.example', acme.id)).toMatchObject({
      label: 'Main shop',
      client: { id: acme.id, name: 'Acme' },
    });
    await storage.clients.setClient('blog.example', acme.id);
    expect(await clients(storage)).toEqual([
      ['Acme', 2],
      ['Beta', 0],
    ]);
    // A renamed client is renamed in its projects too, and keeps its count.
    expect(await storage.clients.renameClient(acme.id, 'Acme Ltd')).toMatchObject({ projects: 2 });
    expect(
      Object.fromEntries(
        await storage.clients.labelsOf(['shop.example', 'blog.example', 'nowhere.example', 'a\u0000b']),
      ),
    ).toEqual({
      'shop.example': { label: 'Main shop', client: { id: acme.id, name: 'Acme Ltd' } },
      'blog.example': { label: null, client: { id: acme.id, name: 'Acme Ltd' } },
    });

    expect(await storage.clients.setClient('blog.example', 999)).toBe('unknown client');
    expect(await storage.clients.setClient('blog.example', null)).toMatchObject({ client: null });
    expect(await storage.clients.setLabel('shop.example', null)).toMatchObject({ label: null });
    expect(await clients(storage)).toEqual([
      ['Acme Ltd', 1],
      ['Beta', 0],
    ]);
    for (const unknown of ['nowhere.example', 'a\u0000b']) {
      expect(await storage.clients.getProject(unknown)).toBeNull();
      expect(await storage.clients.setLabel(unknown, 'Label')).toBeNull();
      expect(await storage.clients.setClient(unknown, acme.id)).toBeNull();
    }
  });

  it('a client deleted leaves its projects without one; a project deleted takes its label and client with it', async () => {
    const storage = await (await fresh()).open();
    const shop = await addReport(storage, 'https://shop.example/');
    await addReport(storage, 'https://blog.example/');
    await addReport(storage, 'https://docs.example/');
    const acme = await addClient(storage, 'Acme');
    for (const project of ['shop.example', 'blog.example', 'docs.example']) {
      await storage.clients.setLabel(project, `${project} label`);
      await storage.clients.setClient(project, acme.id);
    }
    expect(await clients(storage)).toEqual([['Acme', 3]]);

    // Deleted with the project.
    await storage.deleteProject('blog.example');
    expect(await clients(storage)).toEqual([['Acme', 2]]);
    await addReport(storage, 'https://blog.example/');
    expect(await storage.clients.getProject('blog.example')).toMatchObject({ label: null, client: null });
    // Deleted with its last report.
    await storage.deleteReport(shop.id);
    expect(await storage.clients.getProject('shop.example')).toBeNull();
    expect(await clients(storage)).toEqual([['Acme', 1]]);
    await addReport(storage, 'https://shop.example/');
    expect(await storage.clients.getProject('shop.example')).toMatchObject({ label: null, client: null });

    // The client deleted: the project stays, with its label.
    expect(await storage.clients.deleteClient(acme.id)).toBe(true);
    expect(await storage.clients.getProject('docs.example')).toMatchObject({
      reports: 1,
      label: 'docs.example label',
      client: null,
    });
  });

  it('gives the projects a database had before no label and no client', async () => {
    const database = await fresh(CLIENTS_MIGRATION);
    await database.query(
      'INSERT INTO projects (project, project_search, reports, created_at) VALUES (?, ?, 1, ?)',
      ['shop.example', 'shop.example', T0.toISOString()],
    );
    const storage = await database.open();
    expect(await storage.clients.getProject('shop.example')).toMatchObject({ label: null, client: null });
    expect(await clients(storage)).toEqual([]);
  });
});
