/** The configured AI writer (campaigns and sender only: it brings the Bedrock SDK). */
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { BedrockWriter } from '../adapters/bedrock/bedrockWriter';
import { LocalWriter } from '../adapters/local-writer/localWriter';
import type { EmailWriter } from '../ports';
import type { ServerConfig } from './config';

/** Bedrock in AWS, the local writer (no network) locally; Bedrock's client is built only when used. */
export function makeWriter(config: Pick<ServerConfig, 'writer' | 'region' | 'bedrockModelId'>): EmailWriter {
  if (config.writer === 'local') return new LocalWriter();
  if (!config.bedrockModelId) throw new Error('BEDROCK_MODEL_ID is not set');
  return new BedrockWriter(new BedrockRuntimeClient({ region: config.region }), config.bedrockModelId);
}
