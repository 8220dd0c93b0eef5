import { useId } from 'react';
import { BRAND_NAME, brandLogo } from '../../../schema/brand';

/** The logo (schema/brand.ts), decorative: the name beside it says what it is. */
export function BrandLogo({ size = 32 }: { size?: number }) {
  const gradientId = `tp-logo-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const [from, to] = brandLogo.gradient;
  return (
    <svg viewBox={brandLogo.viewBox} width={size} height={size} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={from} />
          <stop offset="1" stopColor={to} />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx={brandLogo.cornerRadius} fill={`url(#${gradientId})`} />
      <path d={brandLogo.bars} stroke="#fff" strokeWidth={brandLogo.barWidth} strokeLinecap="round" fill="none" />
    </svg>
  );
}

/** The logo and the name, as the landing page's top bar shows them. */
export function BrandMark({ size }: { size?: number }) {
  return (
    <>
      <BrandLogo size={size} />
      <span>{BRAND_NAME}</span>
    </>
  );
}
