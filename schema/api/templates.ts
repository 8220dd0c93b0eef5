import * as z from 'zod';
import { tones } from './options';

/**
 * The variables a campaign template may use (spec §5), as templates are stored. The UI shows them in the
 * one placeholder style it uses ([TRACK_NAME], [CONTACT_NAME], [LABEL_NAME]: inShownPlaceholderStyle); `{{SOCIAL_LINKS}}` and `{{UNSUBSCRIBE_FOOTER}}`
 * are replaced when the template is applied.
 */
export const templateVariables = [
  '{{track_name}}',
  '{{track_url}}',
  '{{description}}',
  '{{artist_name}}',
  '{{contact_name}}',
  '{{label_name}}',
  '{{SOCIAL_LINKS}}',
  '{{UNSUBSCRIBE_FOOTER}}',
] as const;
export type TemplateVariable = (typeof templateVariables)[number];

/** The longest template body: a saved template is a text or a small HTML email, not a whole campaign. */
export const TEMPLATE_BODY_MAX = 20_000;

/** A campaign template (spec §3 campaign_templates): system templates are seeded, users may add their own. */
export const campaignTemplateSchema = z.object({
  id: z.string().min(1),
  name: z.string().trim().min(1, 'Please enter a template name.').max(100, 'Must be at most 100 characters'),
  description: z.string().max(500, 'Must be at most 500 characters'),
  subject_template: z.string().min(1).max(300, 'Must be at most 300 characters'),
  body_template: z.string().min(1).max(TEMPLATE_BODY_MAX, `Must be at most ${TEMPLATE_BODY_MAX} characters`),
  ai_tone: z.enum(tones),
  is_system_template: z.boolean(),
});
export type CampaignTemplate = z.infer<typeof campaignTemplateSchema>;
