import { useConfig } from '../../config/ConfigContext';
import { LegalPage, Mail } from './LegalPage';

export default function TermsPage() {
  const { contactEmails } = useConfig();
  return (
    <LegalPage title="Terms of Service" summary="The agreement between you and Trackpitch when you use the service.">
      <h2>1. Agreement</h2>
      <p>
        By creating an account or using Trackpitch you agree to these terms and to our Privacy Policy. If you use Trackpitch for a label or company, you accept
        these terms for it.
      </p>

      <h2>2. Who may use Trackpitch</h2>
      <p>
        You must be at least <strong>13</strong> years old. If you are under <strong>18</strong>, you may use Trackpitch only with the consent of a parent or
        guardian, who accepts these terms for you.
      </p>

      <h2>3. Your account</h2>
      <p>
        Keep your password safe and your details accurate. You are responsible for what happens under your account; tell us at once at{' '}
        <Mail to={contactEmails.support} /> if you think someone else is using it.
      </p>

      <h2>4. The service and plans</h2>
      <ul>
        <li>Free: $0, 50 emails a month, basic AI email writing, mailbox integration, contact management and basic analytics.</li>
        <li>
          Pro: $29 a month, 500 emails a month, advanced AI personalization, full LabelFinder access, advanced analytics and tracking, and priority support.
        </li>
        <li>
          Expert: $99 a month, unlimited emails within your mailbox's own limits, full LabelFinder access, team collaboration, custom branding, API access and
          dedicated support.
        </li>
      </ul>
      <p>
        Emails are sent gradually (at most 60 an hour) and never beyond your plan's monthly limit or your mailbox's daily limit. AI-written drafts are
        suggestions: review every email before you send it.
      </p>

      <h2>5. Acceptable use</h2>
      <p>You send emails in your own name, from your own mailbox, and you are responsible for them. You agree:</p>
      <ul>
        <li>to contact only people you may lawfully contact about your music, and to follow anti-spam and privacy laws;</li>
        <li>not to send misleading, abusive or illegal content, or material you have no right to share;</li>
        <li>to respect unsubscribes: Trackpitch will not send to a recipient who unsubscribed from you;</li>
        <li>not to work around sending limits, probe or overload the service, or resell it.</li>
      </ul>

      <h2>6. Your mailbox</h2>
      <p>
        Trackpitch sends through your connected Gmail account with send-only permission. You can disconnect at any time in Settings. For your security you will
        be asked to re-authenticate your mailbox after <strong>6 months</strong>.
      </p>

      <h2>7. Payments, price changes and refunds</h2>
      <p>
        Paid plans are billed monthly in advance through our payment provider and renew until you cancel; cancellation takes effect at the end of the paid
        period. We will give you at least <strong>30 days'</strong> notice of any price change. Paid plans come with a <strong>30-day</strong> money-back
        guarantee: if you are not satisfied, ask for a refund within 30 days of your first payment.
      </p>

      <h2>8. Support</h2>
      <p>
        Write to <Mail to={contactEmails.support} />; we reply within <strong>24-48 hours</strong>.
      </p>

      <h2>9. Your content</h2>
      <p>
        You keep all rights to your music, profile, contacts and emails. You give us the permission needed to store, process and send them to run the service
        for you, and nothing more.
      </p>

      <h2>10. Suspension and termination</h2>
      <p>
        You can stop using Trackpitch and delete your account at any time; its data is purged within 30 days. We may suspend or close an account that breaks
        these terms (for example by sending spam), and we may close accounts that have been inactive for <strong>12 months or more</strong>, after notice by
        email.
      </p>

      <h2>11. Disclaimers</h2>
      <p>
        We work to keep Trackpitch available and correct, but the service is provided as is. We cannot promise that labels or DJs will open, answer or sign your
        music, or that a mailbox provider will deliver every email.
      </p>

      <h2>12. Limitation of liability</h2>
      <p>
        To the extent the law allows, our total liability for any claim about Trackpitch is limited to the fees you paid us in the <strong>12 months</strong>{' '}
        before the claim. We are not liable for indirect or consequential losses such as lost opportunities. Nothing in these terms limits liability that cannot
        be limited by law.
      </p>

      <h2>13. Changes and contact</h2>
      <p>
        We may update these terms; we will tell you at least 30 days before a material change takes effect. Questions: <Mail to={contactEmails.support} />.
        Privacy questions: <Mail to={contactEmails.privacy} />.
      </p>
    </LegalPage>
  );
}
