// Member A of bench:rate-limit, in a process of its own as a second client would be: CONNECTIONS
// connections send GET `URL` with KEY back to back until told to stop. It tells its parent when the
// first 429 came, and at the end what the answers were.
const { URL: url = '', KEY: key = '', CONNECTIONS = '8' } = process.env;
const counts = { ok: 0, limited: 0, other: 0 };
let hammering = true;
let told = false;

async function hammer(): Promise<void> {
  while (hammering) {
    const res = await fetch(url, { headers: { Accept: 'application/json', Authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    if (res.status === 200) counts.ok += 1;
    else if (res.status === 429) {
      counts.limited += 1;
      if (!told) {
        told = true;
        process.send?.({ type: 'limited' });
      }
    } else counts.other += 1;
  }
}

const hammers = Array.from({ length: Number(CONNECTIONS) }, hammer);
process.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  hammering = false;
  void Promise.all(hammers).then(() => {
    process.send?.({ type: 'counts', counts }, () => process.exit(0));
  });
});
