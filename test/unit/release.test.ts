import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const { version } = JSON.parse(read('package.json')) as { version: string };

/** Every `patched('<id>')` and `deprecatePatch('<id>')` id in the workflow code. */
function patchIdsInWorkflows(): string[] {
  const files = readdirSync(path.join(root, 'src/workflows'), { recursive: true, encoding: 'utf8' });
  const ids = files
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => [...read(`src/workflows/${file}`).matchAll(/(?:patched|deprecatePatch)\(\s*['"`]([^'"`]+)/g)])
    .map((match) => match[1] as string);
  return [...new Set(ids)].sort();
}

/** The first cell of each row of docs/changing-workflows.md's "Patches by release" table. */
function patchIdsDocumented(): string[] {
  const doc = read('docs/changing-workflows.md');
  const section = doc.slice(
    doc.indexOf('## Patches by release'),
    doc.indexOf('\n## ', doc.indexOf('## Patches by release') + 1),
  );
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => (line.match(/^\| `([^`]+)`/) as RegExpMatchArray)[1] as string)
    .sort();
}

describe('the release', () => {
  it('has one version: the service, both client libraries and what they report', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(JSON.parse(read('clients/typescript/package.json')).version).toBe(version);
    expect(read('clients/typescript/src/client.ts')).toContain(`export const VERSION = '${version}';`);
    expect(read('clients/python/pyproject.toml')).toMatch(new RegExp(`^version = "${escaped(version)}"$`, 'm'));
    expect(read('clients/python/src/payment_rescue/client.py')).toContain(`VERSION = "${version}"`);
  });

  it('has a dated CHANGELOG section of its own, the newest released one', () => {
    const headings = [...read('CHANGELOG.md').matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    const released = headings.filter((heading) => heading !== 'Unreleased');
    expect(released[0]).toMatch(new RegExp(`^${escaped(version)} \\(\\d{4}-\\d{2}-\\d{2}\\)$`));
  });

  it('lists every workflow patch with the release it protects, and no patch the code lost', () => {
    expect(patchIdsDocumented()).toEqual(patchIdsInWorkflows());
  });
});
