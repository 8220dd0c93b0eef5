/** `npm run bench`: every benchmark in turn; each prints its own figures. */
import { spawnSync } from 'node:child_process';

// start.ts runs npm start, which builds the web app that web-sizes.mjs and contacts.ts (first render) then use.
for (const script of [
  'bench/lambdas.ts',
  'bench/api.ts',
  'bench/waitlist.ts',
  'bench/start.ts',
  'bench/web-sizes.mjs',
  'bench/contacts.ts',
  'bench/export.ts',
  'bench/dashboard-load.ts',
  'bench/compose.ts',
  'bench/writer.ts',
  'bench/sending.ts',
  'bench/sending-pace.ts',
  'bench/insights.ts',
  'bench/listen.ts',
  'bench/upload.ts',
]) {
  console.log(`\n== ${script}`);
  const status = spawnSync(script.endsWith('.mjs') ? 'node' : 'npx', script.endsWith('.mjs') ? [script] : ['tsx', script], {
    stdio: 'inherit',
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_LOG_LEVEL: 'SILENT' },
  }).status;
  if (status !== 0) process.exit(status ?? 1);
}
