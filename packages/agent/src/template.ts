// `{name}` placeholders in user-supplied prompt templates (SPEC §5: prompt texts are
// configuration). Only `{identifier}` is a placeholder, so JSON in a template (a tool envelope
// like `{"name": "crop_video", …}`) stays literal text without any escaping.

const PLACEHOLDER_RE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The placeholder names of a template, in order of appearance (repeats kept). */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER_RE)].map((m) => m[1]!);
}

/** Placeholders of `template` that are not in `known`, each once. */
export function unknownPlaceholders(template: string, known: readonly string[]): string[] {
  return [...new Set(placeholdersOf(template).filter((p) => !known.includes(p)))];
}

export class TemplateError extends Error {
  override name = "TemplateError";
}

/**
 * Fills every `{name}` of `template` from `values`. A placeholder without a value is a bug of the
 * caller (templates are validated against the known names first), hence the throw.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER_RE, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new TemplateError(`no value for the placeholder {${name}}`);
    return v;
  });
}
