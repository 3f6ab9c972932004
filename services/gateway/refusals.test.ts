import { describe, expect, it } from 'vitest';
import { GatewayRefusal, refusalOf } from './refusals.js';

describe('a gateway refusal', () => {
  it('is an answer, not a fault: it carries no stack trace, and leaves the stack traces of real errors as they were', () => {
    const refusal = new GatewayRefusal('rateLimited', 'too many requests');
    expect(refusal.stack).toBe('GatewayRefusal: too many requests');
    expect(refusalOf(refusal)).toEqual({ error: 'rateLimited', message: 'too many requests' });
    expect(refusal.status).toBe(429);
    expect(new Error('a fault').stack!.split('\n').length).toBeGreaterThan(1);
  });
});
