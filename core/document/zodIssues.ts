/** Turns zod issues into `DocumentError`s in the document's own terms. */
import type { z } from 'zod';
import { DocumentError, describeValue, formatPath } from './errors';

const ARTICLE: Record<string, string> = {
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  tuple: 'an array',
  int: 'an integer',
};

function issueDetail(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = ARTICLE[issue.expected] ?? issue.expected;
      const received = (issue as { received?: string }).received;
      if (issue.expected === 'number' && (received === 'NaN' || received === 'Infinity' || received === '-Infinity'))
        return `expected a finite number, got ${received}`;
      if (issue.expected === 'int') return `expected an integer, got ${describeValue(input)}`;
      return input === undefined ? `missing (expected ${expected})` : `expected ${expected}, got ${describeValue(input)}`;
    }
    case 'invalid_value':
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${describeValue(input)}`;
    case 'invalid_union':
      if ('discriminator' in issue && issue.discriminator)
        return `expected ${(issue as { options?: unknown[] }).options?.map((o) => JSON.stringify(o)).join(' or ') ?? 'a known kind'}, got ${describeValue((input as Record<string, unknown> | undefined)?.[issue.discriminator as string])}`;
      return `does not match any allowed form (${issue.message})`;
    case 'too_small':
    case 'too_big':
      if (issue.origin === 'array') {
        const input2 = input as unknown[] | undefined;
        const got = Array.isArray(input2) ? ` got ${input2.length}` : '';
        return issue.code === 'too_small' ? `expected at least ${issue.minimum} elements,${got}` : `expected at most ${issue.maximum} elements,${got}`;
      }
      return issue.message;
    case 'custom':
      return issue.message;
    default:
      return issue.message;
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const seg of path) {
    if (v === null || v === undefined || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

/**
 * The first issue of a zod error as a DocumentError. `root` (the value that
 * was parsed) lets the message quote the offending value even without
 * `reportInput`.
 */
export function zodErrorToDocumentError(error: z.ZodError, root?: unknown): DocumentError {
  const issue = error.issues[0];
  let path: PropertyKey[] = [...issue.path];
  // The discriminator path of a union issue already ends in the key.
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator && path[path.length - 1] === issue.discriminator) path = path.slice(0, -1);
  const input = 'input' in issue ? issue.input : root !== undefined ? valueAt(root, path) : undefined;
  let detail = issueDetail(issue, input);
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator) path = [...path, issue.discriminator as string];
  const more = error.issues.length - 1;
  if (more > 0) detail += ` (and ${more} more problem${more > 1 ? 's' : ''})`;
  return new DocumentError(formatPath(path), detail);
}
