// What the labels and clients extension keeps, on either engine (api-contract.md, Overview, labels
// and clients): the clients, and each project's label and client. Those two are columns of the
// project's own row (migration 014), so they go with it, whether the project is deleted or its last
// report is.
import { type Kysely, type Selectable, type Transaction } from 'kysely';
import type { ClientsTable, Database, Engine } from './database';
import { searchForm, toTimestamp } from './text';
import type { Page, ProjectRecord } from './types';
import { audited } from './audit';

/** A client as a project names it. */
export interface ClientRef {
  id: number;
  name: string;
}

export interface ClientRecord extends ClientRef {
  /** How many projects are for it. */
  projects: number;
  createdAt: string;
}

export interface ProjectLabels {
  label: string | null;
  client: ClientRef | null;
}

export interface LabelledProjectRecord extends ProjectRecord, ProjectLabels {}

export interface ClientStorage {
  /** A page of the clients by name (whatever its case), each with its number of projects. */
  listClients(page: { limit: number; offset: number }): Promise<Page<ClientRecord>>;
  /** Adds one; 'taken' when another has the name, whatever its case. */
  addClient(name: string, now: Date): Promise<ClientRecord | 'taken'>;
  /** Renames it; 'taken' as addClient, null when there is no such client. */
  renameClient(id: number, name: string): Promise<ClientRecord | 'taken' | null>;
  /** Deletes it: its projects stay, without a client. False when there was none. */
  deleteClient(id: number): Promise<boolean>;
  /** The project with its label and client; null when there is no such project. */
  getProject(project: string): Promise<LabelledProjectRecord | null>;
  /** The label and client of each of these projects that exists (a page of a projects list). */
  labelsOf(projects: readonly string[]): Promise<Map<string, ProjectLabels>>;
  /** Sets its label (null: none); the project as it is now, or null when there is no such project. */
  setLabel(project: string, label: string | null): Promise<LabelledProjectRecord | null>;
  /** Puts it in a client (null: in none); null when there is no such project. */
  setClient(
    project: string,
    clientId: number | null,
  ): Promise<LabelledProjectRecord | 'unknown client' | null>;
}

function toClient(row: Selectable<ClientsTable>, projects: number): ClientRecord {
  return { id: row.id, name: row.name, projects, createdAt: row.created_at };
}

/**
 * Workspace `workspace`'s clients and project labels: every query names it (issue 47). A client's
 * id is global, so one of another workspace is no client here, as an unknown id is not.
 */
