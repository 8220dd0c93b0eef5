// Runs cognito-local (its own start script) in this process, which exits as soon as its standard
// input closes: the parent keeps that pipe open and never writes to it, so when the parent ends,
// even by kill -9, cognito-local ends with it. Started by lib/local/cognito.ts with the data folder
// as working directory (cognito-local keeps `.cognito/` in its working directory).
import { createRequire } from 'node:module';

process.stdin.on('end', () => process.exit(0));
process.stdin.on('close', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();

const require = createRequire(import.meta.url);
require('cognito-local/lib/bin/start.js');
