import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

export interface MerchantSite {
  /** https://127.0.0.1:<port>: the origin the pages are served from. */
  origin: string;
  /** Serves `html` at `path` (and at any path under it, for a single-page app's routes). */
  page(path: string, html: string): void;
  close(): Promise<void>;
}

/**
 * A merchant's website for the browser tests: HTTPS (the interface requires it) with a
 * self-signed certificate for 127.0.0.1, on loopback. Pages are registered by the test.
 */
export async function startMerchantSite(): Promise<MerchantSite> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const pages = new Map<string, string>();
  const server: Server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://127.0.0.1').pathname;
    const prefix = [...pages.keys()]
      .filter((p) => path === p || path.startsWith(`${p}/`))
      .sort((a, b) => b.length - a.length)[0];
    const html = prefix === undefined ? undefined : pages.get(prefix);
    if (html === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    page: (path, html) => pages.set(path, html),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
