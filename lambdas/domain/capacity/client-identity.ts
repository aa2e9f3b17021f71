import { isIPv6 } from 'node:net';

// Who a client is, for the limits that count per client: the notices of order requests
// (request-notice-limits.ts) and the bottles one client may hold (client-holds.ts). No AWS SDK
// here: create-checkout's paid path imports it.

/**
 * The client a limit counts: an IPv4 address as it is; an IPv6 address by its /64 (one network
 * hands out a whole /64, so its addresses are one client); an IPv4 address mapped into IPv6 as IPv4.
 */
export function clientGroup(address: string): string {
  const ip = address.trim().toLowerCase();
  if (!isIPv6(ip)) return ip;
  // Only a whole mapped address is IPv4 (with a zone it is IPv6). A valid IPv6 address's dotted
  // tail is a valid IPv4 address, so the pattern needs no more checks.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip)?.[1];
  if (mapped !== undefined) return mapped;
  // A zone index (`fe80::1%eth0`) names the interface the address came in on, not the client.
  const [head, tail] = ip.replace(/%.*/, '').split('::');
  const groups = (part: string | undefined) =>
    // An embedded IPv4 address (`64:ff9b::1.2.3.4`) fills two groups: the last two, beyond the /64,
    // so only their number matters.
    part ? part.split(':').flatMap((group) => (group.includes('.') ? [group, group] : [group])) : [];
  const left = groups(head);
  const right = groups(tail);
  // Without a `::` the left side has all 8 groups, and the fill is empty.
  const full = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** The customer address a limit counts: lower case, without a `+tag`, which reaches the same mailbox. */
export function addressGroup(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, Math.max(at, 0)).replace(/\+.*/, '');
  return `${local}${email.slice(Math.max(at, 0))}`.trim().toLowerCase();
}
