import type { CampaignTemplate } from '../../../schema/api/templates';

/**
 * The system campaign templates of spec §2 (Compose: campaign templates). Plain text: the sender turns
 * line breaks into HTML. Variables are those of spec §5.
 */
export const systemTemplateNames = ['Demo to Label', 'DJ Promo', 'Fan Preview'] as const;
export type SystemTemplateName = (typeof systemTemplateNames)[number];

const demoToLabel: CampaignTemplate = {
  id: 'tpl-demo-to-label',
  name: 'Demo to Label',
  description: 'A concise, professional demo submission for A&R teams and label managers.',
  subject_template: 'Demo submission: {{track_name}} by {{artist_name}}',
  body_template: `Hi {{contact_name}},

My name is {{artist_name}}, and I'd like to submit my new track "{{track_name}}" for consideration at {{label_name}}.

{{description}}

Private stream: {{track_url}}

The track is finished, mastered and unreleased, and it hasn't been signed anywhere else. I think it would sit well alongside your recent releases, and I'm happy to send WAVs, an extended mix or stems if it's of interest.

Thank you for taking the time to listen. Any feedback would be genuinely appreciated, whatever the answer.

Best regards,
{{artist_name}}

{{SOCIAL_LINKS}}

{{UNSUBSCRIBE_FOOTER}}`,
  ai_tone: 'professional',
  is_system_template: true,
};

const djPromo: CampaignTemplate = {
  id: 'tpl-dj-promo',
  name: 'DJ Promo',
  description: 'A friendly promo send to DJs and radio hosts, asking for plays and feedback.',
  subject_template: 'Fresh promo for your sets: {{track_name}}',
  body_template: `Hey {{contact_name}},

Hope the gigs are going well! I've just finished a new one that I think could work in your sets: "{{track_name}}".

{{description}}

Listen and download: {{track_url}}

Feel free to play it out ahead of release. If it makes it into a set, a mix or a radio show, I'd love to hear how it went down; a quick note or a tracklist mention means a lot at this stage.

Cheers,
{{artist_name}}

{{SOCIAL_LINKS}}

{{UNSUBSCRIBE_FOOTER}}`,
  ai_tone: 'friendly',
  is_system_template: true,
};

const fanPreview: CampaignTemplate = {
  id: 'tpl-fan-preview',
  name: 'Fan Preview',
  description: 'A relaxed early-listen note for fans and supporters before a release goes public.',
  subject_template: 'First listen: {{track_name}}',
  body_template: `Hi {{contact_name}},

You've supported my music from early on, so I wanted you to hear this before anyone else: my new track "{{track_name}}" is ready.

{{description}}

Have a first listen here: {{track_url}}

It isn't public yet. Let me know what you think, and if it sticks with you, pass it on to a friend who'd dig it once it's out.

Thanks for being part of this. It really does keep me making music.

{{artist_name}}

{{SOCIAL_LINKS}}

{{UNSUBSCRIBE_FOOTER}}`,
  ai_tone: 'casual',
  is_system_template: true,
};

export const systemTemplates: readonly CampaignTemplate[] = [demoToLabel, djPromo, fanPreview];
