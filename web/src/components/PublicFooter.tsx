import { Link } from 'react-router-dom';
import { useConfig } from '../config/ConfigContext';
import styles from './PublicFooter.module.css';

/**
 * The footer of the public pages (spec §2): Features and Pricing (sections of /), Get Started (/auth),
 * Privacy Policy, Terms of Service, and the two contact addresses from the runtime config. Plain React
 * (no Cloudscape) so the landing page stays light; colours come from CSS variables the page may set
 * (--footer-fg, --footer-muted, --footer-link, --footer-border), with light defaults for the legal pages.
 */
export function PublicFooter({ className }: { className?: string }) {
  const { contactEmails } = useConfig();
  return (
    <footer className={className ? `${styles.footer} ${className}` : styles.footer}>
      <nav aria-label="Footer">
        <ul className={styles.links}>
          <li>
            <Link to="/#features">Features</Link>
          </li>
          <li>
            <Link to="/#pricing">Pricing</Link>
          </li>
          <li>
            <Link to="/auth">Get Started</Link>
          </li>
          <li>
            <Link to="/privacy">Privacy Policy</Link>
          </li>
          <li>
            <Link to="/terms">Terms of Service</Link>
          </li>
        </ul>
      </nav>
      <p className={styles.contact}>
        <span>
          Support: <a href={`mailto:${contactEmails.support}`}>{contactEmails.support}</a>
        </span>
        <span>
          Privacy: <a href={`mailto:${contactEmails.privacy}`}>{contactEmails.privacy}</a>
        </span>
      </p>
      <p className={styles.copy}>© {new Date().getFullYear()} Trackpitch. Made for electronic music artists.</p>
    </footer>
  );
}
