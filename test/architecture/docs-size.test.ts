import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The deploy runbook stays a runbook (the reference lives in docs/deploy-reference.md), and a link
// to a section breaks this test, not the reader's click, when a heading is renamed or moved.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const pages = [
  join(ROOT, 'README.md'),
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(DOCS, name)),
];

/** The page without its fenced code blocks, whose `#` lines and brackets are not markdown. */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** GitHub's anchor for a heading's text: lower-case, punctuation dropped, each space a hyphen. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim();
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page's headings make, a repeated one numbered as GitHub numbers it. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = githubSlug(match[1] ?? '');
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

type Link = { from: string; target: string; file: string; anchor: string | undefined };

/** The page's relative links to a markdown page or to one of its own sections. */
function linksOf(file: string): Link[] {
  const links: Link[] = [];
  for (const match of prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1] ?? '';
    const [path = '', anchor] = target.split('#');
    if (/^[a-z]+:/i.test(target) || (path !== '' && !path.endsWith('.md'))) continue;
    links.push({
      from: relative(ROOT, file),
      target,
      file: path === '' ? file : join(dirname(file), path),
      anchor,
    });
  }
  return links;
}

const links = pages.flatMap(linksOf);

describe('the docs', () => {
  it('keep docs/deploy.md a runbook of at most 250 lines', () => {
    const lines = readFileSync(join(DOCS, 'deploy.md'), 'utf8').trimEnd().split('\n');

    expect(lines.length).toBeLessThanOrEqual(250);
  });

  it('make anchors by GitHub rule', () => {
    expect(githubSlug("What setup writes: a stage's settings")).toBe('what-setup-writes-a-stages-settings');
    expect(githubSlug('2. `npm run setup -- --stage prod`')).toBe('2-npm-run-setup------stage-prod');
    expect(githubSlug('Custom domain (optional): certificate in us-east-1')).toBe(
      'custom-domain-optional-certificate-in-us-east-1',
    );
  });

  it('link to sections of other pages (the check below has something to check)', () => {
    expect(links.filter((link) => link.anchor !== undefined).length).toBeGreaterThanOrEqual(5);
  });

  it.each(links.map((link) => [link.from, link.target, link] as const))(
    '%s: %s names an existing page and heading',
    (_from, _target, link) => {
      expect(existsSync(link.file), `${link.target} in ${link.from}: no such file`).toBe(true);
      if (link.anchor !== undefined)
        expect([...anchorsOf(link.file)], `${link.target} in ${link.from}: no such heading`).toContain(
          link.anchor,
        );
    },
  );
});
