import { afterEach, describe, expect, it } from 'vitest';
import { AnalysisError, createAnalyser } from './analyse';
import type { AnalyserOptions } from './analyse';
import { html, startTestServer } from '../../../test/server/test-server';
import type { TestServer } from '../../../test/server/test-server';

const PAGE =
  '<!doctype html><html lang="en"><head><title>Inside</title></head><body><h1>Secret</h1></body></html>';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function refusal(url: string, options: AnalyserOptions): Promise<string> {
  const error = await createAnalyser(options)(url).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AnalysisError);
  return (error as AnalysisError).message;
}

describe('SSRF guard', () => {
  it('refuses loopback, private and metadata addresses typed straight into the URL', async () => {
    server = await startTestServer({ '/': html(PAGE) });
    const port = server.port;
    const options = { allowPrivate: false, timeoutMs: 2000 };
    expect(await refusal(`http://127.0.0.1:${port}/`, options)).toBe(
      'The URL points to a loopback address (this machine itself), which this server does not fetch.',
    );
    expect(await refusal(`http://[::1]:${port}/`, options)).toBe(
      'The URL points to a loopback address (this machine itself), which this server does not fetch.',
    );
    expect(await refusal(`http://[::ffff:127.0.0.1]:${port}/`, options)).toBe(
      'The URL points to a loopback address (this machine itself), which this server does not fetch.',
    );
    expect(await refusal('http://10.20.30.40/', options)).toBe(
      'The URL points to a private network address, which this server does not fetch.',
    );
    expect(await refusal('http://169.254.169.254/latest/meta-data/', options)).toBe(
      'The URL points to a cloud metadata address, which this server does not fetch.',
    );
    // Nothing reached the loopback server.
    expect(server.requests).toEqual([]);
  });

  it('refuses a name whose DNS answers include a private address', async () => {
    const lookupAll = async (name: string) =>
      name === 'mixed.example'
        ? [
            { address: '93.184.215.14', family: 4 as const },
            { address: '10.0.0.7', family: 4 as const },
          ]
        : [{ address: '192.168.0.10', family: 4 as const }];
    const options = { allowPrivate: false, lookupAll, timeoutMs: 2000 };
    expect(await refusal('http://mixed.example/', options)).toBe(
      'The URL points to a private network address, which this server does not fetch.',
    );
    expect(await refusal('http://intranet.example/', options)).toBe(
      'The URL points to a private network address, which this server does not fetch.',
    );
  });

  it('refuses a redirect from a trusted public name to a loopback address', async () => {
    server = await startTestServer({
      '/': (_req, res) => res.writeHead(302, { Location: `http://127.0.0.1:${server?.port}/admin` }).end(),
      '/admin': html(PAGE),
    });
    const message = await refusal(`http://public.example:${server.port}/`, {
      allowPrivate: false,
      hostMap: { 'public.example': '127.0.0.1' },
    });
    expect(message).toBe(
      'The page redirects to a loopback address (this machine itself), which this server does not fetch.',
    );
    expect(server.requests.map((r) => r.path)).toEqual(['/']);
  });

  it('refuses a redirect to a name that resolves to the metadata address', async () => {
    server = await startTestServer({
      '/': (_req, res) =>
        res.writeHead(301, { Location: 'http://metadata.internal/computeMetadata/v1/' }).end(),
    });
    const message = await refusal(`http://public.example:${server.port}/`, {
      allowPrivate: false,
      hostMap: { 'public.example': '127.0.0.1' },
      lookupAll: async () => [{ address: '169.254.169.254', family: 4 }],
    });
    expect(message).toBe('The page redirects to a cloud metadata address, which this server does not fetch.');
  });

  it('lets loopback through when private addresses are allowed', async () => {
    server = await startTestServer({ '/': html(PAGE) });
    const analysis = await createAnalyser({ allowPrivate: true })(`http://127.0.0.1:${server.port}/`);
    expect(analysis.results.title?.value).toBe('Inside');
  });

  it('refuses a redirect to another scheme', async () => {
    server = await startTestServer({
      '/': (_req, res) => res.writeHead(302, { Location: 'file:///etc/passwd' }).end(),
    });
    expect(await refusal(`http://127.0.0.1:${server.port}/`, { allowPrivate: true })).toBe(
      'The page redirects to a file address, which this server does not fetch.',
    );
  });
});
