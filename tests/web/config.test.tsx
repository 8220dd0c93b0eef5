import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { runtimeConfigSchema } from '../../schema/api/runtimeConfig';
import { loadRuntimeConfig } from '../../web/src/config/loadConfig';
import { validateRuntimeConfig } from '../../web/src/config/validateConfig';
import { awsConfigWithGoogle, localConfig } from './helpers';

const { userPoolEndpoint: _unused, ...awsWithGoogle } = awsConfigWithGoogle;

const valid: unknown[] = [localConfig, awsWithGoogle, { ...localConfig, userPoolEndpoint: undefined }];

function mutations(base: Record<string, unknown>): unknown[] {
  const out: unknown[] = [null, [], 'config', 42];
  for (const key of Object.keys(base)) {
    const { [key]: _removed, ...without } = base;
    out.push(without, { ...base, [key]: 7 }, { ...base, [key]: null });
  }
  out.push({ ...base, mode: 'staging' });
  out.push({ ...base, contactEmails: { support: 'a@b.c' } });
  out.push({ ...base, oauth: { domain: 'd', redirectSignIn: 'r' } });
  out.push({ ...base, oauth: 'yes' });
  out.push({ ...base, extra: 'ignored' });
  return out;
}

describe('runtime config check', () => {
  it.each(
    [...valid, ...mutations(awsWithGoogle as Record<string, unknown>), ...mutations(localConfig as Record<string, unknown>)].map((c) => [JSON.stringify(c), c]),
  )('agrees with the zod contract on %s', (_name, candidate) => {
    const zodResult = runtimeConfigSchema.safeParse(candidate);
    const ours = validateRuntimeConfig(candidate);
    expect(ours.ok).toBe(zodResult.success);
    if (ours.ok && zodResult.success) expect(ours.config).toEqual(zodResult.data);
  });

  it('checks every field the contract declares (fails when schema/api/runtimeConfig.ts gains one)', () => {
    const schema = z.toJSONSchema(runtimeConfigSchema) as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
      required: string[];
    };
    expect(Object.keys(schema.properties).sort()).toEqual(
      ['contactEmails', 'mode', 'oauth', 'region', 'userPoolClientId', 'userPoolEndpoint', 'userPoolId'].sort(),
    );
    expect(schema.required.sort()).toEqual(['contactEmails', 'mode', 'region', 'userPoolClientId', 'userPoolId'].sort());
    expect(Object.keys(schema.properties.oauth!.properties!).sort()).toEqual(['domain', 'redirectSignIn', 'redirectSignOut']);
    expect(Object.keys(schema.properties.contactEmails!.properties!).sort()).toEqual(['privacy', 'support']);
  });

  it('loads /config.json and explains what is wrong', async () => {
    const ok = vi.fn<typeof fetch>(() => Promise.resolve(new Response(JSON.stringify(localConfig), { status: 200 })));
    await expect(loadRuntimeConfig(ok)).resolves.toEqual(localConfig);
    expect(ok.mock.calls[0]![0]).toBe('/config.json');

    const bad = vi.fn<typeof fetch>(() => Promise.resolve(new Response(JSON.stringify({ ...localConfig, mode: 'x', region: 1 }), { status: 200 })));
    await expect(loadRuntimeConfig(bad)).rejects.toThrow('The app configuration is invalid (mode, region).');

    const missing = vi.fn<typeof fetch>(() => Promise.resolve(new Response('not found', { status: 404 })));
    await expect(loadRuntimeConfig(missing)).rejects.toThrow('(HTTP 404)');
  });
});
