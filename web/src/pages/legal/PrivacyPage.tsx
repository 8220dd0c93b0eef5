import { useConfig } from '../../config/ConfigContext';
import { LegalPage, Mail } from './LegalPage';

export default function PrivacyPage() {
  const { contactEmails } = useConfig();
  return (
    <LegalPage title="Privacy Policy" summary="What Trackpitch collects, why, how long we keep it and what you can ask of us.">
      <h2>1. Who we are</h2>
      <p>
        Trackpitch is a web app that helps electronic-music artists, producers, DJs and small labels send personal demo submissions to record labels, DJs and
        A&amp;R contacts through their own mailbox. This policy explains how we handle personal data when you use Trackpitch and when you receive an email sent
        through it. For any privacy question write to <Mail to={contactEmails.privacy} />.
      </p>

      <h2>2. What we collect</h2>
      <ul>
        <li>
          <strong>Account data</strong>: your email address, full name and the artist profile you choose to add (artist name, bio, website and streaming or
          social links).
        </li>
        <li>
          <strong>Contacts</strong>: the names, email addresses, labels, positions, genres and notes of the people you add or import, and the list of recipients
          who unsubscribed from your emails.
        </li>
        <li>
          <strong>Campaign data</strong>: track details, email subjects and bodies, recipients, sending schedule and delivery status.
        </li>
        <li>
          <strong>Email analytics</strong>: when an email sent through Trackpitch is opened, a link in it is clicked, or its recipient unsubscribes.
        </li>
        <li>
          <strong>Mailbox connection</strong>: when you connect Gmail we receive an authorization that only lets us send email as you and read your email
          address. We cannot read, delete or search your inbox. The authorization is stored encrypted and never shown to anyone, including you.
        </li>
        <li>
          <strong>Billing</strong>: your plan, usage and subscription dates. Card details are handled by our payment provider (Stripe); we never see or store
          your card number.
        </li>
        <li>
          <strong>Technical data</strong>: request logs (time, address, browser, request id) that keep the service secure and help us fix faults.
        </li>
      </ul>

      <h2>3. How we use it</h2>
      <ul>
        <li>to run your account and send the campaigns you start, at the pace and limits of your plan and mailbox;</li>
        <li>to write email drafts with an AI model from your track details and the recipient's details, when you ask for it;</li>
        <li>to show you delivery, open, click and unsubscribe statistics;</li>
        <li>to bill paid plans and answer support requests;</li>
        <li>to keep Trackpitch secure and prevent abuse such as spam.</li>
      </ul>
      <p>We do not sell personal data and we do not use your contacts or emails for advertising.</p>

      <h2>4. Who we share it with</h2>
      <p>
        Only with the processors that run Trackpitch for us, each bound to use the data for that purpose alone: our cloud hosting provider (Amazon Web
        Services), Google (to send email through your connected Gmail account), Stripe (payments) and the AI model provider that writes email drafts. We
        disclose data to authorities only when the law requires it.
      </p>

      <h2>5. How long we keep it</h2>
      <ul>
        <li>
          Campaign data (campaigns, recipients, sent emails) is kept for <strong>2 years</strong>.
        </li>
        <li>
          Email analytics (opens, clicks) are kept for <strong>1 year</strong>.
        </li>
        <li>
          When you delete your account, its data is removed from the app at once and purged from our systems, including backups, <strong>within 30 days</strong>
          .
        </li>
        <li>
          Gmail connections must be renewed: you will be asked to <strong>re-authenticate your mailbox after 6 months</strong>.
        </li>
      </ul>

      <h2>6. Security</h2>
      <p>
        Data is encrypted in transit and at rest, and mailbox authorizations are additionally encrypted with a dedicated key. Access is limited to what each
        part of the service needs. If a breach affects your personal data we will notify you and the competent authority <strong>within 72 hours</strong> of
        becoming aware of it.
      </p>

      <h2>7. Your rights</h2>
      <p>
        You can see and correct your profile in Settings, export or delete your contacts, and delete your account. You can also ask us for a copy of your data,
        its correction or deletion, or object to its use, by writing to <Mail to={contactEmails.privacy} />. We answer privacy requests{' '}
        <strong>within 30 days</strong>. You may also complain to your data protection authority.
      </p>

      <h2>8. People who receive emails sent with Trackpitch</h2>
      <p>
        If you received a pitch from an artist using Trackpitch, the artist is responsible for having your address; we process it on their behalf. Every email
        carries a one-click unsubscribe link: after you unsubscribe, that artist cannot send you another email through Trackpitch.
      </p>

      <h2>9. Children</h2>
      <p>
        Trackpitch is not for children under <strong>13</strong>. Users under <strong>18</strong> may use it only with the consent of a parent or guardian.
      </p>

      <h2>10. Cookies and local storage</h2>
      <p>
        We use your browser's local storage only to keep you signed in and to remember small preferences, such as whether you finished the dashboard tour. We
        use no advertising cookies. The Clear Cache button on the sign-in page removes this data.
      </p>

      <h2>11. Changes and contact</h2>
      <p>
        We will tell you by email or in the app before a material change to this policy takes effect. Privacy questions: <Mail to={contactEmails.privacy} />.
        Anything else: <Mail to={contactEmails.support} />.
      </p>
    </LegalPage>
  );
}
