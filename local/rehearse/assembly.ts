import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * A synthesised cloud assembly (cdk.out) read as CloudFormation would read it, with the intrinsic
 * functions resolved to this machine's stand-ins: the rehearsal serves what the templates say,
 * never what the CDK code meant.
 */

const resourceSchema = z.object({
  Type: z.string(),
  Properties: z.record(z.string(), z.unknown()).default({}),
  Metadata: z.record(z.string(), z.unknown()).optional(),
});
export type TemplateResource = z.infer<typeof resourceSchema>;

const templateSchema = z.object({
  Resources: z.record(z.string(), resourceSchema),
  Outputs: z.record(z.string(), z.object({ Value: z.unknown() })).default({}),
});
type Template = z.infer<typeof templateSchema>;

const manifestSchema = z.object({
  artifacts: z.record(
    z.string(),
    z.object({
      type: z.string(),
      environment: z.string().optional(),
      properties: z.looseObject({ templateFile: z.string().optional() }).optional(),
    }),
  ),
});

/** The fake account the rehearsal's ARNs carry: no AWS call ever leaves this machine. */
export const REHEARSAL_ACCOUNT = '123456789012';

/** A template value the rehearsal cannot resolve: it names the reference, as a deploy would fail on it. */
export class UnresolvedReferenceError extends Error {
  constructor(what: string) {
    super(`The rehearsal cannot resolve ${what}`);
    this.name = 'UnresolvedReferenceError';
  }
}

interface Stack {
  name: string;
  template: Template;
}

export interface Assembly {
  dir: string;
  /**
   * The folder of a file asset by the S3 object key the template names (`<hash>.zip`), as the
   * asset manifests (`*.assets.json`) map it: what `cdk deploy` would upload.
   */
  assetDir(objectKey: string): string | undefined;
  region: string;
  /** The app stack (`LiveAquatics-<stage>`) and the stacks it references, by name. */
  app: Stack;
  stacks: ReadonlyMap<string, Stack>;
  /** Resolves a template value of `stack` to a plain JSON value. */
  resolve(stackName: string, value: unknown): unknown;
  /** As {@link resolve}, for a value that must be a string. */
  resolveString(stackName: string, value: unknown): string;
}

/** What a resource's `Ref` and `Fn::GetAtt` give on this machine, by resource type. */
function physical(
  stack: Stack,
  logicalId: string,
  region: string,
  attribute: string | undefined,
  resolveValue: (value: unknown) => unknown,
): unknown {
  const resource = stack.template.Resources[logicalId];
  if (!resource) throw new UnresolvedReferenceError(`${stack.name}: no resource ${logicalId}`);
  const arnOf = (service: string, rest: string) =>
    `arn:aws:${service}:${region}:${REHEARSAL_ACCOUNT}:${rest}`;
  switch (resource.Type) {
    case 'AWS::DynamoDB::Table': {
      // The local table is named by its logical id: unique in the assembly, stable across synths.
      const name = logicalId;
      if (attribute === 'Arn') return arnOf('dynamodb', `table/${name}`);
      return name;
    }
    case 'AWS::SecretsManager::Secret':
      // Ref is the ARN; the suffix stands for the six characters Secrets Manager adds.
      return arnOf('secretsmanager', `secret:${logicalId}-Rehear`);
    case 'AWS::SES::EmailIdentity':
      return resolveValue(resource.Properties.EmailIdentity);
    case 'AWS::Lambda::Function':
      return attribute === 'Arn' ? arnOf('lambda', `function:${logicalId}`) : logicalId;
    case 'AWS::IAM::Role':
      return attribute === 'Arn' ? `arn:aws:iam::${REHEARSAL_ACCOUNT}:role/${logicalId}` : logicalId;
    case 'AWS::CloudFront::Distribution':
      // The site's address is filled in by whoever serves it (siteDomain); DomainName stands for it.
      return attribute === 'DomainName' ? '{{rehearsal:site-domain}}' : logicalId;
    case 'AWS::Cognito::UserPoolDomain':
      // Ref is the domain (the prefix of managed login's address), as CloudFormation gives it.
      return resolveValue(resource.Properties.Domain);
    case 'AWS::Logs::LogGroup':
      return attribute === 'Arn' ? arnOf('logs', `log-group:${logicalId}:*`) : logicalId;
    default:
      return attribute === 'Arn' ? arnOf('rehearsal', logicalId) : logicalId;
  }
}

