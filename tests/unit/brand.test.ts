import { describe, expect, it } from 'vitest';
import { brandColors, brandCssVariables, brandLogoSvg, brandMastheadHtml, brandPageCss } from '../../schema/brand';
import { brandThemeCss } from '../../web/brandThemePlugin';
import { brandTheme } from '../../web/src/brand/theme';

/** WCAG 2 relative luminance and contrast ratio of two #rrggbb colours. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const c = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

describe('the brand (issue 25 §5)', () => {
  it('keeps text contrast at WCAG AA (4.5:1) wherever the brand puts a colour', () => {
    const pairs: [string, string, string][] = [
      ['text on the night background', brandColors.text, brandColors.night],
      ['muted text on the night background', brandColors.muted, brandColors.night],
      ['faint text on the night background', brandColors.faint, brandColors.night],
      ['soft violet on the night background', brandColors.violetSoft, brandColors.night],
      ['white on a primary button', '#ffffff', brandColors.violetStrong],
      ['white on a hovered primary button', '#ffffff', brandColors.violetDeep],
      ['a normal button’s violet on white', brandColors.violetStrong, '#ffffff'],
      ['a hovered normal button on its wash', brandColors.violetDeep, brandColors.violetWash],
      ['links on white', brandColors.violetDeep, '#ffffff'],
    ];
    for (const [what, foreground, background] of pairs) expect(contrast(foreground, background), what).toBeGreaterThanOrEqual(4.5);
  });

  it('gives Cloudscape only brand colours for its buttons and links, each AA on white or under white text', () => {
    const tokens = brandTheme.tokens as Record<string, string>;
    expect(tokens.colorBackgroundButtonPrimaryDefault).toBe(brandColors.violetStrong);
    expect(tokens.colorTextLinkDefault).toBe(brandColors.violetDeep);
    for (const name of ['colorTextButtonNormalDefault', 'colorTextButtonNormalHover', 'colorTextLinkDefault', 'colorTextLinkHover']) {
      expect(contrast(tokens[name]!, '#ffffff'), name).toBeGreaterThanOrEqual(4.5);
    }
    for (const name of ['colorBackgroundButtonPrimaryDefault', 'colorBackgroundButtonPrimaryHover', 'colorBackgroundButtonPrimaryActive']) {
      expect(contrast('#ffffff', tokens[name]!), name).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('builds the Cloudscape theme stylesheet with Cloudscape’s own generator, holding the brand’s values', async () => {
    const css = await brandThemeCss();
    expect(css).toMatch(/--color-background-button-primary-default-[a-z0-9]+:#7c3aed/);
    expect(css).toMatch(/--font-family-base-[a-z0-9]+:Inter,/);
  }, 30_000);

  it('gives the plain HTML pages the same variables, logo and masthead', () => {
    const css = brandPageCss();
    for (const [name, value] of Object.entries(brandCssVariables)) expect(css).toContain(`${name}: ${value};`);
    expect(brandMastheadHtml()).toContain(brandLogoSvg());
    expect(brandLogoSvg()).toContain(brandColors.violet);
    expect(brandLogoSvg()).toContain(brandColors.pink);
  });
});
