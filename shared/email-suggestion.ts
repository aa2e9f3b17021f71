/** The mailboxes most of the shop's customers use, most common first (the first wins a tie). */
const COMMON_DOMAINS = [
  'gmail.com',
  'hotmail.co.uk',
  'hotmail.com',
  'outlook.com',
  'yahoo.co.uk',
  'yahoo.com',
  'icloud.com',
  'live.co.uk',
  'btinternet.com',
  'googlemail.com',
  'aol.com',
  'sky.com',
  'virginmedia.com',
  'talktalk.net',
  'ntlworld.com',
  'live.com',
  'msn.com',
  'me.com',
  'mac.com',
  'protonmail.com',
  'proton.me',
];

/** Real mailboxes one typo away from a common one: never "corrected" (ymail.com is not gmail.com). */
const OTHER_REAL_DOMAINS = new Set(['mail.com', 'ymail.com', 'gmx.com', 'gmx.co.uk', 'aol.co.uk']);

/** Typos no distance finds, and endings that exist nowhere (".con"), each with what was meant. */
const KNOWN_TYPOS: Record<string, string> = {
  'gmail.co.uk': 'gmail.com',
  'googlemail.co.uk': 'googlemail.com',
};
const ENDING_TYPOS: Record<string, string> = {
  con: 'com',
  cmo: 'com',
  cpm: 'com',
  ocm: 'com',
  vom: 'com',
  xom: 'com',
  comm: 'com',
  'co.uj': 'co.uk',
  'co.ul': 'co.uk',
  'co.ik': 'co.uk',
  'co.yk': 'co.uk',
  couk: 'co.uk',
};

/**
 * The email with a likely typo in its domain corrected (`zoe@gmial.con` → `zoe@gmail.com`), or
 * undefined when the domain looks as meant. A suggestion for the customer to accept, never a
 * refusal: the domain may be real. A common domain is matched within one edit (two for a name of
 * 8 characters or more, where two slips are still unmistakable); any other domain only has its
 * ending corrected.
 */
export function suggestEmailDomain(email: string): string | undefined {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  const domain = trimmed.slice(at + 1).toLowerCase();
  if (at <= 0 || COMMON_DOMAINS.includes(domain) || OTHER_REAL_DOMAINS.has(domain)) return undefined;
  const suggested = KNOWN_TYPOS[domain] ?? closestCommonDomain(domain) ?? withEndingFixed(domain);
  return suggested === undefined ? undefined : `${trimmed.slice(0, at)}@${suggested}`;
}

function closestCommonDomain(domain: string): string | undefined {
  let best: { domain: string; distance: number } | undefined;
  for (const common of COMMON_DOMAINS) {
    const distance = editDistance(domain, common);
    const allowed = common.length >= 8 ? 2 : 1;
    if (distance <= allowed && (best === undefined || distance < best.distance))
      best = { domain: common, distance };
  }
  return best?.domain;
}

function withEndingFixed(domain: string): string | undefined {
  for (const [typo, meant] of Object.entries(ENDING_TYPOS)) {
    if (domain.endsWith(`.${typo}`)) return `${domain.slice(0, -typo.length)}${meant}`;
  }
  return undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swapped neighbours. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, at(i - 2, j - 2) + 1);
      }
      const row = rows[i];
      if (row) row[j] = distance;
    }
  }
  return at(a.length, b.length);
}
