import { ROOT_DIR } from './paths';

/** VITE_API_BASE_URL as the build sees it: the environment first, then the .env files Vite reads. */
export async function buildTimeApiBase(env: NodeJS.ProcessEnv, root = ROOT_DIR): Promise<string | undefined> {
  if (env.VITE_API_BASE_URL !== undefined) return env.VITE_API_BASE_URL;
  try {
    const { loadEnv } = await import('vite');
    return loadEnv('production', root, 'VITE_').VITE_API_BASE_URL;
  } catch {
    // Without Vite (a deployment with only the built files) the environment is all there is.
    return undefined;
  }
}
