// The server's layers (eslint.config.js, SERVER_LAYERS) hold only as long as the lint reports what
// breaks them: each rule is shown here failing on one import planted where it is not allowed, and
// an allowed import going through, so a zone dropped or mistyped in the config turns this red.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });
const LAYER_RULES = new Set(['import-x/no-restricted-paths', 'import-x/no-cycle']);

/** What the layer rules say about `code` written as the file at `path` (from the repository's root). */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return result!.messages.filter((m) => m.ruleId && LAYER_RULES.has(m.ruleId)).map((m) => `${m.ruleId}: ${m.message}`);
}

const importOf = (specifier: string) => `import '${specifier}';\n`;
// A type counts too: a type a lower layer needs is defined in the lower layer.
const typeImportOf = (specifier: string) => `import type { Storage } from '${specifier}';\nexport type { Storage };\n`;

// [a file in the folder (new or existing), what it imports, the message that must come back]
const VIOLATIONS: [string, string, string][] = [
  ['server/src/index.ts', './dev', 'server/src/index.ts imports only'],
  ['server/src/dev.ts', './cli/run-cli', 'server/src/dev.ts imports only'],
  ['server/src/cli/planted.ts', '../index', 'server/src/cli/ imports only'],
  ['server/src/start/planted.ts', '../cli/run-cli', 'server/src/start/ imports only'],
  ['server/src/web.ts', './start/key-banner', 'server/src/app.ts, web.ts, proxy.ts, route-preload.ts imports only'],
  ['server/src/routes/planted.ts', '../app', 'server/src/routes/ imports only'],
  ['server/src/http/planted.ts', '../routes/serialise', 'server/src/http/ imports only'],
  ['server/src/use-cases/planted.ts', '../http/errors', 'server/src/use-cases/ imports only'],
  ['server/src/demo/planted.ts', '../use-cases/report-work', 'server/src/demo/ imports only'],
  ['server/src/analysis/planted.ts', '../use-cases/report-work', 'server/src/analysis/ imports only'],
  ['server/src/net/planted.ts', '../analysis/header', 'server/src/net/ imports only'],
  ['server/src/auth/planted.ts', '../net/host-name', 'server/src/auth/ imports only'],
  ['server/src/public-page/planted.ts', '../auth/passwords', 'server/src/public-page/ imports only'],
  ['server/src/storage/planted.ts', '../net/host-name', 'server/src/storage/ imports only'],
  ['server/src/results/planted.ts', '../config', 'server/src/results/ imports only'],
  ['server/src/config.ts', 'type ./storage/types', 'server/src/config.ts, paths.ts imports only'],
  ['server/src/analysis/planted.ts', 'type ../storage/types', 'know no storage'],
  ['server/src/net/planted.ts', '../storage/text', 'know no storage'],
  ['server/src/net/planted.ts', '../../../src/api/http/http', 'The server takes from src/ only'],
];

// [a file in the folder, what it imports]: allowed, so the lint says nothing.
const ALLOWED: [string, string][] = [
  ['server/src/index.ts', './start/start-server'],
  ['server/src/start/planted.ts', '../app'],
  ['server/src/app.ts', './routes/reports'],
  ['server/src/routes/planted.ts', '../use-cases/report-work'],
  ['server/src/use-cases/planted.ts', '../analysis/analyse'],
  ['server/src/use-cases/planted.ts', '../storage/types'],
  ['server/src/analysis/planted.ts', '../net/fetcher'],
  ['server/src/analysis/planted.ts', '../results/evidence-bounds'],
  ['server/src/storage/planted.ts', '../results/evidence-bounds'],
  ['server/src/storage/planted.ts', '../config'],
  ['server/src/config.ts', '../../src/contract/values'],
  ['server/src/demo/planted.ts', '../paths'],
  // Tests sit beside the code and may set up with anything above it.
  ['server/src/storage/planted.test.ts', '../use-cases/report-work'],
];

// The first lint loads the config and its plugins, and no-cycle reads every module the import leads to.
describe("the server's layers in the lint", { timeout: 60_000 }, () => {
  it.each(VIOLATIONS)('%s may not import %s', async (path, specifier, message) => {
    const code = specifier.startsWith('type ') ? typeImportOf(specifier.slice('type '.length)) : importOf(specifier);
    const errors = await layerErrors(path, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
  });

  it.each(ALLOWED)('%s may import %s', async (path, specifier) => {
    expect(await layerErrors(path, importOf(specifier))).toEqual([]);
  });

  it('reports an import cycle inside a folder, and none in the tree as it is', async () => {
    const path = 'server/src/net/host-name.ts';
    const code = readFileSync(join(root, path), 'utf8');
    expect(await layerErrors(path, code)).toEqual([]);
    // fetcher.ts imports host-name.ts.
    const [cycle, ...more] = await layerErrors(path, `${importOf('./fetcher')}${code}`);
    expect(more).toEqual([]);
    expect(cycle).toMatch(/^import-x\/no-cycle: /);
  });

  it('places every folder and root file of server/src in a layer', async () => {
    const config = (await eslint.calculateConfigForFile(join(root, 'server/src/app.ts'))) as {
      rules: Record<string, [unknown, { zones: { target: string | string[]; message?: string }[] }]>;
    };
    const layerZones = config.rules['import-x/no-restricted-paths']![1].zones.filter((zone) => zone.message?.startsWith("The server's layers"));
    const targets = new Set(layerZones.flatMap((zone) => [zone.target].flat()).map((target) => join(root, target)));
    const entries = readdirSync(join(root, 'server/src')).filter((name) => !name.endsWith('.test.ts'));
    expect(entries.filter((name) => !targets.has(join(root, 'server/src', name)))).toEqual([]);
  });
});
