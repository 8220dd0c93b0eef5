/**
 * cdk-nag acknowledgements. Every one goes through here so it always carries a reason, and the
 * infra test can list them all with their reasons (tests/infra/nag.test.ts).
 */
import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

export interface NagAcknowledgement {
  /** The rule id, e.g. `AwsSolutions-IAM5`, or one finding, e.g. `AwsSolutions-IAM5[Resource::*]`. */
  id: string;
  /** Why this finding is acceptable here: specific to this resource, never "not needed". */
  reason: string;
}

export function acknowledge(scope: IConstruct, ...rules: NagAcknowledgement[]): void {
  for (const rule of rules) {
    if (rule.reason.trim().length < 20) throw new Error(`cdk-nag acknowledgement ${rule.id} on ${scope.node.path} needs a specific reason`);
  }
  Validations.of(scope).acknowledge(...rules);
}
