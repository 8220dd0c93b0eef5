/**
 * Loads a LabelFinder directory file through the admin API (POST /api/admin/directory), then prints what
 * was created, updated and rejected. See README "Loading a real LabelFinder directory".
 *
 *   npm run directory:import -- <file.csv|file.json> [--site http://localhost:3000]
 *                               [--email admin@example.com --password ...] [--token <ID token>]
 *
 * Without --token it signs in with USER_PASSWORD_AUTH at the site's Cognito endpoint (/config.json):
 * that works against `npm start` (cognito-local). A deployed pool allows only SRP: pass an admin's ID token.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_ADMIN } from '../lib/local/stack';
import { DIRECTORY_IMPORT_MAX_BYTES, directoryImportResultSchema, utf8Length, type DirectoryImportRequest } from '../schema/api/directory';
import { runtimeConfigSchema, type RuntimeConfig } from '../schema/api/runtimeConfig';
import { decodeCsvBytes } from '../schema/csv/parse';

const USAGE =
  'Usage: npm run directory:import -- <file.csv|file.json> [--site http://localhost:3000] ' + '[--email admin@example.com --password ...] [--token <ID token>]';

class Failure extends Error {}

const messageOfError = (error: unknown) => (error instanceof Error ? error.message : String(error));

const formats: Record<string, DirectoryImportRequest['format']> = { '.csv': 'csv', '.json': 'json' };

/** The message of an error body ({ message }) or the raw text. */
async function messageOf(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: show the text as it came
  }
  return text.slice(0, 500) || response.statusText;
}

/** USER_PASSWORD_AUTH at the pool's endpoint (the JSON API the SDK and Amplify use): the ID token. */
async function signIn(config: RuntimeConfig, email: string, password: string): Promise<string> {
  if (!config.userPoolEndpoint) {
    throw new Failure("This site uses Cognito in AWS, which signs in with SRP only: pass --token with an admin's ID token.");
  }
  const response = await fetch(config.userPoolEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
    body: JSON.stringify({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: config.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  });
  if (!response.ok) throw new Failure(`Sign-in as ${email} failed: ${await messageOf(response)}`);
  const body = (await response.json()) as { AuthenticationResult?: { IdToken?: string }; ChallengeName?: string };
  const token = body.AuthenticationResult?.IdToken;
  if (!token) throw new Failure(`Sign-in as ${email} needs ${body.ChallengeName ?? 'another step'}: sign in once in the app, or pass --token.`);
  return token;
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      site: { type: 'string', default: 'http://localhost:3000' },
      email: { type: 'string', default: process.env.LOCAL_ADMIN_EMAIL ?? DEFAULT_ADMIN.email },
      password: { type: 'string', default: process.env.LOCAL_ADMIN_PASSWORD ?? DEFAULT_ADMIN.password },
      token: { type: 'string' },
    },
  });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new Failure(USAGE);
  const format = formats[extname(file).toLowerCase()];
  if (!format) throw new Failure(`${file}: the file must end in .csv or .json.`);
  const bytes = await readFile(file).catch((error: unknown) => {
    throw new Failure(`${file}: ${messageOfError(error)}`);
  });
  // A CSV saved by Excel on Windows ("CSV (Comma delimited)") is Windows-1252, not UTF-8; JSON is UTF-8.
  const content = format === 'csv' ? decodeCsvBytes(bytes) : bytes.toString('utf8');
  if (utf8Length(content) > DIRECTORY_IMPORT_MAX_BYTES) {
    throw new Failure(`${file} is too large: at most ${DIRECTORY_IMPORT_MAX_BYTES / 1024 / 1024} MB per import. Split it.`);
  }
  const site = values.site.replace(/\/+$/, '');

  let token = values.token;
  if (!token) {
    const configResponse = await fetch(`${site}/config.json`).catch((error: unknown) => {
      throw new Failure(`Cannot reach ${site}: ${messageOfError(error)}. Is the app running (npm start)?`);
    });
    if (!configResponse.ok) throw new Failure(`${site}/config.json answered ${configResponse.status}.`);
    token = await signIn(runtimeConfigSchema.parse(await configResponse.json()), values.email, values.password);
  }

  const response = await fetch(`${site}/api/admin/directory`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ format, content } satisfies DirectoryImportRequest),
  }).catch((error: unknown) => {
    throw new Failure(`Cannot reach ${site}: ${messageOfError(error)}`);
  });
  if (!response.ok) throw new Failure(`Import refused (${response.status}): ${await messageOf(response)}`);
  const result = directoryImportResultSchema.parse(await response.json());
  console.log(`${file}: ${result.created} created, ${result.updated} updated, ${result.rejected.length} rejected.`);
  for (const { row, email, reasons } of result.rejected) {
    console.log(`  Row ${row}${email ? ` (${email})` : ''}: ${reasons.join('; ')}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Failure ? error.message : error);
  process.exitCode = 1;
});
