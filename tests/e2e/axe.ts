import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

/** axe-core over a page as it is, as the accessibility spec and the pages' own specs check it (issue 12). */

/** WCAG 2.0/2.1/2.2 A and AA, and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const FAILING_IMPACTS = new Set(['serious', 'critical']);
const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;

/**
 * Email HTML (the composer's previews, the outbox's message) is shown in frames sandboxed without
 * allow-scripts: axe cannot run inside them (Playwright's evaluate in such a frame never settles, and the
 * run then hangs). Their content is the artist's email, not the app's UI; the frame elements' own names
 * are checked by hand in checkPage instead.
 */
const SCRIPTLESS_FRAMES = 'iframe[sandbox]';

/**
 * Violations inside Cloudscape that no prop of ours changes, each an exact rule on an exact element (and
 * only for the attribute named): everything else on that element is still checked.
 *
 * - The visual-refresh AppLayout's mobile toolbar (below 688 px) renders its navigation trigger inside
 *   `<nav aria-label={ariaLabels.navigation} aria-orientation="horizontal">`
 *   (@cloudscape-design/components app-layout/visual-refresh/mobile-toolbar.js, 3.0.1383), and
 *   aria-orientation is not allowed on the navigation role (WAI-ARIA 1.2). AppLayout has no prop for it;
 *   only navigationHide (no navigation at all) or another layout (AppLayoutToolbar) avoids the element.
 */
const CLOUDSCAPE_KNOWN = [{ rule: 'aria-allowed-attr', selector: 'nav[class*="awsui_mobile-toolbar-nav_"]', attributes: ['aria-orientation="horizontal"'] }];

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
type AxeNode = AxeResults['violations'][number]['nodes'][number];

/** True when `node` is one of CLOUDSCAPE_KNOWN's exact cases: same rule, same element, only the listed attributes. */
async function isKnownCloudscape(page: Page, rule: string, node: AxeNode): Promise<boolean> {
  const known = CLOUDSCAPE_KNOWN.find((k) => k.rule === rule);
  if (!known || node.target.length !== 1) return false;
  const reported = [...node.all, ...node.any, ...node.none].flatMap((check) => (Array.isArray(check.data) ? (check.data as string[]) : []));
  if (reported.length === 0 || !reported.every((attribute) => known.attributes.includes(attribute))) return false;
  const element = page.locator(String(node.target[0]));
  return (await element.count()) === 1 && element.evaluate((el, selector) => el.matches(selector), known.selector);
}

/**
 * Runs axe on the page as it is (or, with `include`, on that part of it only: what a test adds to a
 * page checked elsewhere), prints the figures, and fails on serious or critical violations.
 */
export async function checkPage(page: Page, testInfo: TestInfo, name: string, { include }: { include?: string } = {}) {
  const started = Date.now();
  for (const frame of await page.locator(SCRIPTLESS_FRAMES).all()) await expect(frame).toHaveAttribute('title', /\S/);
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const results = await builder
    // WCAG 2.5.3 Label in Name: axe ships this rule as experimental, so it runs only when asked for.
    // (options() replaces every option: it goes before withTags.)
    // resultTypes: violations and 'needs review' in full; passes would carry every node (slow on big pages).
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations', 'incomplete'] })
    .withTags(AXE_TAGS)
    .exclude(SCRIPTLESS_FRAMES)
    // One axe.run in the page (frames reached through axe's same-origin messenger; the app has no
    // cross-origin frame) instead of a partial run per frame finished in a blank page: on the
    // LabelFinder's 48 cards that path takes twice as long, serializing every node's results.
    .setLegacyMode()
    .analyze();
  // Set the known Cloudscape cases apart (counted and printed, never failing).
  let knownCount = 0;
  const violations: AxeResults['violations'] = [];
  for (const violation of results.violations) {
    const nodes: AxeNode[] = [];
    for (const node of violation.nodes) {
      if (await isKnownCloudscape(page, violation.id, node)) knownCount += 1;
      else nodes.push(node);
    }
    if (nodes.length > 0) violations.push({ ...violation, nodes });
  }
  const count = (impact: string) => violations.filter((v) => v.impact === impact);
  const figures = IMPACTS.map((impact) => {
    const rules = count(impact);
    const nodes = rules.reduce((sum, rule) => sum + rule.nodes.length, 0);
    return `${impact} ${rules.length}${nodes > rules.length ? ` (${nodes} nodes)` : ''}`;
  }).join(', ');
  const ruleIds = violations.map((v) => `${v.id} [${v.impact}]`).join(', ');
  // What axe could not decide (mostly text over gradients or under sticky headers): printed for a person to look at, never failing.
  const review = results.incomplete.map((r) => `${r.id} ${r.nodes.length}`).join(', ');
  const needsReview = review ? ` | needs review: ${review}` : '';
  const known = knownCount > 0 ? ` | known in Cloudscape (not failing): ${knownCount} aria-allowed-attr on the mobile toolbar's nav` : '';
  const line = `${figures}${ruleIds ? ` | ${ruleIds}` : ''}${known}${needsReview}`;
  console.log(`axe ${testInfo.project.name} | ${name} | ${line} | ${Date.now() - started} ms`);
  testInfo.annotations.push({ type: 'axe', description: `${name}: ${line}` });
  const attachment = { violations: results.violations, incomplete: results.incomplete };
  await testInfo.attach(`axe-${name}.json`, { body: JSON.stringify(attachment, null, 2), contentType: 'application/json' });

  const failing = violations.filter((v) => FAILING_IMPACTS.has(v.impact ?? ''));
  const report = failing
    .map((v) => {
      const targets = v.nodes.slice(0, 10).map((node) => `    - ${node.target.join(' >>> ')}  ${node.html.slice(0, 200)}`);
      if (v.nodes.length > 10) targets.push(`    … and ${v.nodes.length - 10} more`);
      return [`${v.id} (${v.impact}): ${v.help} — ${v.helpUrl}`, ...targets].join('\n');
    })
    .join('\n');
  expect(
    failing.map((v) => `${v.id} (${v.impact})`),
    `serious or critical axe violations on ${name}:\n${report}`,
  ).toEqual([]);
}

/** Waits until nothing on the page says it is still loading. */
export async function settled(page: Page) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}
