/**
 * A minimal reader of the messages buildMime writes, for tests: the header block (unfolded), RFC 2047
 * encoded words, one level of multipart, quoted-printable and base64 bodies. Not a general MIME parser.
 */

export interface MimePart {
  headers: [string, string][];
  /** The first header of that name (case-insensitive), unfolded, as transmitted. */
  header(name: string): string | undefined;
  /** Every header of that name. */
  all(name: string): string[];
  /** The body as transmitted. */
  body: string;
  /** The body decoded by its Content-Transfer-Encoding, as UTF-8 text. */
  text: string;
  /** The parts of a multipart body (one level), else []. */
  parts: MimePart[];
}

/** RFC 2047 `=?UTF-8?Q?…?=` / `=?UTF-8?B?…?=` words decoded; whitespace between two words dropped. */
export function decodeWords(value: string): string {
  return value.replace(/(\?=)\s+(=\?)/g, '$1$2').replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, data: string) => {
    if (encoding.toUpperCase() === 'B') return Buffer.from(data, 'base64').toString('utf8');
    const bytes = data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  });
}

function decodeQuotedPrintable(body: string): string {
  const soft = body.replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export function parseMime(raw: Buffer | string): MimePart {
  const source = typeof raw === 'string' ? raw : raw.toString('latin1');
  const split = source.indexOf('\r\n\r\n');
  const block = split === -1 ? source : source.slice(0, split);
  const body = split === -1 ? '' : source.slice(split + 4);
  const headers: [string, string][] = [];
  for (const line of block.split('\r\n')) {
    const last = headers[headers.length - 1];
    if (/^[ \t]/.test(line) && last) last[1] += line;
    else {
      const colon = line.indexOf(':');
      if (colon > 0) headers.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
    }
  }
  const all = (name: string) => headers.filter(([key]) => key.toLowerCase() === name.toLowerCase()).map(([, value]) => value);
  const header = (name: string) => all(name)[0];
  const encoding = (header('Content-Transfer-Encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : Buffer.from(body, 'latin1').toString('utf8');
  const boundary = /boundary="?([^";]+)"?/i.exec(header('Content-Type') ?? '')?.[1];
  const parts: MimePart[] = [];
  if (boundary && /^multipart\//i.test(header('Content-Type') ?? '')) {
    const sections = body.split(`--${boundary}`);
    // Before the first delimiter is the preamble; after the closing `--boundary--` the epilogue.
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      parts.push(parseMime(section.replace(/^\r\n/, '').replace(/\r\n$/, '')));
    }
  }
  return { headers, header, all, body, text, parts };
}
