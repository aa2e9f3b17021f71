// Where each UK postcode area is, for the weather check: the area's post town (the town the area is
// named for, Royal Mail's postcode area list) at its town-centre coordinates rounded to 0.01°
// (about 1 km), as published for each town on GeoNames (CC BY 4.0) and Wikipedia. Not ONS Postcode
// Directory centroids: no network here to derive them; a forecast grid cell is 2 to 11 km, and an
// area's weather is judged by its main town (docs/decisions/0036-weather-check.md).

import { parseUkPostcode } from '../../../shared/postcode';

/** A place the forecast is asked for: a town and where it is. */
export interface ForecastPlace {
  /** The town the verdict names: "−4 °C in Aberdeen on Tuesday morning". */
  town: string;
  latitude: number;
  longitude: number;
}

// area: [post town, latitude, longitude]
const AREAS: Record<string, readonly [string, number, number]> = {
  AB: ['Aberdeen', 57.15, -2.09],
  AL: ['St Albans', 51.75, -0.34],
  B: ['Birmingham', 52.48, -1.9],
  BA: ['Bath', 51.38, -2.36],
  BB: ['Blackburn', 53.75, -2.48],
  BD: ['Bradford', 53.79, -1.75],
  BH: ['Bournemouth', 50.72, -1.88],
  BL: ['Bolton', 53.58, -2.43],
  BN: ['Brighton', 50.82, -0.14],
  BR: ['Bromley', 51.41, 0.02],
  BS: ['Bristol', 51.45, -2.59],
  BT: ['Belfast', 54.6, -5.93],
  CA: ['Carlisle', 54.89, -2.93],
  CB: ['Cambridge', 52.21, 0.12],
  CF: ['Cardiff', 51.48, -3.18],
  CH: ['Chester', 53.19, -2.89],
  CM: ['Chelmsford', 51.74, 0.47],
  CO: ['Colchester', 51.89, 0.9],
  CR: ['Croydon', 51.37, -0.1],
  CT: ['Canterbury', 51.28, 1.08],
  CV: ['Coventry', 52.41, -1.51],
  CW: ['Crewe', 53.1, -2.44],
  DA: ['Dartford', 51.44, 0.22],
  DD: ['Dundee', 56.46, -2.97],
  DE: ['Derby', 52.92, -1.48],
  DG: ['Dumfries', 55.07, -3.61],
  DH: ['Durham', 54.78, -1.57],
  DL: ['Darlington', 54.52, -1.55],
  DN: ['Doncaster', 53.52, -1.13],
  DT: ['Dorchester', 50.71, -2.44],
  DY: ['Dudley', 52.51, -2.09],
  E: ['London', 51.53, -0.03],
  EC: ['London', 51.52, -0.09],
  EH: ['Edinburgh', 55.95, -3.19],
  EN: ['Enfield', 51.65, -0.08],
  EX: ['Exeter', 50.72, -3.53],
  FK: ['Falkirk', 56.0, -3.78],
  FY: ['Blackpool', 53.82, -3.05],
  G: ['Glasgow', 55.86, -4.25],
  GL: ['Gloucester', 51.86, -2.24],
  GU: ['Guildford', 51.24, -0.57],
  HA: ['Harrow', 51.58, -0.34],
  HD: ['Huddersfield', 53.65, -1.78],
  HG: ['Harrogate', 53.99, -1.54],
  HP: ['Hemel Hempstead', 51.75, -0.47],
  HR: ['Hereford', 52.06, -2.72],
  HS: ['Stornoway', 58.21, -6.39],
  HU: ['Hull', 53.74, -0.33],
  HX: ['Halifax', 53.72, -1.86],
  IG: ['Ilford', 51.56, 0.07],
  IP: ['Ipswich', 52.06, 1.16],
  IV: ['Inverness', 57.48, -4.22],
  KA: ['Kilmarnock', 55.61, -4.5],
  KT: ['Kingston upon Thames', 51.41, -0.3],
  KW: ['Kirkwall', 58.98, -2.96],
  KY: ['Kirkcaldy', 56.11, -3.16],
  L: ['Liverpool', 53.41, -2.98],
  LA: ['Lancaster', 54.05, -2.8],
  LD: ['Llandrindod Wells', 52.24, -3.38],
  LE: ['Leicester', 52.64, -1.13],
  LL: ['Llandudno', 53.32, -3.83],
  LN: ['Lincoln', 53.23, -0.54],
  LS: ['Leeds', 53.8, -1.55],
  LU: ['Luton', 51.88, -0.42],
  M: ['Manchester', 53.48, -2.24],
  ME: ['Rochester', 51.39, 0.5],
  MK: ['Milton Keynes', 52.04, -0.76],
  ML: ['Motherwell', 55.79, -3.99],
  N: ['London', 51.57, -0.11],
  NE: ['Newcastle upon Tyne', 54.97, -1.61],
  NG: ['Nottingham', 52.95, -1.15],
  NN: ['Northampton', 52.24, -0.9],
  NP: ['Newport', 51.58, -3.0],
  NR: ['Norwich', 52.63, 1.3],
  NW: ['London', 51.55, -0.18],
  OL: ['Oldham', 53.54, -2.12],
  OX: ['Oxford', 51.75, -1.26],
  PA: ['Paisley', 55.85, -4.42],
  PE: ['Peterborough', 52.57, -0.24],
  PH: ['Perth', 56.4, -3.43],
  PL: ['Plymouth', 50.38, -4.14],
  PO: ['Portsmouth', 50.8, -1.09],
  PR: ['Preston', 53.76, -2.7],
  RG: ['Reading', 51.45, -0.97],
  RH: ['Redhill', 51.24, -0.17],
  RM: ['Romford', 51.58, 0.18],
  S: ['Sheffield', 53.38, -1.47],
  SA: ['Swansea', 51.62, -3.94],
  SE: ['London', 51.47, -0.06],
  SG: ['Stevenage', 51.9, -0.2],
  SK: ['Stockport', 53.41, -2.16],
  SL: ['Slough', 51.51, -0.59],
  SM: ['Sutton', 51.36, -0.19],
  SN: ['Swindon', 51.56, -1.78],
  SO: ['Southampton', 50.9, -1.4],
  SP: ['Salisbury', 51.07, -1.79],
  SR: ['Sunderland', 54.91, -1.38],
  SS: ['Southend-on-Sea', 51.54, 0.71],
  ST: ['Stoke-on-Trent', 53.0, -2.18],
  SW: ['London', 51.46, -0.17],
  SY: ['Shrewsbury', 52.71, -2.75],
  TA: ['Taunton', 51.02, -3.1],
  TD: ['Galashiels', 55.62, -2.81],
  TF: ['Telford', 52.68, -2.45],
  TN: ['Tonbridge', 51.2, 0.27],
  TQ: ['Torquay', 50.46, -3.53],
  TR: ['Truro', 50.26, -5.05],
  TS: ['Middlesbrough', 54.58, -1.23],
  TW: ['Twickenham', 51.45, -0.33],
  UB: ['Southall', 51.51, -0.38],
  W: ['London', 51.51, -0.2],
  WA: ['Warrington', 53.39, -2.59],
  WC: ['London', 51.52, -0.12],
  WD: ['Watford', 51.66, -0.4],
  WF: ['Wakefield', 53.68, -1.5],
  WN: ['Wigan', 53.55, -2.63],
  WR: ['Worcester', 52.19, -2.22],
  WS: ['Walsall', 52.59, -1.98],
  WV: ['Wolverhampton', 52.59, -2.13],
  YO: ['York', 53.96, -1.08],
  ZE: ['Lerwick', 60.15, -1.15],
};

/** The place the weather check reads for a UK postcode ("AB10 1AA" → Aberdeen); undefined when not a UK area. */
export function placeOfPostcode(postcode: string): ForecastPlace | undefined {
  const area = /^[A-Z]{1,2}/.exec(postcode.trim().toUpperCase())?.[0];
  const entry = area === undefined ? undefined : AREAS[area];
  if (entry === undefined) return undefined;
  const [town, latitude, longitude] = entry;
  return { town, latitude, longitude };
}

/**
 * The dispatch postcode from SELLER_ADDRESS (what the site and emails show), not a setting that could
 * disagree: its last part that is a UK postcode. Undefined without one: orders judged by their own place.
 */
export function postcodeInAddress(address: string): string | undefined {
  const parts = address.split(/[,\n]/).reverse();
  for (const part of parts) {
    const parsed = parseUkPostcode(part);
    if (parsed.ok) return parsed.postcode;
  }
  return undefined;
}
