/**
 * What one AI-written email asks of the model (issue 24's cost per 1,000 emails): the prompt the Bedrock
 * writer sends (lambdas/core/writerPrompt.ts, system and user message, exactly as built) and the size of
 * a reply of each length, the local writer's (the model is asked for the same JSON and about the same
 * number of words), for a typical contact with a label, a position, a genre and notes. Characters are
 * measured; tokens are estimated at 4 characters a token (Bedrock reports the real counts per call).
 * No stack, no network.
 *
 *   npx tsx bench/writer.ts
 */
import { LocalWriter } from '../lambdas/adapters/local-writer/localWriter';
import { buildWriterPrompt, maxTokensFor } from '../lambdas/core/writerPrompt';
import type { WriterRequest } from '../lambdas/ports';
import { emailLengths } from '../schema/api/campaignValues';
import { tones } from '../schema/api/options';

/** A rough English average for the models' tokenizers; the measured figure is the characters. */
const CHARS_PER_TOKEN = 4;
const tokens = (chars: number) => Math.round(chars / CHARS_PER_TOKEN);

const base: Omit<WriterRequest, 'tone' | 'length'> = {
  track: {
    track_name: 'Midnight Drive',
    track_url: 'https://soundcloud.com/nova-pulse/midnight-drive',
    genre: 'techno',
    mood: 'hypnotic',
    bpm: 128,
    description: 'A rolling, hypnotic warehouse cut with a slow-building acid line and a breakdown made for the last hour of the night.',
  },
  artist: {
    name: 'Nova Pulse',
    links: [
      { label: 'SoundCloud', url: 'https://soundcloud.com/nova-pulse' },
      { label: 'Instagram', url: 'https://instagram.com/novapulse' },
    ],
  },
  contact: {
    name: 'Mara Reyes',
    label_name: 'Velvet Records',
    contact_type: 'Label',
    genre: 'Techno, Minimal',
    position: 'A&R Manager',
    notes: 'Met at ADE 2025; prefers private SoundCloud links and short emails.',
  },
};

const writer = new LocalWriter();
console.log(`AI writer request per email (${CHARS_PER_TOKEN} characters a token, estimated):`);
for (const length of emailLengths) {
  const prompts: number[] = [];
  const replies: number[] = [];
  for (const tone of tones) {
    const request: WriterRequest = { ...base, tone, length };
    const { system, user } = buildWriterPrompt(request);
    prompts.push(system.length + user.length);
    const written = await writer.write(request);
    // The model answers {"subject": "...", "body": "..."} (the writer's JSON), not the text alone.
    replies.push(JSON.stringify({ subject: written.subject, body: written.body }).length);
  }
  const prompt = Math.max(...prompts);
  const reply = Math.max(...replies);
  console.log(
    `  ${length} words: prompt ${prompt} characters (~${tokens(prompt)} input tokens), reply ${reply} characters (~${tokens(reply)} output tokens; maxTokens ${maxTokensFor(length)})`,
  );
}
