// A worker thread's first module: loads the TypeScript entry named in workerData. Workers do not
// inherit tsx's loader from the main thread (Node 20), so it is registered here for this import.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
