import { beforeEach, describe, expect, it, vi } from 'vitest';
import { awsConfigWithGoogle } from './helpers';

// Only the Amplify call is faked: the service's own code (arguments, error messages) runs for real.
// (A plain function: a vi.fn() whose promise rejects was reported as a failure of this test by vitest 4.)
const amplify = vi.hoisted(() => ({
  calls: [] as unknown[],
  answer: (): Promise<unknown> => Promise.resolve({ isSignUpComplete: true, nextStep: { signUpStep: 'DONE' } }),
}));
vi.mock('aws-amplify/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof import('aws-amplify/auth')>()),
  confirmSignUp: (input: unknown) => {
    amplify.calls.push(input);
    return amplify.answer();
  },
  signIn: (input: unknown) => {
    amplify.calls.push({ signIn: input });
    return amplify.answer();
  },
  resetPassword: (input: unknown) => {
    amplify.calls.push({ resetPassword: input });
    return amplify.answer();
  },
  confirmResetPassword: (input: unknown) => {
    amplify.calls.push({ confirmResetPassword: input });
    return amplify.answer();
  },
}));

const { createAmplifyAuthService } = await import('../../web/src/auth/amplifyService');

describe('Amplify auth service: confirmSignUp', () => {
  beforeEach(() => {
    amplify.calls.length = 0;
  });

  it('calls Amplify confirmSignUp with the user name and the code', async () => {
    const service = createAmplifyAuthService(awsConfigWithGoogle);
    await service.confirmSignUp('new@example.com', '123456');
    expect(amplify.calls).toEqual([{ username: 'new@example.com', confirmationCode: '123456' }]);
  });

  it("throws Cognito's message, e.g. for an expired code", async () => {
    amplify.answer = () => Promise.reject(Object.assign(new Error('Invalid code provided, please request a code again.'), { name: 'ExpiredCodeException' }));
    const service = createAmplifyAuthService(awsConfigWithGoogle);
    await expect(service.confirmSignUp('new@example.com', '000000')).rejects.toThrow('Invalid code provided, please request a code again.');
    expect(amplify.calls).toHaveLength(1);
  });
});

describe('Amplify auth service: sign-in errors and the password reset', () => {
  beforeEach(() => {
    amplify.calls.length = 0;
  });

  it("keeps Cognito's error name, which the page maps to 'Incorrect email or password'", async () => {
    amplify.answer = () => Promise.reject(Object.assign(new Error('Incorrect username or password.'), { name: 'NotAuthorizedException' }));
    const service = createAmplifyAuthService(awsConfigWithGoogle);
    await expect(service.signIn('dj@example.com', 'wrong')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
  });

  it('sends the reset code to the email and sets the new password with it', async () => {
    amplify.answer = () => Promise.resolve({ isPasswordReset: false, nextStep: { resetPasswordStep: 'CONFIRM_RESET_PASSWORD_WITH_CODE' } });
    const service = createAmplifyAuthService(awsConfigWithGoogle);
    await service.resetPassword('dj@example.com');
    await service.confirmResetPassword('dj@example.com', '123456', 'New-secret-2');
    expect(amplify.calls).toEqual([
      { resetPassword: { username: 'dj@example.com' } },
      { confirmResetPassword: { username: 'dj@example.com', confirmationCode: '123456', newPassword: 'New-secret-2' } },
    ]);
  });

  it("throws Cognito's error, named, for a wrong code", async () => {
    amplify.answer = () => Promise.reject(Object.assign(new Error('Invalid verification code provided, please try again.'), { name: 'CodeMismatchException' }));
    const service = createAmplifyAuthService(awsConfigWithGoogle);
    await expect(service.confirmResetPassword('dj@example.com', '000000', 'New-secret-2')).rejects.toMatchObject({ name: 'CodeMismatchException' });
  });
});
