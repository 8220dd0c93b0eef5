/**
 * The local twin of KMS and Secrets Manager: two random 32-byte keys, one sealing refresh tokens
 * (AES-256-GCM, the context as associated data) and one signing OAuth states (HMAC). With a data folder
 * they live in `<dataDir>/local-keys.json` (created 0600 on first use, so sealed tokens survive a
 * restart); without one they are made per process and kept in memory. One set per folder: every caller
 * gets the same object.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OAuthStateKeySource, SecretBox } from '../../ports';
import { aesGcmOpen, aesGcmSeal, joinParts, parseParts } from '../crypto/aesGcm';

export const LOCAL_KEYS_FILE = 'local-keys.json';
const KEY_BYTES = 32;
const VERSION = 'local1';

interface KeyMaterial {
  secretBoxKey: Buffer;
  oauthStateKey: Buffer;
}

const newKeys = (): KeyMaterial => ({ secretBoxKey: randomBytes(KEY_BYTES), oauthStateKey: randomBytes(KEY_BYTES) });

function parseKeys(text: string, file: string): KeyMaterial {
  const parsed = JSON.parse(text) as { secretBoxKey?: unknown; oauthStateKey?: unknown };
  const read = (value: unknown) => (typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.alloc(0));
  const keys = { secretBoxKey: read(parsed.secretBoxKey), oauthStateKey: read(parsed.oauthStateKey) };
  if (keys.secretBoxKey.length !== KEY_BYTES || keys.oauthStateKey.length !== KEY_BYTES) {
    throw new Error(`${file} does not hold two 32-byte keys; delete it to make new ones (connected local mailboxes must then be connected again).`);
  }
  return keys;
}

/** Reads the folder's keys, or writes new ones (0600, never overwriting a file another process wrote first). */
function keysInFolder(dataDir: string): KeyMaterial {
  const file = join(dataDir, LOCAL_KEYS_FILE);
  try {
    return parseKeys(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const keys = newKeys();
  const text = JSON.stringify({ secretBoxKey: keys.secretBoxKey.toString('base64'), oauthStateKey: keys.oauthStateKey.toString('base64') });
  try {
    writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return parseKeys(readFileSync(file, 'utf8'), file);
  }
}

/** `work`'s result as a promise that rejects when it throws, as an async function's would. */
const settled = <T>(work: () => T): Promise<T> =>
  new Promise((resolve) => {
    resolve(work());
  });

/** SecretBox over a local key: `local1.<iv>.<ciphertext+tag>`. */
export class LocalSecretBox implements SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error('The local secret box needs a 32-byte key.');
  }

  seal(plaintext: string, context: Record<string, string>): Promise<string> {
    return settled(() => {
      const { iv, sealed } = aesGcmSeal(this.key, plaintext, context);
      return joinParts(VERSION, [iv, sealed]);
    });
  }

  open(sealed: string, context: Record<string, string>): Promise<string> {
    return settled(() => {
      const [iv, ciphertext] = parseParts(sealed, VERSION, 2) as [Buffer, Buffer];
      return aesGcmOpen(this.key, iv, ciphertext, context);
    });
  }
}

export interface LocalKeys {
  secretBox: SecretBox;
  oauthStateKey: OAuthStateKeySource;
  /**
   * The local billing twin's webhook signing secret (`whsec_…`, as Stripe's): derived from the folder's
   * OAuth state key, so the twin that signs and the webhook route that verifies agree without a third key.
   */
  billingWebhookSecret: () => Promise<string>;
  /** Signs the local audio store's upload policies and GET URLs (HMAC): derived from the OAuth state key too. */
  audioSigningKey: () => Promise<Buffer>;
}

const cache = new Map<string, LocalKeys>();
/** The in-memory set of a process without a data folder. */
const IN_MEMORY = '\0memory';

export function localKeys(dataDir: string | undefined): LocalKeys {
  const cacheKey = dataDir ?? IN_MEMORY;
  let keys = cache.get(cacheKey);
  if (!keys) {
    // Read lazily: building the deps must not touch the disk (or fail) before a mailbox route runs.
    let material: KeyMaterial | undefined;
    const load = () => (material ??= dataDir === undefined ? newKeys() : keysInFolder(dataDir));
    let box: LocalSecretBox | undefined;
    const secretBox = () => (box ??= new LocalSecretBox(load().secretBoxKey));
    keys = {
      secretBox: { seal: (plaintext, context) => secretBox().seal(plaintext, context), open: (sealed, context) => secretBox().open(sealed, context) },
      oauthStateKey: { key: () => settled(() => load().oauthStateKey) },
      billingWebhookSecret: () => settled(() => `whsec_${createHmac('sha256', load().oauthStateKey).update('billing-webhook').digest('hex')}`),
      audioSigningKey: () => settled(() => createHmac('sha256', load().oauthStateKey).update('audio-signing').digest()),
    };
    cache.set(cacheKey, keys);
  }
  return keys;
}
