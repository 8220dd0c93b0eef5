import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { zipStream, type ZipFile } from '../../lambdas/adapters/zip/zipStream';
import { readZip } from '../support/zip';

const AT = new Date('2026-11-28T14:30:08.000Z');

async function zipOf(files: ZipFile[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of zipStream(files, AT)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function* pieces(...texts: string[]) {
  for (const text of texts) {
    await Promise.resolve();
    yield text;
  }
}

describe('zipStream', () => {
  it('writes each file from its chunks: names, contents and CRCs read back, empty files included', async () => {
    const big = 'Mara Velvet,mara@example.com\r\n'.repeat(20_000);
    const archive = await zipOf([
      { name: 'contacts.csv', content: ['\uFEFFName,Email\r\n', big] },
      { name: 'campaigns.json', content: pieces('[', '{"track":"Night Drive – ünïcode"}', ']') },
      { name: 'empty.txt', content: [] },
    ]);
    const files = readZip(archive);
    expect([...files.keys()]).toEqual(['contacts.csv', 'campaigns.json', 'empty.txt']);
    expect(files.get('contacts.csv')?.toString('utf8')).toBe(`\uFEFFName,Email\r\n${big}`);
    expect(files.get('campaigns.json')?.toString('utf8')).toBe('[{"track":"Night Drive – ünïcode"}]');
    expect(files.get('empty.txt')?.length).toBe(0);
    // Deflated: a repetitive file is far smaller than its text.
    expect(archive.length).toBeLessThan(big.length / 20);
  });

  it('compresses a file across its chunks: many small rows deflate as well as one large piece', async () => {
    const row = 'Mara Velvet,mara@example.com,Ostgut Ton,Berlin\r\n';
    const rows = Array.from({ length: 5_000 }, () => row);
    const chunked = await zipOf([{ name: 'contacts.csv', content: rows }]);
    const whole = await zipOf([{ name: 'contacts.csv', content: [rows.join('')] }]);
    expect(readZip(chunked).get('contacts.csv')?.toString('utf8')).toBe(rows.join(''));
    expect(chunked.length).toBeLessThan((row.length * rows.length) / 50);
    expect(chunked.length).toBeLessThan(whole.length * 1.2);
  });

  it('is an archive the system unzip tests clean, with the time it was made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-stream-'));
    const path = join(dir, 'export.zip');
    writeFileSync(path, await zipOf([{ name: 'contacts.csv', content: ['a,b\r\n', '1,2\r\n'] }]));
    const tested = execFileSync('unzip', ['-t', path], { encoding: 'utf8' });
    expect(tested).toContain('No errors detected');
    expect(execFileSync('unzip', ['-l', path], { encoding: 'utf8' })).toMatch(/2026-11-28 14:30\s+contacts\.csv/);
  });
});
