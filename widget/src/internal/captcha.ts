// Captcha, only when the proxy's /api/config asks for one. Providers' widgets
// do not work inside a shadow root, so the container lives in the host's light
// DOM (slot `captcha`). The provider script is loaded once per page; CSP of
// the board must allow it (see widget/README.md).

import { trusted } from './trusted-types.ts';

interface CaptchaApi {
  render(
    container: HTMLElement,
    options: { sitekey: string; callback: (token: string) => void; 'expired-callback'?: () => void },
  ): unknown;
}

const scripts: Record<string, { global: 'turnstile' | 'hcaptcha'; src: string }> = {
  turnstile: { global: 'turnstile', src: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit' },
  hcaptcha: { global: 'hcaptcha', src: 'https://js.hcaptcha.com/1/api.js?render=explicit' },
};

function providerApi(provider: string): Promise<CaptchaApi> {
  const info = scripts[provider];
  if (!info) return Promise.reject(new Error(`Unknown captcha provider ${provider}`));
  const existing = (window as unknown as Record<string, CaptchaApi | undefined>)[info.global];
  if (existing) return Promise.resolve(existing);
  const policy = trusted();
  if (policy === null)
    return Promise.reject(new Error(`${provider} cannot load: the page refused the widget's Trusted Types policy`));
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = policy.createScriptURL(info.src);
    script.async = true;
    script.addEventListener('load', () => {
      const api = (window as unknown as Record<string, CaptchaApi | undefined>)[info.global];
      if (api) resolve(api);
      else reject(new Error(`${provider} did not load`));
    });
    script.addEventListener('error', () => reject(new Error(`${provider} did not load`)));
    document.head.append(script);
  });
}

export async function renderCaptcha(
  container: HTMLElement,
  provider: string,
  siteKey: string,
  onToken: (token: string) => void,
): Promise<void> {
  const api = await providerApi(provider);
  api.render(container, { sitekey: siteKey, callback: onToken, 'expired-callback': () => onToken('') });
}
