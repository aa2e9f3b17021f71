import { existsSync } from 'node:fs';

/** Debian's Chromium, where `apt-get install chromium` put it. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * The Chromium the browser tests and the bench drive: CHROMIUM_PATH when set, else Debian's where
 * it is installed, else the build that @sparticuz/chromium carries inside its npm package (so
 * `npm install && npm test` needs no apt step; Playwright's own download cannot run here).
 */
export async function chromiumPath(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const chosen = env.CHROMIUM_PATH;
  if (chosen !== undefined && chosen !== '') {
    if (!existsSync(chosen)) throw new Error(`No Chromium at CHROMIUM_PATH=${chosen}.`);
    return chosen;
  }
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  return packagedChromium();
}

/** The npm package's Chromium, unpacked into the temporary folder on first use. */
export async function packagedChromium(): Promise<string> {
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}

/** Flags for a headless run on a machine whose network reaches nothing but loopback. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
