/**
 * The UserDirectory over Cognito's AdminDeleteUser: the user pool in AWS, cognito-local (same API, its
 * endpoint) in the local runtime and the tests. The pool's username is the user's `sub` (email is a
 * sign-in alias), so the token's id names the user.
 */
import { AdminDeleteUserCommand, type CognitoIdentityProviderClient, UserNotFoundException } from '@aws-sdk/client-cognito-identity-provider';
import type { UserDirectory } from '../../ports';

export class CognitoUserDirectory implements UserDirectory {
  constructor(
    private readonly client: Pick<CognitoIdentityProviderClient, 'send'>,
    private readonly userPoolId: string,
  ) {}

  async deleteUser(userId: string): Promise<'deleted' | 'absent'> {
    try {
      await this.client.send(new AdminDeleteUserCommand({ UserPoolId: this.userPoolId, Username: userId }));
      return 'deleted';
    } catch (error) {
      // A retried deletion: the user went on the first try.
      if (error instanceof UserNotFoundException || (error as { name?: unknown }).name === 'UserNotFoundException') return 'absent';
      throw error;
    }
  }
}
