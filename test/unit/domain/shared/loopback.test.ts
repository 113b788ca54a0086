import { checkedHttpsUrl, isLoopbackUrl } from '../../../../functions/domain/shared/loopback';

describe('the loopback-URL rule', () => {
  it('names 127.0.0.1, localhost and [::1] loopback, in any case and on any port', () => {
    for (const url of ['http://127.0.0.1:4010', 'https://LOCALHOST/x', 'http://[::1]:9000/'])
      expect(isLoopbackUrl(new URL(url))).toBe(true);
  });

  it('names no other host loopback, however it begins', () => {
    for (const url of ['http://127.0.0.1.example.com', 'http://localhost.example.com', 'https://api.openai.com'])
      expect(isLoopbackUrl(new URL(url))).toBe(false);
  });

  it('admits an https URL with or without ALLOW_LOOPBACK_URLS', () => {
    expect(checkedHttpsUrl('https://api.example.com/v1', 'X', false)).toBe('https://api.example.com/v1');
  });

  it('admits http on a loopback host only with ALLOW_LOOPBACK_URLS', () => {
    expect(checkedHttpsUrl('http://127.0.0.1:4010', 'X', true)).toBe('http://127.0.0.1:4010');
    expect(() => checkedHttpsUrl('http://127.0.0.1:4010', 'The OpenAI base URL', false)).toThrow(
      'The OpenAI base URL must be https: http://127.0.0.1:4010',
    );
  });

  it('refuses http elsewhere, saying what development would allow', () => {
    expect(() => checkedHttpsUrl('http://api.example.com', 'FAL_JWKS_URL', true)).toThrow(
      'FAL_JWKS_URL must be https (or http on a loopback address): http://api.example.com',
    );
  });
});
