/**
 * Builds the real CDK app for the infra tests: bundling skipped (no esbuild and no Vite build runs:
 * the web asset keeps its default, built from web/ by Vite, but is not built), and an explicit
 * environment and no deploy/<stage>.json so a developer's TRACKPITCH_* variables and settings files cannot leak in.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { buildApp, type BuiltApp } from '../../lib/cloud/app';

export const TEST_CONTEXT = { 'aws:cdk:bundling-stacks': [] } as const;

export const GOOGLE_CONTEXT = {
  googleClientId: '1234-test.apps.googleusercontent.com',
  googleClientSecretName: 'trackpitch/test/google-client-secret',
  callbackUrls: 'https://app.example.com/auth,http://localhost:3000/auth',
  logoutUrls: 'https://app.example.com/',
  alarmEmail: 'ops@example.com',
} as const;

export interface Synthesized extends BuiltApp {
  template: Template;
}

export function synth(context: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = {}): Synthesized {
  const built = buildApp({ context: { ...TEST_CONTEXT, ...context } }, env, { settingsDir: null });
  return { ...built, template: Template.fromStack(built.stack) };
}

type Resource = { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string; DependsOn?: string[] };

export function resourcesOfType(template: Template, type: string): [string, Resource][] {
  return Object.entries(template.findResources(type) as Record<string, Resource>);
}

/** The IAM statements of every policy attached to a role (by the role's logical id). */
export function statementsOfRole(template: Template, roleLogicalId: string): Array<{ Action: string | string[]; Resource: unknown; Effect: string }> {
  return resourcesOfType(template, 'AWS::IAM::Policy')
    .filter(([, policy]) => JSON.stringify(policy.Properties?.Roles ?? []).includes(`"${roleLogicalId}"`))
    .flatMap(
      ([, policy]) => (policy.Properties!.PolicyDocument as { Statement: Array<{ Action: string | string[]; Resource: unknown; Effect: string }> }).Statement,
    );
}

export const actionsOf = (statements: Array<{ Action: string | string[] }>) => statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

/** The one resource of a type (fails when there is not exactly one). */
export function onlyResource(template: Template, type: string): Resource & { Properties: Record<string, unknown> } {
  const found = resourcesOfType(template, type);
  if (found.length !== 1) throw new Error(`expected exactly one ${type}, found ${found.length}`);
  return found[0]![1] as Resource & { Properties: Record<string, unknown> };
}
