// A request's workspace, in one place: the app runs each request with a key inside
// `withWorkspace()`, and the routers are given `requestStorage()`, whose every property is that
// workspace's storage. A router cannot reach another workspace's data, nor forget to filter: it
// has nothing to filter with. Used outside a request with a key (a public page, a worker), it
// throws; those name their workspace with `forWorkspace()`.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Storage } from './types';

const scope = new AsyncLocalStorage<Storage>();

/** Runs `work` with `storage` (one workspace's) as what `requestStorage()` means. */
export function withWorkspace<T>(storage: Storage, work: () => T): T {
  return scope.run(storage, work);
}

/** The storage of the workspace of the request being served. */
export function requestStorage(): Storage {
  return new Proxy({} as Storage, {
    get(_, property) {
      const storage = scope.getStore();
      if (!storage) throw new Error(`The storage's ${String(property)} was used outside a request with a key.`);
      return Reflect.get(storage, property, storage) as unknown;
    },
  });
}
