import Box from '@cloudscape-design/components/box';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { placeholderNames } from '../../../../../schema/email/placeholders';
import styles from './html.module.css';

/** What each placeholder becomes when the email is sent to one contact (spec §5). */
const placeholderMeanings: Record<(typeof placeholderNames)[number], string> = {
  NAME: "the contact's name",
  CONTACT_NAME: "the contact's name",
  FIRST_NAME: "the contact's first name",
  EMAIL: "the contact's email address",
  LABEL_NAME: "the contact's label or company",
  TRACK_NAME: 'your track name',
  GENRE: 'the genre',
  ARTIST_NAME: 'your artist name',
  TRACK_URL: 'the link to your track',
};

/**
 * The 'HTML Email Guide for EP Promotion' accordion (spec §2): what makes an HTML pitch arrive looking
 * right in Gmail and on a phone, and get listened to.
 */
export function HtmlEmailGuide() {
  return (
    <ExpandableSection headerText="HTML Email Guide for EP Promotion" variant="footer">
      <div className={styles.guide}>
        <SpaceBetween size="m">
          <div>
            <Box variant="h4">Layout that survives every inbox</Box>
            <ul>
              <li>
                Build with <code>&lt;table&gt;</code> rows, one column, about 600 px wide and centred: Gmail, Outlook and phones all render tables the same way.
              </li>
              <li>
                Put styles inline (<code>style=&quot;…&quot;</code>). Many clients drop <code>&lt;style&gt;</code> blocks, classes and external stylesheets.
              </li>
              <li>Use web-safe fonts (Arial, Helvetica, Georgia) and at least 14 px text; set a fallback colour for every background.</li>
              <li>
                Give every image an <code>alt</code> text and a width. Many readers block images at first, so the email must make sense without them.
              </li>
            </ul>
          </div>
          <div>
            <Box variant="h4">A pitch that gets a listen</Box>
            <ul>
              <li>Keep it short: who you are, what the release is, why it fits their label or sets. A&amp;R people read on the go.</li>
              <li>One clear Listen link (a private SoundCloud or streaming link) as a big button; no attachments.</li>
              <li>Say the genre, the number of tracks and the planned release date, then sign with your artist name and two or three links.</li>
            </ul>
          </div>
          <div>
            <Box variant="h4">Personalise with placeholders</Box>
            <Box variant="p">Each recipient gets their own values, in the subject and the body. They are not case-sensitive.</Box>
            <ul className={styles.placeholders}>
              {placeholderNames.map((name) => (
                <li key={name}>
                  <code>[{name}]</code>{' '}
                  <Box variant="span" color="text-body-secondary">
                    {placeholderMeanings[name]}
                  </Box>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <Box variant="h4">What happens to your HTML</Box>
            <ul>
              <li>Scripts, forms and event handlers (such as onclick) are removed when you create the preview; the Email Preview shows what is kept.</li>
              <li>
                An unsubscribe footer is added automatically when your HTML has no <code>[UNSUBSCRIBE_URL]</code> link. Each email also carries one-click
                unsubscribe headers.
              </li>
              <li>Links are tracked when the email is sent, so you can see which contacts clicked through to your music.</li>
            </ul>
          </div>
        </SpaceBetween>
      </div>
    </ExpandableSection>
  );
}
