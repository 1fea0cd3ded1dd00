import { execFile } from 'node:child_process';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { buildWidgetSource, widgetBundle } from '../../src/api/widget-bundle';
import { loadConfig } from '../../src/config';

const root = path.resolve(__dirname, '../..');

describe('the widget bundle', () => {
  it('is one small script: an IIFE without module loaders, under 15 KB gzipped', async () => {
    const source = await buildWidgetSource(path.join(root, 'src/widget/index.ts'));
    expect(source).not.toMatch(/\brequire\(|\bimport\(|\bexport\b/);
    const bundle = await widgetBundle(null)();
    expect(bundle.gzipped.length).toBe(gzipSync(bundle.code, { level: 9 }).length);
    expect(bundle.gzipped.length).toBeLessThan(15 * 1024);
    process.stdout.write(`widget bundle: ${bundle.code.length} bytes, ${bundle.gzipped.length} gzipped\n`);
  });

  it('is built once and its hash follows its content (the API base is part of it)', async () => {
    const sameOrigin = widgetBundle(null);
    const [a, b] = await Promise.all([sameOrigin(), sameOrigin()]);
    expect(a).toBe(b);
    expect(a.hash).toMatch(/^[0-9a-f]{16}$/);
    const elsewhere = await widgetBundle('https://api.example.com')();
    expect(elsewhere.hash).not.toBe(a.hash);
    expect(elsewhere.code.toString()).toMatch(/\}\)\("https:\/\/api\.example\.com"\);\n$/);
  });

  it('binds __FC_API_BASE__ for the script, and nothing global', async () => {
    const bundle = await widgetBundle('https://api.example.com')();
    const seen: unknown[] = [];
    // Runs the wrapper only: the body records what it was handed as __FC_API_BASE__ and stops.
    const code = bundle.code
      .toString()
      .replace(/^\(function\(__FC_API_BASE__\)\{/, '(function(__FC_API_BASE__){seen.push(__FC_API_BASE__);return;');
    runInNewContext(code, { seen });
    expect(seen).toEqual(['https://api.example.com']);
  });

  it('type-checks as browser code, with the DOM and without Node types', async () => {
    const tsc = path.join(root, 'node_modules/.bin/tsc');
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(tsc, ['--noEmit', '-p', 'src/widget/tsconfig.json'], { cwd: root }, (err, stdout, stderr) =>
        resolve({ code: err ? 1 : 0, output: stdout + stderr }),
      );
    });
    expect(result).toEqual({ code: 0, output: '' });
  });
});

describe('the widget configuration', () => {
  it('serves {widget_url} from the service by default; the script then calls the origin it came from', () => {
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com' });
    expect(config.widget).toEqual({
      url: 'https://api.example.com/widget/fc.js',
      apiBase: null,
      rateLimit: { perSecond: 200, burst: 2000 },
    });
  });

  it('takes WIDGET_URL (a CDN, say) and then tells the script the API base', () => {
    const config = loadConfig({
      PUBLIC_BASE_URL: 'https://api.example.com/',
      WIDGET_URL: 'https://cdn.example.net/fc/v1/fc.js',
      WIDGET_RATE_LIMIT_PER_SECOND: '50',
      WIDGET_RATE_LIMIT_BURST: '100',
    });
    expect(config.widget).toEqual({
      url: 'https://cdn.example.net/fc/v1/fc.js',
      apiBase: 'https://api.example.com',
      rateLimit: { perSecond: 50, burst: 100 },
    });
    expect(() => loadConfig({ WIDGET_URL: 'not a url' })).toThrow(/WIDGET_URL/);
  });
});
