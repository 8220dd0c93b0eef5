/**
 * Cognito: the user pool (email sign-in, required `name`, self sign-up, strong passwords, email
 * verification by code), the `admins` group, and the web app client (public, no secret, SRP only).
 * Google is added as an identity provider, with the OAuth code flow on the client, only when
 * configured; the redirect URLs are set once the web distribution exists. The confirmation email is
 * written by a custom message trigger (addConfirmationEmail) that links to the web app's /auth page.
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
  UserPoolOperation,
  VerificationEmailStyle,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { PASSWORD_RULE } from '../../schema/passwordRule.mjs';
import { ADMIN_GROUP } from '../../schema/routes';
import type { GoogleConfig } from './config';
import { AppFunction, commonEnvironment } from './functions';
import { acknowledge } from './nag';

export const CUSTOM_MESSAGE_ENTRY = 'lambdas/workers/cognitoCustomMessage.ts';

/** Cognito waits at most 5 s for a custom message trigger (and retries up to three times). */
export const CUSTOM_MESSAGE_TIMEOUT = Duration.seconds(5);

/** The password rules Cognito enforces: the app's one rule (schema/passwordRule.mjs), also checked by the pages and the local stack. */
export const PASSWORD_POLICY = { ...PASSWORD_RULE };

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
  /** The custom message trigger, once addConfirmationEmail() has run. */
  customMessage: AppFunction | undefined;
  private readonly props: AuthProps;

  constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);
    this.props = props;

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
      // A code, not Cognito's link (which lands on Cognito's own page): the custom message trigger
      // (addConfirmationEmail) puts the code in a link to the web app, which confirms and goes on.
      // This template is what Cognito would send without the trigger.
      userVerification: {
        emailStyle: VerificationEmailStyle.CODE,
        emailSubject: 'Confirm your Trackpitch account',
        emailBody: 'Welcome to Trackpitch! Your confirmation code is {####}',
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

    // The hosted UI's domain, <prefix>.auth.<region>.amazoncognito.com: the OAuth endpoints for Google sign-in.
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
      // SRP only (Amplify's default): the password never leaves the browser. USER_PASSWORD_AUTH is for
      // cognito-local, which has no SRP; lib/local/cognito.ts creates its own client with it.
      authFlows: { userSrp: true },
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

  /**
   * The hosted-UI domain name (no scheme), for the web app's OAuth settings and its CSP. Built from the
   * configured prefix, not from a reference to the domain resource: a reference would make the
   * distribution (whose CSP carries this name) depend on the domain, hence on the user pool, hence on
   * the custom message trigger, whose SITE_URL is the distribution's domain name: a cycle.
   */
  get domainName(): string {
    return `${this.props.domainPrefix}.auth.${Stack.of(this).region}.amazoncognito.com`;
  }

  /**
   * The confirmation email (spec §2): a custom message trigger that, for sign-up and resent codes,
   * emails a link to `<siteUrl>/auth?username=…&code=…` (lambdas/workers/cognitoCustomMessage.ts).
   * The function only builds a string: its role can write its own logs and nothing else.
   */
  addConfirmationEmail(props: { siteUrl: string; version: string }): AppFunction {
    if (this.customMessage) throw new Error('addConfirmationEmail() has already run');
    this.customMessage = new AppFunction(this, 'CustomMessage', {
      entry: CUSTOM_MESSAGE_ENTRY,
      description: `Trackpitch ${this.props.stage}: Cognito custom message (confirmation email linking to the web app)`,
      environment: { ...commonEnvironment(this.props.stage, props.version), SITE_URL: props.siteUrl },
      timeout: CUSTOM_MESSAGE_TIMEOUT,
      memorySize: 256,
    });
    // Also grants cognito-idp.amazonaws.com lambda:InvokeFunction, scoped to this pool's ARN.
    this.userPool.addTrigger(UserPoolOperation.CUSTOM_MESSAGE, this.customMessage.fn);
    return this.customMessage;
  }

  /** Allowed OAuth redirect URLs; only meaningful when Google is configured. */
  setRedirectUrls(signIn: string[], signOut: string[]): void {
    if (!this.google) return;
    const cfn = this.client.node.defaultChild as CfnUserPoolClient;
    cfn.callbackUrLs = signIn;
    cfn.logoutUrLs = signOut;
  }
}
