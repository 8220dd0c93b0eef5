/** `npm run bench`: every benchmark in turn; each prints its own figures. */
import { spawnSync } from 'node:child_process';

for (const script of ['bench/api.ts', 'bench/start.ts']) {
  console.log(`\n== ${script}`);
  const status = spawnSync('npx', ['tsx', script], { stdio: 'inherit', env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_LOG_LEVEL: 'SILENT' } }).status;
  if (status !== 0) process.exit(status ?? 1);
}
