import type { ConfigEnv, UserConfig } from 'vite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import viteConfig from '../../vite.config';

const BUILD: ConfigEnv = { command: 'build', mode: 'production' };

function resolve(): UserConfig {
  if (typeof viteConfig !== 'function') throw new Error('vite.config.ts exports no config function');
  const config = viteConfig(BUILD);
  if (config instanceof Promise) throw new Error('vite.config.ts config function is async');
  return config;
}

describe('the web build checks its settings', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('puts the checked settings and seller into the page, not the checks', () => {
    vi.stubEnv('VITE_API_ORIGIN', 'https://api.shop.example/');
    vi.stubEnv('VITE_DISPATCH_CUTOFF_HOURS', '48');
    vi.stubEnv('VITE_SHOP_NAME', '  Pond Life  ');

    const { define } = resolve();

    expect(JSON.parse(String(define?.__WEB_SETTINGS__))).toMatchObject({
      apiOrigin: 'https://api.shop.example',
      dispatchCutoffHours: 48,
    });
    expect(JSON.parse(String(define?.__SHOP_SELLER__))).toMatchObject({ shopName: 'Pond Life' });
  });

  it('fails the build on a bad value, naming it', () => {
    vi.stubEnv('VITE_SELLER_EMAIL', 'not-an-email');
    expect(resolve).toThrow('Invalid web configuration: check VITE_SELLER_EMAIL');
  });

  it('fails the build on a bad API origin, naming it', () => {
    vi.stubEnv('VITE_API_ORIGIN', 'ftp://api.shop.example');
    expect(resolve).toThrow('Invalid web configuration: check VITE_API_ORIGIN');
  });
});
