import { Token, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges one cdk-nag finding on a construct (and everything under it).
 *
 * `finding` is the rule, optionally narrowed to one finding, e.g. `AwsSolutions-APIG4` or
 * `AwsSolutions-IAM5[Action::s3:GetObject*]`. `reason` must say which control makes it safe: it is
 * what a reviewer reads in the validation report.
 */
export function acknowledgeNag(scope: IConstruct, finding: `AwsSolutions-${string}`, reason: string): void {
  Validations.of(scope).acknowledge({ id: finding, reason });
}

/** How cdk-nag spells a stack attribute in a finding: the literal when known, else `<AWS::Pseudo>`. */
export function nagValue(value: string, pseudoParameter: string): string {
  return Token.isUnresolved(value) ? `<${pseudoParameter}>` : value;
}
