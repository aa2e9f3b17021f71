import {
  emptyStringParameter,
  invalidInteger,
  invalidRequest,
  missingParameter,
  unknownParameter,
} from './errors';
import { type FormObject, type FormValue, isFormObject, ownValue } from './form-body';

/**
 * The parameters an endpoint accepts, as a tree. Checking a request against it first means the
 * client hears about a misspelt or unsupported parameter ("Received unknown parameter") before
 * anything else, as Stripe does, instead of the parameter being silently ignored.
 */
export type ParamSpec =
  | { kind: 'string' }
  | { kind: 'metadata' }
  | { kind: 'list'; of: ParamSpec }
  | { kind: 'object'; fields: Record<string, ParamSpec> }
  /** A timestamp filter: either one value or a hash of `gt`, `gte`, `lt` and `lte`. */
  | { kind: 'range' };

export const text: ParamSpec = { kind: 'string' };
export const metadata: ParamSpec = { kind: 'metadata' };
export const list = (of: ParamSpec): ParamSpec => ({ kind: 'list', of });
export const object = (fields: Record<string, ParamSpec>): ParamSpec => ({ kind: 'object', fields });
export const range: ParamSpec = { kind: 'range' };

const RANGE_FIELDS: Record<string, ParamSpec> = { gt: text, gte: text, lt: text, lte: text };

export interface RangeFilter {
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
}

export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

function childPath(parent: string, key: string | number): string {
  return parent === '' ? String(key) : `${parent}[${key}]`;
}

/** Throws the first Stripe error for an unknown parameter or a value of the wrong shape. */
export function checkParams(form: FormObject, fields: Record<string, ParamSpec>, path = ''): void {
  for (const key of Object.keys(form)) {
    const spec = fields[key];
    const value = ownValue(form, key);
    const param = childPath(path, key);
    if (spec === undefined || !Object.hasOwn(fields, key)) throw unknownParameter(param);
    if (value !== undefined) checkValue(value, spec, param);
  }
}

function checkValue(value: FormValue, spec: ParamSpec, param: string): void {
  if (spec.kind === 'string') {
    if (typeof value !== 'string')
      throw invalidRequest(`Invalid string: ${param} must be a single value`, { param });
    return;
  }
  if (spec.kind === 'range') {
    if (typeof value === 'string') return;
    if (!isFormObject(value)) throw invalidRequest('Invalid hash', { param });
    checkParams(value, RANGE_FIELDS, param);
    return;
  }
  // For hashes and arrays an empty string means "unset", which on create is the same as absent.
  if (value === '') return;
  if (spec.kind === 'list') {
    if (!Array.isArray(value)) throw invalidRequest('Invalid array', { param });
    value.forEach((item, index) => {
      checkValue(item, spec.of, childPath(param, index));
    });
    return;
  }
  if (!isFormObject(value)) throw invalidRequest('Invalid hash', { param });
  if (spec.kind === 'object') checkParams(value, spec.fields, param);
  else checkMetadata(value, param);
}

function checkMetadata(value: FormObject, param: string): void {
  const entries = Object.entries(value).filter(([, item]) => item !== '');
  if (entries.length > METADATA_LIMITS.keys) {
    throw invalidRequest(
      `Invalid metadata: metadata can have up to ${METADATA_LIMITS.keys} keys, but you passed in ${entries.length} keys.`,
      { param },
    );
  }
  for (const [key, item] of entries) {
    const itemParam = childPath(param, key);
    if (typeof item !== 'string')
      throw invalidRequest('Invalid metadata: values must be strings', { param: itemParam });
    if (key.length > METADATA_LIMITS.keyLength) {
      throw invalidRequest(
        `Metadata keys can have up to ${METADATA_LIMITS.keyLength} characters, but you passed in a key that is ` +
          `${key.length} characters. Invalid key: ${key}`,
        { param: itemParam },
      );
    }
    if (item.length > METADATA_LIMITS.valueLength) {
      throw invalidRequest(
        `Metadata values can have up to ${METADATA_LIMITS.valueLength} characters, but you passed in a value that is ` +
          `${item.length} characters. Invalid value: ${item}`,
        { param: itemParam },
      );
    }
  }
}

interface StringRules {
  maxLength?: number;
}

interface IntegerRules {
  min?: number;
  max?: number;
}

/** Typed access to one level of a checked form, naming each value by its full bracket path. */
export class ParamReader {
  readonly path: string;
  private readonly form: FormObject;

