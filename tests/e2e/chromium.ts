import { existsSync } from 'node:fs';

/** Debian's Chromium (apt-get install chromium), or CHROMIUM_PATH; undefined when neither exists. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((path): path is string => Boolean(path) && existsSync(path!));
}

/** DESIGN §7's flags for Debian's Chromium here: headless, no sandbox, and no network but 127.0.0.1. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];
