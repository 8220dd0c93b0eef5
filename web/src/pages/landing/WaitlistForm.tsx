import { useId, useRef, useState, type ChangeEvent, type SubmitEvent, type RefObject } from 'react';
import {
  ARTIST_NAME_MAX,
  EMAIL_MAX,
  joinFailure,
  joinWaitlist,
  LINK_MAX,
  MUSIC_STYLES,
  WAITLIST_TEXT,
  waitlistEmailError,
  WHY_INTERESTED_MAX,
  type JoinFailure,
} from '../../api/waitlist';
import { normaliseLink } from '../../../../schema/api/links';
import styles from './landing.module.css';

interface Values {
  email: string;
  artistName: string;
  musicStyle: string;
  link: string;
  why: string;
}

const EMPTY: Values = { email: '', artistName: '', musicStyle: '', link: '', why: '' };

type FieldName = keyof Values;

// The same patterns and limits as the contract's waitlistJoinSchema (the server checks them again).

function check(values: Values): { message: string; fields: FieldName[] } | null {
  const missing = (['email', 'artistName', 'musicStyle'] as const).filter((name) => values[name].trim() === '');
  if (missing.length > 0) return { message: WAITLIST_TEXT.required, fields: [...missing] };
  // The server's own check (an invisible or control character, then the pattern), so both give one message.
  const emailError = waitlistEmailError(values.email);
  if (emailError !== null) return { message: emailError, fields: ['email'] };
  // A website only (schema/api/links.ts; 'soundcloud.com/…' is https), so no javascript: URL reaches the admin table.
  if (values.link.trim() !== '' && normaliseLink(values.link) === null) {
    return { message: WAITLIST_TEXT.badLink, fields: ['link'] };
  }
  return null;
}

/** A field's label with its Required star or Optional tag (decorative: the control says required itself). */
function FieldLabel({ htmlFor, label, required }: { htmlFor: string; label: string; required: boolean }) {
  return (
    <div className={styles.labelRow}>
      <label htmlFor={htmlFor}>{label}</label>
      {required ? (
        <span className={styles.required} aria-hidden="true">
          *
        </span>
      ) : (
        <span className={styles.optional} aria-hidden="true">
          Optional
        </span>
      )}
    </div>
  );
}

interface WaitlistFormProps {
  /** The email field, focused by Start Free Trial and Get Started. */
  emailRef: RefObject<HTMLInputElement | null>;
  /** The confirmation heading, focused instead once the visitor has joined. */
  successRef: RefObject<HTMLHeadingElement | null>;
  onJoined?: () => void;
  supportEmail: string;
  fetchImpl?: typeof fetch;
}

