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
