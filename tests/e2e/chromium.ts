import { existsSync } from 'node:fs';

/** Debian's Chromium (apt-get install chromium), or CHROMIUM_PATH; undefined when neither exists. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((path): path is string => Boolean(path) && existsSync(path!));
}
