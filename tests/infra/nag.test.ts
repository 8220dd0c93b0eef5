/**
 * cdk-nag AwsSolutions (DESIGN §5, §7): no unacknowledged finding in either configuration, every
 * acknowledgement carries a specific reason, and none is stale (each one silences a real finding).
 */
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { buildApp } from '../../lib/cloud/app';
import { GOOGLE_CONTEXT, synth, TEST_CONTEXT } from './synth';

interface Acknowledgement {
  path: string;
  id: string;
  reason: string;
}

const normalise = (id: string) => id.replace(/^annotation::/i, '');

function acknowledgementsOn(construct: IConstruct): Acknowledgement[] {
  return construct.node.metadata
    .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
    .map(([id, reason]) => ({ path: construct.node.path, id: normalise(id), reason }));
}

function allAcknowledgements(root: IConstruct): Acknowledgement[] {
  return root.node.findAll().flatMap(acknowledgementsOn);
}

/** Runs the pack directly and records which acknowledgement silenced which finding. */
function check(root: IConstruct) {
  const pack = new AwsSolutionsChecks();
  const used = new Set<string>();
  const internals = pack as unknown as { isAcknowledged(resource: IConstruct, ruleId: string): boolean };
  const original = internals.isAcknowledged.bind(pack);
  internals.isAcknowledged = (resource, ruleId) => {
    const acknowledged = original(resource, ruleId);
    if (acknowledged) {
      for (let current: IConstruct | undefined = resource; current; current = current.node.scope) {
        if (acknowledgementsOn(current).some((a) => a.id === ruleId)) {
          used.add(`${current.node.path} ${ruleId}`);
          break;
        }
      }
    }
    return acknowledged;
  };
  const report = pack.validateScope(root);
  return { report, used };
}

describe.each([
  ['default configuration', {}],
  ['Google sign-in and alarm email configured', GOOGLE_CONTEXT],
  ['the WAF web ACL on', { waf: 'true' }],
])('cdk-nag AwsSolutions, %s', (_name, context) => {
  const { app } = synth(context);
  const { report, used } = check(app);
  const acknowledgements = allAcknowledgements(app);

  it('reports no unacknowledged finding', () => {
    const findings = report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}: ${v.description}`));
    expect(findings).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('gives every acknowledgement a specific reason', () => {
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const ack of acknowledgements) {
      expect(ack.id, ack.path).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
      expect(ack.reason.trim().length, `${ack.id} at ${ack.path}`).toBeGreaterThanOrEqual(40);
      expect(ack.reason, `${ack.id} at ${ack.path}`).not.toMatch(/^\s*(not needed|n\/a|none|todo)\b/i);
    }
  });

  it('has no stale acknowledgement: each one silences a finding', () => {
    const stale = acknowledgements.filter((a) => !used.has(`${a.path} ${a.id}`)).map((a) => `${a.id} at ${a.path}`);
    expect(stale).toEqual([]);
  });
});

it('synthesis itself fails on an unacknowledged finding (the plugin is registered on the app)', () => {
  const { app, stack } = buildApp({ context: TEST_CONTEXT }, {});
  // A fresh finding: a queue with neither a dead-letter queue nor TLS enforcement.
  new Queue(stack, 'UnreviewedQueue');
  expect(() => app.synth()).toThrow(/\(AwsSolutions\)/);
});
