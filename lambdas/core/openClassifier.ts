/**
 * Who fetched a tracking pixel or followed a tracked link: a person, or a machine acting on its own
 * (mail privacy proxies that fetch every image on delivery, security gateways that scan every link,
 * link-preview bots, scripts). Machine opens are counted apart from human ones (issue 6 §5), so the
 * campaign's open rate is not inflated by Apple Mail Privacy Protection or a corporate scanner.
 * Pure: decided from the request's method, User-Agent and the time since the email was sent.
 */

export type OpenKind = 'human' | 'machine';

export interface OpenRequest {
  /** HTTP method as received. */
  method: string;
  /** The User-Agent header; undefined or empty when the client sent none. */
  userAgent: string | undefined;
  /** Seconds between the email's send (its token's creation) and this request. */
  secondsSinceSent: number;
}

/**
 * A request by a client that does not look like a browser or mail client this soon after sending is
 * a gateway scanning the message on delivery: no person has opened it yet.
 */
export const MACHINE_OPEN_WINDOW_SECONDS = 10;

/**
 * Gmail's image proxy fetches the image when the recipient opens the message (Gmail does not
 * prefetch on delivery), so its request is a human open. Later opens may be served from Gmail's
 * cache, so repeat counts from Gmail are a lower bound.
 */
const HUMAN_PROXIES = [/GoogleImageProxy/i];

/** Proxies, scanners, preview bots and scripts, by a token of their User-Agent. */
const MACHINE_AGENTS: readonly RegExp[] = [
  // Yahoo / AOL mail proxies fetch images on their own schedule, not when the message is read.
  /YahooMailProxy/i,
  /\bAOL\b.*proxy|aolmailproxy/i,
  // Microsoft: Safe Links / Defender detonation, Office link discovery, Bing previews.
  /SafeLinks/i,
  /Microsoft Office (Existence|Protocol) Discovery/i,
  /\bms-office\b/i,
  /BingPreview/i,
  /Microsoft-CryptoAPI/i,
  /Microsoft Exchange/i,
  // Security gateways that fetch every image and link on delivery.
  /Mimecast/i,
  /Proofpoint/i,
  /Barracuda/i,
  /MessageLabs|Symantec/i,
  /IronPort|Cisco/i,
  /Trend ?Micro/i,
  /Sophos|Fortinet|Forcepoint|Zscaler/i,
  // Link-preview and crawler bots.
  // (named bots, not any "bot": Android device models such as "CUBOT" contain it).
  /\b(Googlebot|bingbot|Slackbot|Twitterbot|TelegramBot|Discordbot|LinkedInBot|Applebot|DuckDuckBot|YandexBot|Baiduspider|AhrefsBot|SemrushBot|PetalBot|MJ12bot)\b/i,
  /compatible; [^;)]*(bot|crawler|spider)|crawler|spider|Slurp|\+https?:\/\//i,
  /facebookexternalhit|Slack-ImgProxy|SkypeUriPreview|WhatsApp|Discord/i,
  // Scripts, HTTP libraries and headless browsers.
  /^curl\/|\bwget\b|python-|python\/|aiohttp|httpx|Go-http-client|^Java\/|okhttp|node-fetch|axios|undici|libwww-perl|PostmanRuntime|Apache-HttpClient|Scrapy/i,
  /HeadlessChrome|PhantomJS|Puppeteer|Playwright|Lighthouse|Selenium/i,
];

/** A real browser or mail client: a Mozilla-style UA with a rendering engine, or a known mail app. */
const BROWSER_LIKE = /^Mozilla\/\d\.\d \(.+\).*(AppleWebKit|Gecko|Trident|Presto)|Outlook|Thunderbird|Microsoft Office\/|Airmail|Spark/i;

/** Classifies one pixel fetch (or link follow). See the module comment for why each rule holds. */
export function classifyOpen(request: OpenRequest): OpenKind {
  // A HEAD asks whether the image exists (a scanner or a cache check): nothing was displayed.
  if (request.method.toUpperCase() === 'HEAD') return 'machine';
  const agent = (request.userAgent ?? '').trim();
  if (agent === '') return 'machine';
  // Apple Mail Privacy Protection fetches every remote image on delivery through Apple's proxies,
  // which send exactly this User-Agent (Apple Mail itself sends a full WebKit one).
  if (agent === 'Mozilla/5.0') return 'machine';
  if (HUMAN_PROXIES.some((pattern) => pattern.test(agent))) return 'human';
  if (MACHINE_AGENTS.some((pattern) => pattern.test(agent))) return 'machine';
  if (!BROWSER_LIKE.test(agent) && request.secondsSinceSent < MACHINE_OPEN_WINDOW_SECONDS) return 'machine';
  return 'human';
}
