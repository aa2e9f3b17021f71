import { Token, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges one cdk-nag finding (e.g. `AwsSolutions-IAM5[Action::s3:GetObject*]`) under `scope`;
 * `reason` names the control that makes it safe, for the reviewer.
 */
export function acknowledgeNag(scope: IConstruct, finding: `AwsSolutions-${string}`, reason: string): void {
  Validations.of(scope).acknowledge({ id: finding, reason });
}

/** How cdk-nag spells a stack attribute in a finding: the literal when known, else `<AWS::Pseudo>`. */
export function nagValue(value: string, pseudoParameter: string): string {
  return Token.isUnresolved(value) ? `<${pseudoParameter}>` : value;
}
