import type { Context } from 'hono';
import { ValidationError } from './errors';

export type Input = Record<string, unknown>;

function isJson(contentType: string): boolean {
  return /^application\/([\w.+-]+\+)?json\b/i.test(contentType);
}

/**
 * The request body as field -> value. The service takes form-urlencoded bodies; JSON is
 * accepted too. A repeated form field keeps its last value, as PHP does.
 */
export async function readInput(c: Context): Promise<Input> {
  const contentType = c.req.header('Content-Type') ?? '';
  if (isJson(contentType)) {
    const text = await c.req.text();
    if (text.trim() === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ValidationError({ body: ['The request body is not valid JSON.'] });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ValidationError({ body: ['The request body must be a JSON object.'] });
    }
    return parsed as Input;
  }
  if (/^multipart\/form-data\b/i.test(contentType)) {
    let form: Awaited<ReturnType<typeof c.req.parseBody>>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw new ValidationError({ body: ['The request body is not valid multipart/form-data.'] });
    }
    return Object.fromEntries(Object.entries(form).filter(([, value]) => typeof value === 'string'));
  }
  const text = await c.req.text();
  if (text === '') return {};
  if (contentType !== '' && !/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
    throw new ValidationError({ body: ['The request body must be form-urlencoded or JSON.'] });
  }
  return Object.fromEntries(new URLSearchParams(text));
}
