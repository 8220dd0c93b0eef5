/**
 * How long `npm start` takes until the app answers, and whether Ctrl-C leaves nothing behind.
 * Runs the real command (web build included) on spare ports so a running `npm start` is not
 * disturbed; it shares this checkout's .data/ folder.
 *
 *   npx tsx bench/start.ts [runs]
 */
import { spawn, execFileSync } from 'node:child_process';

const runs = Number(process.argv[2] ?? 3);
const ports = { PORT: '3917', DYNAMODB_PORT: '3918', COGNITO_PORT: '3919' };

const listening = () => {
  const out = execFileSync('ss', ['-ltn'], { encoding: 'utf8' });
  return Object.values(ports).filter((port) => out.includes(`127.0.0.1:${port} `) || out.includes(`:${port} `));
};

async function once(): Promise<{ readySeconds: number; stopSeconds: number; leftovers: string[] }> {
  const started = Date.now();
  const child = spawn('npm', ['start'], { env: { ...process.env, ...ports }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = started + 120_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`npm start was not ready in 120 s:\n${output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${ports.PORT}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const readySeconds = (Date.now() - started) / 1000;
  const stopping = Date.now();
  // Ctrl-C in a terminal signals the whole foreground process group.
  if (child.pid === undefined) throw new Error('npm start did not start');
  process.kill(-child.pid, 'SIGINT');
  await new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (let i = 0; i < 50 && listening().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return { readySeconds, stopSeconds: (Date.now() - stopping) / 1000, leftovers: listening() };
}

const results = [];
for (let i = 0; i < runs; i++) results.push(await once());
const ready = results.map((r) => r.readySeconds).sort((a, b) => a - b);
console.log(`npm start until /api/health answers (web build included), ${runs} runs:`);
const [min, median, max] = [ready[0], ready[Math.floor(ready.length / 2)], ready.at(-1)];
console.log(`  ready: min ${min?.toFixed(1)} s, median ${median?.toFixed(1)} s, max ${max?.toFixed(1)} s`);
console.log(`  Ctrl-C until every port is closed: max ${Math.max(...results.map((r) => r.stopSeconds)).toFixed(1)} s`);
console.log(`  ports still open after Ctrl-C: ${results.flatMap((r) => r.leftovers).join(', ') || 'none'}`);
