import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's package (`apt-get install -y chromium`; .ci/run installs it when missing). */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH when set, else Debian's, else one shipped
 * inside an npm package (@sparticuz/chromium, when installed). Never a download. Missing, it
 * fails the test with how to install one: a browser test never skips silently.
 */
export async function chromiumExecutable(): Promise<string> {
  const candidates = [process.env.CHROMIUM_PATH, DEBIAN_CHROMIUM].filter((p): p is string => Boolean(p));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found) return found;
  const packaged = await packagedChromium();
  if (packaged) return packaged;
  throw new Error(
    `No Chromium for the browser tests: looked at ${candidates.join(', ')} and the npm package @sparticuz/chromium. ` +
      'Install Debian\'s: "sudo apt-get update && sudo apt-get install -y chromium" (.ci/run does this), ' +
      'or set CHROMIUM_PATH to a Chromium executable.',
  );
}

async function packagedChromium(): Promise<string | undefined> {
  const name = '@sparticuz/chromium';
  try {
    require.resolve(name);
  } catch {
    return undefined;
  }
  const module = (await import(name)) as { default?: { executablePath(): Promise<string> } };
  return module.default?.executablePath();
}

/** Headless Chromium on loopback only; each test opens its own context. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumExecutable(), headless: true, args: LAUNCH_ARGS });
}
