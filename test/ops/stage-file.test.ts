import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatJson, readStageBlock, writeStageBlock } from '../../ops/stage-file';

function copyOfCdkJson(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'stage-file-')), 'cdk.json');
  copyFileSync(new URL('../../cdk.json', import.meta.url), path);
  return path;
}

describe("the stage's block in cdk.json", () => {
  it('is written as Biome lays the file out, so the repository stays lint-clean', () => {
    const original = readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8');

    expect(formatJson(JSON.parse(original))).toBe(original);
    expect(
      formatJson({ list: ['aws', 'aws-cn'], long: Array.from({ length: 30 }, (_, n) => `item-${n}`) }),
    ).toBe(
      `{\n  "list": ["aws", "aws-cn"],\n  "long": [\n${Array.from({ length: 30 }, (_, n) => `    "item-${n}"`).join(',\n')}\n  ]\n}\n`,
    );
  });

  it('is added under context.stages, leaving every other key as it was', () => {
    const path = copyOfCdkJson();
    const before = JSON.parse(readFileSync(path, 'utf8'));

    const outcome = writeStageBlock(path, 'prod', {
      sellerName: 'Daphnia Direct Ltd',
      stripeLivemode: false,
    });

    expect(outcome).toBe('created');
    const after = JSON.parse(readFileSync(path, 'utf8'));
    expect(after).toEqual({
      ...before,
      context: {
        ...before.context,
        stages: { prod: { sellerName: 'Daphnia Direct Ltd', stripeLivemode: false } },
      },
    });
    expect(readStageBlock(path, 'prod')).toEqual({ sellerName: 'Daphnia Direct Ltd', stripeLivemode: false });
  });

  it('is not rewritten when it already holds the same settings, in any order', () => {
    const path = copyOfCdkJson();
    writeStageBlock(path, 'prod', { sellerName: 'Daphnia Direct Ltd', stripeLivemode: false });
    const written = readFileSync(path, 'utf8');

    const outcome = writeStageBlock(path, 'prod', {
      stripeLivemode: false,
      sellerName: 'Daphnia Direct Ltd',
    });

    expect(outcome).toBe('unchanged');
    expect(readFileSync(path, 'utf8')).toBe(written);
    expect(writeStageBlock(path, 'prod', { sellerName: 'Daphnia Direct Ltd', stripeLivemode: true })).toBe(
      'updated',
    );
  });
});
