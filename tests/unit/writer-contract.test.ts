/**
 * The EmailWriter port's contract, run against both adapters: the local writer as it is, and the
 * Bedrock writer over a mocked Bedrock Runtime whose "model" is scripted. The scripted model reads
 * only what the prompt gives it (the data blocks, the tone and the length) and answers, JSON-encoded,
 * with what the local writer writes for that request, so the same assertions hold for both and the
 * Bedrock run also shows that the prompt carries everything an email needs.
 */
import { BedrockRuntimeClient, ConverseCommand, type ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { campaignLimits, emailLengths, type EmailLength } from '../../schema/api/campaigns';
import { tones, type ContactType, type Tone } from '../../schema/api/options';
import { BedrockWriter } from '../../lambdas/adapters/bedrock/bedrockWriter';
import { LocalWriter } from '../../lambdas/adapters/local-writer/localWriter';
import { WriterError } from '../../lambdas/core/errors';
import { countWords, DATA_BLOCKS, FOLLOW_UP_WORDS } from '../../lambdas/core/writerPrompt';
import type { EmailWriter, WriterRequest } from '../../lambdas/ports';

const bedrock = mockClient(BedrockRuntimeClient);

function dataBlock(user: string, tag: string): unknown {
  const match = new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(user);
  if (!match) throw new Error(`no <${tag}> block in the prompt`);
  return JSON.parse(match[1]!);
}

/** A stand-in model: rebuilds the request from the prompt alone and answers as the local writer would. */
async function scriptedModel(input: ConverseCommandInput): Promise<string> {
  const user = (input.messages ?? [])
    .flatMap((m) => m.content ?? [])
    .map((c) => c.text ?? '')
    .join('');
  const track = dataBlock(user, DATA_BLOCKS.track) as WriterRequest['track'];
  const artist = dataBlock(user, DATA_BLOCKS.artist) as WriterRequest['artist'];
  const contact = dataBlock(user, DATA_BLOCKS.contact) as {
    name: string;
    label?: string;
    type: ContactType;
    genre?: string;
    position?: string;
    notes?: string;
  };
  const tone = /^Tone: (\w+)\./m.exec(user)?.[1] as Tone;
  // A follow-up's prompt gives the first email and the step, and a word cap instead of a length.
  const step = /^Write follow-up number (\d+)/m.exec(user)?.[1];
  const first = step === undefined ? undefined : (dataBlock(user, DATA_BLOCKS.firstEmail) as { subject: string; body: string });
  const length = (step === undefined ? Number(/about (\d+) words/.exec(user)?.[1]) : 100) as EmailLength;
  const email = await new LocalWriter().write({
    ...(first ? { followUp: { step: Number(step), first_subject: first.subject, first_body: first.body } } : {}),
    track: { ...track, mood: track.mood ?? null, bpm: track.bpm ?? null },
    artist,
    tone,
    length,
    contact: {
      name: contact.name,
      label_name: contact.label ?? null,
      contact_type: contact.type,
      genre: contact.genre ?? null,
      position: contact.position ?? null,
      notes: contact.notes ?? null,
    },
  });
  return JSON.stringify(email);
}

function bedrockWriter(): EmailWriter {
  bedrock.reset();
  bedrock.on(ConverseCommand).callsFake(async (input: ConverseCommandInput) => ({
    output: { message: { role: 'assistant', content: [{ text: await scriptedModel(input) }] } },
    stopReason: 'end_turn',
    $metadata: {},
  }));
  return new BedrockWriter(new BedrockRuntimeClient({ region: 'us-east-1' }), 'amazon.nova-lite-v1:0');
}

const request = (overrides: Partial<WriterRequest> = {}): WriterRequest => ({
  track: {
    track_name: 'Night Drive',
    track_url: 'https://soundcloud.com/luna/night-drive',
    genre: 'deep-house',
    mood: null,
    bpm: 122,
    description: 'A late-night roller with warm pads.',
  },
  tone: 'friendly',
  length: 150,
  artist: { name: 'Luna Vale', links: [{ label: 'SoundCloud', url: 'https://soundcloud.com/luna' }] },
  contact: { name: 'Jane Doe', label_name: 'Anjunadeep', contact_type: 'Label', genre: 'deep-house', position: 'A&R', notes: 'Met at ADE' },
  ...overrides,
});

function writerContract(name: string, makeWriter: () => EmailWriter) {
  describe(`EmailWriter contract: ${name}`, () => {
    let writer: EmailWriter;
    beforeEach(() => {
      writer = makeWriter();
    });

    it('returns a non-empty one-line subject within the limit and a non-empty body', async () => {
      const email = await writer.write(request());
      expect(email.subject.trim()).not.toBe('');
      expect(email.subject).not.toMatch(/[\r\n]/);
      expect(email.subject.length).toBeLessThanOrEqual(campaignLimits.subject);
      expect(email.body.trim()).not.toBe('');
      expect(email.body).not.toMatch(/\r/);
    });

    it('mentions the track name and its link in the body, and greets the recipient by name', async () => {
      const { body } = await writer.write(request());
      expect(body).toContain('Night Drive');
      expect(body).toContain('https://soundcloud.com/luna/night-drive');
      expect(body).toMatch(/^(Dear|Hi|Hey|Hello) Jane,\n/);
    });

    it('writes differently for two contacts', async () => {
      const a = await writer.write(request());
      const b = await writer.write(
        request({ contact: { name: 'Sam Rivers', label_name: null, contact_type: 'DJ', genre: null, position: null, notes: null } }),
      );
      expect(b.body).not.toBe(a.body);
    });

    it.each(emailLengths)('keeps the body near %i words in every tone', async (length) => {
      for (const tone of tones) {
        const words = countWords((await writer.write(request({ tone, length }))).body);
        expect(words, tone).toBeGreaterThanOrEqual(length * 0.7);
        expect(words, tone).toBeLessThanOrEqual(length * 1.3);
      }
    });

    it('writes a follow-up as a short nudge about the first email: the track and its link again, never a copy, the last one says so', async () => {
      const first = await writer.write(request());
      const followUp = { step: 1, first_subject: first.subject, first_body: first.body };
      const nudge = await writer.write(request({ followUp }));
      expect(nudge.body).toContain('Night Drive');
      expect(nudge.body).toContain('https://soundcloud.com/luna/night-drive');
      expect(nudge.body).toMatch(/^(Dear|Hi|Hey|Hello) Jane,\n/);
      expect(countWords(nudge.body)).toBeLessThanOrEqual(FOLLOW_UP_WORDS + 10);
      expect(nudge.body).not.toBe(first.body);
      // No sentence of the pitch is repeated, and no fact the first email did not carry is added.
      const sentences = first.body.split(/(?<=[.!?])\s+/).filter((s) => countWords(s) >= 5 && !s.includes('\n'));
      for (const sentence of sentences) expect(nudge.body).not.toContain(sentence);
      expect(nudge.body).not.toContain('warm pads');
      const last = await writer.write(request({ followUp: { ...followUp, step: 2 } }));
      expect(last.body).not.toBe(nudge.body);
      expect(last.body).toMatch(/last|again/i);
    });

    it('fails with a WriterError, never another error', async () => {
      const error = await writer.write(request({ track: { ...request().track, track_name: '  ' } })).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(WriterError);
    });
  });
}

writerContract('local writer', () => new LocalWriter());
writerContract('Bedrock writer (scripted model)', bedrockWriter);

describe('the scripted model', () => {
  it('is really asked: each Bedrock write is one Converse call', async () => {
    const writer = bedrockWriter();
    await writer.write(request());
    await writer.write(request({ tone: 'casual' }));
    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(2);
  });

  it('answers as the local writer does, from the prompt alone', async () => {
    const viaBedrock = await bedrockWriter().write(request({ tone: 'casual', length: 250 }));
    expect(viaBedrock).toEqual(await new LocalWriter().write(request({ tone: 'casual', length: 250 })));
  });
});

describe('the Bedrock writer', () => {
  it("signs a model's email with the profile's links, as the local writer does", async () => {
    bedrock.reset();
    const body = 'Hi Jane,\n\nHere it is: https://soundcloud.com/luna/night-drive\n\nCheers,\nLuna Vale';
    bedrock.on(ConverseCommand).resolves({
      output: { message: { role: 'assistant', content: [{ text: JSON.stringify({ subject: 'Night Drive', body }) }] } },
      stopReason: 'end_turn',
      $metadata: {},
    });
    const email = await new BedrockWriter(new BedrockRuntimeClient({ region: 'us-east-1' }), 'amazon.nova-lite-v1:0').write(request());
    expect(email.body).toBe(`${body}\nSoundCloud: https://soundcloud.com/luna`);
    expect((await new LocalWriter().write(request())).body.endsWith('Luna Vale\nSoundCloud: https://soundcloud.com/luna')).toBe(true);
  });
});
