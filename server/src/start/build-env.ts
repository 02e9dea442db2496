import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { ROOT_DIR } from '../paths';

/** The files Vite reads for a production build, the later winning (https://vite.dev/guide/env-and-mode). */
const ENV_FILES = ['.env', '.env.local', '.env.production', '.env.production.local'];

/**
 * The environment as the dashboard's build sees it: VITE_API_BASE_URL from the environment first,
 * then from the .env files Vite reads, for `loadConfig` to validate like every other variable.
 * Read with Node's own parser rather than Vite's loadEnv: importing Vite into the running server
 * cost about 150 MB of its memory for one variable. (Vite also expands `$OTHER` references, which
 * this value has no use for.)
 */
export async function withBuildTimeEnv(env: NodeJS.ProcessEnv, root = ROOT_DIR): Promise<NodeJS.ProcessEnv> {
  if (env.VITE_API_BASE_URL !== undefined) return env;
  let value: string | undefined;
  for (const file of ENV_FILES) {
    let text: string;
    try {
      text = await readFile(join(root, file), 'utf8');
    } catch {
      continue;
    }
    const parsed = parseEnv(text) as Record<string, string | undefined>;
    if (parsed.VITE_API_BASE_URL !== undefined) value = parsed.VITE_API_BASE_URL;
  }
  return value === undefined ? env : { ...env, VITE_API_BASE_URL: value };
}
