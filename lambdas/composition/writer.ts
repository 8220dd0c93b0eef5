/** The configured AI writer (campaigns and sender only: it brings the Bedrock SDK). */
import { LocalWriter } from '../adapters/local-writer/localWriter';
import type { EmailWriter } from '../ports';
import type { ServerConfig } from './config';
import { lazyAdapter } from './lazy';

/**
 * Bedrock in AWS, the local writer (no network) locally. Bedrock's SDK and client are loaded by the
 * first email written (an AI preview, a personalised send), not when the Lambda starts.
 */
export function makeWriter(config: Pick<ServerConfig, 'writer' | 'region' | 'bedrockModelId'>): EmailWriter {
  if (config.writer === 'local') return new LocalWriter();
  const { region, bedrockModelId } = config;
  if (!bedrockModelId) throw new Error('BEDROCK_MODEL_ID is not set');
  return lazyAdapter(async () => {
    const [{ BedrockRuntimeClient }, { BedrockWriter }] = await Promise.all([
      import('@aws-sdk/client-bedrock-runtime'),
      import('../adapters/bedrock/bedrockWriter'),
    ]);
    return new BedrockWriter(new BedrockRuntimeClient({ region }), bedrockModelId);
  }, ['write']);
}
