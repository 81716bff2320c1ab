/**
 * What a command reports beside its result: something the user should know, not a failure. Every
 * warning has a stable kebab-case `code` (machine-readable, in the `warnings` of `--json` output),
 * a `message` for people, and the `path` it is about when there is one.
 */
export interface Warning {
  code: string;
  message: string;
  /** The path the warning is about, when there is one: repo-relative inside the repository. */
  path?: string;
}

/** A warning; `path` only when given. */
export function warning(code: string, message: string, path?: string): Warning {
  return path === undefined ? { code, message } : { code, message, path };
}

/** Only the fields of a warning (a richer record such as a discovery warning, with its fix, loses the rest). */
export function asWarning(from: Warning): Warning {
  return warning(from.code, from.message, from.path);
}
