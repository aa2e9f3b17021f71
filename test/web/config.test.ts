import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../web/src/config';

describe('web config', () => {
  it('defaults to the page origin, no public key and the 36-hour cut-off', () => {
    expect(parseConfig({}, 'https://shop.example')).toEqual({
      apiOrigin: 'https://shop.example',
      publicKey: undefined,
      dispatchCutoffHours: 36,
    });
  });

  it('treats empty settings as unset', () => {
    expect(
      parseConfig(
        { VITE_API_ORIGIN: '', VITE_PUBLIC_KEY: '', VITE_DISPATCH_CUTOFF_HOURS: '' },
        'https://shop.example',
      ),
    ).toEqual({ apiOrigin: 'https://shop.example', publicKey: undefined, dispatchCutoffHours: 36 });
  });

  it('reads every setting, dropping a trailing slash from the API origin', () => {
    expect(
      parseConfig(
        {
          VITE_API_ORIGIN: 'https://api.example/',
          VITE_PUBLIC_KEY: 'pk_anon',
          VITE_DISPATCH_CUTOFF_HOURS: '48',
        },
        'https://shop.example',
      ),
    ).toEqual({ apiOrigin: 'https://api.example', publicKey: 'pk_anon', dispatchCutoffHours: 48 });
  });

  it('fails fast, naming the setting, when a value is wrong', () => {
    expect(() => parseConfig({ VITE_API_ORIGIN: 'ftp://x' }, 'https://shop.example')).toThrow(
      /VITE_API_ORIGIN/,
    );
    expect(() => parseConfig({ VITE_DISPATCH_CUTOFF_HOURS: 'soon' }, 'https://shop.example')).toThrow(
      /VITE_DISPATCH_CUTOFF_HOURS/,
    );
  });
});
