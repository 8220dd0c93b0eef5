import * as z from 'zod';

/**
 * The web app's runtime configuration, served as /config.json: written to S3 by CDK in AWS and
 * by the local server locally, so one build runs in both places.
 */
export const runtimeConfigSchema = z.object({
  mode: z.enum(['aws', 'local']),
  region: z.string(),
  userPoolId: z.string(),
  userPoolClientId: z.string(),
  /** cognito-local's URL; unset in AWS. */
  userPoolEndpoint: z.string().optional(),
  /** Hosted-UI settings, present only when an external identity provider (Google) is configured. */
  oauth: z
    .object({
      domain: z.string(),
      redirectSignIn: z.string(),
      redirectSignOut: z.string(),
    })
    .optional(),
  /** Shown in the footer and legal pages. */
  contactEmails: z.object({ support: z.string(), privacy: z.string() }),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
