import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const html = readFileSync('web/index.html', 'utf8');
const head = new DOMParser().parseFromString(html, 'text/html').head;

const attribute = (selector: string, name: string) => head.querySelector(selector)?.getAttribute(name);

describe('the page head: sharing and home-screen icons', () => {
  it('has Open Graph tags for a shared link', () => {
    expect(attribute('meta[property="og:title"]', 'content')).toBe('Live Aquatics Order');
    expect(attribute('meta[property="og:site_name"]', 'content')).toBe('Live Aquatics');
    expect(attribute('meta[property="og:type"]', 'content')).toBe('website');
    expect(attribute('meta[property="og:locale"]', 'content')).toBe('en_GB');
    expect(attribute('meta[property="og:description"]', 'content')).toBe(
      'Order live Daphnia Magna in 250ml bottles, delivered within the UK.',
    );
    expect(attribute('meta[property="og:image"]', 'content')).toBe('/icon-512.png');
  });

  it('links an apple-touch-icon and a manifest, and the files exist', () => {
    expect(attribute('link[rel="apple-touch-icon"]', 'href')).toBe('/apple-touch-icon.png');
    expect(attribute('link[rel="manifest"]', 'href')).toBe('/manifest.webmanifest');
    for (const file of ['apple-touch-icon.png', 'icon-192.png', 'icon-512.png']) {
      // A PNG starts with its 8-byte signature.
      expect(readFileSync(`web/public/${file}`).subarray(1, 4).toString('ascii')).toBe('PNG');
    }
    expect(existsSync('web/public/manifest.webmanifest')).toBe(true);
  });

  it('has a manifest naming the shop, with 192 and 512 pixel icons', () => {
    const manifest: unknown = JSON.parse(readFileSync('web/public/manifest.webmanifest', 'utf8'));
    expect(manifest).toMatchObject({
      name: 'Live Aquatics',
      start_url: '/',
      theme_color: '#0b5f6b',
      icons: expect.arrayContaining([
        { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
      ]),
    });
  });
});
