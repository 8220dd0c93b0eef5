/**
 * Envelope encryption with KMS (DESIGN §5: the Gmail refresh token is stored encrypted). Each seal asks
 * KMS for a fresh AES-256 data key bound to the context (KMS encryption context: the user id), encrypts
 * locally with AES-256-GCM (the same context as associated data) and stores the KMS-encrypted data key
 * beside the ciphertext: `v1.<encrypted data key>.<iv>.<ciphertext+tag>`. Opening needs KMS Decrypt with
 * the same context, so a token copied to another user's item cannot be opened.
 */
import { DecryptCommand, GenerateDataKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { SecretBox } from '../../ports';
import { aesGcmOpen, aesGcmSeal, joinParts, parseParts } from '../crypto/aesGcm';

const VERSION = 'v1';

export class KmsSecretBox implements SecretBox {
  constructor(
    readonly kms: KMSClient,
    readonly keyId: string,
  ) {}

  async seal(plaintext: string, context: Record<string, string>): Promise<string> {
    const { Plaintext, CiphertextBlob } = await this.kms.send(
      new GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256', EncryptionContext: context }),
    );
    if (!Plaintext || !CiphertextBlob) throw new Error('KMS returned no data key.');
    const dataKey = Buffer.from(Plaintext);
    try {
      const { iv, sealed } = aesGcmSeal(dataKey, plaintext, context);
      return joinParts(VERSION, [CiphertextBlob, iv, sealed]);
    } finally {
      dataKey.fill(0);
    }
  }

  async open(sealed: string, context: Record<string, string>): Promise<string> {
    const [encryptedKey, iv, ciphertext] = parseParts(sealed, VERSION, 3) as [Buffer, Buffer, Buffer];
    // KeyId pins the key: a blob made under another key is refused rather than decrypted with it.
    const { Plaintext } = await this.kms.send(new DecryptCommand({ CiphertextBlob: encryptedKey, EncryptionContext: context, KeyId: this.keyId }));
    if (!Plaintext) throw new Error('KMS returned no data key.');
    const dataKey = Buffer.from(Plaintext);
    try {
      return aesGcmOpen(dataKey, iv, ciphertext, context);
    } finally {
      dataKey.fill(0);
    }
  }
}