export function createClientStorage(db: Kysely<Database>, engine: Engine, workspace: number): ClientStorage {
  const read = <T>(work: (trx: Transaction<Database>) => Promise<T>) =>
    db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);

  /** The named projects that exist, with their label and client. */
  async function labelled(
    trx: Kysely<Database>,
    projects: readonly string[],
  ): Promise<LabelledProjectRecord[]> {
    // A name with a NUL names no project (and PostgreSQL's text cannot hold one).
    const names = projects.filter((name) => !name.includes('\u0000'));
    if (names.length === 0) return [];
    const rows = await trx
      .selectFrom('projects as p')
      .leftJoin('clients as c', 'c.id', 'p.client_id')
      .select([
        'p.project',
        'p.reports',
        'p.created_at',
        'p.label',
        'c.id as client_id',
        'c.name as client_name',
      ])
      .where('p.workspace_id', '=', workspace)
      .where('p.project', 'in', names)
      .execute();
    return rows.map((row) => ({
      project: row.project,
      reports: row.reports,
      createdAt: row.created_at,
      label: row.label,
      client:
        row.client_id === null || row.client_name === null
          ? null
          : { id: row.client_id, name: row.client_name },
    }));
  }

  /** The client's number of projects. */
  const countProjects = async (trx: Kysely<Database>, id: number) =>
    Number(
      (
        await trx
          .selectFrom('projects')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('workspace_id', '=', workspace)
          .where('client_id', '=', id)
          .executeTakeFirstOrThrow()
      ).count,
    );

  const nameTaken = async (trx: Kysely<Database>, nameKey: string, id?: number) =>
    (await trx
      .selectFrom('clients')
      .select('id')
      .where('workspace_id', '=', workspace)
      .where('name_key', '=', nameKey)
      .$if(id !== undefined, (qb) => qb.where('id', '<>', id as number))
      .executeTakeFirst()) !== undefined;

  return {
    listClients: (page) =>
      read(async (trx) => {
        const counted = await trx
          .selectFrom('clients')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('workspace_id', '=', workspace)
          .executeTakeFirstOrThrow();
        const total = Number(counted.count);
        if (page.offset >= total) return { items: [], total };
        const rows = await trx
          .selectFrom('clients as c')
          .selectAll('c')
          // Each from the projects' client index.
          .select((eb) =>
            eb
              .selectFrom('projects as p')
              .select(eb.fn.countAll<number>().as('count'))
              .whereRef('p.client_id', '=', 'c.id')
              .whereRef('p.workspace_id', '=', 'c.workspace_id')
              .as('projects'),
          )
          .where('c.workspace_id', '=', workspace)
          .orderBy('c.name_key')
          .limit(page.limit)
          .offset(page.offset)
          .execute();
        return { items: rows.map((row) => toClient(row, Number(row.projects ?? 0))), total };
      }),

    addClient: (name, now) =>
      db.transaction().execute(async (trx) => {
        // The unique (workspace, name_key) settles two adds of one name at once, on either engine.
        const row = await trx
          .insertInto('clients')
          .values({ workspace_id: workspace, name, name_key: searchForm(name), created_at: toTimestamp(now) })
          .onConflict((conflict) => conflict.columns(['workspace_id', 'name_key']).doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!row) return 'taken' as const;
        await audited(trx, { targetId: row.id, changes: { name: [null, name] } });
        return toClient(row, 0);
      }),

    renameClient: async (id, name) => {
      const nameKey = searchForm(name);
      try {
        return await db.transaction().execute(async (trx) => {
          const before = await trx
            .selectFrom('clients')
            .select('name')
            .where('workspace_id', '=', workspace)
            .where('id', '=', id)
            .executeTakeFirst();
          if (!before) return null;
          if (await nameTaken(trx, nameKey, id)) return 'taken' as const;
          const row = await trx
            .updateTable('clients')
            .set({ name, name_key: nameKey })
            .where('workspace_id', '=', workspace)
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirst();
          if (!row) return null;
          await audited(trx, { changes: before.name === name ? null : { name: [before.name, name] } });
          return toClient(row, await countProjects(trx, id));
        });
      } catch (error) {
        // Another client took the name meanwhile (PostgreSQL): the unique key refused this one.
        if (await nameTaken(db, nameKey, id)) return 'taken';
        throw error;
      }
    },

    deleteClient: (id) =>
      db.transaction().execute(async (trx) => {
        // Its projects' client_id goes to null (ON DELETE SET NULL).
        const row = await trx
          .deleteFrom('clients')
          .where('workspace_id', '=', workspace)
          .where('id', '=', id)
          .returning('name')
          .executeTakeFirst();
        if (!row) return false;
        await audited(trx, { changes: { name: [row.name, null] } });
        return true;
      }),

    getProject: async (project) => (await labelled(db, [project]))[0] ?? null,

    labelsOf: async (projects) =>
      new Map(
        (await labelled(db, projects)).map((project) => [
          project.project,
          { label: project.label, client: project.client },
        ]),
      ),

    setLabel: async (project, label) => {
      if (project.includes('\u0000')) return null;
      return db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('projects')
          .select('label')
          .where('workspace_id', '=', workspace)
          .where('project', '=', project)
          .$if(engine === 'postgres', (qb) => qb.forUpdate())
          .executeTakeFirst();
        if (!before) return null;
        await trx
          .updateTable('projects')
          .set({ label })
          .where('workspace_id', '=', workspace)
          .where('project', '=', project)
          .execute();
        await audited(trx, { changes: before.label === label ? null : { label: [before.label, label] } });
        return (await labelled(trx, [project]))[0] ?? null;
      });
    },

    setClient: async (project, clientId) => {
      if (project.includes('\u0000')) return null;
      return db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('projects')
          .select('client_id')
          .where('workspace_id', '=', workspace)
          .where('project', '=', project)
          .executeTakeFirst();
        if (!before) return null;
        if (clientId !== null) {
          // Held until the end (PostgreSQL), so that the client is not deleted before the project names it.
          const client = await trx
            .selectFrom('clients')
            .select('id')
            .where('workspace_id', '=', workspace)
            .where('id', '=', clientId)
            .$if(engine === 'postgres', (qb) => qb.forKeyShare())
            .executeTakeFirst();
          if (!client) return 'unknown client' as const;
        }
        await trx
          .updateTable('projects')
          .set({ client_id: clientId })
          .where('workspace_id', '=', workspace)
          .where('project', '=', project)
          .execute();
        const beforeId = before.client_id === null ? null : Number(before.client_id);
        await audited(trx, { changes: beforeId === clientId ? null : { client: [beforeId, clientId] } });
        return (await labelled(trx, [project]))[0] ?? null;
      });
    },
  };
}
