// The refusal the operator's CLI prints too: one class in shared/, so both sides mean the same.
export { RefusedError } from '../../shared/refusal';
