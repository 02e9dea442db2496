// The SQL of the queries every list request makes, compiled once per shape and kept. Kysely builds
// a tree of frozen nodes and compiles it for every query, about a quarter of a list request's CPU
// on PostgreSQL (profiled: Kysely and the garbage it leaves 2.6 of 13.2 ms per request of 100
// reports); a list makes four such queries. Kysely offers no cache of its own: here a query is built
// once with slots in place of its values, compiled, and run again with each call's values bound in
// the slots' places.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './database';

/** Stands in for the call's value at `index` while a query is built. */
class Slot {
  constructor(readonly index: number) {}
}

/** The value at `index` of each call, as a query's builder places it. */
export type Bind = <T>(index: number) => T;

/**
 * The slot of the storage's workspace (issue 47): `bind(WORKSPACE)` is bound to the workspace of
 * the PreparedQueries that runs the query, whatever the call's values.
 */
export const WORKSPACE = -1;

const bind: Bind = <T>(index: number) => new Slot(index) as T;

/** Compiled queries by the name of their shape; each workspace's storage keeps its own. */
export class PreparedQueries {
  readonly #compiled = new Map<string, CompiledQuery>();

  /** `workspaceId`: what the WORKSPACE slot of every query run here is bound to. */
  constructor(readonly workspaceId: number) {}

  /**
   * Runs the query `build` makes for `shape` with `values` bound: `build` runs once per shape, so
   * everything that changes the SQL (which filters, which order) must be in `shape`, and every
   * value must come from `bind`, never from the closure (a value bound any other way would be
   * the first call's for good; compiling refuses it).
   */
  async rows<Row>(db: Pick<Kysely<Database>, 'executeQuery'>, shape: string, build: (bind: Bind) => Compilable<Row>, values: readonly unknown[]): Promise<Row[]> {
    let compiled = this.#compiled.get(shape);
    if (compiled === undefined) {
      compiled = build(bind).compile();
      const stray = compiled.parameters.find((parameter) => !(parameter instanceof Slot));
      if (stray !== undefined) throw new Error(`The prepared query "${shape}" binds a value that is not one of its slots.`);
      this.#compiled.set(shape, compiled);
    }
    const parameters = compiled.parameters.map((slot) => {
      const { index } = slot as Slot;
      return index === WORKSPACE ? this.workspaceId : values[index];
    });
    return (await db.executeQuery<Row>({ ...compiled, parameters } as CompiledQuery<Row>)).rows;
  }
}
