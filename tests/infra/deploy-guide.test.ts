/**
 * docs/deploy.md works as written: every `cdk bootstrap`, `cdk synth` and `cdk deploy` in its code blocks
 * synthesizes the app (config, then cdk-nag, as the CLI runs bin/app.ts) with exactly its `-c` settings,
 * the variables the guide exported before it, and deploy/<stage>.json as the guide's `json deploy/<stage>.json`
 * blocks build it up to that point (the first block is the whole file, each later one adds its keys).
 * Bundling is skipped as in every infra test: neither esbuild nor Vite runs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../lib/cloud/app';
import { REPO_ROOT } from '../../lib/cloud/config';
import { TEST_CONTEXT } from './synth';

type Settings = Record<string, unknown>;

interface GuideCommand {
  /** 1-based line of the command in the guide. */
  line: number;
  text: string;
  context: Record<string, string>;
  env: Record<string, string>;
  /** Each stage's settings file as the guide has built it when the command runs. */
  settingsFiles: Record<string, Settings>;
}

/** Shell words of one command line: quotes removed, an unquoted `#` word and anything from a redirection on dropped. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word = (word ?? '') + char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if ((char === '#' && word === undefined) || char === '>') {
      break;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The guide's cdk commands in order, each with the settings it runs with. */
export function guideCommands(markdown: string): GuideCommand[] {
  const lines = markdown.split('\n');
  const commands: GuideCommand[] = [];
  const settingsFiles: Record<string, Settings> = {};
  const env: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)```(\S*)[ \t]*(.*)$/.exec(lines[i]!);
    if (!fence) continue;
    const [, indent, language, label] = fence as unknown as [string, string, string, string];
    const body: Array<{ line: number; text: string }> = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push({ line: i + 1, text: lines[i]!.slice(indent.length) });

    const settingsFile = /^deploy\/([a-z][a-z0-9-]*)\.json$/.exec(label.trim());
    if (language === 'json' && settingsFile) {
      const stage = settingsFile[1]!;
      settingsFiles[stage] = { ...settingsFiles[stage], ...(JSON.parse(body.map((b) => b.text).join('\n')) as Settings) };
      continue;
    }
    // Any other block may hold shell commands: a backslash at the end of a line continues it.
    for (let j = 0; j < body.length; j++) {
      const { line } = body[j]!;
      let text = body[j]!.text;
      while (text.endsWith('\\') && j + 1 < body.length) text = text.slice(0, -1) + body[++j]!.text;
      const words = shellWords(text);
      if (words[0] === 'export' && words[1]?.includes('=')) {
        const [name, ...value] = words[1].split('=');
        const assigned = value.join('=');
        // A computed value (`$(…)`) is kept only where no setting reads it.
        if (assigned.includes('$')) expect(name, `line ${line}: a setting computed by the shell cannot be checked`).not.toMatch(/^(TRACKPITCH_|CDK_)/);
        else env[name!] = assigned;
        continue;
      }
      const cdk = words.findIndex((word, k) => word === 'cdk' && ['bootstrap', 'synth', 'deploy'].includes(words[k + 1] ?? ''));
      if (cdk < 0) continue;
      const context: Record<string, string> = {};
      for (let k = cdk + 2; k < words.length; k++) {
        if (words[k] !== '-c' && words[k] !== '--context') continue;
        const [key, ...value] = (words[++k] ?? '').split('=');
        expect(value.length, `line ${line}: "${words[k]}" is not -c key=value`).toBeGreaterThan(0);
        context[key!] = value.join('=');
      }
      commands.push({ line, text: text.trim(), context, env: { ...env }, settingsFiles: structuredClone(settingsFiles) });
    }
  }
  return commands;
}

/** Commands that run with the same settings synthesize the same app: one synth for each. */
function bySettings(commands: GuideCommand[]): GuideCommand[][] {
  const groups = new Map<string, GuideCommand[]>();
  for (const command of commands) {
    const stage = command.context.stage ?? command.env.TRACKPITCH_STAGE ?? 'dev';
    const key = JSON.stringify([command.context, command.env, command.settingsFiles[stage]]);
    groups.set(key, [...(groups.get(key) ?? []), command]);
  }
  return [...groups.values()];
}

const guide = readFileSync(path.join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8');
const commands = guideCommands(guide);

describe('docs/deploy.md as written', () => {
  it('deploys prod with nothing but -c stage=prod, every step adding to deploy/prod.json', () => {
    expect(commands.map((c) => c.text)).toEqual(
      expect.arrayContaining(['npx cdk bootstrap -c stage=prod', 'npx cdk synth -c stage=prod > /dev/null', 'npx cdk deploy -c stage=prod']),
    );
    for (const command of commands) expect(command.context, `line ${command.line}`).toEqual({ stage: 'prod' });
    // The later steps' settings reach the last deploy together with the first step's.
    expect(Object.keys(commands.at(-1)?.settingsFiles.prod ?? {})).toEqual(
      expect.arrayContaining(['region', 'cognitoDomainPrefix', 'supportEmail', 'privacyEmail', 'alarmEmail', 'googleClientId', 'stripePricePro']),
    );
  });

  for (const group of bySettings(commands)) {
    const [first] = group as [GuideCommand];
    it(`synthesizes with the settings of line ${group.map((c) => c.line).join(', ')} (${first.text})`, () => {
      const settingsDir = mkdtempSync(path.join(tmpdir(), 'trackpitch-guide-'));
      for (const [stage, settings] of Object.entries(first.settingsFiles)) writeFileSync(path.join(settingsDir, `${stage}.json`), JSON.stringify(settings));
      // As bin/app.ts: the config (a ConfigError names each problem), then cdk-nag on synth.
      const { app, stack, config } = buildApp({ context: { ...TEST_CONTEXT, ...first.context } }, first.env, { settingsDir });
      app.synth();
      const stageSettings = first.settingsFiles[config.stage] ?? {};
      expect(stack.stackName).toBe(`Trackpitch-${config.stage}`);
      expect(stack.region).toBe(stageSettings.region);
    });
  }
});
