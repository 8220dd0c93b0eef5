// Runs cognito-local (its own start script) in this process, which exits as soon as its standard
// input closes: the parent keeps that pipe open and never writes to it, so when the parent ends,
// even by kill -9, cognito-local ends with it. Started by lib/local/cognito.ts with the data folder
// as working directory (cognito-local keeps `.cognito/` in its working directory).
//
// cognito-local's server is wrapped by lib/local/cognito-guard.mjs before it starts: it refuses
// browser requests from any origin but the web app's (TRACKPITCH_APP_ORIGIN) and the Admin* and
// management actions from every browser.
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import { guardListener, parseOrigins } from './cognito-guard.mjs';

process.stdin.on('end', () => process.exit(0));
process.stdin.on('close', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();

const appOrigins = parseOrigins(process.env.TRACKPITCH_APP_ORIGIN);

// cognito-local builds its server with http.createServer(app) (or https.createServer(options, app)),
// reading the function from these same module objects when it starts: every server made in this
// process gets the guard in front. A server without a listener would be unguarded: refuse to start.
for (const module of [http, https]) {
  const createServer = module.createServer;
  module.createServer = function guardedCreateServer(...args) {
    const at = args.findIndex((arg) => typeof arg === 'function');
    if (at === -1) throw new Error('cognito-child: a server without a request listener cannot be guarded');
    args[at] = guardListener(args[at], appOrigins);
    return createServer.apply(this, args);
  };
}

const require = createRequire(import.meta.url);
require('cognito-local/lib/bin/start.js');
