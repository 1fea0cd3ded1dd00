import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');

/** The paths named in the first column of docs/architecture.md's layout table. */
function pathsInLayoutTable(): Set<string> {
  const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
  const table = doc.slice(doc.indexOf('## Layout'), doc.indexOf('\n## ', doc.indexOf('## Layout') + 1));
  const firstCells = table.split('\n').map((line) => line.split('|')[1] ?? '');
  return new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string)));
}

describe("docs/architecture.md's layout table", () => {
  it('names every folder and file at the top of src/, and nothing src/ no longer has', () => {
    const entries = readdirSync(path.join(root, 'src'), { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? `src/${entry.name}/` : `src/${entry.name}`,
    );
    const named = [...pathsInLayoutTable()].filter((p) => p.startsWith('src/'));
    expect(entries.filter((entry) => !named.includes(entry)).sort()).toEqual([]);
    expect(named.filter((p) => !entries.includes(p)).sort()).toEqual([]);
  });
});
