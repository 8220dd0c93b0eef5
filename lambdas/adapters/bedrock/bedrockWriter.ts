/**
 * The AI writer on Amazon Bedrock: one Converse call per email (model id or inference profile from
 * config), bounded by a timeout, with every failure turned into a WriterError the handler can explain.
 */
import { ConverseCommand, type BedrockRuntimeClient, type ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { composeMessages } from '../../../schema/api/campaignValues';
import { WriterError } from '../../core/errors';
import { assertWritable, buildWriterPrompt, maxTokensFor, parseWriterReply, withLinksSignature } from '../../core/writerPrompt';
import type { EmailWriter, WriterRequest, WrittenEmail } from '../../ports';

/** Under the campaigns Lambda's 28 s, leaving time to save the draft after the model answers. */
export const DEFAULT_WRITER_TIMEOUT_MS = 20_000;

/** Some variety between recipients without drifting from the facts. */
const TEMPERATURE = 0.7;

const BUSY = new Set(['ThrottlingException', 'ServiceQuotaExceededException', 'TooManyRequestsException', 'ServiceUnavailableException']);
const BUSY_STATUS = new Set([429, 503]);
const TIMED_OUT = new Set(['AbortError', 'TimeoutError', 'ModelTimeoutException', 'RequestTimeout']);

/** A Bedrock (or network) failure as the reason the handler shows; the original is kept as `cause`. */
export function writerErrorFrom(error: unknown, aborted: boolean): WriterError {
  if (error instanceof WriterError) return error;
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (aborted || (name !== undefined && TIMED_OUT.has(name))) {
    return new WriterError('timeout', composeMessages.writerTimeout, { cause: error });
  }
  if ((name !== undefined && BUSY.has(name)) || BUSY_STATUS.has($metadata?.httpStatusCode ?? 0)) {
    return new WriterError('busy', composeMessages.writerBusy, { cause: error });
  }
  return new WriterError('failed', composeMessages.writerFailed, { cause: error });
}

/** The reply's text blocks joined (a model may split its answer over several). */
function replyText(output: ConverseCommandOutput | undefined): string {
  const content = output?.output?.message?.content ?? [];
  return content.map((block) => block.text ?? '').join('');
}

export class BedrockWriter implements EmailWriter {
  private readonly timeoutMs: number;

  constructor(
    private readonly client: BedrockRuntimeClient,
    private readonly modelId: string,
    options: { timeoutMs?: number } = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WRITER_TIMEOUT_MS;
  }

  async write(request: WriterRequest): Promise<WrittenEmail> {
    assertWritable(request);
    const prompt = buildWriterPrompt(request);
    const command = new ConverseCommand({
      modelId: this.modelId,
      system: [{ text: prompt.system }],
      messages: [{ role: 'user', content: [{ text: prompt.user }] }],
      inferenceConfig: { maxTokens: maxTokensFor(request.length), temperature: TEMPERATURE },
    });

    // The SDK's own retries of throttling happen inside this one deadline.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    let output: ConverseCommandOutput;
    try {
      output = await this.client.send(command, { abortSignal: controller.signal });
    } catch (error) {
      throw writerErrorFrom(error, controller.signal.aborted);
    } finally {
      clearTimeout(timer);
    }
    const email = parseWriterReply(replyText(output));
    return { ...email, body: withLinksSignature(email.body, request.artist.links) };
  }
}
