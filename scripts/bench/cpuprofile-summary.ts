import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Summarises a V8 .cpuprofile (`node --cpu-prof`): the top functions by self time and by
 * inclusive time, and self time grouped by package (node_modules/<name>, our src/, node:
 * internals), so a profile is read by a script rather than by eye.
 *   npx tsx scripts/bench/cpuprofile-summary.ts <file.cpuprofile> [top=25] [skip seconds=0]
 * Skipping the first seconds leaves start-up (module loading, bundling) out of the figures.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, topArg, skipArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: cpuprofile-summary.ts <file.cpuprofile> [top]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const skipUs = Number(skipArg ?? 0) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

// Self time per node: each sample's time delta goes to the node it hit.
const selfUs = new Map<number, number>();
let elapsedUs = 0;
profile.samples.forEach((id, i) => {
  const delta = Math.max(0, profile.timeDeltas[i] ?? 0);
  elapsedUs += delta;
  if (elapsedUs >= skipUs) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
});
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idleUs: Record<string, number> = {};
for (const n of profile.nodes) {
  const name = n.callFrame.functionName;
  if (['(idle)', '(program)', '(garbage collector)'].includes(name)) {
    idleUs[name] = (idleUs[name] ?? 0) + (selfUs.get(n.id) ?? 0);
  }
}

function frameName(n: ProfileNode): string {
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'} ${where}`.trim();
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  const scripts = url.indexOf('/scripts/');
  if (scripts >= 0) return url.slice(scripts + 1);
  return path.basename(url);
}

/** Where a frame's code lives: an npm package, our own code, Node internals, the workflow sandbox. */
function packageOf(n: ProfileNode): string {
  const { url, functionName } = n.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return 'node: internals';
  if (url.includes('/src/')) return 'our src/';
  if (url.includes('/scripts/')) return 'our scripts/';
  return url.includes('workflow') ? `workflow bundle (${path.basename(url)})` : path.basename(url);
}

// Aggregate by function (name + location): self and inclusive (counted once per stack).
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const packages = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  if (!node) continue;
  self.set(frameName(node), (self.get(frameName(node)) ?? 0) + us);
  packages.set(packageOf(node), (packages.get(packageOf(node)) ?? 0) + us);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur);
    if (!n) break;
    const name = frameName(n);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + us);
  }
}

const busyUs = totalUs - (idleUs['(idle)'] ?? 0);
const pct = (us: number) => `${((100 * us) / busyUs).toFixed(1).padStart(5)}%`;
const msOf = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
const print = (title: string, entries: Map<string, number>, n: number) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, us] of [...entries].sort(([, a], [, b]) => b - a).slice(0, n)) {
    process.stdout.write(`${msOf(us)} ${pct(us)}  ${name}\n`);
  }
};

process.stdout.write(
  `${file}: ${(totalUs / 1e6).toFixed(1)} s sampled, busy ${(busyUs / 1e6).toFixed(1)} s (idle ${((idleUs['(idle)'] ?? 0) / 1e6).toFixed(1)} s, GC ${((idleUs['(garbage collector)'] ?? 0) / 1e6).toFixed(1)} s, program ${((idleUs['(program)'] ?? 0) / 1e6).toFixed(1)} s); percentages of busy time\n`,
);
print('self time by package', packages, 20);
print(`top ${top} by self time`, self, top);
const uninteresting = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);
print(
  `top ${top} by inclusive time`,
  new Map(
    [...inclusive].filter(
      ([name]) =>
        !uninteresting.has(name) &&
        !name.startsWith('processTicksAndRejections') &&
        !name.startsWith('listOnTimeout') &&
        !name.startsWith('processTimers'),
    ),
  ),
  top,
);
