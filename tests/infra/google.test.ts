/**
 * The template with Google sign-in and an alarm email configured: the identity provider, the OAuth
 * code flow on the web client with the CloudFront and configured redirect URLs, and the hosted-UI
 * settings in config.json. One synthesis for the whole file.
 */
import { Match } from 'aws-cdk-lib/assertions';
import type { CfnResource } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { runtimeConfigSchema } from '../../schema/api/runtimeConfig';
import { GOOGLE_CONTEXT, onlyResource, synth } from './synth';
import { arrayContaining } from '../support/matchers';

const { stack, template } = synth(GOOGLE_CONTEXT);
const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnResource);
const siteUrl = (path: string) => ({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(stack.web.distribution), 'DomainName'] }, path]] });

describe('with Google configured', () => {
  it('adds Google as an identity provider, its secret resolved from Secrets Manager at deploy time', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolIdentityProvider', 1);
    template.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', {
      ProviderName: 'Google',
      ProviderType: 'Google',
      ProviderDetails: {
        client_id: GOOGLE_CONTEXT.googleClientId,
        client_secret: `{{resolve:secretsmanager:${GOOGLE_CONTEXT.googleClientSecretName}:SecretString:::}}`,
        authorize_scopes: 'openid email profile',
      },
      AttributeMapping: { email: 'email', name: 'name' },
    });
  });

  it('enables the OAuth code flow on the web client with the site and the configured redirect URLs', () => {
    const client = onlyResource(template, 'AWS::Cognito::UserPoolClient');
    expect(client.Properties).toMatchObject({
      GenerateSecret: false,
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthScopes: arrayContaining(['openid', 'email', 'profile']),
      SupportedIdentityProviders: ['COGNITO', 'Google'],
      CallbackURLs: [siteUrl('/auth'), 'https://app.example.com/auth', 'http://localhost:3000/auth'],
      LogoutURLs: [siteUrl('/'), 'https://app.example.com/'],
    });
    // The client is created after the provider it names.
    expect(client.DependsOn).toEqual(expect.arrayContaining([logicalId(stack.auth.google!)]));
  });

  it('writes the hosted-UI settings into config.json', () => {
    const config = stack.resolve(stack.web.runtimeConfig) as Record<string, unknown>;
    expect(runtimeConfigSchema.safeParse(stack.web.runtimeConfig).success).toBe(true);
    expect(config.oauth).toEqual({
      // Spelled from the configured prefix (no reference to the domain resource: see Auth.domainName).
      domain: {
        'Fn::Join': [
          '',
          [`${onlyResource(template, 'AWS::Cognito::UserPoolDomain').Properties.Domain as string}.auth.`, { Ref: 'AWS::Region' }, '.amazoncognito.com'],
        ],
      },
      redirectSignIn: siteUrl('/auth'),
      redirectSignOut: siteUrl('/'),
    });
  });

  it('subscribes the alarm email to the alarm topic', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: GOOGLE_CONTEXT.alarmEmail,
      TopicArn: { Ref: logicalId(stack.monitoring.topic) },
    });
  });

  it('keeps the API authorizer on the same web client', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      JwtConfiguration: Match.objectLike({ Audience: [{ Ref: logicalId(stack.auth.client) }] }),
    });
  });
});
