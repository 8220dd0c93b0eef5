import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { brandColors, brandCssVariables } from '../../../schema/brand';
import { BrandMark } from './BrandLogo';
import styles from './brand.module.css';
import { useBrandTheme, useNightBackground } from './useBrandTheme';

/**
 * A page outside the app in the product's look (issue 25 §5): the landing page's night backdrop, logo
 * and type, and Cloudscape cards in the brand's theme. `home` makes the logo a link to the landing page
 * (the sign-in page); a recipient's page (listen, unsubscribe) shows it without one.
 */
export function BrandedPage({ children, home = false }: { children: ReactNode; home?: boolean }) {
  useBrandTheme();
  useNightBackground(brandColors.night);
  return (
    <div className={styles.backdrop} style={brandCssVariables}>
      <header className={styles.masthead}>
        {home ? (
          <Link to="/" className={styles.brand}>
            <BrandMark />
          </Link>
        ) : (
          <span className={styles.brand}>
            <BrandMark />
          </span>
        )}
      </header>
      <main className={styles.main}>{children}</main>
    </div>
  );
}
