/** Loading `.impulse` text: JSON, migrations, schema, semantic checks. */
import { DocumentError } from './errors';
import { JsonSyntaxError, parseJson } from './json';
import { migrateDocument } from './migrations';
import { documentSchema } from './schema';
import type { ImpulseDocument } from './types';
import { semanticDocumentProblems } from './validate';
import { zodErrorToDocumentError } from './zodIssues';

/**
 * Parses, migrates and validates a saved document. Every failure is a
 * DocumentError: `<path>: <what is wrong>` (a JSON syntax error has an empty
 * path and says line and column).
 */
export function parseDocument(text: string): ImpulseDocument {
  let raw: unknown;
  try {
    raw = parseJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new DocumentError('', `not valid JSON: ${e.message}`);
    throw e;
  }
  return documentFromJson(raw);
}

/** Like parseDocument, for a value that is already JSON.parse'd. */
export function documentFromJson(raw: unknown): ImpulseDocument {
  const migrated = migrateDocument(raw);
  const parsed = documentSchema.safeParse(migrated, { reportInput: true });
  if (!parsed.success) throw zodErrorToDocumentError(parsed.error, migrated);
  const doc = parsed.data as ImpulseDocument;
  const problems = semanticDocumentProblems(doc, 1);
  if (problems.length > 0) throw problems[0];
  return doc;
}
