// The hostile pages of `npm run test:hostile`, served by a local HTTP server on 127.0.0.1: each kind
// at /<kind>, built once (a few MB each) or written as it is sent (the endless and the slow body).
import type { ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { startHttpServer } from '../bench/harness';
import type { PageServer } from '../bench/harness';

const HTML = { 'Content-Type': 'text/html; charset=utf-8' };
const HEAD = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hostile page</title></head><body>';

/** What the suite expects of a kind: 201, or 422 with a reason matching `reason`. */
export interface HostileKind {
  name: string;
  /** What the page is, for the figures. */
  what: string;
  expect: { status: 201 } | { status: 422; reason: RegExp };
  send(res: ServerResponse): void;
}

function fixed(body: Buffer, headers: Record<string, string> = HTML) {
  return (res: ServerResponse) => {
    res.writeHead(200, { ...headers, 'Content-Length': String(body.length) });
    res.end(body);
  };
}

let gzipBomb: Buffer | null = null;
/** 100 MB of HTML (a paragraph of spaces) gzipped to about 100 KB. */
function bomb(): Buffer {
  if (gzipBomb) return gzipBomb;
  const parts: Buffer[] = [zlib.gzipSync(Buffer.from(`${HEAD}<p>`), { level: 9 })];
  const spaces = Buffer.alloc(1024 * 1024, 0x20);
  // Concatenated gzip members are one valid gzip stream: the spaces compressed once, repeated.
  const member = zlib.gzipSync(spaces, { level: 9 });
  for (let i = 0; i < 100; i++) parts.push(member);
  parts.push(zlib.gzipSync(Buffer.from('</p></body></html>')));
  gzipBomb = Buffer.concat(parts);
  return gzipBomb;
}

const TOO_COMPLEX = /^The page is too large or too complex to analyse: /;

export const HOSTILE_KINDS: HostileKind[] = [
  {
    name: 'divs',
    what: "1 MB '<div>'.repeat(200000)",
    expect: { status: 422, reason: TOO_COMPLEX },
    send: fixed(Buffer.from('<div>'.repeat(200_000))),
  },
  {
    name: 'nested',
    what: '200 KB of nested <div>…</div>',
    expect: { status: 422, reason: TOO_COMPLEX },
    send: fixed(Buffer.from(`${HEAD}${'<div>'.repeat(18_000)}x${'</div>'.repeat(18_000)}</body></html>`)),
  },
  {
    name: 'attributes',
    what: 'one element with 200,000 attributes',
    expect: { status: 422, reason: TOO_COMPLEX },
    send: fixed(Buffer.from(`${HEAD}<div ${Array.from({ length: 200_000 }, (_, i) => `a${i}="${i}"`).join(' ')}>x</div></body></html>`)),
  },
  {
    name: 'links',
    what: 'dense 5 MB link page',
    expect: { status: 422, reason: TOO_COMPLEX },
    send: fixed(Buffer.from(`${HEAD}${Array.from({ length: 230_000 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join('')}</body></html>`.slice(0, 5_000_000))),
  },
  {
    name: 'control-title',
    what: '5 MB page, title 4.9M x U+0001',
    expect: { status: 201 },
    send: fixed(Buffer.from(`<!doctype html><html lang="en"><head><title>${'\u0001'.repeat(4_900_000)}</title></head><body><h1>x</h1></body></html>`)),
  },
  {
    name: 'gzip-bomb',
    what: '100 MB gzip bomb (about 100 KB sent)',
    expect: { status: 201 },
    send: (res) => {
      const body = bomb();
      res.writeHead(200, { ...HTML, 'Content-Encoding': 'gzip', 'Content-Length': String(body.length) });
      res.end(body);
    },
  },
  {
    name: 'endless',
    what: 'a never-ending body',
    expect: { status: 201 },
    send: (res) => {
      res.writeHead(200, HTML);
      res.write(`${HEAD}<p>`);
      const chunk = Buffer.from('endless words of text without an end '.repeat(1000));
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    },
  },
  {
    name: 'slow',
    what: 'a byte a second',
    expect: { status: 422, reason: /^The page (took longer than \d+(\.\d)? s to answer|is too large or too complex to analyse: its analysis took longer than)/ },
    send: (res) => {
      res.writeHead(200, HTML);
      const body = Buffer.from(`${HEAD}<p>${'slow '.repeat(1000)}`);
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed || at >= body.length) {
          clearInterval(timer);
          res.end();
          return;
        }
        res.write(body.subarray(at, at + 1));
        at++;
      }, 1000);
      res.on('close', () => clearInterval(timer));
    },
  },
  {
    name: 'headings',
    what: '200,000 headings',
    expect: { status: 422, reason: TOO_COMPLEX },
    send: fixed(Buffer.from(`${HEAD}${'<h2>Heading</h2>'.repeat(200_000)}</body></html>`)),
  },
  {
    name: 'text-node',
    what: 'a 10 MB text node',
    expect: { status: 201 },
    send: fixed(Buffer.from(`${HEAD}<p>${'word '.repeat(2_000_000)}</p></body></html>`)),
  },
];

/** A normal small page, for the create made meanwhile. */
const NORMAL = Buffer.from(
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A normal page - Example</title>' +
    '<meta name="description" content="A small, ordinary page."></head><body><h1>Normal</h1><p>Some words here.</p></body></html>',
);

/** Serves /<kind> for every kind (any suffix: /divs/2 too), /normal… the normal page; 404 otherwise. */
export function startHostilePages(): Promise<PageServer> {
  const kinds = new Map(HOSTILE_KINDS.map((kind) => [kind.name, kind]));
  return startHttpServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.split('/')[1] ?? '';
    const kind = kinds.get(name);
    if (kind) return kind.send(res);
    if (name === 'normal') return fixed(NORMAL)(res);
    res.writeHead(404, HTML);
    res.end('<!doctype html><title>Not found</title><p>Not found.</p>');
  });
}
