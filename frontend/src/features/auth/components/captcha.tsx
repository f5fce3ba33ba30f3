import { useEffect, useRef } from 'react';

/** Captcha provider configured for this build (VITE_CAPTCHA_PROVIDER: `turnstile` | `hcaptcha`); off when unset (local). */
export const CAPTCHA_PROVIDER: string = import.meta.env.VITE_CAPTCHA_PROVIDER ?? '';
/** Public site key of the captcha (VITE_CAPTCHA_SITE_KEY). */
export const CAPTCHA_SITE_KEY: string = import.meta.env.VITE_CAPTCHA_SITE_KEY ?? '';
/** True when a captcha must be solved before a password reset request (issue 6). */
export const captchaEnabled = (): boolean => (CAPTCHA_PROVIDER === 'turnstile' || CAPTCHA_PROVIDER === 'hcaptcha') && CAPTCHA_SITE_KEY !== '';

interface WidgetApi {
  render: (el: HTMLElement, options: { sitekey: string; callback: (token: string) => void; 'expired-callback'?: () => void }) => unknown;
}

const SCRIPTS: Record<string, { src: string; global: 'turnstile' | 'hcaptcha' }> = {
  turnstile: { src: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit', global: 'turnstile' },
  hcaptcha: { src: 'https://js.hcaptcha.com/1/api.js?render=explicit', global: 'hcaptcha' },
};

/** The configured captcha widget (Turnstile or hCaptcha); reports its token (null when it expires). Renders nothing when off. */
export function Captcha({ onToken }: { onToken: (token: string | null) => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!captchaEnabled() || !box.current) return;
    const script = SCRIPTS[CAPTCHA_PROVIDER]!;
    const el = box.current;
    const render = () => {
      const api = (window as unknown as Record<string, WidgetApi | undefined>)[script.global];
      api?.render(el, { sitekey: CAPTCHA_SITE_KEY, callback: (t) => onToken(t), 'expired-callback': () => onToken(null) });
    };
    if ((window as unknown as Record<string, unknown>)[script.global]) render();
    else {
      const tag = document.createElement('script');
      tag.src = script.src;
      tag.async = true;
      tag.onload = render;
      document.head.appendChild(tag);
    }
  }, [onToken]);
  return captchaEnabled() ? <div ref={box} data-testid="captcha" /> : null;
}
