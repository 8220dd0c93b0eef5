/**
 * Trackpitch's look in one place (issue 25 §5): the logo, the type and the colours every surface takes
 * from, so the landing page, the sign-in page, the recipient pages and the local server's own pages read
 * as one product.
 *
 * - The landing page and the branded web pages set `brandCssVariables` on their root and use the
 *   variables in their CSS modules.
 * - Cloudscape pages outside the app (sign-in, listen, unsubscribe) get Cloudscape theme tokens built
 *   from these values (web/src/brand/theme.ts); inside the app Cloudscape stays stock, but for the logo.
 * - The local server's plain HTML pages (mailbox consent, billing checkout and portal) use
 *   `brandPageCss` and `brandMastheadHtml`.
 *
 * No DOM and no React here: the web app and the local server both import it.
 */

export const BRAND_NAME = 'Trackpitch';

export const brandColors = {
  /** The page: the landing page's night background. */
  night: '#0b0a14',
  /** Raised surfaces on the night background. */
  nightRaised: '#14122a',
  /** Text on the night background (15.9:1) and its quieter tones (8.8:1, 5.6:1). */
  text: '#f1eefc',
  muted: '#b4aecf',
  faint: '#8d87ab',
  /** The neon pair of the logo and the gradients. */
  violet: '#8b5cf6',
  pink: '#ec4899',
  cyan: '#22d3ee',
  /** Violet as text and links on the night background (7.9:1). */
  violetSoft: '#a78bfa',
  violetLight: '#c4b5fd',
  /** Violet under white text or on white: primary buttons 5.7:1, links and hovers 7.1:1 and 8.9:1. */
  violetStrong: '#7c3aed',
  violetDeep: '#6d28d9',
  violetDeeper: '#5b21b6',
  /** A faint violet wash behind hovered controls on white. */
  violetWash: '#f5f3ff',
  /** The focus ring on the night background. */
  focus: '#fbbf24',
  /** Text on white cards (Cloudscape's body text). */
  ink: '#16191f',
} as const;

/** The type: the landing page's stack (a system sans where Inter is not installed). */
export const brandFontFamily = "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/** Cards on the night background: the landing page's radius. */
export const brandRadius = '18px';

/** The night background with its two neon glows. */
export const brandBackdrop = `radial-gradient(1200px 600px at 85% -10%, rgb(139 92 246 / 22%), transparent 60%), radial-gradient(900px 500px at -10% 20%, rgb(236 72 153 / 12%), transparent 60%), ${brandColors.night}`;

/** The logo: a rounded square in the violet-to-pink gradient with five white level bars. */
export const brandLogo = {
  viewBox: '0 0 32 32',
  cornerRadius: 9,
  gradient: [brandColors.violet, brandColors.pink] as const,
  bars: 'M8 17v-2M12 21V11M16 24V8M20 20v-8M24 17v-2',
  barWidth: 2.2,
} as const;

/** The logo as SVG markup (decorative: the word "Trackpitch" beside it names it). `id` names its gradient, unique per document. */
export function brandLogoSvg({ size = 32, id = 'tp-logo' }: { size?: number; id?: string } = {}): string {
  const [from, to] = brandLogo.gradient;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${brandLogo.viewBox}" width="${size}" height="${size}" aria-hidden="true" focusable="false">` +
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
    `<rect width="32" height="32" rx="${brandLogo.cornerRadius}" fill="url(#${id})"/>` +
    `<path d="${brandLogo.bars}" stroke="#fff" stroke-width="${brandLogo.barWidth}" stroke-linecap="round" fill="none"/>` +
    `</svg>`
  );
}

/** The logo as an image URL (the app's navigation header takes an image). */
export const brandLogoDataUri = `data:image/svg+xml,${encodeURIComponent(brandLogoSvg())}`;

/** The brand as CSS custom properties, set on a page's root element. */
export const brandCssVariables: Readonly<Record<`--tp-${string}`, string>> = {
  '--tp-night': brandColors.night,
  '--tp-night-raised': brandColors.nightRaised,
  '--tp-text': brandColors.text,
  '--tp-muted': brandColors.muted,
  '--tp-faint': brandColors.faint,
  '--tp-violet': brandColors.violet,
  '--tp-violet-soft': brandColors.violetSoft,
  '--tp-violet-light': brandColors.violetLight,
  '--tp-violet-strong': brandColors.violetStrong,
  '--tp-violet-deep': brandColors.violetDeep,
  '--tp-violet-wash': brandColors.violetWash,
  '--tp-pink': brandColors.pink,
  '--tp-cyan': brandColors.cyan,
  '--tp-focus': brandColors.focus,
  '--tp-ink': brandColors.ink,
  '--tp-font': brandFontFamily,
  '--tp-radius': brandRadius,
  '--tp-backdrop': brandBackdrop,
};

const variablesCss = Object.entries(brandCssVariables)
  .map(([name, value]) => `${name}: ${value};`)
  .join(' ');

/**
 * The frame of a plain HTML page (the local server's pages): the night backdrop, the masthead, and a white
 * card (`main`) with the brand's type, buttons (`button.primary` filled, others outlined), inputs, links
 * and focus ring. A page adds its own few rules after it.
 */
export function brandPageCss(): string {
  return `
  :root { ${variablesCss} }
  html { background: var(--tp-night); }
  body { font-family: var(--tp-font); margin: 0; min-height: 100vh; background: var(--tp-backdrop); color: var(--tp-ink); line-height: 1.5; -webkit-font-smoothing: antialiased; }
  .tp-masthead { display: flex; justify-content: center; padding: 2rem 1rem 0; }
  .tp-brand { display: inline-flex; align-items: center; gap: .6rem; color: var(--tp-text); font-weight: 800; font-size: 1.15rem; letter-spacing: -0.01em; }
  main { box-sizing: border-box; max-width: 30rem; margin: 1.25rem auto 2rem; padding: 1.5rem; background: #fff; border-radius: var(--tp-radius); box-shadow: 0 20px 60px -20px rgb(139 92 246 / 45%); }
  @media (max-width: 480px) { .tp-masthead { padding-top: 1rem; } main { margin: .75rem .5rem 1.5rem; padding: 1.25rem 1rem; } }
  h1 { font-size: 1.4rem; margin-top: 0; letter-spacing: -0.01em; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  input[type=email], input[type=text] { box-sizing: border-box; width: 100%; padding: .6rem; font: inherit; border: 1px solid #7d8998; border-radius: 8px; }
  .hint { color: #5f6b7a; font-size: .9rem; margin: .25rem 0 0; }
  .error, .alert { color: #d91515; font-weight: 600; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; flex-wrap: wrap; }
  button { font: inherit; font-weight: 650; padding: .6rem 1.4rem; border-radius: 999px; border: 2px solid var(--tp-violet-strong); background: #fff; color: var(--tp-violet-strong); cursor: pointer; }
  button:hover { background: var(--tp-violet-wash); color: var(--tp-violet-deep); border-color: var(--tp-violet-deep); }
  button.primary { background: var(--tp-violet-strong); color: #fff; }
  button.primary:hover { background: var(--tp-violet-deep); color: #fff; }
  a { color: var(--tp-violet-deep); }
  button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid var(--tp-violet-strong); outline-offset: 2px; }
`;
}

/** The masthead of a plain HTML page: the logo and the name, above the card. */
export function brandMastheadHtml(): string {
  return `<header class="tp-masthead"><span class="tp-brand">${brandLogoSvg()}<span>${BRAND_NAME}</span></span></header>`;
}
