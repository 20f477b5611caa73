import { describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../helpers';
import { deref } from '../support/openapi';

const doc = await json(await makeWorld().call('/swagger/json'));

describe('account endpoints in the OpenAPI document', () => {
  it('declares the Bearer JWT scheme next to the API key', () => {
    expect(doc.components.securitySchemes.accountJwt).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it.each([
    ['/api/v1/account/key', 'post', ['201', '401', '409', '503']],
    ['/api/v1/account/key/regenerate', 'post', ['200', '401', '404', '429', '503']],
    ['/api/v1/account', 'get', ['200', '401', '404', '503']],
  ])('%s (%s) takes the JWT, not the API key, and documents %p', (path, method, statuses) => {
    const op = doc.paths[path]?.[method];
    expect(op).toBeDefined();
    expect(op.security).toEqual([{ accountJwt: [] }]);
    expect(op.tags).toEqual(['Account']);
    for (const s of statuses) expect(Object.keys(op.responses)).toContain(s);
  });

  it('the issued key schema says the key is shown once', () => {
    const op = doc.paths['/api/v1/account/key'].post;
    const text = JSON.stringify(deref(doc, op.responses['201'].content['application/json'].schema));
    expect(text).toContain('Shown only in this response');
  });
});
