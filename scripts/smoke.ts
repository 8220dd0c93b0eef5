/**
 * `npm run smoke -- <site URL>`: checks a deployed stack (or `npm start`) from outside, one line per check,
 * and exits 1 if any fails (2 on bad arguments). See docs/deploy.md "Smoke test after deploy" and
 * scripts/smoke/checks.ts for what is checked.
 *
 *   npm run smoke -- https://d111111abcdef8.cloudfront.net     # the SiteUrl output; AWS credentials for the disposable user
 *   npm run smoke -- http://localhost:3000                     # npm start
 */
const USAGE = `Usage: npm run smoke -- <site URL>
  e.g. npm run smoke -- https://d111111abcdef8.cloudfront.net   (the stack's SiteUrl output)
       npm run smoke -- http://localhost:3000                    (npm start)`;

/** The site's origin, or undefined when `argv` is not exactly one http(s) URL. */
function siteOf(argv: readonly string[]): string | undefined {
  const [only, ...more] = argv;
  if (only === undefined || more.length > 0) return undefined;
  try {
    const url = new URL(only);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    console.log(USAGE);
    return 0;
  }
  const site = siteOf(argv);
  if (!site) {
    console.error(USAGE);
    return 2;
  }
  // Loaded only now: a usage error answers at once, without the SDK and Amplify.
  const { resultLine, runSmoke, summaryLine } = await import('./smoke/runner');
  console.log(`Smoke test of ${site}`);
  const report = await runSmoke(site, { onResult: (result) => console.log(resultLine(result)) });
  console.log(summaryLine(report));
  return report.failed > 0 ? 1 : 0;
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
