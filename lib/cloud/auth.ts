/**
 * Cognito: the user pool (email sign-in, required `name`, self sign-up, strong passwords, email
 * verification by link through the pool's domain), the `admins` group, and the web app client
 * (public, no secret). Google is added as an identity provider, with the OAuth code flow on the
 * client, only when configured; the redirect URLs are set once the web distribution exists.
 */
import { Duration, RemovalPolicy, SecretValue, Stack } from 'aws-cdk-lib';
import {
  AccountRecovery,
  CfnUserPoolClient,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  OAuthScope,
  ProviderAttribute,
  UserPool,
  UserPoolClient,
  UserPoolClientIdentityProvider,
  UserPoolDomain,
  UserPoolGroup,
  UserPoolIdentityProviderGoogle,
  VerificationEmailStyle,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { ADMIN_GROUP } from '../../schema/routes';
import type { GoogleConfig } from './config';
import { acknowledge } from './nag';

/** The password rules Cognito enforces (the local pool should use the same). */
export const PASSWORD_POLICY = {
  minLength: 10,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: true,
} as const;

export interface AuthProps {
  stage: string;
  domainPrefix: string;
  google: GoogleConfig | undefined;
}

export class Auth extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly domain: UserPoolDomain;
  readonly adminGroup: UserPoolGroup;
  readonly google: UserPoolIdentityProviderGoogle | undefined;

  constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);

    this.userPool = new UserPool(this, 'UserPool', {
      userPoolName: `trackpitch-${props.stage}`,
      featurePlan: FeaturePlan.ESSENTIALS,
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      keepOriginal: { email: true },
      standardAttributes: {
        email: { required: true, mutable: true },
        fullname: { required: true, mutable: true },
      },
      passwordPolicy: { ...PASSWORD_POLICY, tempPasswordValidity: Duration.days(3) },
      userVerification: {
        emailStyle: VerificationEmailStyle.LINK,
        emailSubject: 'Confirm your Trackpitch account',
        emailBody: 'Welcome to Trackpitch! Please confirm your email address: {##Confirm my account##}',
      },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      mfa: Mfa.OFF,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      this.userPool,
      {
        id: 'AwsSolutions-COG2',
        reason:
          'The product sign-in (spec §4 Auth) has no MFA step and the web app has no enrolment screen, so requiring MFA would lock every user out; optional TOTP comes with an enrolment screen.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'Essentials tier on purpose: Plus (threat protection) is billed per monthly active user at several times the price; the strong password policy, email verification and Cognito built-in lockout cover the beta.',
      },
    );

    // Email verification by link needs a domain: the link points at <prefix>.auth.<region>.amazoncognito.com.
    this.domain = this.userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: props.domainPrefix } });

    this.adminGroup = new UserPoolGroup(this, 'AdminsGroup', {
      userPool: this.userPool,
      groupName: ADMIN_GROUP,
      description: 'Trackpitch administrators (beta waitlist and other admin screens)',
      precedence: 0,
    });

    if (props.google) {
      this.google = new UserPoolIdentityProviderGoogle(this, 'Google', {
        userPool: this.userPool,
        clientId: props.google.clientId,
        // Resolved by CloudFormation at deploy time: the secret never appears in the template.
        clientSecretValue: SecretValue.secretsManager(props.google.clientSecretName),
        scopes: ['openid', 'email', 'profile'],
        attributeMapping: {
          email: ProviderAttribute.GOOGLE_EMAIL,
          fullname: ProviderAttribute.GOOGLE_NAME,
        },
      });
    }

    const attributes = new ClientAttributes().withStandardAttributes({ email: true, fullname: true });
    this.client = this.userPool.addClient('WebClient', {
      userPoolClientName: 'web',
      generateSecret: false,
      // SRP is what Amplify uses by default in AWS; USER_PASSWORD_AUTH is what cognito-local supports.
      authFlows: { userSrp: true, userPassword: true },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      readAttributes: new ClientAttributes().withStandardAttributes({ email: true, emailVerified: true, fullname: true }),
      writeAttributes: attributes,
      supportedIdentityProviders: this.google
        ? [UserPoolClientIdentityProvider.COGNITO, UserPoolClientIdentityProvider.GOOGLE]
        : [UserPoolClientIdentityProvider.COGNITO],
      ...(this.google
        ? {
            oAuth: {
              flows: { authorizationCodeGrant: true },
              scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
              // Replaced by setRedirectUrls() once the CloudFront domain is known.
              callbackUrls: ['https://localhost/auth'],
              logoutUrls: ['https://localhost/'],
            },
          }
        : { disableOAuth: true }),
    });
    if (this.google) this.client.node.addDependency(this.google);
  }

  /** The hosted-UI domain name (no scheme), for the web app's OAuth settings and its CSP. */
  get domainName(): string {
    return `${this.domain.domainName}.auth.${Stack.of(this).region}.amazoncognito.com`;
  }

  /** Allowed OAuth redirect URLs; only meaningful when Google is configured. */
  setRedirectUrls(signIn: string[], signOut: string[]): void {
    if (!this.google) return;
    const cfn = this.client.node.defaultChild as CfnUserPoolClient;
    cfn.callbackUrLs = signIn;
    cfn.logoutUrLs = signOut;
  }
}