/** The beta waitlist form of spec §2 and §5. Nothing typed is lost on an error; success resets it. */
export function WaitlistForm({ emailRef, successRef, onJoined, supportEmail, fetchImpl }: WaitlistFormProps) {
  const id = useId();
  const [values, setValues] = useState<Values>(EMPTY);
  const [invalid, setInvalid] = useState<readonly FieldName[]>([]);
  const [error, setError] = useState<JoinFailure | null>(null);
  const [busy, setBusy] = useState(false);
  const [joined, setJoined] = useState<{ email: string; artistName: string } | null>(null);
  const submitting = useRef(false);
  const fieldRefs = useRef<Partial<Record<FieldName, HTMLElement | null>>>({});

  const update = (name: FieldName) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
    const value = name === 'why' ? event.target.value.slice(0, WHY_INTERESTED_MAX) : event.target.value;
    setValues((current) => ({ ...current, [name]: value }));
    if (invalid.includes(name)) setInvalid((current) => current.filter((field) => field !== name));
  };

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting.current) return;
    const problem = check(values);
    if (problem) {
      setInvalid(problem.fields);
      setError({ title: problem.message });
      const [firstField] = problem.fields;
      if (firstField) fieldRefs.current[firstField]?.focus();
      return;
    }
    submitting.current = true;
    setBusy(true);
    setError(null);
    setInvalid([]);
    const link = normaliseLink(values.link) ?? '';
    const why = values.why.trim();
    try {
      await joinWaitlist(
        {
          email: values.email.trim(),
          artist_name: values.artistName.trim(),
          music_style: values.musicStyle,
          ...(link ? { soundcloud_spotify_url: link } : {}),
          ...(why ? { why_interested: why } : {}),
        },
        fetchImpl,
      );
      setJoined({ email: values.email.trim(), artistName: values.artistName.trim() });
      setValues(EMPTY);
      onJoined?.();
      // Move focus to the confirmation so a screen reader announces it and the keyboard stays in place.
      setTimeout(() => successRef.current?.focus(), 0);
    } catch (caught) {
      console.error('Could not join the waitlist', caught);
      setError(joinFailure(caught));
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  }

  if (joined) {
    return (
      <div className={styles.success} role="status">
        <span className={styles.successIcon} aria-hidden="true">
          ✓
        </span>
        <h3 className={styles.successTitle} ref={successRef} tabIndex={-1}>
          You're In The Beta
        </h3>
        <p>
          Thanks, {joined.artistName}! Your spot is saved. We'll email <strong>{joined.email}</strong> within 24-48 hours with your access details.
        </p>
        <button type="button" className={styles.linkButton} onClick={() => setJoined(null)}>
          Add another artist
        </button>
      </div>
    );
  }

  const fieldId = (name: FieldName) => `${id}-${name}`;
  const errorId = `${id}-error`;
  const counterId = `${id}-counter`;
  const describedBy = (name: FieldName) => (invalid.includes(name) && error ? errorId : undefined);
  const register = (name: FieldName) => (element: HTMLElement | null) => {
    fieldRefs.current[name] = element;
  };
  /** What every control shares: its id, value, change handler, focus ref and error wiring. */
  const bind = (name: FieldName) => ({
    ref: register(name),
    id: fieldId(name),
    value: values[name],
    onChange: update(name),
    'aria-invalid': invalid.includes(name) || undefined,
    'aria-describedby': describedBy(name),
  });

  return (
    <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate aria-label="Beta waitlist">
      {error && (
        <div className={styles.formError} role="alert" id={errorId}>
          <p className={styles.formErrorTitle}>{error.title}</p>
          {error.message && (
            <>
              <p>{error.message}</p>
              <p className={styles.formErrorContact}>
                Support: <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
              </p>
            </>
          )}
        </div>
      )}
      <div className={styles.formGrid}>
        <div className={styles.field}>
          <FieldLabel htmlFor={fieldId('email')} label="Email" required={true} />
          <input
            {...bind('email')}
            ref={(element) => {
              emailRef.current = element;
              register('email')(element);
            }}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            maxLength={EMAIL_MAX}
            placeholder="you@example.com"
          />
        </div>
        <div className={styles.field}>
          <FieldLabel htmlFor={fieldId('artistName')} label="Artist Name" required={true} />
          <input
            {...bind('artistName')}
            name="artist_name"
            type="text"
            autoComplete="nickname"
            required
            maxLength={ARTIST_NAME_MAX}
            placeholder="Your artist or DJ name"
          />
        </div>
        <div className={styles.field}>
          <FieldLabel htmlFor={fieldId('musicStyle')} label="Music Style" required={true} />
          <select {...bind('musicStyle')} name="music_style" required>
            <option value="">Choose your style</option>
            {MUSIC_STYLES.map((style) => (
              <option key={style} value={style}>
                {style}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <FieldLabel htmlFor={fieldId('link')} label="SoundCloud/Spotify Link" required={false} />
          <input
            {...bind('link')}
            name="soundcloud_spotify_url"
            type="url"
            inputMode="url"
            autoComplete="url"
            maxLength={LINK_MAX}
            placeholder="soundcloud.com/your-name"
          />
        </div>
        <div className={`${styles.field} ${styles.fieldWide}`}>
          <FieldLabel htmlFor={fieldId('why')} label="Why are you interested?" required={false} />
          <textarea
            {...bind('why')}
            name="why_interested"
            rows={3}
            maxLength={WHY_INTERESTED_MAX}
            placeholder="Tell us about your music and who you pitch to"
            aria-describedby={counterId}
          />
          <span id={counterId} className={`${styles.counter} ${values.why.length >= WHY_INTERESTED_MAX ? styles.counterFull : ''}`}>
            {values.why.length}/{WHY_INTERESTED_MAX}
          </span>
        </div>
      </div>
      <button type="submit" className={`${styles.button} ${styles.primary} ${styles.submit}`} disabled={busy} aria-busy={busy}>
        {busy ? 'Joining Beta...' : 'Join the Beta'}
      </button>
      <p className={styles.formNote}>
        <span aria-hidden="true">*</span> Required. We reply within 24-48 hours.
      </p>
    </form>
  );
}
