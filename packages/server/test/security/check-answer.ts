import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** One answer to an attack: never a 5xx, never a stack trace, failures in the API's error shape. */
export function checkAnswer(res: LightMyRequestResponse, label: string) {
  expect(res.statusCode, `${label} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
  expect(res.body, label).not.toMatch(/\bat .+\.(ts|js):\d+/);
  const isJson = String(res.headers['content-type'] ?? '').includes('application/json');
  // A HEAD answer has the headers of a body but none.
  if (res.statusCode >= 400 && isJson && res.body !== '') {
    // Read as it is, not through the route table: any route's failure, or a route outside it.
    const body: unknown = res.json();
    expect(body, `${label} -> ${res.body.slice(0, 300)}`).toMatchObject({
      success: false,
      statusCode: res.statusCode,
      message: expect.any(String),
    });
  }
}