/** Reads `dir/manifest.json` and the templates of the stage's app stack and the stacks it names. */
export function readAssembly(dir: string, stage = 'dev'): Assembly {
  const manifestFile = join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`No cloud assembly in ${dir} (no manifest.json)`);
  const manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestFile, 'utf8')));
  const stacks = new Map<string, Stack>();
  let region: string | undefined;
  for (const [name, artifact] of Object.entries(manifest.artifacts)) {
    const file = artifact.properties?.templateFile;
    if (artifact.type !== 'aws:cloudformation:stack' || !file) continue;
    stacks.set(name, {
      name,
      template: templateSchema.parse(JSON.parse(readFileSync(join(dir, file), 'utf8'))),
    });
    if (name === `LiveAquatics-${stage}`) region = artifact.environment?.split('/').pop();
  }
  const app = stacks.get(`LiveAquatics-${stage}`);
  if (!app) throw new Error(`No stack LiveAquatics-${stage} in ${dir}`);
  const stackRegion = region && region !== 'unknown-region' ? region : 'eu-west-2';
  const resolveIn = (stackName: string, value: unknown): unknown =>
    resolveTemplateValue({ stacks, region: stackRegion, resolveIn }, stackName, value);
  const assetDirs = readAssetDirs(dir, manifest);
  return {
    dir,
    assetDir: (objectKey) => assetDirs.get(objectKey.replace(/\.zip$/, '')),
    region: stackRegion,
    app,
    stacks,
    resolve: resolveIn,
    resolveString(stackName, value) {
      const resolved = resolveIn(stackName, value);
      if (typeof resolved !== 'string')
        throw new UnresolvedReferenceError(`${JSON.stringify(value)} as text`);
      return resolved;
    },
  };
}

/** Each file asset's folder by its hash, as the asset manifests map it. */
function readAssetDirs(dir: string, manifest: z.infer<typeof manifestSchema>): Map<string, string> {
  const assetDirs = new Map<string, string>();
  const assetManifestSchema = z.object({
    files: z.record(z.string(), z.object({ source: z.object({ path: z.string() }) })).default({}),
  });
  for (const artifact of Object.values(manifest.artifacts)) {
    const file = z.object({ file: z.string() }).safeParse(artifact.properties);
    if (artifact.type !== 'cdk:asset-manifest' || !file.success) continue;
    const assets = assetManifestSchema.parse(JSON.parse(readFileSync(join(dir, file.data.file), 'utf8')));
    for (const [hash, asset] of Object.entries(assets.files))
      assetDirs.set(hash, join(dir, asset.source.path));
  }
  return assetDirs;
}

/** The assembly's stacks, its region, and the resolver to call for a value of another stack. */
interface Resolver {
  stacks: ReadonlyMap<string, Stack>;
  region: string;
  resolveIn: (stackName: string, value: unknown) => unknown;
}

/** What an intrinsic function is resolved with: the stack it stands in, and its arguments resolved. */
interface IntrinsicScope extends Resolver {
  stack: Stack;
  pseudo: Readonly<Record<string, string>>;
  again: (value: unknown) => unknown;
  text: (value: unknown) => string;
}

/** A template value with its `Ref`s and `Fn::`s resolved, recursively, in `stackName`. */
function resolveTemplateValue(resolver: Resolver, stackName: string, value: unknown): unknown {
  const stack = resolver.stacks.get(stackName);
  if (!stack) throw new UnresolvedReferenceError(`stack ${stackName}`);
  const again = (inner: unknown) => resolver.resolveIn(stackName, inner);
  const text = (inner: unknown): string => {
    const resolved = again(inner);
    if (typeof resolved !== 'string') throw new UnresolvedReferenceError(`${JSON.stringify(inner)} as text`);
    return resolved;
  };
  if (Array.isArray(value)) return value.map(again);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const [key, arg] = entries[0] ?? [];
  if (entries.length !== 1 || key === undefined || !(key === 'Ref' || key.startsWith('Fn::'))) {
    return Object.fromEntries(entries.map(([name, inner]) => [name, again(inner)]));
  }
  const intrinsic = Object.hasOwn(INTRINSICS, key) ? INTRINSICS[key] : undefined;
  if (intrinsic === undefined) throw new UnresolvedReferenceError(`${key} in ${stackName}`);
  const pseudo: Record<string, string> = {
    'AWS::AccountId': REHEARSAL_ACCOUNT,
    'AWS::Region': resolver.region,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': stackName,
  };
  return intrinsic(arg, { ...resolver, stack, pseudo, again, text });
}

