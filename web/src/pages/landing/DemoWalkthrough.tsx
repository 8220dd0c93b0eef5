import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import styles from './demo.module.css';

interface Step {
  title: string;
  text: string;
  points: readonly string[];
  art: ReactNode;
}

const Bars = ({ values }: { values: readonly number[] }) => (
  <div className={styles.bars}>
    {values.map((value, index) => (
      <span key={index} style={{ height: `${value}%` }} />
    ))}
  </div>
);

/** Five steps through the product, with facts from the spec (§2, §5, §9). */
const STEPS: readonly [Step, ...Step[]] = [
  {
    title: 'Connect your mailbox',
    text: 'Link your own email account once through a secure OAuth connection. Every pitch is sent from your address, and replies land in your inbox.',
    points: ['OAuth sign-in, no password shared', 'Disconnect at any time in Settings'],
    art: (
      <div className={styles.artConnect}>
        <span className={styles.chip}>you@yourmail.com</span>
        <span className={styles.link} />
        <span className={`${styles.chip} ${styles.chipAccent}`}>Connected ✓</span>
      </div>
    ),
  },
  {
    title: 'Import your contacts',
    text: 'Upload a CSV of labels, DJs and A&R contacts (up to 5,000 rows), map the columns, and duplicates are skipped for you. Or add verified contacts from LabelFinder.',
    points: ['CSV up to 5 MB', 'Types: Label, DJ, Fan', 'Genre tags and filters'],
    art: (
      <div className={styles.artTable}>
        {[
          ['Deepwave Records', 'Label'],
          ['Anna K.', 'DJ'],
          ['Subterra A&R', 'Label'],
        ].map(([name, type]) => (
          <div key={name} className={styles.row}>
            <span className={styles.avatar} />
            <span>{name}</span>
            <span className={styles.tag}>{type}</span>
          </div>
        ))}
      </div>
    ),
  },
  {
    title: 'Compose with AI',
    text: 'Describe your track and the AI writes a unique email for each recipient, in your chosen tone. Preview and edit it, save templates, or switch to HTML mode.',
    points: ['One personal email per contact', 'Placeholders like [NAME] and [TRACK_URL]'],
    art: (
      <div className={styles.artEmail}>
        <p className={styles.mailLine}>
          <strong>Subject:</strong> New deep house demo for Deepwave
        </p>
        <p className={styles.mailLine}>Hi Mara, I loved your last Deepwave release and think my new track…</p>
        <span className={styles.sparkle}>AI-written for this contact</span>
      </div>
    ),
  },
  {
    title: 'Send at a safe pace',
    text: 'Campaigns go out gradually, one email a minute (60 an hour), within your daily mailbox limit. Pause and resume whenever you like; the daily limit resets at midnight Pacific Time.',
    points: ['60 emails per hour', 'Pause and resume campaigns', 'Usage meter warns at 80%'],
    art: (
      <div className={styles.artPace}>
        <div className={styles.progress}>
          <span style={{ width: '42%' }} />
        </div>
        <p>21 of 50 sent · next in 0:48</p>
      </div>
    ),
  },
  {
    title: 'Track opens and clicks',
    text: 'See who opened your email, who clicked through to your track and who unsubscribed, per campaign, so you know exactly who to follow up with.',
    points: ['Open and click tracking', 'Unsubscribes respected automatically'],
    art: <Bars values={[38, 64, 52, 80, 70, 92, 60]} />,
  },
];

interface DemoWalkthroughProps {
  onClose: () => void;
  /** The last step's call to action: close the demo and go to the waitlist form. */
  onJoin: () => void;
}

/** An accessible modal dialog that steps through the product. Escape or Close ends it. */
export default function DemoWalkthrough({ onClose, onJoin }: DemoWalkthroughProps) {
  const id = useId();
  const [step, setStep] = useState(0);
  const dialogRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const current = STEPS[step] ?? STEPS[0];
  const last = step === STEPS.length - 1;

  // Lock the page behind the dialog and give it focus; the opener gets focus back on close (see LandingPage).
  useEffect(() => {
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    dialogRef.current?.focus();
    return () => {
      document.body.style.overflow = overflow;
    };
  }, []);

  const go = (next: number) => {
    setStep(next);
    headingRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    // Keep Tab and Shift+Tab inside the dialog.
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>('button:not([disabled]), a[href]')];
    const [first] = focusable;
    const lastItem = focusable.at(-1);
    if (!first || !lastItem) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialogRef.current || active === headingRef.current)) {
      event.preventDefault();
      lastItem.focus();
    } else if (!event.shiftKey && active === lastItem) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className={styles.backdrop} onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={dialogRef}
        className={styles.dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-step`}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className={styles.header}>
          <h2 id={`${id}-title`} className={styles.title}>
            How Trackpitch works
          </h2>
          <button type="button" className={styles.close} onClick={onClose} aria-label="Close">
            <span aria-hidden="true">×</span>
          </button>
        </header>
        <div className={styles.art} aria-hidden="true">
          {current.art}
        </div>
        <div className={styles.body}>
          <p className={styles.stepLabel} id={`${id}-step`} aria-live="polite">
            Step {step + 1} of {STEPS.length}
          </p>
          <h3 className={styles.stepTitle} ref={headingRef} tabIndex={-1}>
            {current.title}
          </h3>
          <p className={styles.text}>{current.text}</p>
          <ul className={styles.points}>
            {current.points.map((point) => (
              <li key={point}>{point}</li>
            ))}
          </ul>
        </div>
        <footer className={styles.footer}>
          <ol className={styles.dots} aria-hidden="true">
            {STEPS.map((item, index) => (
              <li key={item.title} className={index === step ? styles.dotActive : undefined} />
            ))}
          </ol>
          <div className={styles.nav}>
            <button type="button" className={styles.secondary} onClick={() => go(step - 1)} disabled={step === 0}>
              Back
            </button>
            {last ? (
              <button type="button" className={styles.primary} onClick={onJoin}>
                Join the waitlist
              </button>
            ) : (
              <button type="button" className={styles.primary} onClick={() => go(step + 1)}>
                Next
              </button>
            )}
          </div>
        </footer>
      </div>
    </div>
  );
}
