import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { brandColors, brandCssVariables } from '../../../../schema/brand';
import { BrandMark } from '../../brand/BrandLogo';
import { useNightBackground } from '../../brand/useBrandTheme';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PublicFooter } from '../../components/PublicFooter';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useConfig } from '../../config/ConfigContext';
import { BETA_PERKS, FAQS, FEATURES, PLANS, ROTATING_WORDS, TESTIMONIALS, type FeatureIcon } from './content';
import { usePrefersReducedMotion, useTypingRotation } from './motion';
import { BetaSpots, useWaitlistSpots } from './BetaSpots';
import layout from '../../components/layout.module.css';
import styles from './landing.module.css';
import { WaitlistForm } from './WaitlistForm';

// The walkthrough is only downloaded when a visitor asks for it (or points at the button).
const loadDemo = () => import('./DemoWalkthrough');
const DemoWalkthrough = lazy(loadDemo);

const ICON_PATHS: Record<FeatureIcon, string> = {
  ai: 'M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8zM18 15l.9 2.1 2.1.9-2.1.9L18 21l-.9-2.1-2.1-.9 2.1-.9z',
  chart: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  pace: 'M12 7v5l3 2M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z',
  lock: 'M6 11h12v10H6zM8.5 11V7.5a3.5 3.5 0 0 1 7 0V11',
  db: 'M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v6c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12v6c0 1.7 3.6 3 8 3s8-1.3 8-3v-6',
  wave: 'M2 12h2M6 8v8M10 4v16M14 7v10M18 10v4M22 12h-2',
};

function Icon({ name }: { name: FeatureIcon }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={ICON_PATHS[name]} />
    </svg>
  );
}

/** The hero's rotating word: the visual is hidden from screen readers, which read the plain headline. */
function RotatingWord() {
  const reduced = usePrefersReducedMotion();
  const word = useTypingRotation(ROTATING_WORDS, !reduced);
  return (
    <>
      <span className={styles.typed} aria-hidden="true" data-testid="typed-word">
        {word}
        {!reduced && <span className={styles.caret} />}
      </span>
      <span className={layout.visuallyHidden}>heard</span>
    </>
  );
}

function FaqItem({ question, answer, index }: { question: string; answer: string; index: number }) {
  const [open, setOpen] = useState(false);
  const buttonId = `faq-q-${index}`;
  const panelId = `faq-a-${index}`;
  return (
    <div className={styles.faqItem} data-open={open || undefined}>
      <h3 className={styles.faqQuestion}>
        <button type="button" id={buttonId} aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
          <span>{question}</span>
          <span className={styles.faqSign} aria-hidden="true" />
        </button>
      </h3>
      <div id={panelId} className={styles.faqAnswer} hidden={!open}>
        <p>{answer}</p>
      </div>
    </div>
  );
}