/** The intrinsic functions the templates use, as CloudFormation resolves them. */
const INTRINSICS: Readonly<Record<string, (arg: unknown, scope: IntrinsicScope) => unknown>> = {
  Ref: (arg, { text, pseudo, stack, region, again }) => {
    const name = text(arg);
    return pseudo[name] ?? physical(stack, name, region, undefined, again);
  },
  'Fn::GetAtt': (arg, { text, stack, region, again }) => {
    const [logicalId, attribute] = Array.isArray(arg) ? arg.map(text) : text(arg).split('.');
    return physical(stack, logicalId ?? '', region, attribute, again);
  },
  'Fn::Join': (arg, { again }) => {
    const [separator, parts] = Array.isArray(arg) ? arg : [];
    const joined = again(parts);
    if (typeof separator !== 'string' || !Array.isArray(joined))
      throw new UnresolvedReferenceError('Fn::Join');
    return joined.map(String).join(separator);
  },
  'Fn::Split': (arg, { text }) => {
    const [separator, source] = Array.isArray(arg) ? arg : [];
    return text(source).split(String(separator));
  },
  'Fn::Select': (arg, { again }) => {
    const [index, list] = Array.isArray(arg) ? arg : [];
    const items = again(list);
    if (!Array.isArray(items)) throw new UnresolvedReferenceError('Fn::Select');
    return items[Number(again(index))];
  },
  'Fn::Sub': (arg, { again, pseudo, stack, region }) => {
    const [pattern, variables] = Array.isArray(arg) ? arg : [arg, {}];
    const resolvedVariables = again(variables);
    return String(pattern).replace(/\$\{([^}]+)\}/g, (_whole, name: string) => {
      if (resolvedVariables && typeof resolvedVariables === 'object' && name in resolvedVariables) {
        return String(Object.entries(resolvedVariables).find(([variable]) => variable === name)?.[1]);
      }
      if (pseudo[name] !== undefined) return pseudo[name];
      const [logicalId, attribute] = name.split('.');
      return String(physical(stack, logicalId ?? '', region, attribute, again));
    });
  },
  'Fn::GetStackOutput': (arg, scope) => stackOutput(arg, scope),
  'Fn::ImportValue': (arg, scope) => exportedValue(scope.text(arg), scope),
};

/** Another stack's output by its name (CDK's cross-stack reference); else an export by name. */
function stackOutput(arg: unknown, scope: IntrinsicScope): unknown {
  const reference = z.object({ StackName: z.string(), OutputName: z.string() }).safeParse(arg);
  if (!reference.success) return exportedValue(scope.text(arg), scope);
  const { StackName, OutputName } = reference.data;
  const output = scope.stacks.get(StackName)?.template.Outputs[OutputName];
  if (!output) throw new UnresolvedReferenceError(`${StackName}.${OutputName}`);
  return scope.resolveIn(StackName, output.Value);
}

/** An export: the output of any stack that exports this name. */
function exportedValue(exportName: string, { stacks, resolveIn }: Resolver): unknown {
  for (const other of stacks.values()) {
    for (const output of Object.values(other.template.Outputs)) {
      const exported = z.object({ Export: z.object({ Name: z.unknown() }) }).safeParse(output);
      if (exported.success && resolveIn(other.name, exported.data.Export.Name) === exportName) {
        return resolveIn(other.name, output.Value);
      }
    }
  }
  throw new UnresolvedReferenceError(`the export ${exportName}`);
}

/** Resources of a type in the app stack, by logical id. */
export function resourcesOfType(assembly: Assembly, type: string): Array<[string, TemplateResource]> {
  return Object.entries(assembly.app.template.Resources).filter(([, resource]) => resource.Type === type);
}

/** The logical id a `Ref`/`Fn::GetAtt` names, e.g. the function behind an integration. */
export function referencedId(value: unknown): string | undefined {
  const ref = z.object({ Ref: z.string() }).safeParse(value);
  if (ref.success) return ref.data.Ref;
  const getAtt = z.object({ 'Fn::GetAtt': z.tuple([z.string(), z.string()]) }).safeParse(value);
  if (getAtt.success) return getAtt.data['Fn::GetAtt'][0];
  return undefined;
}

/** Every logical id a template value mentions through Ref or Fn::GetAtt (e.g. in an Fn::Join). */
export function mentionedIds(value: unknown): string[] {
  const direct = referencedId(value);
  if (direct) return [direct];
  if (Array.isArray(value)) return value.flatMap(mentionedIds);
  if (value && typeof value === 'object') return Object.values(value).flatMap(mentionedIds);
  return [];
}
