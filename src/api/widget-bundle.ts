import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** The widget script as served: the code, its gzip encoding and a content hash for the URL. */
export interface WidgetBundle {
  code: Buffer;
  gzipped: Buffer;
  /** First 16 hex digits of the SHA-256 of `code`: the immutable URL is /widget/fc.<hash>.js. */
  hash: string;
}

// From source (tsx, jest, `npm start`): src/api -> src/widget; compiled: dist/src/api -> src/widget.
const SOURCE_CANDIDATES = [
  path.resolve(__dirname, '../widget/index.ts'),
  path.resolve(__dirname, '../../../src/widget/index.ts'),
];
// The production image has neither esbuild nor the source: scripts/build-widget.ts leaves the
// bundle at dist/widget/fc.js during the image build.
const PREBUILT = path.resolve(__dirname, '../../widget/fc.js');

/** Bundles src/widget/index.ts with esbuild into one minified IIFE for browsers. */
export async function buildWidgetSource(entry: string): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020', 'chrome87', 'firefox78', 'safari15', 'edge88'],
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild produced no widget bundle');
  return output.text;
}

function esbuildAvailable(): boolean {
  try {
    require.resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}

async function loadSource(): Promise<string> {
  const entry = SOURCE_CANDIDATES.find((candidate) => existsSync(candidate));
  if (entry && esbuildAvailable()) return buildWidgetSource(entry);
  if (existsSync(PREBUILT)) return readFile(PREBUILT, 'utf8');
  throw new Error(`widget source (src/widget/index.ts) and prebuilt bundle (${PREBUILT}) both missing`);
}

/**
 * The served script: the bundle wrapped so that `__FC_API_BASE__` is the API base the widget
 * calls (null: the origin it was loaded from). Built once, on first use, and kept in memory.
 */
export function widgetBundle(apiBase: string | null): () => Promise<WidgetBundle> {
  let pending: Promise<WidgetBundle> | undefined;
  const build = async (): Promise<WidgetBundle> => {
    const source = await loadSource();
    const code = Buffer.from(`(function(__FC_API_BASE__){${source}})(${JSON.stringify(apiBase)});\n`, 'utf8');
    return {
      code,
      gzipped: gzipSync(code, { level: 9 }),
      hash: createHash('sha256').update(code).digest('hex').slice(0, 16),
    };
  };
  return () => {
    pending ??= build().catch((err: unknown) => {
      pending = undefined; // a failed build is retried by the next request
      throw err;
    });
    return pending;
  };
}
