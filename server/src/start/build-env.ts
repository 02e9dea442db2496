import { ROOT_DIR } from './paths';

/**
 * The environment as the dashboard's build sees it: VITE_API_BASE_URL from the environment first,
 * then from the .env files Vite reads, for `loadConfig` to validate like every other variable.
 */
export async function withBuildTimeEnv(env: NodeJS.ProcessEnv, root = ROOT_DIR): Promise<NodeJS.ProcessEnv> {
  if (env.VITE_API_BASE_URL !== undefined) return env;
  try {
    const { loadEnv } = await import('vite');
    return { ...env, VITE_API_BASE_URL: loadEnv('production', root, 'VITE_').VITE_API_BASE_URL };
  } catch {
    // Without Vite (a deployment with only the built files) the environment is all there is.
    return env;
  }
}