/** The marketing landing page of spec §2 (/ and /landing): plain React and CSS, no Cloudscape. */
export default function LandingPage({ fetchImpl }: { fetchImpl?: typeof fetch } = {}) {
  useDocumentTitle();
  const navigate = useNavigate();
  const location = useLocation();
  const { contactEmails } = useConfig();
  const reduced = usePrefersReducedMotion();
  const [demoOpen, setDemoOpen] = useState(false);
  const demoButton = useRef<HTMLButtonElement>(null);
  const emailRef = useRef<HTMLInputElement | null>(null);
  const successRef = useRef<HTMLHeadingElement | null>(null);
  const spots = useWaitlistSpots(fetchImpl);

  // A dark page all the way to the edges (overscroll included) while the landing page is shown.
  useNightBackground(brandColors.night, { dark: true });

  const scrollToId = useCallback(
    (id: string) => {
      // jsdom has no scrollIntoView: the type says it may be missing.
      const target: Partial<Pick<HTMLElement, 'scrollIntoView'>> | null = document.getElementById(id);
      target?.scrollIntoView?.({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
    },
    [reduced],
  );

  // Footer links (/#features, /#pricing) and shared links land on their section.
  useEffect(() => {
    const id = decodeURIComponent(location.hash.replace(/^#/, ''));
    if (id) scrollToId(id);
  }, [location.hash, scrollToId]);

  /** Start Free Trial and every Get Started: to the waitlist form, with the keyboard on its first field. */
  const goToForm = useCallback(() => {
    // The form itself (not the section): on a phone the beta perks come first and would push it off screen.
    scrollToId('waitlist-form');
    const target = emailRef.current ?? successRef.current;
    target?.focus({ preventScroll: true });
  }, [scrollToId]);

  const closeDemo = useCallback(() => {
    setDemoOpen(false);
    demoButton.current?.focus();
  }, []);

  const prefetchDemo = () => void loadDemo();

  return (
    <div className={styles.page} style={brandCssVariables}>
      <a className={styles.skipLink} href="#main">
        Skip to content
      </a>
      <header className={styles.topbar}>
        <div className={styles.topbarInner}>
          <Link to="/" className={styles.brand}>
            <BrandMark />
          </Link>
          <nav aria-label="Main" className={styles.topnav}>
            <a href="#features">Features</a>
            <a href="#pricing">Pricing</a>
            <a href="#faq">FAQ</a>
            <a href="#waitlist">Beta</a>
          </nav>
          <button type="button" className={`${styles.button} ${styles.ghost} ${styles.small}`} onClick={() => void navigate('/auth')}>
            Login
          </button>
        </div>
      </header>

      <main id="main" tabIndex={-1} className={styles.main}>
        <section className={styles.hero} aria-labelledby="hero-title">
          <div className={styles.heroGlow} aria-hidden="true" />
          <div className={styles.heroCopy}>
            <p className={styles.eyebrow}>
              <span className={styles.pulse} aria-hidden="true" /> Private beta · first 50 producers
            </p>
            <h1 id="hero-title" className={styles.heroTitle}>
              Get your tracks <RotatingWord />
            </h1>
            <p className={styles.lead}>
              Trackpitch writes a personal demo email for every label, DJ and A&amp;R contact, sends it from your own mailbox at a safe pace, and shows you who
              opened and clicked.
            </p>
            <div className={styles.ctaRow}>
              <button type="button" className={`${styles.button} ${styles.primary}`} onClick={goToForm}>
                Start Free Trial
              </button>
              <button
                type="button"
                ref={demoButton}
                className={`${styles.button} ${styles.secondary}`}
                onClick={() => setDemoOpen(true)}
                onPointerEnter={prefetchDemo}
                onFocus={prefetchDemo}
                aria-haspopup="dialog"
              >
                <span className={styles.playIcon} aria-hidden="true" />
                Watch Demo
              </button>
            </div>
            <p className={styles.heroNote}>Free during the beta · 50% lifetime discount for beta members</p>
          </div>
          <div className={styles.heroArt} aria-hidden="true">
            <div className={styles.mockCard}>
              <div className={styles.mockHead}>
                <span className={styles.mockDot} />
                <span>Campaign · “Midnight Drive EP”</span>
              </div>
              <div className={styles.eq}>
                {Array.from({ length: 16 }, (_, index) => (
                  <span key={index} style={{ animationDelay: `${(index % 5) * 0.17}s` }} />
                ))}
              </div>
              <dl className={styles.mockStats}>
                <div>
                  <dt>Sent</dt>
                  <dd>48</dd>
                </div>
                <div>
                  <dt>Opened</dt>
                  <dd>31</dd>
                </div>
                <div>
                  <dt>Clicked</dt>
                  <dd>12</dd>
                </div>
              </dl>
              <p className={styles.mockLine}>
                <span className={styles.mockBadge}>AI</span> “Hi Mara, your last Deepwave release…”
              </p>
            </div>
          </div>
        </section>

        <section id="features" className={styles.section} aria-labelledby="features-title">
          <p className={styles.kicker}>Features</p>
          <h2 id="features-title" className={styles.sectionTitle}>
            Everything you need to pitch your music
          </h2>
          <p className={styles.sectionLead}>Built for independent producers, DJs and small labels who promote tracks by email.</p>
          <ul className={styles.featureGrid}>
            {FEATURES.map((feature) => (
              <li key={feature.title} className={styles.card}>
                <span className={styles.featureIcon}>
                  <Icon name={feature.icon} />
                </span>
                <h3 className={styles.cardTitle}>{feature.title}</h3>
                <p className={styles.cardText}>{feature.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section className={styles.section} aria-labelledby="testimonials-title">
          <p className={styles.kicker}>Testimonials</p>
          <h2 id="testimonials-title" className={styles.sectionTitle}>
            Made for how artists really pitch
          </h2>
          <p className={styles.sectionLead}>Sample testimonials. The artists quoted here are fictional.</p>
          <ul className={styles.quoteGrid}>
            {TESTIMONIALS.map((item) => (
              <li key={item.name} className={styles.card}>
                <figure className={styles.quote}>
                  <blockquote>
                    <p>“{item.quote}”</p>
                  </blockquote>
                  <figcaption>
                    <span className={styles.quoteAvatar} aria-hidden="true">
                      {item.name.replace(/^DJ /, '').charAt(0)}
                    </span>
                    <span>
                      <strong>{item.name}</strong>
                      <span className={styles.quoteRole}>
                        {item.style} <span className={styles.fictional}>(fictional)</span>
                      </span>
                    </span>
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </section>

        <section id="pricing" className={styles.section} aria-labelledby="pricing-title">
          <p className={styles.kicker}>Pricing</p>
          <h2 id="pricing-title" className={styles.sectionTitle}>
            Simple plans that grow with you
          </h2>
          <p className={styles.sectionLead}>Paid plans come with a 30-day money-back guarantee. Beta members get 50% off for life.</p>
          <ul className={styles.pricingGrid}>
            {PLANS.map((plan) => (
              <li key={plan.name} className={`${styles.card} ${styles.plan} ${plan.popular ? styles.planPopular : ''}`}>
                {plan.popular && <p className={styles.popularBadge}>Most popular</p>}
                <h3 className={styles.planName}>{plan.name}</h3>
                <p className={styles.planPrice}>
                  <span className={styles.planAmount}>{plan.price}</span> <span className={styles.planPeriod}>{plan.period}</span>
                </p>
                <p className={styles.planSummary}>{plan.summary}</p>
                <ul className={styles.planList}>
                  {plan.features.map((feature) => (
                    <li key={feature} className={styles.planYes}>
                      <span className={layout.visuallyHidden}>Included: </span>
                      {feature}
                    </li>
                  ))}
                  {plan.limitations.map((limitation) => (
                    <li key={limitation} className={styles.planNo}>
                      <span className={layout.visuallyHidden}>Limitation: </span>
                      {limitation}
                    </li>
                  ))}
                </ul>
                <button
                  type="button"
                  className={`${styles.button} ${plan.popular ? styles.primary : styles.secondary} ${styles.planButton}`}
                  onClick={goToForm}
                  aria-describedby={`plan-${plan.name}`}
                >
                  Get Started
                </button>
                <span id={`plan-${plan.name}`} className={layout.visuallyHidden}>
                  {plan.name} plan
                </span>
              </li>
            ))}
          </ul>
        </section>

        <section id="faq" className={`${styles.section} ${styles.narrowSection}`} aria-labelledby="faq-title">
          <p className={styles.kicker}>FAQ</p>
          <h2 id="faq-title" className={styles.sectionTitle}>
            Frequently asked questions
          </h2>
          <div className={styles.faqList}>
            {FAQS.map((item, index) => (
              <FaqItem key={item.question} index={index} {...item} />
            ))}
          </div>
        </section>

        <section id="waitlist" className={`${styles.section} ${styles.beta}`} aria-labelledby="waitlist-title">
          <div className={styles.betaInfo}>
            <p className={styles.kicker}>Limited beta</p>
            <h2 id="waitlist-title" className={styles.sectionTitle} tabIndex={-1}>
              Join the beta
            </h2>
            <p className={styles.sectionLead}>
              The first 50 producers get Trackpitch free while it is in beta. We reply to every sign-up by email within 24-48 hours.
            </p>
            <BetaSpots state={spots.state} />
            <ul className={styles.perks}>
              {BETA_PERKS.map((perk) => (
                <li key={perk}>{perk}</li>
              ))}
            </ul>
          </div>
          <div className={styles.formCard} id="waitlist-form">
            <WaitlistForm emailRef={emailRef} successRef={successRef} onJoined={spots.refresh} supportEmail={contactEmails.support} fetchImpl={fetchImpl} />
          </div>
        </section>
      </main>

      <div className={styles.footerWrap}>
        <PublicFooter className={styles.footer} />
      </div>

      {demoOpen && (
        <Suspense fallback={null}>
          <DemoWalkthrough
            onClose={closeDemo}
            onJoin={() => {
              setDemoOpen(false);
              goToForm();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
