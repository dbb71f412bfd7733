// Debian's Chromium through playwright-core, as every browser test drives it: where it is, and how it is launched.
import fs from 'node:fs';

/** Chromium's path on this machine, or undefined: the browser tests skip without it. */
export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));

export type Browser = import('playwright-core').Browser;
export type Page = import('playwright-core').Page;

/** A headless Chromium with nothing of its own on the network (no updates, sync or QUIC probes). */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