  constructor(form: FormObject, path = '') {
    this.form = form;
    this.path = path;
  }

  param(key: string): string {
    return childPath(this.path, key);
  }

  has(key: string): boolean {
    const value = ownValue(this.form, key);
    return value !== undefined && value !== '';
  }

  string(key: string, rules: StringRules = {}): string | undefined {
    const value = ownValue(this.form, key);
    if (value === undefined) return undefined;
    const param = this.param(key);
    if (typeof value !== 'string')
      throw invalidRequest(`Invalid string: ${param} must be a single value`, { param });
    if (value === '') throw emptyStringParameter(param);
    if (rules.maxLength !== undefined && value.length > rules.maxLength) {
      throw invalidRequest(`Invalid ${param}: must be at most ${rules.maxLength} characters`, { param });
    }
    return value;
  }

  requiredString(key: string, rules: StringRules = {}): string {
    const value = this.string(key, rules);
    if (value === undefined) throw missingParameter(this.param(key));
    return value;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    const match = allowed.find((candidate) => candidate === value);
    if (match === undefined) {
      const param = this.param(key);
      throw invalidRequest(`Invalid ${param}: must be one of ${allowed.join(', ')}`, { param });
    }
    return match;
  }

  integer(key: string, rules: IntegerRules = {}): number | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    const param = this.param(key);
    const number = Number(value);
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(number)) throw invalidInteger(param, value);
    if (rules.min !== undefined && number < rules.min) {
      throw invalidRequest(`This value must be greater than or equal to ${rules.min}.`, { param });
    }
    if (rules.max !== undefined && number > rules.max) {
      throw invalidRequest(`This value must be less than or equal to ${rules.max}.`, { param });
    }
    return number;
  }

  requiredInteger(key: string, rules: IntegerRules = {}): number {
    const value = this.integer(key, rules);
    if (value === undefined) throw missingParameter(this.param(key));
    return value;
  }

  object(key: string): ParamReader | undefined {
    const value = ownValue(this.form, key);
    if (value === undefined || value === '') return undefined;
    const param = this.param(key);
    if (!isFormObject(value)) throw invalidRequest('Invalid hash', { param });
    return new ParamReader(value, param);
  }

  requiredObject(key: string): ParamReader {
    const value = this.object(key);
    if (value === undefined) throw missingParameter(this.param(key));
    return value;
  }

  objects(key: string): ParamReader[] {
    const value = ownValue(this.form, key);
    if (value === undefined || value === '') return [];
    const param = this.param(key);
    if (!Array.isArray(value)) throw invalidRequest('Invalid array', { param });
    return value.map((item, index) => {
      const itemParam = childPath(param, index);
      if (!isFormObject(item)) throw invalidRequest('Invalid hash', { param: itemParam });
      return new ParamReader(item, itemParam);
    });
  }

  strings(key: string): string[] {
    const value = ownValue(this.form, key);
    if (value === undefined || value === '') return [];
    const param = this.param(key);
    if (!Array.isArray(value)) throw invalidRequest('Invalid array', { param });
    return value.map((item, index) => {
      if (typeof item !== 'string')
        throw invalidRequest('Invalid string', { param: childPath(param, index) });
      return item;
    });
  }

  range(key: string): RangeFilter | undefined {
    const value = ownValue(this.form, key);
    if (value === undefined) return undefined;
    if (typeof value === 'string') {
      const exact = this.integer(key);
      return exact === undefined ? undefined : { gte: exact, lte: exact };
    }
    const bounds = this.requiredObject(key);
    const filter: RangeFilter = {};
    for (const bound of ['gt', 'gte', 'lt', 'lte'] as const) {
      const limit = bounds.integer(bound);
      if (limit !== undefined) filter[bound] = limit;
    }
    return filter;
  }

  /** Metadata with empty values dropped: on create Stripe treats `metadata[key]=` as "no such key". */
  metadata(key: string): Record<string, string> {
    const value = ownValue(this.form, key);
    if (value === undefined || value === '') return {};
    const param = this.param(key);
    if (!isFormObject(value)) throw invalidRequest('Invalid hash', { param });
    checkMetadata(value, param);
    const entries: Array<[string, string]> = [];
    for (const [entryKey, item] of Object.entries(value)) {
      if (typeof item === 'string' && item !== '') entries.push([entryKey, item]);
    }
    return Object.fromEntries(entries);
  }
}
