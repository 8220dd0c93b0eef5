import type { Theme } from '@cloudscape-design/components/theming';
import { brandColors, brandFontFamily, brandRadius } from '../../../schema/brand';

/**
 * The brand as Cloudscape theme tokens, for the Cloudscape pages outside the app (sign-in, listen,
 * unsubscribe): the brand's type, its violet for primary and normal buttons, links, checked controls and
 * focus, and the landing page's card radius. White cards stay white, so Cloudscape's own text colours
 * keep their contrast; every brand colour here is at least 4.5:1 against what it sits on
 * (tests/unit/brand.test.ts).
 *
 * Built into a stylesheet at build time with Cloudscape's generateThemeStylesheet, the build-time twin
 * of applyTheme (web/brandThemePlugin.ts): applyTheme at run time would add Cloudscape's 97 KB (gzip)
 * token preset to every branded page. useBrandTheme puts the stylesheet in while a branded page is shown
 * and takes it out after, as applyTheme's reset does, so the app itself keeps stock Cloudscape.
 */
export const brandTheme: Theme = {
  tokens: {
    fontFamilyBase: brandFontFamily,
    fontFamilyHeading: brandFontFamily,
    fontFamilyDisplay: brandFontFamily,
    borderRadiusContainer: brandRadius,

    colorBackgroundButtonPrimaryDefault: brandColors.violetStrong,
    colorBackgroundButtonPrimaryHover: brandColors.violetDeep,
    colorBackgroundButtonPrimaryActive: brandColors.violetDeeper,
    colorTextButtonPrimaryDefault: '#ffffff',
    colorTextButtonPrimaryHover: '#ffffff',
    colorTextButtonPrimaryActive: '#ffffff',

    colorBorderButtonNormalDefault: brandColors.violetStrong,
    colorTextButtonNormalDefault: brandColors.violetStrong,
    colorBackgroundButtonNormalHover: brandColors.violetWash,
    colorBorderButtonNormalHover: brandColors.violetDeep,
    colorTextButtonNormalHover: brandColors.violetDeep,
    colorBackgroundButtonNormalActive: brandColors.violetWash,
    colorBorderButtonNormalActive: brandColors.violetDeeper,
    colorTextButtonNormalActive: brandColors.violetDeeper,

    colorTextLinkDefault: brandColors.violetDeep,
    colorTextLinkHover: brandColors.violetDeeper,
    colorTextAccent: brandColors.violetStrong,

    colorBackgroundControlChecked: brandColors.violetStrong,
    colorBorderItemFocused: brandColors.violetStrong,
    colorBorderInputFocused: brandColors.violetStrong,
  },
};
