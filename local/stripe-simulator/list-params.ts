import { invalidRequest } from './errors';
import type { FormObject } from './form-body';
import { checkParams, list, ParamReader, type RangeFilter, range, text } from './params';
import type { SessionStatus } from './session-types';

/** Parameters of the read endpoints: `GET /v1/checkout/sessions`, `…/:id`, `…/:id/line_items`. */
export const EXPAND_ONLY_PARAMS = { expand: list(text) };
export const PAGINATION_PARAMS = {
  limit: text,
  starting_after: text,
  ending_before: text,
  ...EXPAND_ONLY_PARAMS,
};
const LIST_SESSIONS_PARAMS = { status: text, created: range, ...PAGINATION_PARAMS };

const SESSION_STATUSES = ['open', 'complete', 'expired'] as const;

export interface ListSessionsInput {
  status: SessionStatus | undefined;
  created: RangeFilter | undefined;
  pagination: PaginationInput;
  expand: string[];
}

export interface PaginationInput {
  limit: number;
  startingAfter: string | undefined;
  endingBefore: string | undefined;
}

export function parseListSessionsParams(form: FormObject): ListSessionsInput {
  checkParams(form, LIST_SESSIONS_PARAMS);
  const params = new ParamReader(form);
  return {
    status: params.oneOf('status', SESSION_STATUSES),
    created: params.range('created'),
    pagination: readPagination(params),
    expand: params.strings('expand'),
  };
}

export function readPagination(params: ParamReader): PaginationInput {
  const startingAfter = params.string('starting_after');
  const endingBefore = params.string('ending_before');
  if (startingAfter !== undefined && endingBefore !== undefined) {
    throw invalidRequest('You may only specify one of these parameters: ending_before, starting_after.', {
      param: 'ending_before',
    });
  }
  return { limit: params.integer('limit', { min: 1, max: 100 }) ?? 10, startingAfter, endingBefore };
}
