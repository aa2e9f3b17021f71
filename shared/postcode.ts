import { isValid, toNormalised } from 'postcode';

/**
 * Postcode areas of Great Britain and Northern Ireland: a whitelist, so JE, GY, IM, BF, GX and every
 * other look-alike fail by not being here.
 */
const UK_POSTCODE_AREAS = new Set(
  (
    'AB AL B BA BB BD BH BL BN BR BS BT CA CB CF CH CM CO CR CT CV CW DA DD DE DG DH DL DN DT DY ' +
    'E EC EH EN EX FK FY G GL GU HA HD HG HP HR HS HU HX IG IP IV KA KT KW KY L LA LD LE LL LN LS ' +
    'LU M ME MK ML N NE NG NN NP NR NW OL OX PA PE PH PL PO PR RG RH RM S SA SE SG SK SL SM SN SO ' +
    'SP SR SS ST SW SY TA TD TF TN TQ TR TS TW UB W WA WC WD WF WN WR WS WV YO ZE'
  ).split(' '),
);

/** Areas inside the UK that couriers reach more slowly: worth a gentle notice, not a refusal. */
const SLOWER_DELIVERY_AREAS = new Set(['BT', 'HS', 'IV', 'KW', 'PA', 'PH', 'ZE']);

/** Strict BS 7666 shape, anchored at both ends, on an already normalised value. */
const POSTCODE_SHAPE = /^[A-PR-UWYZ][A-HK-Y]?[0-9][0-9A-HJKMNPR-Y]? [0-9][ABD-HJLNP-UW-Z]{2}$/;

/** BFPO numbers ("BFPO 1234") and the BF area: the forces' own mail, which takes no live animals. */
const BFPO_NUMBER = /^BFPO[0-9]{1,4}$/;
const BFPO_AREA = 'BF';

export type PostcodeResult =
  | { ok: true; postcode: string; area: string; slowerDelivery: boolean }
  | { ok: false; reason: 'format' | 'not-deliverable' | 'bfpo' };

/** Trim, upper-case, and one space before the last three characters: " sw1a1aa " → "SW1A 1AA". */
export function normalisePostcode(input: string): string {
  const compact = input.replace(/\s+/g, '').toUpperCase();
  return compact.length > 3 ? `${compact.slice(0, -3)} ${compact.slice(-3)}` : compact;
}

/**
 * A UK delivery postcode: the BS 7666 shape and a GB or NI area; live animals cannot go elsewhere (BFPO
 * told why). A valid format is not a deliverable address: only Royal Mail's PAF knows.
 */
export function parseUkPostcode(input: string): PostcodeResult {
  const candidate = normalisePostcode(input);
  // Its own answer, not "format": the customer typed their address correctly, we cannot send there.
  if (BFPO_NUMBER.test(input.replace(/\s+/g, '').toUpperCase())) return { ok: false, reason: 'bfpo' };
  if (!POSTCODE_SHAPE.test(candidate) || !isValid(candidate)) return { ok: false, reason: 'format' };
  const postcode = toNormalised(candidate) ?? candidate;
  const area = /^[A-Z]+/.exec(postcode)?.[0] ?? '';
  if (area === BFPO_AREA) return { ok: false, reason: 'bfpo' };
  if (!UK_POSTCODE_AREAS.has(area)) return { ok: false, reason: 'not-deliverable' };
  return { ok: true, postcode, area, slowerDelivery: SLOWER_DELIVERY_AREAS.has(area) };
}
